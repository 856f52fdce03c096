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

static const struct rscript_knob two[] = {
	{ "net.isr.dispatch", "deferred", "direct", false },
	{ "net.inet.ip.intr_queue_maxlen", "2048", "256", false },
};

static void
test_apply_text_quotes_every_word(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "20261205T150000Z-0001", "", 120, true, false };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, two, 2, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "ntune_set 'net.isr.dispatch' - 'deferred' ||"));
	assert_non_null(strstr(t, "ntune_is 'net.isr.dispatch' - 'direct' ||"));
	assert_non_null(strstr(t, "ntune_back 'net.inet.ip.intr_queue_maxlen' - '256'\n"));
	assert_non_null(strstr(t, "daemon -f -p \"$J/deadman.pid\" sh \"$J/wait\" \"$J\""));
	assert_non_null(strstr(t, "S='/var/db/ntune-agentless'\n"));
	assert_non_null(strstr(t, "ntune_block '/etc/sysctl.conf.local' <<'NTUNE_BLOCK'"));
	/* The dead-man starts before the first set. */
	assert_true(strstr(t, "daemon -f") < strstr(t, "ntune_set 'net.isr.dispatch' - 'deferred'"));
	/* Nothing runs before the last line. */
	assert_non_null(strstr(t, "}\nntune_main \"$@\"\n"));
	assert_string_equal(t + strlen(t) - strlen("}\nntune_main \"$@\"\n"), "}\nntune_main \"$@\"\n");
	free(t);
	s.os = RSCRIPT_LINUX;
	t = rscript_apply(&s, (struct rscript_knob[]){ { "net.ipv4.tcp_rmem", "4096 131072 6291456",
	    "4096 87380 6291456", false } }, 1, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "ntune_set 'net.ipv4.tcp_rmem' '/proc/sys/net/ipv4/tcp_rmem' "
	    "'4096 131072 6291456'"));
	assert_non_null(strstr(t, "setsid nohup sh \"$J/wait\""));
	assert_non_null(strstr(t, "ntune_block '/etc/sysctl.d/90-ntune.conf' <<'NTUNE_BLOCK'"));
	free(t);
}

static void
test_trial_boot_uses_nextboot(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "e1", "/r", 0, false, true };
	const struct rscript_knob k[] = { { "net.isr.maxthreads", "4", NULL, true } };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, k, 1, &cause);
	assert_non_null(t);
	assert_non_null(strstr(t, "nextboot -e 'net.isr.maxthreads=4' >/dev/null"));
	assert_null(strstr(t, "daemon -f"));
	assert_non_null(strstr(t, "net.isr.maxthreads=\"4\"\n# END ntune"));	/* the keep block */
	free(t);
	/* A loader tunable on Linux is refused. */
	s.os = RSCRIPT_LINUX;
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
	struct rscript s = { RSCRIPT_FREEBSD, "e1", "", 60, true, false };
	struct rscript_knob k = { "net.ok", "1", "0", false };
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
}

/* --- run by sh against the sysctl stand-in ---------------------------------------------- */

static char root[] = "/tmp/ntune-rscript-XXXXXX";

static void
put(const char *rel, const char *text)
{
	char *p;

	xasprintf(&p, "%s%s", root, rel);
	assert_int_equal(util_write_file_atomic(p, text, strlen(text), 0644, NULL), 0);
	free(p);
}

static char *
get(const char *rel)
{
	char *p, *d = NULL;
	size_t len;

	xasprintf(&p, "%s%s", root, rel);
	if (util_read_file(p, &d, &len, NULL) == -1)
		d = NULL;
	free(p);
	return d;
}

/* The file root/rel exists and can be read. */
static void
assert_exists(const char *rel)
{
	char *d = get(rel);

	assert_non_null(d);
	free(d);
}

/*
 * Runs script (cut to len bytes when len > 0) with sh, after the shell commands prep (a
 * file-size limit) and with the environment words vars (the faults of
 * tests/cli/standin/fault); its exit status, its output in root/out.
 */
static int
run_with(const char *script, size_t len, const char *prep, const char *vars)
{
	char *path, *cmd, *st;
	FILE *f;
	int rc;

	xasprintf(&path, "%s/script.sh", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(script, 1, len > 0 ? len : strlen(script), f);
	fclose(f);
	xasprintf(&cmd, "cd '%s' && rm -f count status && { (%s exec env PATH=\"%s/tests/cli/standin/fault:%s/tests/"
	    "cli/standin/freebsd:$PATH\" SYSCTL_STANDIN_MIB=\"$PWD/mib\" NTUNE_FAULT_COUNT=\"$PWD/count\" %s sh -s) "
	    "<script.sh 2>&1; echo $? >status; } | /bin/cat >out", root, prep, NTUNE_SRCDIR, NTUNE_SRCDIR, vars);
	assert_int_equal(system(cmd), 0);
	st = get("/status");
	assert_non_null(st);
	rc = atoi(st);
	free(st);
	free(cmd);
	free(path);
	return rc;
}

static int
run(const char *script, size_t len)
{
	return run_with(script, len, "", "");
}

static void
expect(const char *rel, const char *want)
{
	char *got = get(rel);

	if (want == NULL) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static int
setup_root(void **state)
{
	char *cmd;

	(void)state;
	tmpdir_make(root);
	xasprintf(&cmd, "mkdir -p '%s/mib/net/isr' '%s/mib/net/inet/ip' '%s/etc' '%s/boot'", root, root,
	    root, root);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	put("/mib/net/isr/dispatch", "direct\n");
	put("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	return 0;
}

static int
teardown_root(void **state)
{
	(void)state;
	tmpdir_remove(root);
	return 0;
}

static void
test_apply_then_revert_restores_byte_for_byte(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "e1", root, 0, true, false };
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
	struct rscript s = { RSCRIPT_FREEBSD, "e2", root, 0, true, false };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "hybrid", "direct", false },
	    { "net.inet.ip.intr_queue_maxlen", "lots", "256", false } };
	char *t, *cause = NULL;

	(void)state;
	t = rscript_apply(&s, k, 2, &cause);
	assert_non_null(t);
	assert_int_equal(run(t, 0), RSCRIPT_EX_SET);	/* the stand-in: invalid integer 'lots' */
	free(t);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	expect("/var/db/ntune-agentless/e2/state", "failed\n");
}

static void
test_changed_original_changes_nothing(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "e3", root, 0, true, false };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "hybrid", "deferred", false } };
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
	struct rscript s = { RSCRIPT_FREEBSD, "e4", root, 0, true, false };
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

/* Waits up to secs for root/rel to read want (NULL: to be gone); true when it did. */
static bool
wait_for(const char *rel, const char *want, double secs)
{
	char *got;
	bool ok;
	int i;

	for (i = 0; i < (int)(secs * 10); i++) {
		got = get(rel);
		ok = want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0;
		free(got);
		if (ok)
			return true;
		usleep(100000);
	}
	return false;
}

#define UNIT	"/etc/systemd/system/ntune-agentless-guard.service"
#define WANTS	"/etc/systemd/system/multi-user.target.wants/ntune-agentless-guard.service"
#define LSTATE	"/var/lib/ntune-agentless"

/* Runs the shell command fmt (in root) and says whether it exited 0. */
static void
sh_ok(const char *fmt, const char *arg)
{
	char *cmd, *line;

	xasprintf(&line, fmt, arg);
	xasprintf(&cmd, "cd '%s' && %s", root, line);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(line);
}

/*
 * Linux, persisted, with a dead-man: the apply leaves the boot guard's unit; its lease runs
 * out (the dead-man job), or the job dies with a "reboot" and the boot guard restores after
 * the lease counted from the boot, or confirm stands it down; the unit goes with the last.
 * No knob: the scripts run here touch nothing outside the scratch root.
 */
static void
test_linux_boot_guard(void **state)
{
	struct rscript s = { RSCRIPT_LINUX, "g1", root, 1, true, false };
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
	t = rscript_renew(&(struct rscript){ RSCRIPT_LINUX, "g2", root, 0, false, false });
	assert_int_equal(run(t, 0), RSCRIPT_EX_NOENTRY);
	free(t);
}

/* Only a persisted apply with a dead-man has a boot guard; its root must be a plain path. */
static void
test_boot_guard_only_where_it_serves(void **state)
{
	struct rscript s = { RSCRIPT_LINUX, "e9", "", 30, false, false };
	const struct rscript_knob k[] = { { "net.core.somaxconn", "1000", "4096", false } };
	char *t, *cause = NULL;

	(void)state;
	assert_false(rscript_guarded(&s));
	t = rscript_apply(&s, k, 1, &cause);
	assert_null(strstr(t, "ntune-agentless-guard"));
	free(t);
	s.os = RSCRIPT_FREEBSD;
	assert_false(rscript_guarded(&s));
	t = rscript_apply(&s, (struct rscript_knob[]){ { "net.isr.dispatch", "deferred", "direct", false } },
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
	s.os = RSCRIPT_LINUX;
	assert_true(rscript_guarded(&s));
	assert_null(rscript_apply(&s, k, 1, &cause));
	assert_non_null(strstr(cause, "is not a plain path"));
	free(cause);
}

#define FSTATE	"/var/db/ntune-agentless"
#define RCD	"/usr/local/etc/rc.d/ntune_agentless_guard.sh"
#define SYSHOOK	"/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard"
#define SA	"PATH=\"" NTUNE_SRCDIR "/tests/cli/standin/freebsd:$PATH\" SYSCTL_STANDIN_MIB=\"$PWD/mib\" "

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
	struct rscript s = { RSCRIPT_FREEBSD, "b1", root, 600, true, false };
	const struct rscript_knob k[] = { { "net.isr.dispatch", "deferred", "direct", false } };
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
	/* a reboot: the job dies, the value comes back from sysctl.conf.local; /etc/rc runs the hook */
	assert_true(wait_nonempty(FSTATE "/b1/deadman.pid", 10));
	sh_ok("kill $(cat .%s/b1/deadman.pid) && echo 1 >." FSTATE "/b1/lease", FSTATE);
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


/* --- faults (issue 34): every write checked before any set, the truth reported ----------- */

#define CONF0	"# mine\nkern.ipc.somaxconn=1024\n"

/* The scratch root as setup_root made it: the originals, no journal, no boot hook. */
static void
reset_root(void)
{
	sh_ok("rm -rf var usr%s", "");
	put("/mib/net/isr/dispatch", "direct\n");
	put("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/etc/sysctl.conf.local", CONF0);
}

/* The output of the last run holds text. */
static void
said(const char *text)
{
	char *out = get("/out");

	assert_non_null(out);
	if (strstr(out, text) == NULL)
		fail_msg("'%s' not in the output:\n%s", text, out);
	free(out);
}

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
 * A full /var at each write of the apply program (a cat that stops at 40 bytes: the restore
 * program, the boot guard, unguard, the boot hook, the dead-man's wait; then the block of
 * sysctl.conf.local): before the first set, nothing is set and the program says so (exit
 * RSCRIPT_EX_WRITE); after, everything is restored and read back. A file-size limit of 0
 * (ulimit -f, SIGXFSZ ignored) sets nothing either.
 */
static void
test_full_disk_at_each_write(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "f1", root, 600, true, false };
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
		said(n == 1 ? "cannot write the restore program; nothing set" : n == 5 ?
		    "cannot write the dead-man job; nothing set" : "; nothing set");
	}
	assert_int_equal(n, 6);
	assert_int_equal(rc, RSCRIPT_EX_PERSIST);
	said("cannot write /etc/sysctl.conf.local; everything restored and read back");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", CONF0);
	expect(FSTATE "/f1/state", "failed\n");
	expect(RCD, NULL);
	reset_root();
	assert_int_equal(run_with(t, 0, "", "NTUNE_FAULT_CAT=7"), 0);
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
	struct rscript s = { RSCRIPT_FREEBSD, "d1", root, 600, false, false };
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
	struct rscript s = { RSCRIPT_FREEBSD, "p1", root, 0, false, false };
	const struct rscript_knob bad[] = { { "net.isr.dispatch", "hybrid", "direct", false },
	    { "net.inet.ip.intr_queue_maxlen", "lots", "256", false } };
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
	assert_int_equal(run(r, 0), 0);
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect(FSTATE "/p3/reverted", "user\n");
	free(t);
	free(r);
}

/* A kernel that stores another value than the one set: undone, and said. */
static void
test_read_back_of_another_value_undoes(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "r1", root, 0, true, false };
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

/*
 * One change at a time: an apply while an entry waits for its confirm is refused with that
 * entry's id; a lock held by a live process refuses, a stale one (its process ended) is
 * taken; confirm loses to a dead-man that decided first; a revert puts back only its own
 * block when the owner changed the file since.
 */
static void
test_one_change_at_a_time(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "l1", root, 600, false, false };
	const struct rscript_knob one[] = { { "net.inet.ip.intr_queue_maxlen", "4096", "2048", false } };
	char *t, *c, *cause = NULL, *lock;
	pid_t pid;

	(void)state;
	reset_root();
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
	if ((pid = fork()) == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	xasprintf(&lock, "echo %d >.%s/lock/pid", (int)pid, FSTATE);
	sh_ok("%s", lock);
	free(lock);
	assert_int_equal(run(t, 0), 0);
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
	struct rscript s = { RSCRIPT_FREEBSD, "s1", root, 600, false, false };
	const struct rscript_knob one[] = { { "net.isr.dispatch", "hybrid", "direct", false } };
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

/* A confirm that arrives while the dead-man restores (a slow sysctl) loses, and says so. */
static void
test_confirm_during_dead_man_restore_loses(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "c2", root, 6, false, false };
	char *t, *c, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	c = rscript_confirm(&s);
	assert_int_equal(run_with(t, 0, "", "NTUNE_SLOW=2"), 0);
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
	struct rscript s = { RSCRIPT_FREEBSD, "w1", root, 1, false, false };
	char *t, *cause = NULL;

	(void)state;
	reset_root();
	t = rscript_apply(&s, two, 2, &cause);
	assert_int_equal(run_with(t, 0, "", "NTUNE_SLOW=2"), 0);
	said("applied w1");
	assert_true(wait_for(FSTATE "/w1/state", "reverted\n", 20));
	expect(FSTATE "/w1/reverted", "dead-man timer\n");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	free(t);
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
 * The programs of a FreeBSD DUT (OPNsense and pfSense get the same text: the hook's place
 * is chosen on the DUT) and of a Linux DUT: a guarded, persisted apply with a loader
 * tunable; a --trial-boot apply; confirm, revert and renew.
 */
static void
test_programs_match_their_golden_copies(void **state)
{
	const struct rscript_knob fk[] = { { "net.isr.dispatch", "deferred", "direct", false },
	    { "net.inet.ip.intr_queue_maxlen", "2048", "256", false },
	    { "net.isr.maxthreads", "4", NULL, true } };
	const struct rscript_knob lk[] = { { "net.core.netdev_max_backlog", "8192", "1000", false },
	    { "net.ipv4.tcp_rmem", "4096 131072 6291456", "4096 131072 6291456", false } };
	struct rscript f = { RSCRIPT_FREEBSD, "20261206T000000Z-00001-1", "", 60, true, false };
	struct rscript l = { RSCRIPT_LINUX, "20261206T000000Z-00001-1", "", 60, true, false };
	char *cause = NULL;

	(void)state;
	golden("freebsd-apply.golden", rscript_apply(&f, fk, 3, &cause));
	golden("linux-apply.golden", rscript_apply(&l, lk, 2, &cause));
	f.trial_boot = true;
	f.persist = false;
	golden("freebsd-apply-trial-boot.golden", rscript_apply(&f, fk, 3, &cause));
	f.id = l.id = NULL;
	golden("freebsd-confirm.golden", rscript_confirm(&f));
	golden("freebsd-revert.golden", rscript_revert(&f));
	golden("linux-confirm.golden", rscript_confirm(&l));
	golden("linux-revert.golden", rscript_revert(&l));
	golden("linux-renew.golden", rscript_renew(&l));
}

/* apply, then revert, byte for byte, run by dash and by BusyBox ash where they are. */
static void
test_programs_run_under_dash_and_busybox_ash(void **state)
{
	static const char *const shells[] = { "dash", "busybox" };
	struct rscript s = { RSCRIPT_FREEBSD, "a1", root, 60, true, false };
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_text_quotes_every_word),
		cmocka_unit_test(test_trial_boot_uses_nextboot),
		cmocka_unit_test(test_hostile_names_and_values_are_refused),
		cmocka_unit_test(test_apply_then_revert_restores_byte_for_byte),
		cmocka_unit_test(test_failed_set_restores_everything),
		cmocka_unit_test(test_changed_original_changes_nothing),
		cmocka_unit_test(test_cut_script_runs_nothing),
		cmocka_unit_test(test_linux_boot_guard),
		cmocka_unit_test(test_boot_guard_only_where_it_serves),
		cmocka_unit_test(test_freebsd_boot_guard),
		cmocka_unit_test(test_full_disk_at_each_write),
		cmocka_unit_test(test_dead_man_dead_before_first_set),
		cmocka_unit_test(test_refused_original_leaves_entry_partial),
		cmocka_unit_test(test_read_back_of_another_value_undoes),
		cmocka_unit_test(test_one_change_at_a_time),
		cmocka_unit_test(test_simultaneous_applies_one_wins),
		cmocka_unit_test(test_confirm_during_dead_man_restore_loses),
		cmocka_unit_test(test_dead_man_waits_for_the_apply),
		cmocka_unit_test(test_programs_match_their_golden_copies),
		cmocka_unit_test(test_programs_run_under_dash_and_busybox_ash),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
