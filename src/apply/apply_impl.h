/* Internals of src/apply shared by its files (not for use outside src/apply/). */
#ifndef NTUNE_APPLY_IMPL_H
#define NTUNE_APPLY_IMPL_H

#include <jansson.h>

#include "apply/apply.h"
#include "os/os.h"

/* Writes name in the namespace (in_netns) or here, as the journal recorded it. */
int	 apply_access_set_in(struct apply_access *, bool in_netns, const char *name,
	    const char *value, char **cause);
/* How this machine's platform layer classes a tunable (loader-only, runtime...); -1 unknown. */
int	 apply_access_kind(struct apply_access *, const char *name, enum os_tunable_kind *);

/* The lock of the state dir; -1 + cause "another ntune apply is running (pid N)". */
int	 apply_lock(const char *state_dir, bool wait, char **cause);
void	 apply_unlock(int fd);

char	*apply_journal_path(const char *state_dir, const char *id);
int	 apply_journal_write(const char *state_dir, const char *id, json_t *doc, char **cause);
json_t	*apply_journal_load(const char *state_dir, const char *id, char **cause);
/* A fresh sortable id (holding the lock). */
int	 apply_new_id(const char *state_dir, char *id, size_t len, char **cause);
/* The newest id whose entry satisfies pred, or -1. */
int	 apply_find_latest(const char *state_dir, bool (*pred)(json_t *), char *id, size_t len,
	    char **cause);
int	 apply_mkdirs(const char *path, char **cause);
/* Sets a journal document's state (and error), stamping "updated". */
void	 apply_set_state(json_t *doc, const char *state, const char *error);
/* Does the entry still hold changes (applied, or applying when apply died)? */
bool	 apply_entry_revertable(json_t *doc);
/* Is it waiting for confirmation under a dead-man timer? */
bool	 apply_entry_pending(json_t *doc);
/* Reverts entry id; the caller holds the lock. why_state goes to "reverted_by". */
int	 apply_revert_locked(const char *state_dir, const char *id, const char *why_state,
	    char **cause);

/* Writes a boot file, making its directory (journal.c); restores the journal's "files" (revert.c). */
int	 apply_write_file(const char *path, const char *text, char **cause);
int	 apply_restore_files(json_t *files, char **cause);

/* One boot file ntune writes: the path (with root) and its whole new text. */
struct apply_file {
	char	*path;
	char	*text;
};
/* Which boot files hold the persisted changes for os. */
int	 apply_persist_files(const struct kb *, const struct apply_change *, size_t n, const char *os,
	    const char *root, const char *netns, struct apply_file **, size_t *nfiles,
	    char ***not_persisted, size_t *nnot, char **cause);
void	 apply_files_free(struct apply_file *, size_t);
/* The loader.conf.local (under root) holding names=values merged into ntune's block. */
int	 apply_persist_loader(const char *root, char **names, char **values, size_t n,
	    struct apply_file **, size_t *nfiles, char **cause);

/*
 * One-boot trials (trial.c): nextboot -e for each APPLY_TRIAL_BOOT change (refused
 * while another nextboot configuration waits under root); nextboot -D; does this
 * boot's kenv hold every trial value of a journal's changes (1 yes, 0 no + cause
 * saying which, -1 error); write them into loader.conf.local, recording the old
 * text in the journal's "files" (*path: the file written, NULL if none).
 */
int	 apply_trial_start(const char *root, const struct apply_change *, size_t n, char **cause);
int	 apply_trial_drop(char **cause);
int	 apply_trial_in_effect(json_t *changes, char **cause);
int	 apply_trial_persist(json_t *doc, char **path, char **cause);
/* Is a one-boot trial of the entry waiting for `confirm` (after its reboot)? */
bool	 apply_trial_pending(json_t *doc);

int	 apply_deadman_start(const char *state_dir, const char *id, const char *self_exe,
	    int *pid, char **cause);

#endif
