/*
 * The sh scripts of agentless apply/confirm/revert (see remote_script.h).
 * FreeBSD: sysctl(8) sets and reads (sbin/sysctl/sysctl.c: `sysctl -n NAME`
 * prints the value, `sysctl NAME=VALUE` sets it and exits non-zero on failure),
 * daemon(8) -f -p detaches the dead-man (usr.sbin/daemon/daemon.c: -f sends
 * stdio to /dev/null, -p writes the child's pid), nextboot(8) -e name=value
 * writes a one-boot /boot/nextboot.conf and -D removes it (sbin/reboot/nextboot.sh).
 * Linux: the values are the files under /proc/sys, the dead-man is a
 * `setsid nohup` background job.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/agentless_sh.h"
#include "apply/apply.h"
#include "apply/remote_script.h"
#include "remote/remote.h"
#include "util/util.h"

#define KNOB_MAX	200
#define VALUE_MAX	512
#define END_LINE	"# ntune: end\n"	/* the last line of every file a program writes */

static bool	plain_path(const char *);

/*
 * A run here (s->self): `ntune_hook K` before each set and after the last (K sets done), the
 * test hooks of the C engine's apply (t4101): NTUNE_TEST_KILL_AFTER=K kills the program there
 * (SIGKILL), NTUNE_TEST_PAUSE_AFTER=K pauses a second, NTUNE_TEST_FAIL_WRITE=K+1 fails set K+1.
 */
#define TEST_HOOK	"ntune_hook() {\n\tif [ \"${NTUNE_TEST_KILL_AFTER:-}\" = \"$1\" ]; then kill -KILL $$; fi\n" \
	"\tif [ \"${NTUNE_TEST_PAUSE_AFTER:-}\" = \"$1\" ]; then sleep 1; fi\n" \
	"\t[ \"${NTUNE_TEST_FAIL_WRITE:-}\" != $(($1 + 1)) ]\n}\n"

int
rscript_check_name(const char *name, char **cause)
{
	const char *p;

	if (name == NULL || !isalpha((unsigned char)name[0]) || strlen(name) > KNOB_MAX ||
	    strstr(name, "..") != NULL || name[strlen(name) - 1] == '.')
		goto bad;
	for (p = name; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("_.%-", *p) == NULL)
			goto bad;
	return 0;
bad:
	util_cause(cause, "agentless mode refuses the knob name '%s': a name is letters first, then "
	    "letters, digits and _ . %% - (at most %d)", name != NULL ? name : "", KNOB_MAX);
	return -1;
}

int
rscript_check_value(const char *name, const char *value, const char *what, char **cause)
{
	const char *p;

	if (value == NULL || strlen(value) > VALUE_MAX || value[0] == ' ' ||
	    (value[0] != '\0' && value[strlen(value) - 1] == ' '))
		goto bad;
	for (p = value; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr(" _.,:/+=@%-", *p) == NULL)
			goto bad;
	return 0;
bad:
	util_cause(cause, "agentless mode refuses %s value '%s' of '%s': a value is letters, digits, "
	    "single spaces and _ . , : / + = @ %% - (at most %d)", what, value != NULL ? value : "",
	    name, VALUE_MAX);
	return -1;
}

/* Appends word, single-quoted for sh. */
static void
q(struct strbuf *sb, const char *word)
{
	char *w = remote_quote(word);

	strbuf_adds(sb, w);
	free(w);
}

char *
rscript_state_dir(const struct rscript *s)
{
	char *d;

	if (s->state != NULL)
		return xstrdup(s->state);
	xasprintf(&d, "%s%s", s->root != NULL ? s->root : "",
	    s->os == OS_PLATFORM_FREEBSD ? RSCRIPT_STATE_FREEBSD : RSCRIPT_STATE_LINUX);
	return d;
}

char *
rscript_proc_path(const char *name)
{
	char *p, *c;

	xasprintf(&p, "/proc/sys/%s", name);
	for (c = p + strlen("/proc/sys/"); *c != '\0'; c++)
		if (*c == '.')
			*c = '/';
	return p;
}

/*
 * ntune_now: seconds since boot, a clock a step of the date does not move, for every deadline.
 * Linux: /proc/uptime (fs/proc/uptime.c: ktime_get_boottime_ts64, CLOCK_BOOTTIME). FreeBSD
 * has no such file: the date less kern.boottime, which a step of the date moves with it
 * (sys/kern/kern_tc.c tc_setclock: "Step our concept of UTC ... by modifying our estimate
 * of when we booted"; sbin/sysctl/sysctl.c S_timeval prints "{ sec = N, usec = M } ..."),
 * read until two reads of kern.boottime around the date agree. Where neither can be read,
 * the date (the wall clock, as before).
 */
static void
clock_fn(struct strbuf *sb, const struct rscript *s)
{
	if (s->os == OS_PLATFORM_FREEBSD)
		strbuf_adds(sb, "ntune_now() {\n\twhile :; do\n\t\tb=$(sysctl -n kern.boottime 2>/dev/null)\n"
		    "\t\tt=$(date +%s)\n\t\t[ \"$(sysctl -n kern.boottime 2>/dev/null)\" = \"$b\" ] && break\n\tdone\n"
		    "\tb=${b#'{ sec = '}\n\tb=${b%%,*}\n\tcase $b in '' | *[!0-9]*) echo \"$t\" ;; *) echo $((t - b)) ;; esac\n}\n");
	else
		strbuf_adds(sb, "ntune_now() {\n\tif [ -r /proc/uptime ] && read -r u _ </proc/uptime; then echo \"${u%%.*}\"; "
		    "else date +%s; fi\n}\n");
}

/*
 * ntune_get NAME PATH and ntune_set NAME PATH VALUE of the DUT's OS, then the shared functions.
 * A run on this machine (s->self) also has the knobs sh cannot set itself: PATH '@' (here) or
 * '@NETNS' (in that namespace) reads and sets them with `ntune knob` (src/cmd/knob_cmd.c).
 */
static void
helpers(struct strbuf *sb, const struct rscript *s)
{
	const char *get = s->os == OS_PLATFORM_FREEBSD ? "sysctl -n \"$1\"" : "cat \"$2\"";
	const char *set = s->os == OS_PLATFORM_FREEBSD ? "sysctl \"$1=$3\" >/dev/null" :
	    "printf '%s\\n' \"$3\" >\"$2\"";

	clock_fn(sb, s);
	if (s->self == NULL)
		strbuf_addf(sb, "ntune_get() { %s; }\nntune_set() { %s; }\n", get, set);
	else {
		strbuf_adds(sb, "ntune_self=");
		q(sb, s->self);
		strbuf_addf(sb, "\nntune_get() {\n\tcase $2 in\n\t@) \"$ntune_self\" knob get \"$1\" ;;\n"
		    "\t@?*) \"$ntune_self\" knob get --netns \"${2#@}\" \"$1\" ;;\n\t*) %s ;;\n\tesac\n}\n"
		    "ntune_set() {\n\tcase $2 in\n\t@) \"$ntune_self\" knob set \"$1\" \"$3\" ;;\n"
		    "\t@?*) \"$ntune_self\" knob set --netns \"${2#@}\" \"$1\" \"$3\" ;;\n\t*) %s ;;\n\tesac\n}\n",
		    get, set);
	}
	strbuf_adds(sb, "ntune_b=");
	q(sb, APPLY_BLOCK_BEGIN);
	strbuf_adds(sb, "\nntune_e=");
	q(sb, APPLY_BLOCK_END);
	strbuf_adds(sb, "\n");
	strbuf_adds(sb, agentless_lib_sh);
}

/* The start of every script, to S (the state directory) and R (the root prefix). */
static void
head(struct strbuf *sb, const struct rscript *s, const char *what)
{
	char *st = rscript_state_dir(s);

	strbuf_addf(sb, "#!/bin/sh\n# ntune agentless %s on %s: generated by ntune on the controller and\n"
	    "# run by the DUT's sh from ssh's standard input. Every word from the profile or the DUT\n"
	    "# is single-quoted. Nothing runs before the last line: a cut connection runs nothing.\n",
	    what, s->os == OS_PLATFORM_FREEBSD ? "FreeBSD" : "Linux");
	strbuf_adds(sb, "ntune_main() {\nset -u\ntrap '' HUP PIPE\numask 022\nS=");
	q(sb, st);
	strbuf_adds(sb, "\n# shellcheck disable=SC2034 # not every program names a file under R\nR=");
	q(sb, s->root != NULL ? s->root : "");
	strbuf_adds(sb, "\n");
	free(st);
}

/* The start of every script: S (the state directory), R (the root prefix), the helpers. */
static void
prologue(struct strbuf *sb, const struct rscript *s, const char *what)
{
	head(sb, s, what);
	helpers(sb, s);
}

/* J='STATE/ID' and R='ROOT' as literal words (the scripts the entry keeps). */
static void
entry_vars(struct strbuf *sb, const struct rscript *s)
{
	char *st = rscript_state_dir(s), *j;

	xasprintf(&j, "%s/%s", st, s->id);
	strbuf_adds(sb, "J=");
	q(sb, j);
	strbuf_adds(sb, "\nR=");
	q(sb, s->root != NULL ? s->root : "");
	strbuf_adds(sb, "\n");
	free(j);
	free(st);
}

/*
 * The knob's words for ntune_get/ntune_set: name, its /proc/sys path (Linux) or "-"; '@' or
 * '@NETNS' for one `ntune knob` sets.
 */
static void
knob_words(struct strbuf *sb, const struct rscript *s, const struct rscript_knob *k)
{
	const char *name = k->name;
	char *path;

	q(sb, name);
	strbuf_adds(sb, " ");
	if (k->via) {
		xasprintf(&path, "@%s", k->in_netns ? s->netns : "");
		q(sb, path);
		free(path);
	} else if (s->os == OS_PLATFORM_LINUX) {
		path = rscript_proc_path(name);
		q(sb, path);
		free(path);
	} else
		strbuf_adds(sb, "-");
}

/*
 * Does k go into the block of the boot file which? The loader tunables (but a trial's) into
 * loader.conf.local's, a persisted runtime knob into its file's (OPNsense: loader.conf.local);
 * keep: the trial's tunables, which confirm keeps.
 */
static bool
in_block(const struct rscript *s, const struct rscript_knob *k, enum rscript_file which, bool keep)
{
	if (keep || k->boot)
		return k->boot && which == RSCRIPT_FILE_LOADER && keep == s->trial_boot;
	return s->persist && k->file == which;
}

/* A boot-time file's new block: name="value" (loader) or name=value lines; how many. */
static size_t
block_text(struct strbuf *sb, const struct rscript *s, const struct rscript_knob *k, size_t n,
    enum rscript_file which, bool keep)
{
	size_t i, lines = 0;

	sb->len = 0;
	strbuf_addf(sb, "%s\n", APPLY_BLOCK_BEGIN);
	for (i = 0; i < n; i++)
		if (in_block(s, &k[i], which, keep)) {
			strbuf_addf(sb, which == RSCRIPT_FILE_LOADER ? "%s=\"%s\"\n" : "%s=%s\n", k[i].name,
			    k[i].value);
			lines++;
		}
	strbuf_addf(sb, "%s\n", APPLY_BLOCK_END);
	return lines;
}

/* The boot file of which. */
static const char *
boot_file(const struct rscript *s, enum rscript_file which)
{
	if (which == RSCRIPT_FILE_LOADER)
		return "/boot/loader.conf.local";
	return s->os == OS_PLATFORM_FREEBSD ? "/etc/sysctl.conf.local" : "/etc/sysctl.d/90-ntune.conf";
}

void
rscript_persisted(const struct rscript *s, const struct rscript_knob *k, size_t n, char ***v, size_t *nv)
{
	static const enum rscript_file which[] = { RSCRIPT_FILE_LOADER, RSCRIPT_FILE_SYSCTL };
	size_t i, w;
	char *f;

	for (w = 0; w < 2; w++) {
		for (i = 0; i < n && !in_block(s, &k[i], which[w], false); i++)
			;
		if (i == n)
			continue;
		xasprintf(&f, "%s%s", s->root != NULL ? s->root : "", boot_file(s, which[w]));
		*v = util_strv_add(*v, nv, f);
		free(f);
	}
}

/*
 * ntune's block of file (under root) replaced by block's: before any set the file is
 * copied to $J/backup.NR (compared) or $J/absent.NR marks that there was none (pre); the
 * sets write the new text to a temporary file next to it and rename it (sb); the restore
 * program puts the file back as it was, or only its block when the rest changed since (rs).
 */
static void
file_block(struct strbuf *pre, struct strbuf *sb, struct strbuf *rs, const struct rscript *s,
    const char *file, int nr, const char *block)
{
	const char *p;
	char *f, *name;

	xasprintf(&f, "%s%s", s->root != NULL ? s->root : "", file);
	strbuf_adds(pre, "ntune_save ");
	q(pre, f);
	strbuf_addf(pre, " %d || { ntune_abort %d \"cannot copy %s into the journal\"; return; }\n",
	    nr, RSCRIPT_EX_WRITE, file);
	strbuf_adds(sb, "ntune_block ");
	q(sb, f);
	/* The names the block sets: an earlier block's lines of other names stay. */
	for (p = strchr(block, '\n') + 1; *p != '\0' && *p != '#'; p = strchr(p, '\n') + 1) {
		name = xstrndup(p, strcspn(p, "="));
		strbuf_adds(sb, " ");
		q(sb, name);
		free(name);
	}
	strbuf_addf(sb, " <<'NTUNE_BLOCK' || { ntune_undo %d \"cannot write %s\"; return; }\n%sNTUNE_BLOCK\n",
	    RSCRIPT_EX_PERSIST, file, block);
	strbuf_adds(rs, "ntune_unblock ");
	q(rs, f);
	strbuf_addf(rs, " %d || { ok=1; echo \"ntune-agentless: cannot put %s back\" >&2; echo %s >>\"$J/left\"; }\n",
	    nr, file, file);
	free(f);
}

/*
 * Is k set at runtime (read back, restored)? Not a loader tunable, nor a knob that has its
 * value already, which is only written into its boot file (as the C engine's apply did).
 */
static bool
runtime(const struct rscript_knob *k)
{
	return !k->boot && (k->old == NULL || strcmp(k->old, k->value) != 0);
}

/* The runtime originals back, in reverse order. */
static void
restore_runtime(struct strbuf *rs, const struct rscript *s, const struct rscript_knob *k, size_t n)
{
	size_t i;

	for (i = n; i-- > 0;) {
		if (!runtime(&k[i]))
			continue;
		strbuf_adds(rs, "ntune_back ");
		knob_words(rs, s, &k[i]);
		strbuf_adds(rs, " ");
		q(rs, k[i].old);
		strbuf_adds(rs, "\n");
	}
}

/* A run here: ntune's path an absolute plain path, the namespace a plain name. */
static int
check_here(const struct rscript *s, char **cause)
{
	const char *p;

	if (s->self != NULL && (s->self[0] != '/' || !plain_path(s->self))) {
		util_cause(cause, "ntune's path '%s' is not an absolute plain path (letters, digits, _ . / -): "
		    "the programs run it by that name", s->self);
		return -1;
	}
	for (p = s->netns; p != NULL && *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("_.-", *p) == NULL)
			break;
	if (s->netns != NULL && (s->netns[0] == '\0' || s->netns[0] == '-' || *p != '\0' ||
	    strlen(s->netns) > 64)) {
		util_cause(cause, "bad namespace name '%s' (letters, digits, _ . -)", s->netns);
		return -1;
	}
	return 0;
}

static int
check_all(const struct rscript *s, const struct rscript_knob *k, size_t n, char **cause)
{
	size_t i;
	const char *p;

	if (s->id == NULL || s->id[0] == '\0')
		goto badid;
	for (p = s->id; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '-')
			goto badid;
	if (rscript_check_root(s->root, cause) == -1 || check_here(s, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (k[i].via && (s->self == NULL || (k[i].in_netns && s->netns == NULL))) {
			util_cause(cause, "'%s' is set through `ntune knob`: only a run on this machine, with "
			    "ntune's path%s, can", k[i].name, k[i].in_netns ? " and the namespace" : "");
			return -1;
		}
		if (rscript_check_name(k[i].name, cause) == -1 ||
		    rscript_check_value(k[i].name, k[i].value, "the", cause) == -1)
			return -1;
		if (!k[i].boot && rscript_check_value(k[i].name, k[i].old, "the original", cause) == -1)
			return -1;
		if (k[i].boot && s->os != OS_PLATFORM_FREEBSD) {
			util_cause(cause, "'%s' is a loader tunable: only a FreeBSD DUT has a loader", k[i].name);
			return -1;
		}
	}
	return 0;
badid:
	util_cause(cause, "bad journal entry name '%s'", s->id != NULL ? s->id : "");
	return -1;
}

/*
 * Part 1: the lock, no entry pending, the entry, the originals checked again. Nothing is
 * written but the entry's state before the originals are known unchanged.
 */
static void
apply_journal(struct strbuf *sb, const struct rscript *s, const struct rscript_knob *k, size_t n)
{
	size_t i;

	strbuf_adds(sb, "J=\"$S\"/");
	q(sb, s->id);
	strbuf_addf(sb, "\nt=\nntune_lock || return\nif [ -e \"$J\" ]; then echo \"ntune-agentless: journal entry $J "
	    "exists\" >&2; return %d; fi\nntune_pending || return\nmkdir \"$J\" || return %d\nntune_state applying "
	    "|| { rm -rf \"$J\"; echo \"ntune-agentless: cannot write the journal in $S; nothing set\" >&2; "
	    "return %d; }\n", RSCRIPT_EX_JOURNAL, RSCRIPT_EX_JOURNAL, RSCRIPT_EX_JOURNAL);
	for (i = 0; i < n; i++) {
		if (k[i].boot)
			continue;
		strbuf_adds(sb, "ntune_is ");
		knob_words(sb, s, &k[i]);
		strbuf_adds(sb, " ");
		q(sb, k[i].old);
		strbuf_addf(sb, " || { echo \"ntune-agentless: %s is no longer ", k[i].name);
		strbuf_adds(sb, "the value read before, nothing changed\" >&2; rm -rf \"$J\"; ");
		strbuf_addf(sb, "return %d; }\n", RSCRIPT_EX_CHANGED);
	}
	if (s->record != NULL)
		strbuf_addf(sb, "ntune_put \"$J/entry\" <<'NTUNE_ENTRY' || { ntune_abort %d \"cannot write the "
		    "journal entry\"; return; }\n%s" END_LINE "NTUNE_ENTRY\n", RSCRIPT_EX_WRITE, s->record);
	if (s->trial_boot)
		strbuf_addf(sb, "if [ -f %s%s ] && head -n 1 %s%s | grep -qx 'nextboot_enable=\"YES\"'; then "
		    "echo \"ntune-agentless: a nextboot(8) configuration is already waiting\" >&2; rm -rf \"$J\"; "
		    "return %d; fi\n", "\"$R\"", "/boot/nextboot.conf", "\"$R\"", "/boot/nextboot.conf",
		    RSCRIPT_EX_NEXTBOOT);
}

/*
 * The boot guard (a persisted apply with a dead-man): the persisted block outlives
 * a reboot, the dead-man job does not. The apply leaves STATE/boot-guard, which
 * gives every entry neither confirmed nor reverted its lease again (LEASE seconds
 * from this boot) and waits as the dead-man job does, and a hook that the DUT's
 * boot runs: on Linux the systemd unit ntune-agentless-guard.service, wanted by
 * multi-user.target (systemd(1) starts it at every boot); on FreeBSD a file that
 * starts it detached with daemon(8): /usr/local/etc/rc.d/ntune_agentless_guard.sh
 * on stock FreeBSD (libexec/rc/rc sources every executable local_startup script
 * with a PROVIDE line, rc.subr find_local_scripts_new/run_rc_script) and pfSense
 * (src/etc/rc.start_packages runs the .sh files there with start), and on
 * OPNsense, whose /etc/rc runs `rc.syshook start` (src/etc/rc, src/etc/rc.syshook)
 * and starts rc.d scripts only when rc.conf enables their rcvar (rc.freebsd),
 * /usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard. STATE/unguard
 * removes the hook once no entry needs it.
 */
#define GUARD_NAME	"ntune-agentless-guard.service"
#define GUARD_DIR	"/etc/systemd/system"
#define GUARD_WANTS	"/etc/systemd/system/multi-user.target.wants"
#define GUARD_RCD	"/usr/local/etc/rc.d/ntune_agentless_guard.sh"
#define GUARD_SYSHOOK	"/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard"
#define GUARD_MARK	"# ntune-agentless-guard"

int
rscript_check_root(const char *root, char **cause)
{
	if (root == NULL || plain_path(root))
		return 0;
	util_cause(cause, "the DUT's root '%s' is not a plain path (letters, digits, _ . / -): the "
	    "programs and the boot guard's hook name files under it", root);
	return -1;
}

bool
rscript_guarded(const struct rscript *s)
{
	return s->persist && s->confirm_secs > 0;
}

/* A path that a unit's ExecStart= and sh both take as one word as it is. */
static bool
plain_path(const char *p)
{
	for (; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("_./-", *p) == NULL)
			return false;
	return true;
}

/*
 * Writes the file named by the sh word target from text (a temporary file in its
 * directory, checked complete, made executable when exec, renamed).
 */
static void
put_file(struct strbuf *sb, const char *target, const char *text, bool exec)
{
	strbuf_addf(sb, "f=%s\nmkdir -p \"${f%%/*}\" && t=$(mktemp \"$f.XXXXXX\") && ntune_put \"$t\" <<'NTUNE_GUARD' && "
	    "chmod %s \"$t\" && mv \"$t\" \"$f\" || { rm -f \"$t\"; ntune_abort %d \"cannot write $f\"; return; }\n"
	    "%s" END_LINE "NTUNE_GUARD\n", target, exec ? "755" : "644", RSCRIPT_EX_WRITE, text);
}

/*
 * STATE/boot-guard (agentless-guard.sh, with the shared functions) and STATE/unguard
 * (agentless-unguard.sh): S and R, then the file.
 */
static void
guard_text(struct strbuf *t, const struct rscript *s, const char *st, const char *body, bool lib)
{
	strbuf_adds(t, "#!/bin/sh\nS=");
	q(t, st);
	strbuf_adds(t, "\nR=");
	q(t, s->root != NULL ? s->root : "");
	strbuf_adds(t, "\n");
	if (lib)
		helpers(t, s);
	strbuf_adds(t, body);
}

/*
 * The FreeBSD hook: one text for both places. /etc/rc sources it with faststart
 * (quietstart), rc.start_packages runs it with start, rc.syshook with no word.
 */
static void
fbsd_hook_text(struct strbuf *t, const char *st)
{
	strbuf_adds(t, "#!/bin/sh\n# PROVIDE: ntune_agentless_guard\n# REQUIRE: LOGIN\n" GUARD_MARK
	    ": written by an agentless `ntune apply`, removed by\n# its unguard when no journal entry needs it."
	    " At boot it starts the boot guard, detached.\ncase ${1:-start} in\n*start) PATH=$PATH:/sbin:/bin:"
	    "/usr/sbin:/usr/bin; daemon -f sh ");
	q(t, st);
	strbuf_adds(t, "/boot-guard ;;\nesac\n");
}

/* The hook that starts STATE/boot-guard at boot (see rscript_guarded). */
static void
guard_hook(struct strbuf *sb, const struct rscript *s, const char *st)
{
	struct strbuf t;

	strbuf_init(&t);
	if (s->os == OS_PLATFORM_FREEBSD) {
		fbsd_hook_text(&t, st);
		strbuf_adds(sb, "if [ -e \"$R/usr/local/opnsense/version\" ]; then h=\"$R\"'" GUARD_SYSHOOK "'; "
		    "else h=\"$R\"'" GUARD_RCD "'; fi\n");
		put_file(sb, "\"$h\"", t.buf, true);
		strbuf_free(&t);
		return;
	}
	strbuf_addf(&t, "[Unit]\nDescription=ntune agentless: the originals of an apply nobody confirmed, back "
	    "after a boot\nAfter=systemd-sysctl.service\n\n[Service]\nType=simple\nExecStart=/bin/sh %s/boot-guard\n\n"
	    "[Install]\nWantedBy=multi-user.target\n", st);
	put_file(sb, "\"$R\"'" GUARD_DIR "/" GUARD_NAME "'", t.buf, false);
	strbuf_addf(sb, "mkdir -p \"$R\"'" GUARD_WANTS "' && ln -sf '../" GUARD_NAME "' \"$R\"'" GUARD_WANTS "/"
	    GUARD_NAME "' || { ntune_abort %d \"cannot enable " GUARD_NAME "\"; return; }\n", RSCRIPT_EX_WRITE);
	strbuf_free(&t);
}

/* STATE/boot-guard, STATE/unguard and the boot hook: written before the dead-man starts. */
static void
guard_files(struct strbuf *sb, const struct rscript *s)
{
	char *st = rscript_state_dir(s);
	struct strbuf t;

	strbuf_init(&t);
	guard_text(&t, s, st, agentless_guard_sh, true);
	put_file(sb, "\"$S/boot-guard\"", t.buf, false);
	t.len = 0;
	guard_text(&t, s, st, agentless_unguard_sh, false);
	put_file(sb, "\"$S/unguard\"", t.buf, false);
	strbuf_free(&t);
	guard_hook(sb, s, st);
	free(st);
}

/*
 * The dead-man job (agentless-wait.sh), written and checked complete, started detached
 * (daemon(8) on FreeBSD, setsid nohup on Linux) and proven alive before anything is set;
 * a guarded one has a lease (a deadline the controller can renew) and the boot hook.
 */
static void
apply_deadman(struct strbuf *sb, const struct rscript *s)
{
	if (rscript_guarded(s)) {
		guard_files(sb, s);
		strbuf_addf(sb, "echo %d >\"$J/lease\" || { ntune_abort %d \"cannot write the lease\"; return; }\n",
		    s->confirm_secs, RSCRIPT_EX_WRITE);
	}
	strbuf_addf(sb, "d=$(($(ntune_now) + %d)); echo $d >\"$J/deadline\" && [ \"$(cat \"$J/deadline\")\" = $d ] || "
	    "{ ntune_abort %d \"cannot write the deadline\"; return; }\n", s->confirm_secs, RSCRIPT_EX_WRITE);
	strbuf_adds(sb, "ntune_put \"$J/wait\" <<'NTUNE_WAIT' || ");
	strbuf_addf(sb, "{ ntune_abort %d \"cannot write the dead-man job\"; return; }\n", RSCRIPT_EX_WRITE);
	clock_fn(sb, s);
	strbuf_adds(sb, agentless_wait_sh);
	strbuf_adds(sb, "NTUNE_WAIT\n");
	if (s->os == OS_PLATFORM_FREEBSD)
		strbuf_adds(sb, "daemon -f -p \"$J/deadman.pid\" sh \"$J/wait\" \"$J\" 'dead-man timer' || ");
	else
		strbuf_adds(sb, "ntune_deadman || ");
	strbuf_addf(sb, "{ ntune_abort %d \"cannot start the dead-man job\"; return; }\n"
	    "ntune_alive || { ntune_abort %d \"the dead-man job is not running\"; return; }\n",
	    RSCRIPT_EX_DEADMAN, RSCRIPT_EX_DEADMAN);
}

/*
 * Part 2: the sets (all or nothing), the files, nextboot, the read-back (sb); pre: the
 * files' copies, taken before the first set; rs: the restore program's lines (late: its
 * last ones, after those of keep).
 */
static void
apply_sets(struct strbuf *pre, struct strbuf *sb, struct strbuf *rs, struct strbuf *late,
    const struct rscript *s, const struct rscript_knob *k, size_t n)
{
	struct strbuf blk;
	size_t i, nboot = 0, nset = 0;

	for (i = 0; i < n; i++)
		nboot += k[i].boot;
	for (i = 0; i < n; i++) {
		if (!runtime(&k[i]))
			continue;
		if (s->self != NULL)
			strbuf_addf(sb, "ntune_hook %zu && ", nset++);
		strbuf_adds(sb, "ntune_set ");
		knob_words(sb, s, &k[i]);
		strbuf_adds(sb, " ");
		q(sb, k[i].value);
		strbuf_addf(sb, " || { ntune_undo %d \"cannot set %s\"; return; }\n", RSCRIPT_EX_SET, k[i].name);
	}
	if (nset > 0)
		strbuf_addf(sb, "ntune_hook %zu\n", nset);
	strbuf_init(&blk);
	if (nboot > 0 && s->trial_boot) {
		strbuf_adds(sb, "nextboot");
		for (i = 0; i < n; i++)
			if (k[i].boot) {
				char *kv;

				xasprintf(&kv, "%s=%s", k[i].name, k[i].value);
				strbuf_adds(sb, " -e ");
				q(sb, kv);
				free(kv);
			}
		strbuf_addf(sb, " >/dev/null || { ntune_undo %d \"nextboot -e failed\"; return; }\n", RSCRIPT_EX_PERSIST);
		strbuf_adds(rs, "if [ -f \"$R/boot/nextboot.conf\" ] && head -n 1 \"$R/boot/nextboot.conf\" | "
		    "grep -qx 'nextboot_enable=\"YES\"'; then nextboot -D >/dev/null || ok=1; fi\n");
	}
	/* Beside a trial, OPNsense's runtime knobs in loader.conf.local: put back after keep's block. */
	if (block_text(&blk, s, k, n, RSCRIPT_FILE_LOADER, false) > 0)
		file_block(pre, sb, s->trial_boot ? late : rs, s, boot_file(s, RSCRIPT_FILE_LOADER),
		    s->trial_boot ? 3 : 1, blk.buf);
	if (block_text(&blk, s, k, n, RSCRIPT_FILE_SYSCTL, false) > 0)
		file_block(pre, sb, rs, s, boot_file(s, RSCRIPT_FILE_SYSCTL), 2, blk.buf);
	strbuf_free(&blk);
	for (i = 0; i < n; i++) {
		if (!runtime(&k[i]))
			continue;
		strbuf_adds(sb, "ntune_is ");
		knob_words(sb, s, &k[i]);
		strbuf_adds(sb, " ");
		q(sb, k[i].value);
		strbuf_addf(sb, " || { ntune_undo %d \"%s reads back as '$v', not '%s'\"; return; }\n",
		    RSCRIPT_EX_READBACK, k[i].name, k[i].value);
	}
}

/*
 * The keep program's first lines: this boot had the trial, each tunable's value in its kernel
 * environment (kenv(1) -q NAME prints it, exits non-zero when unset); else keep exits
 * RSCRIPT_EX_NOTRIAL and keeps nothing (trial.c did the same in the C engine).
 */
static void
trial_check(struct strbuf *sb, const struct rscript_knob *k, size_t n)
{
	size_t i;

	strbuf_adds(sb, "ntune_trial() {\n\tif v=$(kenv -q \"$1\" 2>/dev/null); then [ \"$v\" = \"$2\" ] && return 0; "
	    "v=\"'$v'\"; else v=unset; fi\n\techo \"ntune-agentless: this boot did not have the trial: kenv says "
	    "$1 is $v, the trial sets '$2' (not rebooted since the trial, or the trial boot failed and the "
	    "box came back on its old settings)\" >&2\n\treturn 1\n}\n");
	for (i = 0; i < n; i++)
		if (k[i].boot) {
			strbuf_adds(sb, "ntune_trial ");
			q(sb, k[i].name);
			strbuf_adds(sb, " ");
			q(sb, k[i].value);
			strbuf_addf(sb, " || return %d\n", RSCRIPT_EX_NOTRIAL);
		}
}

/*
 * keep: what confirm does after a trial boot, once kenv shows it: the loader tunables into
 * loader.conf.local (the restore program already has the line that takes them out again).
 */
static void
apply_keep(struct strbuf *sb, struct strbuf *rs, const struct rscript *s, const struct rscript_knob *k,
    size_t n)
{
	struct strbuf blk, keep;
	struct rscript ks = *s;

	strbuf_init(&blk);
	strbuf_init(&keep);
	ks.trial_boot = false;
	block_text(&blk, s, k, n, RSCRIPT_FILE_LOADER, true);
	trial_check(&keep, k, n);
	file_block(&keep, &keep, rs, &ks, "/boot/loader.conf.local", 1, blk.buf);
	strbuf_adds(sb, "ntune_put \"$J/keep\" <<'NTUNE_KEEP' || ");
	strbuf_addf(sb, "{ ntune_abort %d \"cannot write the keep program\"; return; }\n", RSCRIPT_EX_WRITE);
	entry_vars(sb, s);
	helpers(sb, s);
	strbuf_adds(sb, "ntune_keep() {\nntune_undo() { return 1; }\nntune_abort() { return 1; }\n");
	strbuf_add(sb, keep.buf, keep.len);
	strbuf_adds(sb, "}\nntune_keep\n" END_LINE "NTUNE_KEEP\n");
	strbuf_free(&blk);
	strbuf_free(&keep);
}

char *
rscript_apply(const struct rscript *s, const struct rscript_knob *k, size_t n, char **cause)
{
	struct strbuf sb, pre, sets, rs, keep, late;
	size_t i;
	bool trial = false;

	if (check_all(s, k, n, cause) == -1)
		return NULL;
	for (i = 0; i < n; i++)
		trial |= k[i].boot && s->trial_boot;
	strbuf_init(&sb);
	strbuf_init(&pre);
	strbuf_init(&sets);
	strbuf_init(&rs);
	strbuf_init(&keep);
	strbuf_init(&late);
	prologue(&sb, s, "apply");
	if (s->self != NULL)
		strbuf_adds(&sb, TEST_HOOK);
	apply_journal(&sb, s, k, n);
	strbuf_adds(&rs, "ok=0\nrm -f \"$J/left\"\n");
	restore_runtime(&rs, s, k, n);
	apply_sets(&pre, &sets, &rs, &late, s, k, n);
	if (trial)
		apply_keep(&keep, &rs, s, k, n);
	strbuf_add(&rs, late.buf, late.len);
	/* Every write checked before the first set: the copies, restore, keep, the dead-man. */
	strbuf_add(&sb, pre.buf, pre.len);
	strbuf_adds(&sb, "ntune_put \"$J/restore\" <<'NTUNE_RESTORE' || ");
	strbuf_addf(&sb, "{ ntune_abort %d \"cannot write the restore program\"; return; }\n", RSCRIPT_EX_WRITE);
	entry_vars(&sb, s);
	helpers(&sb, s);
	strbuf_add(&sb, rs.buf, rs.len);
	strbuf_adds(&sb, "exit $ok\n" END_LINE "NTUNE_RESTORE\n");
	strbuf_add(&sb, keep.buf, keep.len);
	if (s->confirm_secs > 0)
		apply_deadman(&sb, s);
	strbuf_addf(&sb, "sync\nprintf '%%s\\n' \"${J##*/}\" >\"$S/latest.tmp\" && mv \"$S/latest.tmp\" \"$S/latest\" || "
	    "{ ntune_abort %d \"cannot write $S/latest\"; return; }\n", RSCRIPT_EX_WRITE);
	strbuf_add(&sb, sets.buf, sets.len);
	/* Without a dead-man nothing waits for a confirm. */
	if (s->confirm_secs <= 0)
		strbuf_adds(&sb, ": >\"$J/confirmed\"\n");
	strbuf_adds(&sb, "echo applied >\"$J/state\"\necho \"ntune-agentless: applied ${J##*/}\"\n}\n"
	    "ntune_main \"$@\"\n");
	strbuf_free(&pre);
	strbuf_free(&sets);
	strbuf_free(&rs);
	strbuf_free(&keep);
	strbuf_free(&late);
	return strbuf_detach(&sb);
}

/*
 * A program on one entry, I: s->id, or '' for the latest (agentless-{confirm,revert,renew}.sh,
 * after the shared functions and ntune_pick; agentless-history.sh, after the clock only).
 */
static char *
entry_program(const struct rscript *s, const char *what, const char *body, bool lib)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (lib)
		prologue(&sb, s, what);
	else {
		head(&sb, s, what);
		clock_fn(&sb, s);
	}
	strbuf_adds(&sb, "I=");
	q(&sb, s->id != NULL ? s->id : "");
	strbuf_adds(&sb, "\n");
	if (lib)
		strbuf_adds(&sb, agentless_pick_sh);
	strbuf_adds(&sb, body);
	strbuf_adds(&sb, "}\nntune_main \"$@\"\n");
	return strbuf_detach(&sb);
}

char *
rscript_confirm(const struct rscript *s)
{
	return entry_program(s, "confirm", agentless_confirm_sh, true);
}

char *
rscript_revert(const struct rscript *s)
{
	return entry_program(s, "revert", agentless_revert_sh, true);
}

char *
rscript_renew(const struct rscript *s)
{
	return entry_program(s, "renew", agentless_renew_sh, true);
}

char *
rscript_history(const struct rscript *s)
{
	return entry_program(s, "history", agentless_history_sh, false);
}
