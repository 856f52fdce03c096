/*
 * revert and confirm: write every journalled old value back (last written
 * first, like an undo stack) and the boot files' old text; mark a change that
 * waits for its dead-man timer confirmed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "util/util.h"

/*
 * Restores files from the journal's "files" (old text, or removal when there was
 * none), last first: a confirmed trial appends the text it replaced.
 */
int
apply_restore_files(json_t *files, char **cause)
{
	json_t *f;
	size_t i;
	const char *path, *old;
	int rc = 0;

	for (i = json_array_size(files); i > 0; i--) {
		f = json_array_get(files, i - 1);
		path = json_string_value(json_object_get(f, "path"));
		old = json_string_value(json_object_get(f, "old"));
		if (path == NULL)
			continue;
		if (old != NULL) {
			if (apply_write_file(path, old, rc == 0 ? cause : NULL) == -1)
				rc = -1;
		} else if (unlink(path) == -1 && errno != ENOENT) {
			if (rc == 0)
				util_cause(cause, "cannot remove '%s': %s", path, strerror(errno));
			rc = -1;
		}
	}
	return rc;
}

bool
apply_entry_revertable(json_t *doc)
{
	const char *s = json_string_value(json_object_get(doc, "state"));

	return s != NULL && (strcmp(s, "applied") == 0 || strcmp(s, "applying") == 0);
}

bool
apply_entry_pending(json_t *doc)
{
	return apply_entry_revertable(doc) && json_integer_value(json_object_get(doc, "confirm_deadline")) > 0 &&
	    !json_is_true(json_object_get(doc, "confirmed"));
}

bool
apply_trial_pending(json_t *doc)
{
	const char *s = json_string_value(json_object_get(json_object_get(doc, "trial"), "state"));

	return apply_entry_revertable(doc) && s != NULL && strcmp(s, "pending") == 0;
}

/* What `confirm` without an id picks: a dead-man timer running, or a trial to keep. */
static bool
entry_confirmable(json_t *doc)
{
	return apply_entry_pending(doc) || apply_trial_pending(doc);
}

static bool
netns_exists(const char *name)
{
	char path[300];

	if (strchr(name, '/') != NULL)
		return true;	/* let apply_access_open refuse it */
	snprintf(path, sizeof path, "/run/netns/%s", name);
	return access(path, F_OK) == 0;
}

/* Counts one failure of a revert; the first cause is the one kept (why is consumed). */
static void
failed(char **first, char *why, int *bad)
{
	if (*first == NULL)
		*first = why;
	else
		free(why);
	(*bad)++;
}

/* Reverts holding the lock. */
int
apply_revert_locked(const char *state, const char *id, const char *why_state, char **cause)
{
	json_t *doc, *changes, *c;
	struct apply_access *acc;
	const char *netns, *name, *old, *action;
	char *why = NULL, *first = NULL, *msg;
	size_t i;
	int bad = 0;
	bool gone = false, in_ns;

	if ((doc = apply_journal_load(state, id, cause)) == NULL)
		return -1;
	if (!apply_entry_revertable(doc)) {
		util_cause(cause, "entry '%s' is %s, nothing to revert", id,
		    json_string_value(json_object_get(doc, "state")));
		json_decref(doc);
		return -1;
	}
	netns = json_string_value(json_object_get(doc, "netns"));
	if (netns != NULL && !netns_exists(netns)) {
		/* The namespace is gone, and its settings with it: restore the host's part. */
		gone = true;
		netns = NULL;
	}
	if ((acc = apply_access_open(netns, cause)) == NULL) {
		json_decref(doc);
		return -1;
	}
	changes = json_object_get(doc, "changes");
	/* Last written first, like an undo stack. */
	for (i = json_array_size(changes); i > 0; i--) {
		c = json_array_get(changes, i - 1);
		name = json_string_value(json_object_get(c, "name"));
		old = json_string_value(json_object_get(c, "old"));
		action = json_string_value(json_object_get(c, "action"));
		in_ns = json_is_true(json_object_get(c, "netns"));
		if (name == NULL || old == NULL || action == NULL || strcmp(action, "set") != 0 ||
		    (gone && in_ns))
			continue;
		if (apply_access_set_in(acc, in_ns, name, old, &why) == -1) {
			xasprintf(&msg, "cannot restore '%s' to '%s': %s", name, old, why);
			free(why);
			why = NULL;
			failed(&first, msg, &bad);
		}
	}
	apply_access_close(acc);
	/* A trial not yet booted must not be booted: remove the nextboot(8) configuration. */
	if (apply_trial_pending(doc) && apply_trial_drop(&why) == -1) {
		failed(&first, why, &bad);
		why = NULL;
	}
	if (apply_restore_files(json_object_get(doc, "files"), bad == 0 ? &why : NULL) == -1) {
		failed(&first, why, &bad);
		why = NULL;
	}
	if (bad > 0) {
		util_cause(cause, "%s%s", first, bad > 1 ? " (and more)" : "");
		free(first);
		json_decref(doc);
		return -1;
	}
	apply_set_state(doc, "reverted", NULL);
	json_object_set_new(doc, "reverted_by", json_string(why_state));
	if (json_object_get(doc, "trial") != NULL)
		json_object_set_new(json_object_get(doc, "trial"), "state", json_string("reverted"));
	if (gone)
		json_object_set_new(doc, "note", json_string("the network namespace was gone: only "
		    "host settings were restored"));
	if (apply_journal_write(state, id, doc, cause) == -1) {
		json_decref(doc);
		return -1;
	}
	json_decref(doc);
	return 0;
}

int
apply_revert(const char *state_dir, const char *id, char *done_id, size_t len, char **cause)
{
	const char *state = apply_state_dir(state_dir);
	char found[APPLY_ID_MAX];
	int lock, rc;

	if ((lock = apply_lock(state, false, cause)) == -1)
		return -1;
	if (id == NULL) {
		if (apply_find_latest(state, apply_entry_revertable, found, sizeof found, cause) == -1) {
			if (cause != NULL && *cause == NULL)
				util_cause(cause, "nothing to revert in '%s/journal'", state);
			apply_unlock(lock);
			return -1;
		}
		id = found;
	}
	rc = apply_revert_locked(state, id, "user", cause);
	if (rc == 0 && done_id != NULL)
		snprintf(done_id, len, "%s", id);
	apply_unlock(lock);
	return rc;
}

/* Keeps the entry's trial if this boot had it; 1 kept, 0 still waiting (cause says why), -1 error. */
static int
confirm_trial(json_t *doc, char **kept, char **cause)
{
	int rc;

	if ((rc = apply_trial_in_effect(json_object_get(doc, "changes"), cause)) != 1)
		return rc;
	if (apply_trial_persist(doc, kept, cause) == -1)
		return -1;
	json_object_set_new(json_object_get(doc, "trial"), "state", json_string("confirmed"));
	return 1;
}

int
apply_confirm(const char *state_dir, const char *id, char *done_id, size_t len, char **kept,
    bool *trial_waiting, char **cause)
{
	const char *state = apply_state_dir(state_dir);
	char found[APPLY_ID_MAX], *why = NULL;
	json_t *doc;
	int lock, rc = -1, trial = 1;
	bool timer;

	*kept = NULL;
	*trial_waiting = false;
	if ((lock = apply_lock(state, true, cause)) == -1)
		return -1;
	if (id == NULL) {
		if (apply_find_latest(state, entry_confirmable, found, sizeof found, cause) == -1) {
			if (cause != NULL && *cause == NULL)
				util_cause(cause, "no change is waiting for confirmation");
			apply_unlock(lock);
			return -1;
		}
		id = found;
	}
	if ((doc = apply_journal_load(state, id, cause)) == NULL) {
		apply_unlock(lock);
		return -1;
	}
	timer = apply_entry_pending(doc);
	if (!timer && !apply_trial_pending(doc)) {
		util_cause(cause, "entry '%s' is not waiting for confirmation (%s)", id,
		    json_string_value(json_object_get(doc, "state")));
		goto out;
	}
	if (apply_trial_pending(doc) && (trial = confirm_trial(doc, kept, &why)) != 1) {
		if (trial == -1 || !timer) {
			util_cause(cause, "%s: %s", id, why);
			goto out;
		}
		*trial_waiting = true;	/* the timer is stopped; the trial waits for its boot */
	}
	if (timer)
		json_object_set_new(doc, "confirmed", json_true());
	rc = apply_journal_write(state, id, doc, cause);
	if (rc == 0 && done_id != NULL)
		snprintf(done_id, len, "%s", id);
out:
	if (rc == -1) {
		free(*kept);
		*kept = NULL;
	}
	free(why);
	json_decref(doc);
	apply_unlock(lock);
	return rc;
}
