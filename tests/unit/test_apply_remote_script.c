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
	assert_non_null(strstr(t, "ntune_set 'net.inet.ip.intr_queue_maxlen' - '256' || ok=1\n"));
	assert_non_null(strstr(t, "daemon -f -p \"$J/deadman.pid\" sh \"$J/wait\" \"$J\""));
	assert_non_null(strstr(t, "S='/var/db/ntune-agentless'\n"));
	assert_non_null(strstr(t, "f='/etc/sysctl.conf.local'"));
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
	assert_non_null(strstr(t, "f='/etc/sysctl.d/90-ntune.conf'"));
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

/* Directories run() puts first on PATH ("'DIR':" each), before the sysctl stand-in's. */
static const char *path_first = "";

/* Runs script (cut to len bytes when len > 0) with sh; its exit status. */
static int
run(const char *script, size_t len)
{
	char *path, *cmd;
	FILE *f;
	int st;

	xasprintf(&path, "%s/script.sh", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(script, 1, len > 0 ? len : strlen(script), f);
	fclose(f);
	xasprintf(&cmd, "PATH=%s'%s/tests/cli/standin/freebsd':\"$PATH\" SYSCTL_STANDIN_MIB='%s/mib' "
	    "sh -s <'%s' >'%s/out' 2>&1", path_first, NTUNE_SRCDIR, root, path, root);
	st = system(cmd);
	free(cmd);
	free(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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

static void sh_ok(const char *, const char *);

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

/*
 * A kernel that stores another value than asked (a sysctl stand-in that clamps
 * net.inet.ip.intr_queue_maxlen to 1024): the read-back sees it, everything is restored
 * (the knobs and the persisted file), the entry says failed and the script exits 7.
 */
static void
test_value_stored_differently_restores_everything(void **state)
{
	struct rscript s = { RSCRIPT_FREEBSD, "e9", root, 0, true, false };
	char *t, *cause = NULL, *out, *first;

	(void)state;
	sh_ok("mkdir -p bin%s", "");
	put("/bin/sysctl", "#!/bin/sh\n# a kernel that clamps intr_queue_maxlen to 1024\n"
	    "for a; do\n\tcase $a in net.inet.ip.intr_queue_maxlen=*)\n"
	    "\t\t[ \"${a#*=}\" -gt 1024 ] && a=net.inet.ip.intr_queue_maxlen=1024 ;; esac\n"
	    "\tset -- \"$@\" \"$a\"; shift\ndone\n"
	    "exec \"$STANDIN\" \"$@\"\n");
	sh_ok("chmod +x bin/sysctl%s", "");
	setenv("STANDIN", NTUNE_SRCDIR "/tests/cli/standin/freebsd/sysctl", 1);
	xasprintf(&first, "'%s/bin':", root);
	path_first = first;
	t = rscript_apply(&s, two, 2, &cause);
	assert_non_null(t);
	assert_int_equal(run(t, 0), RSCRIPT_EX_READBACK);
	free(t);
	free(first);
	path_first = "";
	sh_ok("rm -f bin/sysctl%s", "");
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	expect("/var/db/ntune-agentless/e9/state", "failed\n");
	out = get("/out");
	assert_non_null(out);
	if (strstr(out, "net.inet.ip.intr_queue_maxlen reads back as '1024', not what was set; "
	    "everything restored") == NULL)
		fail_msg("the script said: %s", out);
	free(out);
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
	/* Cut anywhere after the first set: sh finds no end of ntune_main and runs nothing. */
	for (cut = (size_t)(strstr(t, "ntune_set 'net.isr.dispatch' - 'deferred'") - t) + 10;
	    cut < strlen(t) - 3; cut += 97) {
		assert_int_not_equal(run(t, cut), 0);
		expect("/mib/net/isr/dispatch", "direct\n");
		expect("/var/db/ntune-agentless/e4/state", NULL);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_text_quotes_every_word),
		cmocka_unit_test(test_trial_boot_uses_nextboot),
		cmocka_unit_test(test_hostile_names_and_values_are_refused),
		cmocka_unit_test(test_apply_then_revert_restores_byte_for_byte),
		cmocka_unit_test(test_failed_set_restores_everything),
		cmocka_unit_test(test_validators_pass_exactly_the_documented_characters),
		cmocka_unit_test(test_value_stored_differently_restores_everything),
		cmocka_unit_test(test_changed_original_changes_nothing),
		cmocka_unit_test(test_cut_script_runs_nothing),
		cmocka_unit_test(test_linux_boot_guard),
		cmocka_unit_test(test_boot_guard_only_where_it_serves),
		cmocka_unit_test(test_freebsd_boot_guard),
	};

	return cmocka_run_group_tests(tests, setup_root, teardown_root);
}
