/*
 * Applying profiles safely, with one engine: the POSIX sh programs of remote_script.h,
 * run by this machine's sh or over ssh on a DUT (dut_apply.h), each journal
 * entry a directory (remote_script.h) that apply, confirm, revert, history, diff,
 * verify and export read. This header: what a change is, the tunables read and
 * written here (the hidden `ntune knob` command, verify, diff, lint), and the lines
 * around ntune's block in a boot file. IDs sort by time: 20261202T160530Z-12345-1.
 */
#ifndef NTUNE_APPLY_H
#define NTUNE_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct kb;

#define APPLY_ID_MAX	40

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
	bool	in_netns;	/* written inside the entry's namespace */
	enum apply_action action;
};
/*
 * A change as JSON: {"name", "old" (null: unread), "new", "action", "netns"}; an entry's
 * "changes" (history ID) and the "changes" of `apply --json` are arrays of these.
 */
json_t	*apply_change_json(const struct apply_change *);
/* Frees n changes and the array itself. */
void	 apply_changes_free(struct apply_change *, size_t n);

/* One journal entry as history shows it. */
struct apply_entry {
	char	id[APPLY_ID_MAX];
	char	*created;	/* ISO 8601 UTC */
	char	*state;		/* applying | applied | confirmed | failed | reverted | partial */
	char	*profile;
	char	*netns;		/* or NULL */
	char	*reverted_by;	/* "user", "dead-man timer", "boot guard" or NULL */
	int	nchanges;
	bool	confirm_pending;
	bool	confirmed;
	long long deadline;	/* epoch seconds, 0 = no dead-man */
};

/* Is os (an os_platform_name()) FreeBSD or one built on it (OPNsense, pfSense)? */
bool	 apply_os_is_bsd(const char *os);
/* os_platform_name() of this machine (os_platform_from_root for the distribution). */
const char *apply_detect_os(void);
/*
 * This machine's journal directory: override, else $NTUNE_STATE_DIR, else the place a DUT of
 * its family has (remote_script.h: /var/db/ntune-agentless, /var/lib/ntune-agentless).
 */
const char *apply_state_dir(const char *override);

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

/* The lines around ntune's block in a boot file (the programs' ntune_b, ntune_e). */
#define APPLY_BLOCK_BEGIN	"# BEGIN ntune: managed by `ntune apply`; edits inside this block are lost"
#define APPLY_BLOCK_END		"# END ntune"

#endif
