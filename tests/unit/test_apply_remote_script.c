/*
 * The agentless apply/confirm/revert scripts (src/apply/remote_script.c): their
 * text, refusal of hostile names and values, and what they do when run by sh
 * against the FreeBSD sysctl stand-in (tests/cli/standin/freebsd/sysctl) on a
 * MIB directory in a scratch root.
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

static void
test_apply_text_quotes_every_word(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "20261205T150000Z-0001", "", 120, true, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, two, 2, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "ntune_set 'net.isr.dispatch' - 'deferred' ||"));
	assert_non_null(strstr(t, "ntune_is 'net.isr.dispatch' - 'direct' ||"));
	assert_non_null(strstr(t, "ntune_back 'net.inet.ip.intr_queue_maxlen' - '256'\n"));
	assert_non_null(strstr(t, "daemon -f -p \"$J/deadman.pid\" sh \"$J/wait\" \"$J\""));
	assert_non_null(strstr(t, "S='/var/db/ntune-agentless'\n"));
	assert_non_null(strstr(t, "ntune_block '/etc/sysctl.conf.local' 'net.isr.dispatch' 'net.inet.ip.intr_queue_maxlen' <<'NTUNE_BLOCK'"));
	/* The dead-man starts before the first set. */
	assert_true(strstr(t, "daemon -f") < strstr(t, "ntune_set 'net.isr.dispatch' - 'deferred'"));
	/* Nothing runs before the last line. */
	assert_non_null(strstr(t, "}\nntune_main \"$@\"\n"));
	assert_string_equal(t + strlen(t) - strlen("}\nntune_main \"$@\"\n"), "}\nntune_main \"$@\"\n");
	free(t);
	s.os = OS_PLATFORM_LINUX;
	t = rscript_apply(&s, (struct rscript_knob[]){ { "net.ipv4.tcp_rmem", "4096 131072 6291456",
	    "4096 87380 6291456", false, false, false, RSCRIPT_FILE_SYSCTL } }, 1, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "ntune_set 'net.ipv4.tcp_rmem' '/proc/sys/net/ipv4/tcp_rmem' "
	    "'4096 131072 6291456'"));
	assert_non_null(strstr(t, "setsid nohup sh \"$J/wait\""));
	assert_non_null(strstr(t, "ntune_block '/etc/sysctl.d/90-ntune.conf' 'net.ipv4.tcp_rmem' <<'NTUNE_BLOCK'"));
	free(t);
}

static void
test_trial_boot_uses_nextboot(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "e1", "/r", 0, false, true, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.isr.maxthreads", "4", NULL, true, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, k, 1, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "nextboot -e 'net.isr.maxthreads=4' >/dev/null"));
	assert_null(strstr(t, "daemon -f"));
	assert_non_null(strstr(t, "net.isr.maxthreads=\"4\"\n# END ntune"));	/* the keep block */
	free(t);
	/* A loader tunable on Linux is refused. */
	s.os = OS_PLATFORM_LINUX;
	assert_null(rscript_apply(&s, k, 1, &cause));
	assert_non_null(strstr(cause, "loader tunable"));
	free(cause);
}

static void
test_hostile_names_and_values_are_refused(void **state)
{
	static const char *const names[] = { "a;b", "$(id)", "net.x`id`", "-n", ".a", "a..b", "a b",
	    "a'b", "a\nb", "", "1abc", "a.", "net.x/../y" };
	static const char *const values[] = { "1'; reboot #", "$(id)", "`id`", "a\nb", "x\"y", "a\\b",
	    " 1", "1 ", "a;b", "a|b", "a&b", "a>b", "*", "~", "a\tb", "!x" };
	struct rscript s = { OS_PLATFORM_FREEBSD, "e1", "", 60, true, false, NULL, NULL, NULL, NULL };
	struct rscript_knob k = { "net.ok", "1", "0", false, false, false, RSCRIPT_FILE_SYSCTL };
	char *cause = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(names); i++) {
		k.name = names[i];
		assert_null(rscript_apply(&s, &k, 1, &cause));
		assert_non_null(strstr(cause, "refuses the knob name"));
		free(cause);
		cause = NULL;
	}
	k.name = "net.ok";
	for (i = 0; i < nitems(values); i++) {
		k.value = values[i];
		k.old = "0";
		assert_null(rscript_apply(&s, &k, 1, &cause));
		assert_non_null(strstr(cause, "refuses the value"));
		assert_non_null(strstr(cause, "'net.ok'"));
		free(cause);
		cause = NULL;
		/* An original read from the DUT is checked the same way. */
		k.value = "1";
		k.old = values[i];
		assert_null(rscript_apply(&s, &k, 1, &cause));
		assert_non_null(strstr(cause, "refuses the original value"));
		free(cause);
		cause = NULL;
	}
	s.id = "x;y";
	k.old = "0";
	assert_null(rscript_apply(&s, &k, 1, &cause));
	free(cause);
	/* a root with a line break would end the here-documents early: refused, guarded or not */
	s.id = "e1";
	s.persist = false;
	s.root = "/r\nNTUNE_RESTORE\nreboot";
	assert_null(rscript_apply(&s, &k, 1, &cause));
	assert_non_null(strstr(cause, "is not a plain path"));
	free(cause);
	assert_int_equal(rscript_check_root("/tmp/dut-1_a.b", &cause), 0);
	assert_int_equal(rscript_check_root("", &cause), 0);
	/* a run here: ntune's path and the namespace are words of the programs too */
	s.root = "";
	s.self = "/usr/bin/nt'une";
	assert_null(rscript_apply(&s, &k, 1, &cause));
	assert_non_null(strstr(cause, "is not an absolute plain path"));
	free(cause);
	s.self = "ntune";
	assert_null(rscript_apply(&s, &k, 1, &cause));
	free(cause);
	s.self = "/usr/bin/ntune";
	s.netns = "a$(reboot)";
	assert_null(rscript_apply(&s, &k, 1, &cause));
	assert_non_null(strstr(cause, "bad namespace name"));
	free(cause);
	/* a knob of `ntune knob` without ntune's path (a DUT) is refused */
	s.self = NULL;
	s.netns = NULL;
	k.via = true;
	assert_null(rscript_apply(&s, &k, 1, &cause));
	assert_non_null(strstr(cause, "is set through `ntune knob`"));
	free(cause);
}

/* --- run by sh against the sysctl stand-in ---------------------------------------------- */

/* The file root/rel exists and can be read. */
static void
assert_exists(const char *rel)
{
	char *d = get(rel);

	assert_non_null(d);
	free(d);
}

static void
test_apply_then_revert_restores_byte_for_byte(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "e1", root, 0, true, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, two, 2, &cause);
	assert_non_null(t);
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect("/mib/net/isr/dispatch", "deferred\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "2048\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n# BEGIN ntune: managed by "
	    "`ntune apply`; edits inside this block are lost\nnet.isr.dispatch=deferred\n"
	    "net.inet.ip.intr_queue_maxlen=2048\n# END ntune\n");
	expect("/var/db/ntune-agentless/latest", "e1\n");
	expect("/var/db/ntune-agentless/e1/state", "applied\n");
	s.id = NULL;
	t = rscript_revert(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	expect("/var/db/ntune-agentless/e1/state", "reverted\n");
}

static void
test_failed_set_restores_everything(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "e2", root, 0, true, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "hybrid", "direct", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.inet.ip.intr_queue_maxlen", "lots", "256", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, k, 2, &cause);
	assert_non_null(t);
	assert_int_equal(run(t, 0), RSCRIPT_EX_SET);	/* the stand-in: invalid integer 'lots' */
	said("cannot set net.inet.ip.intr_queue_maxlen; everything restored and read back");
	free(t);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	expect("/var/db/ntune-agentless/e2/state", "failed\n");
}

static void
test_changed_original_changes_nothing(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "e3", root, 0, true, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "hybrid", "deferred", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, k, 1, &cause);
	assert_int_equal(run(t, 0), RSCRIPT_EX_CHANGED);
	free(t);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/var/db/ntune-agentless/e3/state", NULL);
}

static void
test_cut_script_runs_nothing(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "e4", root, 0, true, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL;
	size_t cut;

	(void)state;
	t = rscript_apply(&s, two, 2, &cause);
	/*
	 * Cut after any line (ssh gone): sh finds no end of ntune_main, or no call of it, and
	 * runs nothing.
	 */
	for (cut = (size_t)(strchr(t, '\n') - t) + 1; cut < strlen(t) - 3;
	    cut += (size_t)(strchr(t + cut, '\n') - (t + cut)) + 1) {
		run(t, cut);
		expect("/mib/net/isr/dispatch", "direct\n");
		expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
		expect("/var/db/ntune-agentless/e4/state", NULL);
		expect("/var/db/ntune-agentless/lock/pid", NULL);
	}
	free(t);
}

/*
 * Linux under systemd (/run/systemd/system under the root): the dead-man job is a transient
 * service of its own (systemd-run, here a stand-in that logs and starts it detached), its pid the
 * unit's MainPID; it restores when the time runs out. Without systemd: setsid (the other tests).
 */
static void
test_linux_dead_man_under_systemd(void **state)
{
	struct rscript s = { OS_PLATFORM_LINUX, "sd1", root, 1, false, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL, *log, *pid, *unit;

	(void)state;
	sh_ok("mkdir -p .%s", "/run/systemd/system");
	t = rscript_apply(&s, NULL, 0, &cause);
	assert_non_null(t);
	assert_int_equal(run_with(t, 0, "PATH=\"" NTUNE_SRCDIR "/tests/cli/standin/systemd:$PATH\"; "
	    "export SYSTEMD_STANDIN_DIR=\"$PWD\";", ""), 0);
	free(t);
	log = get("/log");
	assert_non_null(log);
	assert_non_null(strstr(log, "systemd-run --quiet --collect --unit=ntune-deadman-sd1 sh "));
	pid = get("/var/lib/ntune-agentless/sd1/deadman.pid");
	unit = get("/ntune-deadman-sd1.pid");
	assert_non_null(pid);
	assert_non_null(unit);
	assert_string_equal(pid, unit);
	assert_true(wait_for("/var/lib/ntune-agentless/sd1/reverted", "dead-man timer\n", 15));
	free(log);
	free(pid);
	free(unit);
	sh_ok("rm -rf .%s", "/run");
}

#define UNIT	"/etc/systemd/system/ntune-agentless-guard.service"
#define WANTS	"/etc/systemd/system/multi-user.target.wants/ntune-agentless-guard.service"
#define LSTATE	"/var/lib/ntune-agentless"

/*
 * Linux, persisted, with a dead-man: the apply leaves the boot guard's unit; its lease runs
 * out (the dead-man job), or the job dies with a "reboot" and the boot guard restores after
 * the lease counted from the boot, or confirm stands it down; the unit goes with the last.
 * No knob: the scripts run here touch nothing outside the scratch root.
 */
static void
test_linux_boot_guard(void **state)
{
	struct rscript s = { OS_PLATFORM_LINUX, "g1", root, 1, true, false, NULL, NULL, NULL, NULL };
	char *t, *cause = NULL, *want;

	(void)state;
	t = rscript_apply(&s, NULL, 0, &cause);
	assert_non_null(t);
	xasprintf(&want, "ExecStart=/bin/sh %s" LSTATE "/boot-guard\n", root);
	assert_non_null(strstr(t, want));
	free(want);
	assert_non_null(strstr(t, "WantedBy=multi-user.target\n"));
	assert_non_null(strstr(t, "echo 1 >\"$J/lease\""));
	assert_int_equal(run(t, 0), 0);
	free(t);
	assert_exists(UNIT);
	/* the lease runs out: the dead-man job restores, and the unit goes */
	assert_true(wait_for(LSTATE "/g1/reverted", "dead-man timer\n", 15));
	assert_true(wait_for(LSTATE "/g1/state", "reverted\n", 5));
	assert_true(wait_for(UNIT, NULL, 5) && wait_for(WANTS, NULL, 1));
	/* a reboot kills the job; the boot guard gives the lease again, then restores */
	s.id = "g2";
	s.confirm_secs = 600;
	t = rscript_apply(&s, NULL, 0, &cause);
	assert_int_equal(run(t, 0), 0);
	free(t);
	assert_exists(WANTS);
	sh_ok("kill $(cat .%s/g2/deadman.pid) && echo 1 >." LSTATE "/g2/lease", LSTATE);
	sh_ok("(setsid sh .%s/boot-guard </dev/null >/dev/null 2>&1 &)", LSTATE);
	assert_true(wait_for(LSTATE "/g2/reverted", "boot guard\n", 15));
	assert_true(wait_for(UNIT, NULL, 5) && wait_for(WANTS, NULL, 1));
	/* confirm stands it down: nothing restored, the unit gone */
	s.id = "g3";
	t = rscript_apply(&s, NULL, 0, &cause);
	assert_int_equal(run(t, 0), 0);
	free(t);
	assert_exists(UNIT);
	t = rscript_confirm(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect(LSTATE "/g3/state", "confirmed\n");
	expect(UNIT, NULL);
	expect(WANTS, NULL);
	/* renew: a guarded entry's deadline moves; a reverted one is refused */
	t = rscript_renew(&(struct rscript){ OS_PLATFORM_LINUX, "g2", root, 0, false, false, NULL, NULL, NULL, NULL });
	assert_int_equal(run(t, 0), RSCRIPT_EX_NOENTRY);
	free(t);
}

/* Only a persisted apply with a dead-man has a boot guard; its root must be a plain path. */
static void
test_boot_guard_only_where_it_serves(void **state)
{
	struct rscript s = { OS_PLATFORM_LINUX, "e9", "", 30, false, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.core.somaxconn", "1000", "4096", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *cause = NULL;

	(void)state;
	assert_false(rscript_guarded(&s));
	t = rscript_apply(&s, k, 1, &cause);
	assert_null(strstr(t, "ntune-agentless-guard"));
	free(t);
	s.os = OS_PLATFORM_FREEBSD;
	assert_false(rscript_guarded(&s));
	t = rscript_apply(&s, (struct rscript_knob[]){ { "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_SYSCTL } },
	    1, &cause);
	assert_null(strstr(t, "ntune-agentless-guard"));
	assert_null(strstr(t, "boot-guard"));
	free(t);
	s.persist = true;
	s.confirm_secs = 0;
	assert_false(rscript_guarded(&s));
	s.confirm_secs = 30;
	assert_true(rscript_guarded(&s));
	s.root = "/a b";
	assert_null(rscript_apply(&s, k, 1, &cause));
	assert_non_null(strstr(cause, "is not a plain path"));
	free(cause);
	cause = NULL;
	s.os = OS_PLATFORM_LINUX;
	assert_true(rscript_guarded(&s));
	assert_null(rscript_apply(&s, k, 1, &cause));
	assert_non_null(strstr(cause, "is not a plain path"));
	free(cause);
}

/* The file root/rel is executable (a boot hook must be). */
static bool
executable(const char *rel)
{
	char *p;
	bool x;

	xasprintf(&p, "%s%s", root, rel);
	x = access(p, X_OK) == 0;
	free(p);
	return x;
}

/* Waits up to secs for root/rel to hold something (a pid file); true when it did. */
static bool
wait_nonempty(const char *rel, double secs)
{
	char *got;
	bool ok;
	int i;

	for (i = 0; i < (int)(secs * 10); i++) {
		got = get(rel);
		ok = got != NULL && got[0] != '\0';
		free(got);
		if (ok)
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * FreeBSD, persisted, with a dead-man: the apply writes the hook of the platform (stock
 * FreeBSD and pfSense: an rc.d .sh script; OPNsense: an rc.syshook start script), executable
 * and marked; a "reboot" kills the dead-man job and the hook, run as each boot runs it
 * (/etc/rc: sourced after `set faststart`; rc.syshook: executed), starts the boot guard,
 * which restores after the lease; a second run in one boot starts no second job; confirm
 * stands it down. The hook goes with the last entry; the owner's files stay.
 */
static void
test_freebsd_boot_guard(void **state)
{
	struct rscript s = { OS_PLATFORM_FREEBSD, "b1", root, 600, true, false, NULL, NULL, NULL, NULL };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_SYSCTL } };
	char *t, *cause = NULL, *pid;

	(void)state;
	sh_ok("mkdir -p .%s && echo mine >usr/local/etc/rc.d/owner.sh", "/usr/local/etc/rc.d");
	t = rscript_apply(&s, k, 1, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "# PROVIDE: ntune_agentless_guard\n"));
	assert_non_null(strstr(t, "daemon -f -p \"$J/deadman.pid\" sh \"$J/wait\" \"$J\" 'dead-man timer' ||"));
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect("/mib/net/isr/dispatch", "deferred\n");
	assert_true(executable(RCD));
	expect(SYSHOOK, NULL);
	/*
	 * a reboot: the job dies, the value comes back from sysctl.conf.local; /etc/rc runs the
	 * hook. The lease (6 s) must outlast the second run below: with 1 s, a loaded machine
	 * reverted and removed the hook before that run (CI of 7535750: "cannot open ...guard.sh").
	 */
	assert_true(wait_nonempty(FSTATE "/b1/deadman.pid", 10));
	sh_ok("kill $(cat .%s/b1/deadman.pid) && echo 6 >." FSTATE "/b1/lease", FSTATE);
	sh_ok("pid=$(cat ." FSTATE "/b1/deadman.pid); (export " SA "; set faststart; . .%s) && i=0 && "
	    "while [ \"$(cat ." FSTATE "/b1/deadman.pid)\" = \"$pid\" ] && [ $i -lt 100 ]; do sleep 0.1; "
	    "i=$((i + 1)); done && test \"$(cat ." FSTATE "/b1/deadman.pid)\" != \"$pid\"", RCD);
	pid = get(FSTATE "/b1/deadman.pid");
	/* run again in the same boot: the entry's wait job runs, nothing new starts */
	sh_ok("(export " SA "; set faststart; . .%s) && sleep 2", RCD);
	expect(FSTATE "/b1/deadman.pid", pid);
	free(pid);
	assert_true(wait_for(FSTATE "/b1/reverted", "boot guard\n", 15));
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	assert_true(wait_for(RCD, NULL, 5));
	expect("/usr/local/etc/rc.d/owner.sh", "mine\n");
	/* OPNsense: the syshook start script, executed as rc.syshook does, with no word */
	sh_ok("mkdir -p .%s", "/usr/local/opnsense");
	put("/usr/local/opnsense/version", "25.7\n");
	s.id = "b2";
	t = rscript_apply(&s, k, 1, &cause);
	assert_int_equal(run(t, 0), 0);
	free(t);
	assert_true(executable(SYSHOOK));
	expect(RCD, NULL);
	assert_true(wait_nonempty(FSTATE "/b2/deadman.pid", 10));
	sh_ok("kill $(cat .%s/b2/deadman.pid) && echo 1 >." FSTATE "/b2/lease", FSTATE);
	sh_ok("env " SA " .%s", SYSHOOK);
	assert_true(wait_for(FSTATE "/b2/reverted", "boot guard\n", 15));
	expect("/mib/net/isr/dispatch", "direct\n");
	assert_true(wait_for(SYSHOOK, NULL, 5));
	/* confirm stands it down: the value kept, the hook gone; revert then restores */
	s.id = "b3";
	t = rscript_apply(&s, k, 1, &cause);
	assert_int_equal(run(t, 0), 0);
	free(t);
	assert_true(executable(SYSHOOK));
	t = rscript_confirm(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect(FSTATE "/b3/state", "confirmed\n");
	expect(SYSHOOK, NULL);
	expect("/mib/net/isr/dispatch", "deferred\n");
	t = rscript_revert(&s);
	assert_int_equal(run(t, 0), 0);
	free(t);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	sh_ok("rm -rf usr/local/opnsense usr/local/etc/rc.d/owner.sh%s", "");
}


/* --- the programs as they are sent: golden copies, and other shells ------------------------ */

/*
 * text against its golden copy tests/fixtures/agentless/name, so that a change to a program a
 * DUT runs shows in review; NTUNE_UPDATE_GOLDEN=1 writes the copy (then review the diff).
 */
static void
golden(const char *name, char *text)
{
	char *path, *want = NULL;
	size_t len;

	assert_non_null(text);
	xasprintf(&path, "%s/tests/fixtures/agentless/%s", NTUNE_SRCDIR, name);
	if (getenv("NTUNE_UPDATE_GOLDEN") != NULL)
		assert_int_equal(util_write_file_atomic(path, text, strlen(text), 0644, NULL), 0);
	if (util_read_file(path, &want, &len, NULL) == -1)
		fail_msg("cannot read %s (NTUNE_UPDATE_GOLDEN=1 writes it)", path);
	if (strcmp(want, text) != 0)
		fail_msg("%s is not what ntune generates now: review the change, then run "
		    "NTUNE_UPDATE_GOLDEN=1 build/tests/test_apply_remote_script", path);
	free(want);
	free(path);
	free(text);
}

/*
 * `ntune apply` on this Linux machine (issue 34's one engine run here): a persisted sysctl of
 * the host, an if.* setting through `ntune knob`, and with --netns lab1 a knob of that
 * namespace through `ntune knob --netns`; a dead-man; the journal in /var/lib/ntune.
 */
static char *
local_linux_apply(void)
{
	const struct rscript_knob k[] = {
	    { .name = "net.core.netdev_max_backlog", .value = "8192", .old = "1000" },
	    { .name = "if.eth0.rps_cpus", .value = "f", .old = "0", .via = true, .file = RSCRIPT_FILE_NONE },
	    { .name = "net.ipv4.ip_forward", .value = "1", .old = "0", .via = true, .in_netns = true,
	      .file = RSCRIPT_FILE_NONE } };
	struct rscript s = { .os = OS_PLATFORM_LINUX, .id = "20261207T000000Z-00001-1", .root = "",
	    .confirm_secs = 60, .persist = true, .state = "/var/lib/ntune", .self = "/usr/local/bin/ntune",
	    .netns = "lab1", .record = "created\t2026-12-07T00:00:00Z\nprofile\tp.conf\nos\tlinux\n"
	    "netns\tlab1\nchange\tset\tnet.core.netdev_max_backlog\t1000\t8192\n"
	    "change\tset\tif.eth0.rps_cpus\t0\tf\nchange\tset\tnet.ipv4.ip_forward\t0\t1\tnetns\n" };
	char *cause = NULL;

	return rscript_apply(&s, k, 3, &cause);
}

/*
 * The programs of a FreeBSD DUT (OPNsense and pfSense get the same text: the hook's place
 * is chosen on the DUT) and of a Linux DUT: a guarded, persisted apply with a loader
 * tunable (its journal record); a --trial-boot apply; confirm, revert, renew; history of
 * every entry and of one.
 */
static void
test_programs_match_their_golden_copies(void **state)
{
	const struct rscript_knob fk[] = { { "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.inet.ip.intr_queue_maxlen", "2048", "256", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.isr.maxthreads", "4", NULL, true, false, false, RSCRIPT_FILE_SYSCTL } };
	const struct rscript_knob lk[] = { { "net.core.netdev_max_backlog", "8192", "1000", false, false, false, RSCRIPT_FILE_SYSCTL },
	    { "net.ipv4.tcp_rmem", "4096 131072 6291456", "4096 131072 6291456", false, false, false, RSCRIPT_FILE_SYSCTL } };
	struct rscript f = { OS_PLATFORM_FREEBSD, "20261206T000000Z-00001-1", "", 60, true, false, NULL, NULL, NULL, NULL };
	struct rscript l = { OS_PLATFORM_LINUX, "20261206T000000Z-00001-1", "", 60, true, false, NULL, NULL, NULL, NULL };
	char *cause = NULL;

	(void)state;
	f.record = "created\t2026-12-06T00:00:00Z\nprofile\tp.conf\nos\tfreebsd\n"
	    "change\tset\tnet.isr.dispatch\tdirect\tdeferred\n";
	l.record = "created\t2026-12-06T00:00:00Z\nprofile\tp.conf\nos\tlinux\n"
	    "change\tsame\tnet.ipv4.tcp_rmem\t4096 131072 6291456\t4096 131072 6291456\n";
	golden("freebsd-apply.golden", rscript_apply(&f, fk, 3, &cause));
	golden("linux-apply.golden", rscript_apply(&l, lk, 2, &cause));
	golden("local-linux-apply.golden", local_linux_apply());
	/* OPNsense: every tunable, the runtime ones too, into loader.conf.local's block */
	{
		const struct rscript_knob ok[] = {
		    { "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_LOADER },
		    { "net.isr.maxthreads", "4", NULL, true, false, false, RSCRIPT_FILE_LOADER } };

		golden("opnsense-apply.golden", rscript_apply(&f, ok, 2, &cause));
	}
	f.trial_boot = true;
	f.persist = false;
	golden("freebsd-apply-trial-boot.golden", rscript_apply(&f, fk, 3, &cause));
	f.id = l.id = NULL;
	golden("freebsd-confirm.golden", rscript_confirm(&f));
	golden("freebsd-revert.golden", rscript_revert(&f));
	golden("linux-confirm.golden", rscript_confirm(&l));
	golden("linux-revert.golden", rscript_revert(&l));
	golden("linux-renew.golden", rscript_renew(&l));
	golden("freebsd-history.golden", rscript_history(&f));
	l.id = "20261206T000000Z-00001-1";
	golden("linux-history.golden", rscript_history(&l));
}

/* apply, then revert, byte for byte, run by dash and by BusyBox ash where they are. */
static void
test_programs_run_under_dash_and_busybox_ash(void **state)
{
	static const char *const shells[] = { "dash", "busybox" };
	struct rscript s = { OS_PLATFORM_FREEBSD, "a1", root, 60, true, false, NULL, NULL, NULL, NULL };
	char *t, *r, *cause = NULL, *cmd, *vars;
	size_t i;
	int ran = 0;

	(void)state;
	for (i = 0; i < nitems(shells); i++) {
		xasprintf(&cmd, "command -v %s >/dev/null", shells[i]);
		if (system(cmd) != 0) {
			free(cmd);
			continue;
		}
		free(cmd);
		ran++;
		reset_root();
		/* the programs' own sh -c and sh FILE run the same shell: a sh of ours first in PATH */
		sh_ok("mkdir -p shell && printf '#!/bin/sh\\nexec %s \"$@\"\\n' >shell/sh && chmod +x shell/sh",
		    strcmp(shells[i], "busybox") == 0 ? "busybox ash" : "dash");
		xasprintf(&vars, "PATH=\"%s/shell:%s/tests/cli/standin/fault:%s/tests/cli/standin/freebsd:$PATH\"",
		    root, NTUNE_SRCDIR, NTUNE_SRCDIR);
		s.id = "a1";
		t = rscript_apply(&s, two, 2, &cause);
		r = rscript_revert(&s);
		assert_int_equal(run_with(t, 0, "", vars), 0);
		expect("/mib/net/isr/dispatch", "deferred\n");
		expect(FSTATE "/a1/state", "applied\n");
		assert_int_equal(run_with(r, 0, "", vars), 0);
		expect("/mib/net/isr/dispatch", "direct\n");
		expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
		expect("/etc/sysctl.conf.local", CONF0);
		expect(RCD, NULL);
		free(t);
		free(r);
		free(vars);
	}
	if (ran == 0)
		skip();
}

/*
 * Every printable ASCII character through the validators: exactly the documented sets pass
 * (a value: letters, digits, single spaces and _ . , : / + = @ % -; a name: letters first,
 * then letters, digits and _ . % -), in the middle of a value or name and alone.
 */
static void
test_validators_pass_exactly_the_documented_characters(void **state)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	char buf[4], *cause = NULL, wantv[160], wantn[160];
	int c;

	(void)state;
	snprintf(wantv, sizeof wantv, "%s _.,:/+=@%%-", letters);
	snprintf(wantn, sizeof wantn, "%s_.%%-", letters);
	for (c = 0x20; c <= 0x7e; c++) {
		bool v_ok = strchr(wantv, c) != NULL, n_ok = strchr(wantn, c) != NULL;

		snprintf(buf, sizeof buf, "a%cb", c);
		if ((rscript_check_value("net.ok", buf, "the", &cause) == 0) != v_ok)
			fail_msg("value '%s': %s, the documented set %s it", buf, v_ok ? cause :
			    "accepted", v_ok ? "has" : "has not");
		free(cause);
		cause = NULL;
		if ((rscript_check_name(buf, &cause) == 0) != n_ok)
			fail_msg("name '%s': %s, the documented set %s it", buf, n_ok ? cause :
			    "accepted", n_ok ? "has" : "has not");
		free(cause);
		cause = NULL;
		/* a value of the one character: a blank alone is a leading blank */
		snprintf(buf, sizeof buf, "%c", c);
		if ((rscript_check_value("net.ok", buf, "the", &cause) == 0) != (v_ok && c != ' '))
			fail_msg("value '%s' alone: %s", buf, cause != NULL ? cause : "accepted");
		free(cause);
		cause = NULL;
	}
	/* the lengths: a value of 512 characters passes, of 513 not; a name of 200, of 201 not */
	{
		char *v = xmalloc(514), *n = xmalloc(202);

		memset(v, '1', 513);
		v[512] = '\0';
		assert_int_equal(rscript_check_value("net.ok", v, "the", NULL), 0);
		v[512] = '1';
		v[513] = '\0';
		assert_int_equal(rscript_check_value("net.ok", v, "the", NULL), -1);
		memset(n, 'a', 201);
		n[200] = '\0';
		assert_int_equal(rscript_check_name(n, NULL), 0);
		n[200] = 'a';
		n[201] = '\0';
		assert_int_equal(rscript_check_name(n, NULL), -1);
		free(v);
		free(n);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validators_pass_exactly_the_documented_characters),
		cmocka_unit_test(test_apply_text_quotes_every_word),
		cmocka_unit_test(test_trial_boot_uses_nextboot),
		cmocka_unit_test(test_hostile_names_and_values_are_refused),
		cmocka_unit_test(test_apply_then_revert_restores_byte_for_byte),
		cmocka_unit_test(test_failed_set_restores_everything),
		cmocka_unit_test(test_changed_original_changes_nothing),
		cmocka_unit_test(test_cut_script_runs_nothing),
		cmocka_unit_test(test_linux_boot_guard),
		cmocka_unit_test(test_linux_dead_man_under_systemd),
		cmocka_unit_test(test_boot_guard_only_where_it_serves),
		cmocka_unit_test(test_freebsd_boot_guard),
		cmocka_unit_test(test_programs_match_their_golden_copies),
		cmocka_unit_test(test_programs_run_under_dash_and_busybox_ash),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
