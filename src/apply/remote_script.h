/*
 * The one apply engine: the POSIX sh scripts that apply, confirm and revert a
 * profile on a DUT that has no ntune, only sshd and its base system, or on this
 * machine (rscript.self: `ntune apply` without --dut). They are generated here
 * on the controller, sent over ssh's standard input to the DUT's sh (or to this
 * machine's sh) and shown by `apply --dut ... --plan`. Every word from a profile or
 * read from the DUT is single-quoted (remote_quote) and checked first: a knob
 * name is [A-Za-z0-9_.%-] with letters first, a value printable without quotes,
 * backslashes or shell-active characters. Nothing is interpolated unchecked.
 *
 * On a host, one journal whether ntune runs there or reaches it over ssh: a directory
 * STATE/ID (STATE: RSCRIPT_STATE_FREEBSD on FreeBSD, RSCRIPT_STATE_LINUX on Linux, under the
 * root prefix; $NTUNE_STATE_DIR instead, on this machine, when set: rscript.state) holds:
 *   state      applying | applied | confirmed | reverted | failed | partial
 *   restore    a generated sh program that puts every original back and reads each
 *              back (the runtime values read first; each file as it was, byte for byte,
 *              or only ntune's block when the rest changed since); a value the kernel
 *              refuses is named in `left` and the program exits 1: the entry is partial
 *   wait       the dead-man (agentless-wait.sh): at the time in `deadline` runs restore
 *              unless `confirmed` or `reverted` exists; started detached (daemon(8)
 *              on FreeBSD, setsid nohup on Linux) and proven alive before anything is set
 *   decided    a directory: the one mkdir that decides between confirm, the dead-man
 *              and revert
 *   keep       FreeBSD --trial-boot: what confirm runs after the trial boot
 *              (the loader tunables into loader.conf.local's block)
 *   entry      what was applied, tab-separated lines: "created ISO-8601", "profile PATH",
 *              "os freebsd|linux", here with --netns "netns NAME", one "change ACTION NAME
 *              OLD NEW" a knob (ACTION as apply_action_name; OLD "!" when unread; a last
 *              field "netns" when set in that namespace), for history, verify, diff, export
 *   backup.N, absent.N  the persisted files as the apply found them
 *   lease      a guarded entry (rscript_guarded): its lease in seconds; STATE/boot-guard
 *              and STATE/unguard serve the boot guard (Linux and FreeBSD)
 * Every file a program writes before the first set ends with the line `# ntune: end`
 * and is checked to (a full file system cuts it short); a failure there sets nothing
 * (RSCRIPT_EX_WRITE). STATE/lock (mkdir, the pid of its sh; stale when that process
 * ended) lets one apply or revert run at a time, and an apply is refused while another
 * entry is neither confirmed nor reverted. STATE/latest names the newest entry. The
 * functions shared by the programs are src/apply/agentless-lib.sh. The whole script is
 * one function called on its last line, so a connection cut while it is sent runs nothing.
 */
#ifndef NTUNE_APPLY_REMOTE_SCRIPT_H
#define NTUNE_APPLY_REMOTE_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "os/platform.h"
/* The journal's place on a host of each family (one place: applies here and over ssh). */
#define RSCRIPT_STATE_FREEBSD	"/var/db/ntune-agentless"
#define RSCRIPT_STATE_LINUX	"/var/lib/ntune-agentless"


/* Where a runtime knob is persisted (with rscript.persist). */
enum rscript_file {
	RSCRIPT_FILE_SYSCTL,	/* the OS's: /etc/sysctl.conf.local, /etc/sysctl.d/90-ntune.conf */
	RSCRIPT_FILE_LOADER,	/* OPNsense: every tunable into /boot/loader.conf.local */
	RSCRIPT_FILE_NONE,	/* none holds it (a knob set through `ntune knob`) */
};

struct rscript_knob {
	const char *name;
	const char *value;	/* wanted */
	const char *old;	/* as the controller read it (runtime knobs); NULL for boot ones */
	bool	boot;		/* FreeBSD loader tunable: loader.conf.local or nextboot(8) */
	/* Read, set and restored by `"$ntune_self" knob get|set` (rscript.self), in_netns: --netns. */
	bool	via;
	bool	in_netns;
	enum rscript_file file;
};

struct rscript {
	enum os_platform os;	/* the family: OS_PLATFORM_FREEBSD (OPNsense, pfSense too) or _LINUX */
	const char *id;		/* journal entry: [A-Za-z0-9-]; NULL in confirm/revert = latest */
	const char *root;	/* prefix of every file ("" or NULL = /): tests and images */
	int	confirm_secs;	/* > 0: the dead-man job */
	bool	persist;	/* write the boot-time files */
	bool	trial_boot;	/* FreeBSD: loader tunables for one boot (nextboot -e) */
	const char *record;	/* apply: the lines of ENTRY/entry (NULL: none), checked by the caller */
	const char *state;	/* the journal directory; NULL: the DUT's own (rscript_state_dir) */
	/* A run on this machine: ntune there, for the knobs with via (a plain path, checked); NULL */
	const char *self;
	const char *netns;	/* the namespace of the knobs with in_netns ([A-Za-z0-9_.-]) */
};

/* Exit statuses of the apply script besides 0 (applied). */
enum {
	RSCRIPT_EX_JOURNAL = 3,	/* cannot make the journal entry */
	RSCRIPT_EX_CHANGED = 4,	/* an original changed since the controller read it */
	RSCRIPT_EX_DEADMAN = 5,	/* the dead-man job did not start */
	RSCRIPT_EX_SET = 6,	/* a set failed (everything restored) */
	RSCRIPT_EX_READBACK = 7,	/* a value read back differs (everything restored) */
	RSCRIPT_EX_PERSIST = 8,	/* a boot-time file could not be written (everything restored) */
	RSCRIPT_EX_NEXTBOOT = 9,	/* a nextboot(8) configuration is already waiting */
	RSCRIPT_EX_NOENTRY = 10,	/* confirm/revert: no such entry */
	RSCRIPT_EX_WRITE = 11,	/* a write before the first set failed (nothing set) */
	RSCRIPT_EX_PARTIAL = 12,	/* some originals could not be put back: the entry is partial */
	RSCRIPT_EX_REVERTING = 13,	/* confirm/revert: the dead-man (or a revert) came first */
	RSCRIPT_EX_LOCKED = 14,	/* another change runs on the DUT */
	RSCRIPT_EX_PENDING = 15,	/* another entry is neither confirmed nor reverted */
	RSCRIPT_EX_NOTRIAL = 16,	/* confirm: this boot did not have the trial (kenv): not kept */
};

/* Is name a knob name these scripts accept? -1 + cause naming it when not. */
int	 rscript_check_name(const char *name, char **cause);
/* Is value (of name) one they can write and restore? -1 + cause when not. */
int	 rscript_check_value(const char *name, const char *value, const char *what, char **cause);
/* Is root (NULL or "": /) a plain path, letters, digits and _ . / -? -1 + cause when not. */
int	 rscript_check_root(const char *root, char **cause);
/* The journal directory on the DUT (malloc'd). */
char	*rscript_state_dir(const struct rscript *);
/* /proc/sys path of a Linux knob (malloc'd). */
char	*rscript_proc_path(const char *name);
/* The apply script (malloc'd), or NULL + cause when a name or value is refused. */
char	*rscript_apply(const struct rscript *, const struct rscript_knob *, size_t n, char **cause);
/* The boot files (with the root prefix) the apply of k writes (not a trial's keep), added to *v. */
void	 rscript_persisted(const struct rscript *, const struct rscript_knob *, size_t n, char ***v,
	    size_t *nv);
/* confirm / revert of entry s->id (NULL: latest); malloc'd. */
char	*rscript_confirm(const struct rscript *);
char	*rscript_revert(const struct rscript *);
/*
 * Does the apply of s leave a boot guard (persisted, with a dead-man)? Its entry has a
 * lease of confirm_secs: the dead-man job restores the originals when the lease runs
 * out, and after every boot until then a hook the apply wrote gives the entry its
 * lease again from that boot and waits as the dead-man does: on Linux the systemd unit
 * /etc/systemd/system/ntune-agentless-guard.service (wanted by multi-user.target); on
 * FreeBSD and pfSense /usr/local/etc/rc.d/ntune_agentless_guard.sh, on OPNsense
 * /usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard (each starts the guard
 * with daemon(8)). confirm or revert stand it down, and the hook goes with the last
 * entry that needed it.
 */
bool	 rscript_guarded(const struct rscript *);
/*
 * history: every entry (s->id NULL) or one, as lines of tab-separated fields: "@ ID", then
 * "state S", "confirmed", "trial" (its keep waits), "reverted WHO", "deadline SECS", "left
 * NAME=VALUE" and the lines of ENTRY/entry; last "now SECS" (the DUT's clock). Writes nothing.
 * malloc'd.
 */
char	*rscript_history(const struct rscript *);
/* A guarded entry's lease renewed from now (the bench before each run); malloc'd. */
char	*rscript_renew(const struct rscript *);

#endif
