/*
 * The one apply engine: the controller reads the originals with the host's own
 * commands (FreeBSD `sysctl -e NAME...`, Linux the files under /proc/sys), checks
 * them, and runs the programs of remote_script.h there: over ssh on a DUT that has
 * no ntune, or with this machine's sh for `ntune apply` here (dut->local,
 * agentless_local). On a DUT only sysctl knobs and (FreeBSD) loader tunables; here
 * also the knobs sh cannot set itself, through `ntune knob` (o->self).
 */
#ifndef NTUNE_APPLY_AGENTLESS_H
#define NTUNE_APPLY_AGENTLESS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "apply/apply.h"
#include "apply/remote_script.h"

struct kb;
struct kb_profile;
struct remote_host;

struct agentless_opts {
	const struct remote_host *dut;
	enum os_platform os;	/* the family (dut_probe): OS_PLATFORM_FREEBSD or _LINUX */
	const char *root;	/* prefix of the DUT's files and journal ("" = /) */
	int	confirm_secs;
	bool	persist;
	bool	trial_boot;
	bool	plan;		/* read the originals, make the script, change nothing (= apply --dry-run) */
	/*
	 * Issue 34's one engine: the same programs run on this machine (dut->local; agentless_local
	 * fills these). The journal directory: state_dir; NULL: on a DUT its own (rscript_state_dir),
	 * on this machine apply_state_dir(NULL) ($NTUNE_STATE_DIR, else the DUT's place).
	 */
	const char *state_dir;
	const char *netns;	/* Linux, here: the knobs apply_in_netns() names are read and set in it */
	/*
	 * ntune here (an absolute plain path, rscript_check_root's characters): the knobs sh cannot
	 * set itself (if.*, cpu.*, ifconfig/ethtool/sysfs placements, and with netns every knob
	 * apply_in_netns() names) are read, set and restored by `SELF knob get|set [--netns NS]`
	 * and not persisted; NULL (a DUT): such a knob is refused.
	 */
	const char *self;
	/* The distribution (OPNsense: every tunable into loader.conf.local's block); 0: os. */
	enum os_platform platform;
	/* Here, another OS than this machine's (--os): only its boot files, a runtime knob refused. */
	bool	files_only;
};

struct agentless_result {
	char	id[APPLY_ID_MAX];
	char	*script;	/* the apply script (also when plan) */
	struct apply_change *changes;	/* in_netns: read and set in o->netns */
	size_t	nchanges;
	/* What `apply --json` reports (src/cmd/apply.c), filled also when plan: */
	char	**persisted;	/* the boot files the apply writes (with the root prefix) */
	size_t	npersisted;
	char	**reboot;	/* loader tunables that change at the next boot ("reboot_needed") */
	size_t	nreboot;
	char	**not_persisted;	/* set at runtime only, no boot file holds them (via `ntune knob`) */
	size_t	nnot_persisted;
	int	deadman_pid;	/* the dead-man job's pid when the apply started one (else 0) */
	char	*said;		/* what the DUT's script printed */
	bool	unsure;		/* failed: the connection broke (or timed out) while the script ran */
	int	status;		/* the program's exit status (RSCRIPT_EX_*), -1 when it timed out */
};
/*
 * o for this machine (apply, confirm, revert, history without --dut): h the local host (filled
 * here), os an os_platform_name() (NULL: this machine's, apply_detect_os(); another one only
 * writes the boot files under root: its runtime knobs are refused), the journal in
 * apply_state_dir(state_dir), self this ntune (util_self_exe), netns (NULL: none). The
 * caller sets root, confirm_secs, persist, trial_boot and plan. -1 + cause.
 */
int	 agentless_local(struct agentless_opts *, struct remote_host *h, const char *os,
	    const char *state_dir, const char *netns, char **cause);
/*
 * The settings of o's programs on entry id (NULL: the latest): the journal in o->state_dir,
 * else here apply_state_dir(NULL), else the DUT's own; apply: with o->self and o->netns.
 */
struct rscript agentless_rscript(const struct agentless_opts *, const char *id, bool apply);
/* Did the apply program stop before its first set (exit 2: nothing changed)? */
bool	 agentless_nothing_set(int status);

/*
 * The values in out, the DUT's answer to a read of names (FreeBSD: `sysctl -e` lines
 * name=value; Linux: one `=VALUE` line per name, in order, `!` for one it cannot read) into
 * v[n] (NULL where not printed, malloc'd); -1 + cause naming url on a line that was not asked for.
 */
int	 agentless_parse_values(enum os_platform, const char *url, const char *out, char *const names[],
	    size_t n, char **v, char **cause);
/*
 * The current values of names there: all, or an error naming the first missing
 * one; tolerant: a name the DUT does not have is a NULL value.
 */
int	 agentless_read(const struct agentless_opts *, char *const names[], size_t n, bool tolerant,
	    char ***values, char **cause);
/*
 * Can agentless mode apply every knob of p on a DUT of os? Each name and value checked as
 * the scripts would (rscript_check_name/_value) and each placement (sysctl and loader
 * only), before anything is read or sent: -1 + cause "FILE:LINE: ..." for the first one not.
 * A run here (o->self) checks its knobs in agentless_apply.
 */
int	 agentless_check(const struct kb *, const struct kb_profile *p, enum os_platform os, char **cause);
/*
 * Applies p there (or only plans it). The program runs in a process group of its own and ends
 * its writes (or undoes them) even when ntune dies; a command here blocks SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT around the call (as local_apply.c did) so that it also reports the outcome
 * (t4101: a signal mid-apply waits until every write is done). res->status: the exit status
 * (RSCRIPT_EX_*; 128+N when killed by signal N, e.g. 137 by the test hook).
 */
int	 agentless_apply(const struct kb *, const struct kb_profile *p, const struct agentless_opts *,
	    struct agentless_result *, char **cause);
void	 agentless_result_free(struct agentless_result *);
/* Confirms / reverts entry id (NULL: the latest); *said: the DUT's line. */
int	 agentless_confirm(const struct agentless_opts *, const char *id, char **said, char **cause);
int	 agentless_revert(const struct agentless_opts *, const char *id, char **said, char **cause);
/*
 * Renews the lease of a guarded entry id (rscript_renew: its dead-man and boot guard
 * wait confirm_secs from now again); nothing for an entry without one. -1 + cause when
 * the entry is gone or was reverted already (by its dead-man or boot guard).
 */
int	 agentless_renew(const struct agentless_opts *, const char *id, char **cause);
/*
 * Reads every knob of p back: 0 all match, 1 some differ (*diff: "name wants W,
 * has A; ..."), -1 + cause when they cannot be read.
 */
int	 agentless_verify(const struct kb *, const struct kb_profile *p, const struct agentless_opts *,
	    char **diff, char **cause);

/*
 * Runs script there: 0 when it exited 0 (its output in *out when out is not NULL), else -1 +
 * cause saying what (cannot WHAT on URL (journal entry ID there): why).
 */
int	 agentless_run(const struct agentless_opts *, const char *script, const char *what,
	    const char *id, char **out, char **cause);
/* Is id (NULL: the latest) a journal entry's name, [A-Za-z0-9-]? -1 + cause when not. */
int	 agentless_check_id(const char *id, char **cause);

/*
 * The DUT's ENTRY/entry of an apply (remote_script.h): its lines, malloc'd; netns (a run here
 * with one, else NULL): a line "netns NAME", and "netns" after each change made in it.
 */
char	*agentless_record(const char *profile, enum os_platform, const char *netns,
	    const struct apply_change *, size_t n);

/* A journal entry of a DUT as history reads it. */
struct agentless_entry {
	struct apply_entry e;	/* as history lists it; deadline on this machine's clock */
	char	*os;
	struct apply_change *changes;
	size_t	nchanges;
	char	**left;		/* a partial entry's knobs left: NAME=VALUE */
	size_t	nleft;
	bool	trial_pending;	/* a --trial-boot whose tunables confirm has not kept yet */
};
/* Every entry on the DUT (id NULL) or that one (none: -1 + cause). */
int	 agentless_history(const struct agentless_opts *, const char *id, struct agentless_entry **,
	    size_t *n, char **cause);
/* The lines history's program printed (out is changed); -1 + cause naming url. */
int	 agentless_parse_history(const char *url, char *out, struct agentless_entry **, size_t *n,
	    char **cause);
/*
 * An entry as a JSON document, the keys of the C engine's journal (apply.h) and "dut", "left";
 * "trial": {"state": "pending"} while a trial waits for its confirm, else null.
 */
json_t	*agentless_entry_json(const struct agentless_entry *, const char *url);
void	 agentless_entries_free(struct agentless_entry *, size_t n);
/* name=new lines, one a change: the profile an entry applied (malloc'd). */
char	*apply_changes_profile(const struct apply_change *, size_t n);
/*
 * The profile arg names (kb_profile_load): a file, else a journal entry's id on o->dut (a DUT,
 * or this machine: agentless_local; o NULL: this machine): its name=new lines, named by the id.
 */
struct kb_profile *apply_profile_or_entry(const char *arg, const struct agentless_opts *o,
	    char **cause);

#endif
