/*
 * Applying profiles safely: a journal written (fsync + atomic rename) before
 * anything changes, all-or-nothing runtime writes, persistence in marked blocks
 * of the files the OS reads at boot, revert of any journal entry (also after a
 * crash half-way), and the dead-man timer of `apply --confirm SECS`.
 *
 * State: $NTUNE_STATE_DIR (default /var/lib/ntune) holds journal/<ID>.json and
 * the lock file. IDs sort by time: 20261202T160530Z-0001.
 */
#ifndef NTUNE_APPLY_H
#define NTUNE_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <jansson.h>

struct kb;
struct kb_profile;

#define APPLY_ID_MAX	40

struct apply_opts {
	const char *state_dir;	/* NULL: $NTUNE_STATE_DIR or /var/lib/ntune */
	const char *root;	/* persistence prefix ("" or NULL = /); tests and images */
	const char *netns;	/* NULL: this process's namespace; else netns-scoped and if.* knobs go there */
	const char *os;		/* an os_platform_name(); NULL = this machine */
	bool	dry_run;	/* plan only: read current values, write nothing */
	bool	persist;	/* write the boot-time files (default true in the CLI) */
	int	confirm_secs;	/* > 0: start the dead-man timer, revert unless confirmed */
	bool	trial_boot;	/* FreeBSD: loader tunables go to nextboot(8) for one boot, not to loader.conf.local */
	const char *self_exe;	/* ntune binary for systemd-run (NULL: /proc/self/exe) */
};

enum apply_action {
	APPLY_SET,		/* written at runtime */
	APPLY_SKIP_SAME,	/* already has the value */
	APPLY_SKIP_OP,		/* => / =< condition not met by the current value */
	APPLY_BOOT_ONLY,	/* loader tunable: persisted, needs a reboot */
	APPLY_TRIAL_BOOT,	/* loader tunable under --trial-boot: nextboot(8), kept by confirm */
};
/* The action's word in the journal and in `apply --json`: set, same, condition, boot, trial. */
const char *apply_action_name(enum apply_action);

struct apply_change {
	char	*name;
	char	*old;		/* value before (NULL if it could not be read) */
	char	*want;		/* value asked for */
	bool	in_netns;	/* written inside opts.netns */
	enum apply_action action;
};
/*
 * A change as JSON: {"name", "old" (null: unread), "new", "action", "netns"}; the
 * journal's "changes" and the "changes" of `apply --json` are arrays of these.
 */
json_t	*apply_change_json(const struct apply_change *);

struct apply_result {
	char	id[APPLY_ID_MAX];	/* journal entry, "" for a dry run */
	struct apply_change *changes;
	size_t	nchanges;
	char	**persisted;		/* files written */
	size_t	npersisted;
	char	**reboot;		/* knobs that need a reboot */
	size_t	nreboot;
	char	**not_persisted;	/* runtime-only settings no boot file holds (if.* on Linux) */
	size_t	nnot_persisted;
	int	deadman_pid;		/* > 0 when a dead-man process was started */
};

/*
 * Applies profile p: reads every current value, writes the journal, sets the
 * runtime knobs one by one; on the first failure restores what was written and
 * returns -1 with a cause naming the knob and the reason. kb may be NULL (then
 * placement and scope are guessed from the name). The result may be partly filled
 * on failure too: call apply_result_free() either way.
 */
int	 apply_profile(const struct kb *, const struct kb_profile *p, const struct apply_opts *,
	    struct apply_result *, char **cause);
/* Frees n changes and the array itself (an apply_result's or an agentless_result's). */
void	 apply_changes_free(struct apply_change *, size_t n);
void	 apply_result_free(struct apply_result *);

/* Restores the state before journal entry id (NULL = the latest one not reverted). */
int	 apply_revert(const char *state_dir, const char *id, char *done_id, size_t len, char **cause);
/*
 * Marks an entry confirmed so its dead-man timer does nothing (NULL = latest
 * pending), and keeps a one-boot trial (apply --trial-boot) that this boot had:
 * its tunables go into loader.conf.local (*kept: that file, else NULL). A trial
 * this boot did not have stays pending; it is an error (-1, cause) only when
 * nothing else was confirmed. *trial_waiting: the trial is still pending.
 */
int	 apply_confirm(const char *state_dir, const char *id, char *done_id, size_t len, char **kept,
	    bool *trial_waiting, char **cause);
/* The dead-man: waits until the entry's deadline, reverts unless confirmed. */
int	 apply_deadman_wait(const char *state_dir, const char *id, char **cause);

/* One journal entry as history shows it. */
struct apply_entry {
	char	id[APPLY_ID_MAX];
	char	*created;	/* ISO 8601 UTC */
	char	*state;		/* applying | applied | failed | reverted | dry-run */
	char	*profile;
	char	*netns;		/* or NULL */
	char	*reverted_by;	/* "user", "dead-man timer" or NULL */
	int	nchanges;
	bool	confirm_pending;
	bool	confirmed;
	long long deadline;	/* epoch seconds, 0 = no dead-man */
};
int	 apply_history(const char *state_dir, struct apply_entry **, size_t *, char **cause);
void	 apply_history_free(struct apply_entry *, size_t);
/* The journal document of an entry (jansson json_t *, caller decrefs), for --json. */
void	*apply_journal_read(const char *state_dir, const char *id, char **cause);

const char *apply_state_dir(const char *override);
/* Is os (an os_platform_name()) FreeBSD or one built on it (OPNsense, pfSense)? */
bool	 apply_os_is_bsd(const char *os);
/* os_platform_name() of this machine (os_platform_from_root for the distribution). */
const char *apply_detect_os(void);

/*
 * Reading tunables the way apply writes them: live values of names in this
 * namespace or (for netns-scoped and if.* names) in netns. Used by verify and diff.
 */
struct apply_access;
struct apply_access *apply_access_open(const char *netns, char **cause);
int	 apply_access_get(struct apply_access *, const struct kb *, const char *name, char **value,
	    char **cause);
int	 apply_access_set(struct apply_access *, const struct kb *, const char *name, const char *value,
	    char **cause);
void	 apply_access_close(struct apply_access *);
/* Does name go into the namespace (netns-scoped or if.*)? */
bool	 apply_in_netns(const struct kb *, const char *name);

/*
 * The lines around ntune's block in a boot file: persist.c's, and the agentless programs'
 * (ntune_b, ntune_e, which remote_script.c sets from these).
 */
#define APPLY_BLOCK_BEGIN	"# BEGIN ntune: managed by `ntune apply`; edits inside this block are lost"
#define APPLY_BLOCK_END		"# END ntune"

/* Replaces (or appends) ntune's marked block in text; block NULL removes it. Returns malloc'd text. */
char	*apply_replace_block(const char *text, const char *block);

#endif
