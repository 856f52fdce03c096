/*
 * The journal of an agentless DUT read back (src/apply/dut_journal.c, issue 34): what an
 * apply records in ENTRY/entry, history's program run by sh against the FreeBSD stand-ins
 * after an apply and a revert, and its lines parsed as `ntune history --dut` shows them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/dut_apply.h"
#include "kb/kb.h"
#include "util/util.h"
#include "tmpdir.h"
#include "rscript_run.h"

static struct apply_change changes[] = {
	{ "net.isr.dispatch", "direct", "deferred", false, APPLY_SET },
	{ "net.inet.ip.intr_queue_maxlen", "256", "2048", false, APPLY_SET },
	{ "net.isr.maxthreads", NULL, "4", false, APPLY_BOOT_ONLY },
	{ "kern.hostname", "x'y", "r1", false, APPLY_SKIP_SAME },
};

static void
test_record_names_every_change_and_hides_what_is_not_text(void **state)
{
	char *r = agentless_record("/tmp/a\tb\nc.conf", OS_PLATFORM_FREEBSD, NULL, changes, 4);

	(void)state;
	assert_non_null(strstr(r, "\nprofile\t/tmp/a?b?c.conf\nos\tfreebsd\n"
	    "change\tset\tnet.isr.dispatch\tdirect\tdeferred\n"
	    "change\tset\tnet.inet.ip.intr_queue_maxlen\t256\t2048\n"
	    "change\tboot\tnet.isr.maxthreads\t!\t4\n"
	    "change\tsame\tkern.hostname\t!\tr1\n"));
	assert_true(strncmp(r, "created\t20", 10) == 0);
	free(r);
}

/* History's program run there, its lines parsed: n entries. */
static struct agentless_entry *
history(const char *id, size_t *n)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, id, root, 0, false, false, NULL, NULL, NULL, NULL };
	struct agentless_entry *e = NULL;
	char *t = rscript_history(&s), *out, *cause = NULL;

	assert_int_equal(run(t, 0), 0);
	out = get("/out");
	if (agentless_parse_history("ssh://dut", out, &e, n, &cause) == -1)
		fail_msg("%s", cause);
	free(out);
	free(t);
	return e;
}

static void
test_history_reads_an_apply_and_its_revert(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "h1", root, 0, true, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.inet.ip.intr_queue_maxlen", "2048", "256", false, false, false, RSCRIPT_FILE_SYSCTL } };
	struct agentless_entry *e;
	char *t, *rec, *cause = NULL;
	size_t n;

	(void)state;
	reset_root();
	e = history(NULL, &n);
	assert_int_equal(n, 0);
	rec = agentless_record("p.conf", OS_PLATFORM_FREEBSD, NULL, changes, 2);
	s.record = rec;
	t = rscript_apply(&s, k, 2, &cause);
	assert_int_equal(run(t, 0), 0);
	free(t);
	e = history(NULL, &n);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].e.id, "h1");
	assert_string_equal(e[0].e.state, "applied");
	assert_string_equal(e[0].e.profile, "p.conf");
	assert_string_equal(e[0].os, "freebsd");
	assert_false(e[0].e.confirmed);	/* no dead-man: there was nothing to confirm */
	assert_false(e[0].e.confirm_pending);
	assert_null(e[0].e.reverted_by);
	assert_int_equal(e[0].nchanges, 2);
	assert_int_equal(e[0].e.nchanges, 2);
	assert_string_equal(e[0].changes[1].name, "net.inet.ip.intr_queue_maxlen");
	assert_string_equal(e[0].changes[1].old, "256");
	assert_string_equal(e[0].changes[1].want, "2048");
	assert_int_equal(e[0].changes[1].action, APPLY_SET);
	agentless_entries_free(e, n);
	s.id = NULL;
	t = rscript_revert(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	e = history("h1", &n);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].e.state, "reverted");
	assert_string_equal(e[0].e.reverted_by, "user");
	agentless_entries_free(e, n);
	free(rec);
}

static void
test_history_of_an_entry_that_is_not_there_exits_10(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "nope", root, 0, false, false, NULL, NULL, NULL, NULL };
	char *t = rscript_history(&s);

	(void)state;
	assert_int_equal(run(t, 0), 10);
	said("no journal entry nope on this host");
	free(t);
}

/*
 * A pending entry's deadline is counted on the DUT's clock: 30 s left there is 30 s here. An
 * entry without its record says when it was made by its id.
 */
static void
test_parse_moves_the_deadline_to_this_clock(void **state)
{
	char out[] = "@\tx1\nstate\tapplied\ndeadline\t1030\ncreated\t2026-12-06T00:00:00Z\n"
	    "left\tnet.isr.dispatch=hybrid\n@\tx2\nstate\tpartial\n@\t20261206T223502Z-00001-1\n"
	    "state\treverted\nnow\t1000";
	struct agentless_entry *e;
	size_t n;
	long long d;

	(void)state;
	assert_int_equal(agentless_parse_history("u", out, &e, &n, NULL), 0);
	assert_int_equal(n, 3);
	d = e[0].e.deadline - (long long)time(NULL);
	assert_true(d >= 29 && d <= 30);
	assert_true(e[0].e.confirm_pending);
	assert_string_equal(e[0].left[0], "net.isr.dispatch=hybrid");
	assert_string_equal(e[1].e.state, "partial");
	assert_string_equal(e[1].e.created, "");
	/* an entry without its record (an older ntune's): when, from its id */
	assert_string_equal(e[2].e.created, "2026-12-06T22:35:02Z");
	assert_int_equal(e[2].nchanges, 0);
	agentless_entries_free(e, n);
}

static void
test_parse_refuses_a_line_it_does_not_know_and_a_cut_listing(void **state)
{
	char bad[] = "@\tx1\nstate\tapplied\nrm -rf /\nnow\t1";
	char cut[] = "@\tx1\nstate\tapplied\n";
	char badid[] = "@\tx;1\nnow\t1";
	struct agentless_entry *e;
	size_t n;
	char *cause = NULL;

	(void)state;
	assert_int_equal(agentless_parse_history("ssh://r", bad, &e, &n, &cause), -1);
	assert_string_equal(cause, "ssh://r: its journal holds a line ntune does not read: 'rm -rf /'");
	free(cause);
	cause = NULL;
	assert_int_equal(agentless_parse_history("ssh://r", cut, &e, &n, &cause), -1);
	assert_string_equal(cause, "ssh://r: the journal's listing was cut short");
	free(cause);
	assert_int_equal(agentless_parse_history("ssh://r", badid, &e, &n, NULL), -1);
}

static void
test_changes_profile_is_what_the_entry_applied(void **state)
{
	char *t = apply_changes_profile(changes, 3);
	struct kb_profile *p = kb_profile_parse("e1", t, strlen(t), NULL);

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nentries, 3);
	assert_string_equal(kb_profile_get(p, "net.isr.maxthreads")->value, "4");
	kb_profile_free(p);
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_names_every_change_and_hides_what_is_not_text),
		cmocka_unit_test(test_history_reads_an_apply_and_its_revert),
		cmocka_unit_test(test_history_of_an_entry_that_is_not_there_exits_10),
		cmocka_unit_test(test_parse_moves_the_deadline_to_this_clock),
		cmocka_unit_test(test_parse_refuses_a_line_it_does_not_know_and_a_cut_listing),
		cmocka_unit_test(test_changes_profile_is_what_the_entry_applied),
	};

	(void)wait_for;
	(void)expect;
	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
