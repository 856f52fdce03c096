#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/apply_impl.h"
#include "kb/kb.h"
#include "util/util.h"
#include "testutil.h"

static char *const state = testutil_tmpdir;

static void
write_entry(const char *id, const char *st, long long deadline, bool confirmed)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "schema", json_integer(1));
	json_object_set_new(doc, "id", json_string(id));
	json_object_set_new(doc, "created", json_string("2026-12-02T10:00:00Z"));
	json_object_set_new(doc, "state", json_string(st));
	json_object_set_new(doc, "profile", json_string("p.conf"));
	json_object_set_new(doc, "netns", json_null());
	json_object_set_new(doc, "changes", json_array());
	json_object_set_new(doc, "files", json_array());
	json_object_set_new(doc, "confirm_deadline", json_integer(deadline));
	json_object_set_new(doc, "confirmed", json_boolean(confirmed));
	assert_int_equal(apply_journal_write(state, id, doc, NULL), 0);
	json_decref(doc);
}

static void
test_apply_lock_refuses_a_second_holder(void **st)
{
	char *cause = NULL;
	int a, b;

	(void)st;
	assert_true((a = apply_lock(state, false, NULL)) >= 0);
	assert_int_equal(b = apply_lock(state, false, &cause), -1);
	assert_non_null(strstr(cause, "another ntune apply or revert is running (pid "));
	free(cause);
	apply_unlock(a);
	assert_true((b = apply_lock(state, false, NULL)) >= 0);
	apply_unlock(b);
}

static void
test_apply_new_id_sorts_and_is_unique(void **st)
{
	char a[APPLY_ID_MAX], b[APPLY_ID_MAX];

	(void)st;
	assert_int_equal(apply_new_id(state, a, sizeof a, NULL), 0);
	write_entry(a, "applied", 0, false);
	assert_int_equal(apply_new_id(state, b, sizeof b, NULL), 0);
	assert_true(strcmp(a, b) < 0);
	assert_int_equal(strlen(a), strlen("20261202T160530Z-0001"));
}

static void
test_apply_history_lists_entries_oldest_first(void **st)
{
	struct apply_entry *e;
	size_t n;

	(void)st;
	write_entry("20200101T000000Z-0001", "reverted", 0, false);
	write_entry("20200101T000000Z-0002", "applied", (long long)time(NULL) + 60, false);
	assert_int_equal(apply_history(state, &e, &n, NULL), 0);
	assert_true(n >= 2);
	assert_string_equal(e[0].id, "20200101T000000Z-0001");
	assert_string_equal(e[0].state, "reverted");
	assert_false(e[0].confirm_pending);
	assert_true(e[1].confirm_pending);
	apply_history_free(e, n);
}

static void
test_apply_confirm_marks_the_pending_entry(void **st)
{
	char done[APPLY_ID_MAX], *cause = NULL, *kept = NULL;
	json_t *doc;
	bool waiting;

	(void)st;
	write_entry("20200101T000001Z-0001", "applied", (long long)time(NULL) + 60, false);
	assert_int_equal(apply_confirm(state, "20200101T000001Z-0001", done, sizeof done, &kept, &waiting,
	    NULL), 0);
	assert_null(kept);
	assert_false(waiting);
	assert_string_equal(done, "20200101T000001Z-0001");
	doc = apply_journal_load(state, done, NULL);
	assert_true(json_is_true(json_object_get(doc, "confirmed")));
	json_decref(doc);
	/* A second confirm has nothing to do. */
	assert_int_equal(apply_confirm(state, "20200101T000001Z-0001", done, sizeof done, &kept, &waiting,
	    &cause), -1);
	assert_non_null(strstr(cause, "not waiting for confirmation"));
	free(cause);
	/* And the dead-man of a confirmed entry returns at once without reverting. */
	assert_int_equal(apply_deadman_wait(state, "20200101T000001Z-0001", NULL), 0);
	doc = apply_journal_load(state, "20200101T000001Z-0001", NULL);
	assert_string_equal(json_string_value(json_object_get(doc, "state")), "applied");
	json_decref(doc);
}

static void
test_apply_deadman_reverts_an_unconfirmed_entry(void **st)
{
	json_t *doc;

	(void)st;
	/* No changes to restore: the entry only moves to reverted after the deadline. */
	write_entry("20200101T000002Z-0001", "applied", (long long)time(NULL) + 1, false);
	assert_int_equal(apply_deadman_wait(state, "20200101T000002Z-0001", NULL), 0);
	doc = apply_journal_load(state, "20200101T000002Z-0001", NULL);
	assert_string_equal(json_string_value(json_object_get(doc, "state")), "reverted");
	assert_string_equal(json_string_value(json_object_get(doc, "reverted_by")), "dead-man timer");
	json_decref(doc);
}

static void
test_apply_revert_refuses_unknown_and_reverted_entries(void **st)
{
	char *cause = NULL;

	(void)st;
	assert_int_equal(apply_revert(state, "20990101T000000Z-0001", NULL, 0, &cause), -1);
	assert_non_null(strstr(cause, "no journal entry '20990101T000000Z-0001'"));
	free(cause);
	cause = NULL;
	assert_int_equal(apply_revert(state, "../../etc/passwd", NULL, 0, &cause), -1);
	assert_non_null(strstr(cause, "bad journal id"));
	free(cause);
	cause = NULL;
	assert_int_equal(apply_revert(state, "20200101T000000Z-0001", NULL, 0, &cause), -1);
	assert_non_null(strstr(cause, "is reverted, nothing to revert"));
	free(cause);
}

static void
test_apply_revert_restores_boot_files(void **st)
{
	char *path, *data;
	size_t len;
	json_t *doc, *files, *f;

	(void)st;
	xasprintf(&path, "%s/root/etc/sysctl.conf.local", state);
	assert_int_equal(apply_mkdirs(path, NULL), 0);	/* a directory in the way? no: */
	rmdir(path);
	assert_int_equal(util_write_file_atomic(path, "changed\n", 8, 0644, NULL), 0);
	doc = json_object();
	json_object_set_new(doc, "state", json_string("applied"));
	json_object_set_new(doc, "netns", json_null());
	json_object_set_new(doc, "changes", json_array());
	files = json_array();
	f = json_object();
	json_object_set_new(f, "path", json_string(path));
	json_object_set_new(f, "old", json_string("original\n"));
	json_array_append_new(files, f);
	json_object_set_new(doc, "files", files);
	assert_int_equal(apply_journal_write(state, "20200101T000003Z-0001", doc, NULL), 0);
	json_decref(doc);
	assert_int_equal(apply_revert(state, "20200101T000003Z-0001", NULL, 0, NULL), 0);
	assert_int_equal(util_read_file(path, &data, &len, NULL), 0);
	assert_string_equal(data, "original\n");
	free(data);
	free(path);
}

static void
test_apply_profile_dry_run_reads_and_writes_nothing(void **st)
{
	struct kb_profile *p;
	struct apply_opts o;
	struct apply_result r;
	struct apply_entry *e;
	size_t n, before;
	char *cause = NULL;

	(void)st;
	if (access("/proc/sys/net/ipv4/ip_forward", R_OK) != 0)
		skip();
	assert_int_equal(apply_history(state, &e, &n, NULL), 0);
	apply_history_free(e, n);
	before = n;
	p = kb_profile_parse("t.conf", "net.ipv4.ip_forward=1\nnet.core.somaxconn=>1\n", 43, NULL);
	assert_non_null(p);
	memset(&o, 0, sizeof o);
	o.state_dir = state;
	o.dry_run = true;
	o.os = "linux";
	if (apply_profile(NULL, p, &o, &r, &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(r.nchanges, 2);
	assert_non_null(r.changes[0].old);
	assert_int_equal(r.changes[1].action, APPLY_SKIP_OP);	/* somaxconn is above 1 */
	assert_string_equal(r.id, "");
	apply_result_free(&r);
	assert_int_equal(apply_history(state, &e, &n, NULL), 0);
	assert_int_equal(n, before);
	apply_history_free(e, n);
	kb_profile_free(p);
}

static void
test_apply_profile_names_the_unreadable_knob(void **st)
{
	struct kb_profile *p;
	struct apply_opts o;
	struct apply_result r;
	char *cause = NULL;

	(void)st;
	p = kb_profile_parse("t.conf", "net.ipv4.no_such_knob=1\n", 24, NULL);
	memset(&o, 0, sizeof o);
	o.state_dir = state;
	o.dry_run = true;
	o.os = "linux";
	assert_int_equal(apply_profile(NULL, p, &o, &r, &cause), -1);
	assert_non_null(strstr(cause, "t.conf:1: cannot read 'net.ipv4.no_such_knob'"));
	free(cause);
	apply_result_free(&r);
	kb_profile_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_lock_refuses_a_second_holder),
		cmocka_unit_test(test_apply_new_id_sorts_and_is_unique),
		cmocka_unit_test(test_apply_history_lists_entries_oldest_first),
		cmocka_unit_test(test_apply_confirm_marks_the_pending_entry),
		cmocka_unit_test(test_apply_deadman_reverts_an_unconfirmed_entry),
		cmocka_unit_test(test_apply_revert_refuses_unknown_and_reverted_entries),
		cmocka_unit_test(test_apply_revert_restores_boot_files),
		cmocka_unit_test(test_apply_profile_dry_run_reads_and_writes_nothing),
		cmocka_unit_test(test_apply_profile_names_the_unreadable_knob),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
