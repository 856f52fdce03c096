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

static char *const root = testutil_tmpdir;

static int
setup(void **state)
{
	testutil_kb_setup(state);
	return testutil_tmpdir_setup(state);
}

static int
teardown(void **state)
{
	testutil_kb_teardown(state);
	return testutil_tmpdir_teardown(state);
}

static struct apply_change
change(const char *name, const char *want, enum apply_action a)
{
	struct apply_change c;

	memset(&c, 0, sizeof c);
	c.name = (char *)name;
	c.want = (char *)want;
	c.action = a;
	return c;
}

static void
test_apply_replace_block_appends_replaces_and_removes(void **state)
{
	char *t, *u, *v;

	(void)state;
	t = apply_replace_block("# mine\nkern.hz=100\n", "a=1\n");
	assert_non_null(strstr(t, "# mine\nkern.hz=100\n# BEGIN ntune"));
	assert_non_null(strstr(t, "a=1\n# END ntune\n"));
	u = apply_replace_block(t, "b=2\n");
	assert_null(strstr(u, "a=1"));
	assert_non_null(strstr(u, "kern.hz=100\n# BEGIN ntune"));
	assert_non_null(strstr(u, "b=2\n# END ntune\n"));
	v = apply_replace_block(u, NULL);
	assert_string_equal(v, "# mine\nkern.hz=100\n");
	free(t);
	free(u);
	free(v);
	t = apply_replace_block(NULL, "x=1\n");
	assert_true(util_startswith(t, "# BEGIN ntune"));
	free(t);
	t = apply_replace_block("no newline", "x=1\n");
	assert_true(util_startswith(t, "no newline\n# BEGIN"));
	free(t);
}

static const char *
file_text(struct apply_file *f, size_t n, const char *suffix)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strlen(f[i].path) >= strlen(suffix) &&
		    strcmp(f[i].path + strlen(f[i].path) - strlen(suffix), suffix) == 0)
			return f[i].text;
	}
	return NULL;
}

/* What apply_persist_files writes for the changes, and the names it cannot keep. */
struct persisted {
	struct apply_file	*f;
	size_t			 n;
	char			**np;
	size_t			 nnp;
};

/* The files of changes on os (netns: the namespace they were made in, or NULL). */
static struct persisted
persist(const struct apply_change *ch, size_t nch, const char *os, const char *netns)
{
	struct persisted p = { NULL, 0, NULL, 0 };
	char *cause = NULL;

	if (apply_persist_files(testutil_kb, ch, nch, os, root, netns, &p.f, &p.n, &p.np, &p.nnp,
	    &cause) != 0)
		fail_msg("apply_persist_files: %s", cause);
	return p;
}

static void
persisted_free(struct persisted *p)
{
	size_t i;

	for (i = 0; i < p->nnp; i++)
		free(p->np[i]);
	free(p->np);
	apply_files_free(p->f, p->n);
}

static void
test_apply_persist_freebsd_splits_loader_and_sysctl(void **state)
{
	struct apply_change ch[] = {
		change("net.isr.maxthreads", "-1", APPLY_BOOT_ONLY),
		change("net.inet.ip.redirect", "0", APPLY_SET),
		change("net.isr.dispatch", "deferred", APPLY_SKIP_SAME),
		change("kern.ipc.soacceptqueue", "1024", APPLY_SKIP_OP),
	};
	struct persisted p;
	const char *t;

	(void)state;
	p = persist(ch, nitems(ch), "freebsd", NULL);
	assert_int_equal(p.n, 2);
	assert_non_null(t = file_text(p.f, p.n, "/boot/loader.conf.local"));
	assert_non_null(strstr(t, "net.isr.maxthreads=\"-1\"\n"));
	assert_null(strstr(t, "redirect"));
	assert_non_null(t = file_text(p.f, p.n, "/etc/sysctl.conf.local"));
	assert_non_null(strstr(t, "net.inet.ip.redirect=0\n"));
	assert_non_null(strstr(t, "net.isr.dispatch=deferred\n"));
	assert_null(strstr(t, "soacceptqueue"));	/* => not met: nothing to keep */
	assert_true(util_startswith(p.f[0].path, root));
	persisted_free(&p);
}

static void
test_apply_persist_opnsense_puts_everything_in_loader_conf(void **state)
{
	struct apply_change ch[] = {
		change("net.isr.maxthreads", "-1", APPLY_BOOT_ONLY),
		change("net.inet.ip.redirect", "0", APPLY_SET),
	};
	struct persisted p;

	(void)state;
	p = persist(ch, nitems(ch), "opnsense", NULL);
	assert_int_equal(p.n, 1);
	assert_non_null(strstr(p.f[0].text, "net.inet.ip.redirect=\"0\""));
	assert_non_null(strstr(p.f[0].text, "net.isr.maxthreads=\"-1\""));
	persisted_free(&p);
}

static void
test_apply_persist_linux_writes_sysctl_d_and_lists_the_rest(void **state)
{
	struct apply_change ch[] = {
		change("net.ipv4.ip_forward", "1", APPLY_SET),
		change("if.eth0.ring.rx", "4096", APPLY_SET),
		change("cpu.governor", "performance", APPLY_SET),
	};
	struct persisted p;

	(void)state;
	p = persist(ch, nitems(ch), "linux", NULL);
	assert_int_equal(p.n, 1);
	assert_non_null(strstr(p.f[0].path, "/etc/sysctl.d/90-ntune.conf"));
	assert_non_null(strstr(p.f[0].text, "net.ipv4.ip_forward = 1\n"));
	assert_int_equal(p.nnp, 2);
	assert_string_equal(p.np[0], "if.eth0.ring.rx");
	persisted_free(&p);
}

static void
test_apply_persist_netns_changes_are_not_persisted(void **state)
{
	struct apply_change ch[] = {
		change("net.ipv4.ip_forward", "1", APPLY_SET),
		change("net.core.netdev_budget", "600", APPLY_SET),
	};
	struct persisted p;

	(void)state;
	ch[0].in_netns = true;
	p = persist(ch, nitems(ch), "linux", "lab");
	assert_int_equal(p.n, 1);
	assert_null(strstr(p.f[0].text, "ip_forward"));
	assert_non_null(strstr(p.f[0].text, "net.core.netdev_budget = 600"));
	assert_int_equal(p.nnp, 1);
	persisted_free(&p);
}

static void
test_apply_persist_merges_with_an_earlier_block(void **state)
{
	struct apply_change ch[] = { change("net.inet.ip.redirect", "1", APPLY_SET) };
	struct persisted p;
	char *dir, *path;
	const char *old = "kern.hz=100\n# BEGIN ntune: managed by `ntune apply`; edits inside this "
	    "block are lost\nnet.inet.ip.redirect=0\nnet.inet.ip.forwarding=1\n# END ntune\n";

	(void)state;
	xasprintf(&dir, "%s/etc", root);
	assert_int_equal(apply_mkdirs(dir, NULL), 0);
	xasprintf(&path, "%s/sysctl.conf.local", dir);
	assert_int_equal(util_write_file_atomic(path, old, strlen(old), 0644, NULL), 0);
	p = persist(ch, 1, "freebsd", NULL);
	assert_int_equal(p.n, 1);
	assert_true(util_startswith(p.f[0].text, "kern.hz=100\n# BEGIN ntune"));
	assert_non_null(strstr(p.f[0].text, "net.inet.ip.forwarding=1\nnet.inet.ip.redirect=1\n# END"));
	assert_null(strstr(p.f[0].text, "redirect=0"));
	persisted_free(&p);
	unlink(path);
	free(path);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_replace_block_appends_replaces_and_removes),
		cmocka_unit_test(test_apply_persist_freebsd_splits_loader_and_sysctl),
		cmocka_unit_test(test_apply_persist_opnsense_puts_everything_in_loader_conf),
		cmocka_unit_test(test_apply_persist_linux_writes_sysctl_d_and_lists_the_rest),
		cmocka_unit_test(test_apply_persist_netns_changes_are_not_persisted),
		cmocka_unit_test(test_apply_persist_merges_with_an_earlier_block),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
