/*
 * The agentless programs (src/apply/remote_script.c, agentless-lib.sh) when two things
 * happen at once (issue 34), run by sh against the FreeBSD stand-ins and the faults of
 * tests/cli/standin/fault: an apply while an entry waits, two applies at once, a lock
 * (live or stale), a confirm during the dead-man's restore, a dead-man due during the sets.
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
#include <unistd.h>
#include <cmocka.h>

#include "apply/remote_script.h"
#include "util/util.h"
#include "tmpdir.h"
#include "rscript_run.h"

/*
 * One change at a time: an apply while an entry waits for its confirm is refused with that
 * entry's id; a lock held by a live process refuses, a stale one (its process ended) is
 * taken; confirm loses to a dead-man that decided first; a revert puts back only its own
 * block when the owner changed the file since.
 */
static void
test_one_change_at_a_time(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "l1", root, 600, false, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob one[] = { { "net.inet.ip.intr_queue_maxlen", "4096", "2048", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *c, *cause = NULL, *lock;
	pid_t pid;

	(void)state;
	reset_root();
	/* an entry an older ntune applied without a dead-man (no confirmed mark) is done */
	sh_ok("mkdir -p .%s/old1 && echo applied >." FSTATE "/old1/state", FSTATE);
	t = rscript_apply(&s, two, 2, &cause);
	c = rscript_confirm(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	s.id = "l2";
	s.confirm_secs = 0;
	s.persist = true;
	t = rscript_apply(&s, one, 1, &cause);
	assert_int_equal(run(t, 0), RSCRIPT_EX_PENDING);
	said("journal entry l1 is neither confirmed nor reverted (applied): confirm or revert it first");
	/* confirm loses to a dead-man that took the decision */
	sh_ok("mkdir .%s/l1/decided", FSTATE);
	assert_int_equal(run(c, 0), RSCRIPT_EX_REVERTING);
	said("l1 is already reverting");
	expect(FSTATE "/l1/confirmed", NULL);
	sh_ok("rmdir .%s/l1/decided", FSTATE);
	assert_int_equal(run(c, 0), 0);
	free(c);
	/* a live lock; a stale one */
	xasprintf(&lock, "mkdir .%s/lock && echo %d >.%s/lock/pid", FSTATE, (int)getpid(), FSTATE);
	sh_ok("%s", lock);
	free(lock);
	assert_int_equal(run(t, 0), RSCRIPT_EX_LOCKED);
	said("another ntune change runs on this host");
	/*
	 * A holder that ended but is not reaped yet (a zombie: kill -0 still finds it, as after an
	 * ntune killed mid-apply where PID 1 reaps slowly) is stale too; reaped, all the more.
	 */
	if ((pid = fork()) == 0)
		_exit(0);
	usleep(300000);
	xasprintf(&lock, "echo %d >.%s/lock/pid", (int)pid, FSTATE);
	sh_ok("%s", lock);
	free(lock);
	assert_int_equal(run(t, 0), 0);
	waitpid(pid, NULL, 0);
	expect(FSTATE "/lock/pid", NULL);
	/* the owner adds a line; the revert takes out only l2's block */
	sh_ok("echo kern.x=1 >>.%s", "/etc/sysctl.conf.local");
	free(t);
	t = rscript_revert(&s);
	assert_int_equal(run(t, 0), 0);
	expect("/etc/sysctl.conf.local", CONF0 "kern.x=1\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "2048\n");
	free(t);
}

/* Two applies started at once: one applies, the other is refused (the lock or the pending entry). */
static void
test_simultaneous_applies_one_wins(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "s1", root, 600, false, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob one[] = { { "net.isr.dispatch", "hybrid", "direct", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *a, *b, *cause = NULL, *c1, *c2;
	int r1, r2;

	(void)state;
	reset_root();
	a = rscript_apply(&s, one, 1, &cause);
	s.id = "s2";
	b = rscript_apply(&s, one, 1, &cause);
	put("/a.sh", a);
	put("/b.sh", b);
	sh_ok("%s", "export PATH=\"" NTUNE_SRCDIR "/tests/cli/standin/freebsd:$PATH\" SYSCTL_STANDIN_MIB=\"$PWD/mib\"; "
	    "(sh -s <a.sh >o1 2>&1; echo $? >s1) & (sh -s <b.sh >o2 2>&1; echo $? >s2) & wait");
	c1 = get("/s1");
	c2 = get("/s2");
	r1 = atoi(c1);
	r2 = atoi(c2);
	assert_true((r1 == 0) != (r2 == 0));
	assert_true(r1 + r2 == RSCRIPT_EX_LOCKED || r1 + r2 == RSCRIPT_EX_PENDING);
	expect("/mib/net/isr/dispatch", "hybrid\n");
	free(c1);
	free(c2);
	free(a);
	free(b);
	s.id = NULL;
	a = rscript_revert(&s);
	assert_int_equal(run(a, 0), 0);
	expect("/mib/net/isr/dispatch", "direct\n");
	free(a);
}

/* A confirm that arrives while the dead-man restores (each set 1 s) loses, and says so. */
static void
test_confirm_during_dead_man_restore_loses(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "c2", root, 3, false, false, NULL, NULL, NULL, NULL };
	char *t, *c, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	c = rscript_confirm(&s);
	assert_int_equal(run_with(t, 0, "", "NTUNE_SLOW=1"), 0);
	sh_ok("i=0; while [ ! -d .%s/c2/decided ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done; "
	    "test -d ." FSTATE "/c2/decided", FSTATE);
	assert_int_equal(run(c, 0), RSCRIPT_EX_REVERTING);
	said("c2 is already reverting");
	assert_true(wait_for(FSTATE "/c2/state", "reverted\n", 20));
	expect(FSTATE "/c2/confirmed", NULL);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	free(t);
	free(c);
}

/* A dead-man whose time comes while the apply still sets (a slow sysctl) waits for it to end. */
static void
test_dead_man_waits_for_the_apply(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "w1", root, 1, false, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	assert_int_equal(run_with(t, 0, "", "NTUNE_SLOW=1"), 0);
	said("applied w1");
	assert_true(wait_for(FSTATE "/w1/state", "reverted\n", 20));
	expect(FSTATE "/w1/reverted", "dead-man timer\n");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_change_at_a_time),
		cmocka_unit_test(test_simultaneous_applies_one_wins),
		cmocka_unit_test(test_confirm_during_dead_man_restore_loses),
		cmocka_unit_test(test_dead_man_waits_for_the_apply),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
