/*
 * apply_profile when a write fails or the process dies half-way: real sysctls,
 * written in a network namespace of this test's own (unshare(CLONE_NEWNET)), so
 * the host's values never change. Skipped where a namespace cannot be made.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/apply_impl.h"
#include "kb/kb.h"
#include "util/util.h"
#include "testutil.h"

static char *const state = testutil_tmpdir;
static bool own_netns;

/* Per-namespace sysctls and values none of them has by default. */
static const char *const names[] = {
	"net.ipv4.ip_default_ttl", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_syn_retries",
};
static const char *const wants[] = { "77", "33", "3" };
#define NKNOBS	(sizeof names / sizeof names[0])

static int
setup(void **st)
{
	own_netns = unshare(CLONE_NEWNET) == 0;
	return testutil_tmpdir_setup(st);
}

static char *
sysctl_read(const char *name)
{
	char *path, *p, *data;
	size_t len;

	xasprintf(&path, "/proc/sys/%s", name);
	for (p = path + 10; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	if (util_read_file(path, &data, &len, NULL) == -1)
		fail_msg("cannot read %s", path);
	free(path);
	data[strcspn(data, "\n")] = '\0';
	return data;
}

static void
values_now(char *v[NKNOBS])
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		v[i] = sysctl_read(names[i]);
}

static void
values_free(char *v[NKNOBS])
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		free(v[i]);
}

static struct kb_profile *
profile(void)
{
	char *text = NULL, *line;
	size_t i;
	struct kb_profile *p;

	text = xstrdup("");
	for (i = 0; i < NKNOBS; i++) {
		xasprintf(&line, "%s%s=%s\n", text, names[i], wants[i]);
		free(text);
		text = line;
	}
	p = kb_profile_parse("rollback.conf", text, strlen(text), NULL);
	assert_non_null(p);
	free(text);
	return p;
}

static void
options(struct apply_opts *o)
{
	memset(o, 0, sizeof *o);
	o->state_dir = state;
	o->os = "linux";
}

/* The newest journal entry's state ("failed", "applying"...). */
static char *
latest_state(void)
{
	struct apply_entry *e;
	size_t n;
	char *s;

	assert_int_equal(apply_history(state, &e, &n, NULL), 0);
	assert_true(n > 0);
	s = xstrdup(e[n - 1].state);
	apply_history_free(e, n);
	return s;
}

static void
test_apply_profile_restores_every_earlier_write_when_the_nth_fails(void **st)
{
	struct kb_profile *p;
	struct apply_opts o;
	struct apply_result r;
	char *before[NKNOBS], *after[NKNOBS], *cause = NULL, *s, n[8], want[128];
	size_t i, nth;

	(void)st;
	if (!own_netns)
		skip();
	p = profile();
	options(&o);
	for (nth = 1; nth <= NKNOBS; nth++) {
		values_now(before);
		snprintf(n, sizeof n, "%zu", nth);
		setenv("NTUNE_TEST_FAIL_WRITE", n, 1);
		assert_int_equal(apply_profile(NULL, p, &o, &r, &cause), -1);
		unsetenv("NTUNE_TEST_FAIL_WRITE");
		snprintf(want, sizeof want, "cannot set '%s' to '%s': write %zu failed on purpose",
		    names[nth - 1], wants[nth - 1], nth);
		assert_non_null(strstr(cause, want));
		snprintf(want, sizeof want, "(restored %zu written before it)", nth - 1);
		assert_non_null(strstr(cause, want));
		free(cause);
		cause = NULL;
		apply_result_free(&r);

		values_now(after);
		for (i = 0; i < NKNOBS; i++)
			assert_string_equal(after[i], before[i]);
		values_free(after);
		s = latest_state();
		assert_string_equal(s, "failed");
		free(s);

		/* Nothing was left changed, so revert has nothing to do. */
		assert_int_equal(apply_revert(state, NULL, NULL, 0, &cause), -1);
		assert_non_null(strstr(cause, "nothing to revert"));
		free(cause);
		cause = NULL;
		values_free(before);
	}
	kb_profile_free(p);
}

/* Forks an apply that SIGKILLs itself after `after` writes; returns how it ended. */
static int
apply_killed_after(int after)
{
	struct kb_profile *p;
	struct apply_opts o;
	struct apply_result r;
	char n[8];
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		snprintf(n, sizeof n, "%d", after);
		setenv("NTUNE_TEST_KILL_AFTER", n, 1);
		p = profile();
		options(&o);
		apply_profile(NULL, p, &o, &r, NULL);
		_exit(3);	/* the hook did not fire */
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void
test_apply_profile_killed_after_the_journal_is_reverted_exactly(void **st)
{
	char *before[NKNOBS], *after[NKNOBS], *s, *cause = NULL;
	int status, k;
	size_t i;

	(void)st;
	if (!own_netns)
		skip();
	for (k = 0; k <= 2; k++) {
		values_now(before);
		status = apply_killed_after(k);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

		/* The journal came first: it holds the entry, still "applying". */
		s = latest_state();
		assert_string_equal(s, "applying");
		free(s);
		values_now(after);
		for (i = 0; i < NKNOBS; i++) {
			if (i < (size_t)k)
				assert_string_equal(after[i], wants[i]);
			else
				assert_string_equal(after[i], before[i]);
		}
		values_free(after);

		if (apply_revert(state, NULL, NULL, 0, &cause) == -1)
			fail_msg("%s", cause);
		values_now(after);
		for (i = 0; i < NKNOBS; i++)
			assert_string_equal(after[i], before[i]);
		values_free(after);
		s = latest_state();
		assert_string_equal(s, "reverted");
		free(s);
		values_free(before);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_profile_restores_every_earlier_write_when_the_nth_fails),
		cmocka_unit_test(test_apply_profile_killed_after_the_journal_is_reverted_exactly),
	};

	return cmocka_run_group_tests(tests, setup, testutil_tmpdir_teardown);
}
