/*
 * The agentless programs (src/apply/remote_script.c, agentless-lib.sh) when things go
 * wrong (issue 34), run by sh against the FreeBSD stand-ins and the faults of
 * tests/cli/standin/fault: a full /var at each write, a dead-man dead before the first
 * set, a kernel that refuses an original or stores another value (the races:
 * test_apply_remote_races.c).
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

#include "apply/remote_script.h"
#include "util/util.h"
#include "tmpdir.h"
#include "rscript_run.h"

/* Nothing set, nothing persisted, no entry id left, no boot hook. */
static void
nothing_set(const char *id)
{
	char *d;

	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", CONF0);
	expect(RCD, NULL);
	xasprintf(&d, FSTATE "/%s/state", id);
	expect(d, NULL);
	free(d);
}

/*
 * A full /var at each write of the apply program (a cat that stops at 40 bytes: the journal
 * entry, the restore program, the boot guard, unguard, the boot hook, the dead-man's wait;
 * then the block of sysctl.conf.local): before the first set, nothing is set and the program says so (exit
 * RSCRIPT_EX_WRITE); after, everything is restored and read back. A file-size limit of 0
 * (ulimit -f, SIGXFSZ ignored) sets nothing either.
 */
static void
test_full_disk_at_each_write(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "f1", root, 600, true, false,
	    "created\t2026-12-06T00:00:00Z\nchange\tset\tnet.isr.dispatch\tdirect\tdeferred\n", NULL, NULL, NULL };
	char *t, *r, *cause = NULL, env[64];
	int n, rc;

	(void)state;
	t = rscript_apply(&s, two, 2, &cause);
	r = rscript_revert(&s);
	for (n = 1; n < 20; n++) {
		reset_root();
		snprintf(env, sizeof env, "NTUNE_FAULT_CAT=%d", n);
		if ((rc = run_with(t, 0, "", env)) != RSCRIPT_EX_WRITE)
			break;
		nothing_set("f1");
		said(n == 1 ? "cannot write the journal entry; nothing set" : n == 2 ?
		    "cannot write the restore program; nothing set" : n == 6 ?
		    "cannot write the dead-man job; nothing set" : "; nothing set");
	}
	assert_int_equal(n, 7);
	assert_int_equal(rc, RSCRIPT_EX_PERSIST);
	said("cannot write /etc/sysctl.conf.local; everything restored and read back");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", CONF0);
	expect(FSTATE "/f1/state", "failed\n");
	expect(RCD, NULL);
	reset_root();
	assert_int_equal(run_with(t, 0, "", "NTUNE_FAULT_CAT=8"), 0);
	expect("/mib/net/isr/dispatch", "deferred\n");
	assert_int_equal(run(r, 0), 0);
	nothing_set("none");
	reset_root();
	assert_int_equal(run_with(t, 0, "trap '' XFSZ; ulimit -f 0;", ""), RSCRIPT_EX_WRITE);
	nothing_set("f1");
	said("nothing set");
	free(t);
	free(r);
}

/* The dead-man job dead before the first set (its pid file names an ended process). */
static void
test_dead_man_dead_before_first_set(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "d1", root, 600, false, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	assert_int_equal(run_with(t, 0, "", "NTUNE_FAULT_DAEMON=1"), RSCRIPT_EX_DEADMAN);
	nothing_set("d1");
	said("the dead-man job is not running; nothing set");
	free(t);
}

/*
 * A kernel that refuses an original (as FreeBSD refuses to lower kern.ipc.nmbclusters): the
 * revert, the undo of a failed set and the dead-man each leave the entry partial, name the
 * knob left and its value, say nothing was reverted; a later revert finishes it.
 */
static void
test_refused_original_leaves_entry_partial(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "p1", root, 0, false, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob bad[] = { { "net.isr.dispatch", "hybrid", "direct", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.inet.ip.intr_queue_maxlen", "lots", "256", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *r, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	r = rscript_revert(&s);
	assert_int_equal(run(t, 0), 0);
	assert_int_equal(run_with(r, 0, "", "NTUNE_REFUSE=net.inet.ip.intr_queue_maxlen=256"), RSCRIPT_EX_PARTIAL);
	said("net.inet.ip.intr_queue_maxlen left at '2048', not restored to '256'");
	said("p1 is partial");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "2048\n");
	expect(FSTATE "/p1/state", "partial\n");
	expect(FSTATE "/p1/left", "net.inet.ip.intr_queue_maxlen=2048\n");
	expect(FSTATE "/p1/reverted", NULL);
	assert_int_equal(run(r, 0), 0);
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect(FSTATE "/p1/state", "reverted\n");
	free(t);
	free(r);
	/* a set fails, and the undo cannot put the other back */
	s.id = "p2";
	t = rscript_apply(&s, bad, 2, &cause);
	r = rscript_revert(&s);
	assert_int_equal(run_with(t, 0, "", "NTUNE_REFUSE=net.isr.dispatch=direct"), RSCRIPT_EX_PARTIAL);
	said("net.isr.dispatch left at 'hybrid', not restored to 'direct'");
	said("cannot set net.inet.ip.intr_queue_maxlen; NOT everything restored: p2 is partial");
	expect(FSTATE "/p2/state", "partial\n");
	assert_int_equal(run(r, 0), 0);
	expect("/mib/net/isr/dispatch", "direct\n");
	free(t);
	free(r);
	/* the dead-man's restore refused: partial, not reverted; a revert finishes it */
	s.id = "p3";
	s.confirm_secs = 1;
	t = rscript_apply(&s, two, 2, &cause);
	r = rscript_revert(&s);
	assert_int_equal(run_with(t, 0, "", "NTUNE_REFUSE=net.inet.ip.intr_queue_maxlen=256"), 0);
	assert_true(wait_for(FSTATE "/p3/state", "partial\n", 15));
	expect(FSTATE "/p3/reverted", NULL);
	expect("/mib/net/inet/ip/intr_queue_maxlen", "2048\n");
	/* a revert the kernel refuses too leaves the dead-man running; one that succeeds stops it */
	assert_int_equal(run_with(r, 0, "", "NTUNE_REFUSE=net.inet.ip.intr_queue_maxlen=256"), RSCRIPT_EX_PARTIAL);
	sh_ok("kill -0 $(cat .%s/p3/deadman.pid)", FSTATE);
	assert_int_equal(run(r, 0), 0);
	sh_ok("p=$(cat .%s/p3/deadman.pid); i=0; while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; "
	    "i=$((i + 1)); done; ! kill -0 $p 2>/dev/null", FSTATE);
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect(FSTATE "/p3/reverted", "user\n");
	free(t);
	free(r);
}

/* A kernel that stores another value than the one set: undone, and said. */
static void
test_read_back_of_another_value_undoes(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "r1", root, 0, true, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	assert_int_equal(run_with(t, 0, "", "NTUNE_STORE=net.inet.ip.intr_queue_maxlen=2048:2047"),
	    RSCRIPT_EX_READBACK);
	said("net.inet.ip.intr_queue_maxlen reads back as '2047', not '2048'; everything restored and read back");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", CONF0);
	expect(FSTATE "/r1/state", "failed\n");
	free(t);
}

/* kern.boottime as the sysctl stand-in reads it, boot seconds after the epoch. */
static void
boottime(long long boot)
{
	char *t;

	xasprintf(&t, "{ sec = %lld, usec = 0 } Thu Dec  3 00:00:00 2026\n", boot);
	put("/mib/kern/boottime", t);
	free(t);
}

/*
 * A step of the date (ntpd after a bad RTC, an admin's date(1)) moves a FreeBSD DUT's
 * kern.boottime with it (sys/kern/kern_tc.c tc_setclock): the dead-man counts seconds since
 * boot (ntune_now), so a day forward does not fire it early, and it still fires at its time.
 * The step is the fault date(1) of tests/cli/standin/fault with kern.boottime moved alike
 * (boottime first going forward, the date first going back: no read sees half a step ahead).
 */
static void
test_dead_man_ignores_a_step_of_the_date(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "k1", root, 4, false, false, NULL, NULL, NULL, NULL };
	long long boot = (long long)time(NULL) - 1000;
	char *t, *cause = NULL;

	(void)state;
	reset_root();
	sh_ok("mkdir -p mib/kern && echo 0 >clock%s", "");
	boottime(boot);
	t = rscript_apply(&s, two, 2, &cause);
	assert_int_equal(run_with(t, 0, "", "NTUNE_FAULT_CLOCK=\"$PWD/clock\""), 0);
	expect("/mib/net/isr/dispatch", "deferred\n");
	boottime(boot + 86400);
	put("/clock", "86400\n");
	sleep(2);
	expect("/mib/net/isr/dispatch", "deferred\n");
	expect(FSTATE "/k1/state", "applied\n");
	put("/clock", "0\n");
	boottime(boot);
	assert_true(wait_for("/mib/net/isr/dispatch", "direct\n", 10));
	assert_true(wait_for(FSTATE "/k1/state", "reverted\n", 3));
	sh_ok("rm -rf mib/kern clock%s", "");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_disk_at_each_write),
		cmocka_unit_test(test_dead_man_dead_before_first_set),
		cmocka_unit_test(test_dead_man_ignores_a_step_of_the_date),
		cmocka_unit_test(test_refused_original_leaves_entry_partial),
		cmocka_unit_test(test_read_back_of_another_value_undoes),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
