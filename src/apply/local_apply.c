/*
 * apply. The order is what makes it safe: read every current value, write the
 * journal (fsync + rename), only then change anything; on the first failed write
 * restore what was written. Revert (revert.c) writes every journalled old value
 * back, so it is exact even when apply died half-way.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "kb/kb.h"
#include "util/util.h"

void
apply_changes_free(struct apply_change *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].old);
		free(v[i].want);
	}
	free(v);
}

void
apply_result_free(struct apply_result *r)
{
	apply_changes_free(r->changes, r->nchanges);
	util_strv_free(r->persisted, r->npersisted);
	util_strv_free(r->reboot, r->nreboot);
	util_strv_free(r->not_persisted, r->nnot_persisted);
	memset(r, 0, sizeof *r);
}

/* Does the => / =< condition ask for a write given the current value? */
static int
op_wants(const struct kb_entry *e, const char *cur, bool *wants, char **cause)
{
	long long want, have;

	if (e->op == KB_OP_SET) {
		*wants = true;
		return 0;
	}
	if (kb_parse_number(e->value, &want) == -1 || cur == NULL || kb_parse_number(cur, &have) == -1) {
		util_cause(cause, "%s:%d: '%s%s%s' needs numbers (current value '%s')", e->file, e->line,
		    e->name, kb_op_text(e->op), e->value, cur ? cur : "?");
		return -1;
	}
	*wants = e->op == KB_OP_RAISE ? want > have : want < have;
	return 0;
}

/*
 * Test hooks: NTUNE_TEST_KILL_AFTER=N dies by SIGKILL after N runtime writes
 * (0: right after the journal is written), NTUNE_TEST_PAUSE_AFTER=N sleeps a
 * second there (to deliver signals mid-apply), NTUNE_TEST_FAIL_WRITE=N makes the
 * Nth runtime write fail without writing (see set_one).
 */
static void
test_hook(int written)
{
	const char *s = getenv("NTUNE_TEST_KILL_AFTER");

	if (s != NULL && *s != '\0' && atoi(s) == written) {
		fflush(NULL);
		kill(getpid(), SIGKILL);
	}
	s = getenv("NTUNE_TEST_PAUSE_AFTER");
	if (s != NULL && *s != '\0' && atoi(s) == written)
		sleep(1);
}

/* One runtime write of c, the nth of this apply. */
static int
set_one(struct apply_access *acc, const struct apply_change *c, size_t nth, char **cause)
{
	const char *s = getenv("NTUNE_TEST_FAIL_WRITE");

	if (s != NULL && *s != '\0' && strtoull(s, NULL, 10) == nth) {
		util_cause(cause, "write %zu failed on purpose (NTUNE_TEST_FAIL_WRITE)", nth);
		return -1;
	}
	return apply_access_set_in(acc, c->in_netns, c->name, c->want, cause);
}

static json_t *
journal_doc(const char *id, const struct kb_profile *p, const struct apply_opts *o, const char *os,
    const struct apply_result *r, const struct apply_file *files, size_t nfiles)
{
	json_t *doc, *arr, *c;
	char when[UTIL_UTC_LEN], *old;
	size_t i, len;

	util_utc(0, false, when);
	doc = json_object();
	json_object_set_new(doc, "schema", json_integer(1));
	json_object_set_new(doc, "id", json_string(id));
	json_object_set_new(doc, "created", json_string(when));
	json_object_set_new(doc, "state", json_string("applying"));
	json_object_set_new(doc, "profile", json_string(p->path));
	json_object_set_new(doc, "os", json_string(os));
	json_object_set_new(doc, "netns", o->netns ? json_string(o->netns) : json_null());
	json_object_set_new(doc, "pid", json_integer(getpid()));
	arr = json_array();
	for (i = 0; i < r->nchanges; i++)
		json_array_append_new(arr, apply_change_json(&r->changes[i]));
	json_object_set_new(doc, "changes", arr);
	arr = json_array();
	for (i = 0; i < nfiles; i++) {
		c = json_object();
		json_object_set_new(c, "path", json_string(files[i].path));
		if (access(files[i].path, F_OK) == 0 &&
		    util_read_file(files[i].path, &old, &len, NULL) == 0) {
			json_object_set_new(c, "old", json_stringn(old, len));
			free(old);
		} else
			json_object_set_new(c, "old", json_null());
		json_array_append_new(arr, c);
	}
	json_object_set_new(doc, "files", arr);
	arr = json_array();
	for (i = 0; i < r->nreboot; i++)
		json_array_append_new(arr, json_string(r->reboot[i]));
	json_object_set_new(doc, "reboot_needed", arr);
	json_object_set_new(doc, "confirm_deadline", json_integer(0));
	json_object_set_new(doc, "confirmed", json_false());
	for (i = 0; i < r->nchanges && r->changes[i].action != APPLY_TRIAL_BOOT; i++)
		;
	if (i < r->nchanges) {
		c = json_object();
		json_object_set_new(c, "state", json_string("pending"));
		json_object_set_new(c, "root", json_string(o->root != NULL ? o->root : ""));
		json_object_set_new(doc, "trial", c);
	}
	return doc;
}

/* Resolves the profile into changes: one per name (the last entry wins). */
static int
plan(const struct kb *kb, const struct kb_profile *p, const char *os, const struct apply_opts *o,
    struct apply_access *acc, struct apply_result *r, char **cause)
{
	const struct kb_entry *e;
	const struct kb_knob *k;
	struct apply_change *c;
	char *cur, *why = NULL;
	bool wants, boot;
	size_t i;

	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (kb_profile_get(p, e->name) != e)
			continue;	/* a later line sets it again */
		k = kb_find(kb, e->name, os);
		boot = apply_os_is_bsd(os) && k != NULL && k->placement == KB_PLACE_LOADER;
		if (apply_os_is_bsd(os) && k == NULL) {
			enum os_tunable_kind kind;

			/* Not in the KB: the kernel says whether it is boot-time only (RDTUN, kenv). */
			if (apply_access_kind(acc, e->name, &kind) == 0 && kind == OS_TUNABLE_LOADER)
				boot = true;
		}
		cur = NULL;
		if (apply_access_get(acc, kb, e->name, &cur, &why) == -1) {
			if (!boot) {
				util_cause(cause, "%s:%d: cannot read '%s': %s", e->file, e->line,
				    e->name, why);
				free(why);
				return -1;
			}
			free(why);
			why = NULL;
		}
		if (!boot && op_wants(e, cur, &wants, cause) == -1) {
			free(cur);
			return -1;
		}
		r->changes = xreallocarray(r->changes, r->nchanges + 1, sizeof *r->changes);
		c = &r->changes[r->nchanges++];
		c->name = xstrdup(e->name);
		c->old = cur;
		c->want = xstrdup(e->value);
		c->in_netns = o->netns != NULL && apply_in_netns(kb, e->name);
		if (boot) {
			c->action = o->trial_boot ? APPLY_TRIAL_BOOT : APPLY_BOOT_ONLY;
			if (cur == NULL || !kb_value_equal(k, cur, e->value))
				r->reboot = util_strv_add(r->reboot, &r->nreboot, e->name);
		} else if (!wants)
			c->action = APPLY_SKIP_OP;
		else if (kb_value_equal(k, cur, e->value))
			c->action = APPLY_SKIP_SAME;
		else
			c->action = APPLY_SET;
	}
	return 0;
}

static int
rollback(struct apply_access *acc, const struct kb *kb, struct apply_result *r, size_t upto,
    char **failed)
{
	size_t i;
	char *why = NULL;
	int bad = 0;

	for (i = upto; i > 0; i--) {
		struct apply_change *c = &r->changes[i - 1];

		if (c->action != APPLY_SET || c->old == NULL)
			continue;
		if (apply_access_set_in(acc, c->in_netns, c->name, c->old, &why) == -1) {
			if (*failed == NULL)
				xasprintf(failed, "%s (%s)", c->name, why);
			free(why);
			why = NULL;
			bad++;
		}
	}
	return bad;
}

/*
 * Sets every APPLY_SET change in order; on a failure rolls back what was
 * written, records the state in the journal and says what happened: -1 + cause.
 */
static int
set_all(struct apply_access *acc, const struct kb *kb, struct apply_result *r, const char *state,
    json_t *doc, char **cause)
{
	char *why = NULL, *failed = NULL;
	size_t i, written = 0;

	for (i = 0; i < r->nchanges; i++) {
		struct apply_change *c = &r->changes[i];

		if (c->action != APPLY_SET)
			continue;
		if (set_one(acc, c, written + 1, &why) == -1) {
			int bad = rollback(acc, kb, r, i, &failed);
			char *what = NULL;

			/* The OS layer's cause says what went wrong; the knob is ours to name. */
			xasprintf(&what, "cannot set '%s' to '%s': %s", c->name, c->want,
			    why != NULL ? why : "failed");
			if (bad == 0)
				util_cause(cause, "%s (restored %zu written before it)", what, written);
			else
				util_cause(cause, "%s; restoring failed for %d (first: %s), run "
				    "`ntune revert %s`", what, bad, failed, r->id);
			free(what);
			apply_set_state(doc, bad == 0 ? "failed" : "applying", why);
			apply_journal_write(state, r->id, doc, NULL);
			free(why);
			free(failed);
			return -1;
		}
		written++;
		test_hook((int)written);
	}
	return 0;
}

int
apply_profile(const struct kb *kb, const struct kb_profile *p, const struct apply_opts *o,
    struct apply_result *r, char **cause)
{
	const char *os = o->os != NULL ? o->os : apply_detect_os();
	const char *state = apply_state_dir(o->state_dir);
	struct apply_access *acc = NULL;
	struct apply_file *files = NULL;
	size_t nfiles = 0, i;
	json_t *doc = NULL;
	char *why = NULL, *failed = NULL;
	int lock = -1, rc = -1;
	sigset_t block, saved;
	bool blocked = false;

	memset(r, 0, sizeof *r);
	if (o->trial_boot && !apply_os_is_bsd(os)) {
		util_cause(cause, "a one-boot trial needs FreeBSD's nextboot(8); '%s' has no loader tunables",
		    os);
		return -1;
	}
	if (!o->dry_run && (lock = apply_lock(state, false, cause)) == -1)
		return -1;
	if ((acc = apply_access_open(o->netns, cause)) == NULL)
		goto out;
	if (plan(kb, p, os, o, acc, r, cause) == -1)
		goto out;
	if (o->persist && apply_persist_files(kb, r->changes, r->nchanges, os, o->root, o->netns,
	    &files, &nfiles, &r->not_persisted, &r->nnot_persisted, cause) == -1)
		goto out;
	for (i = 0; i < nfiles; i++)
		r->persisted = util_strv_add(r->persisted, &r->npersisted, files[i].path);
	if (o->dry_run) {
		rc = 0;
		goto out;
	}
	/* Interrupts and hang-ups wait until journal and writes are all done (or undone). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &saved);
	blocked = true;
	if (apply_new_id(state, r->id, sizeof r->id, cause) == -1)
		goto out;
	doc = journal_doc(r->id, p, o, os, r, files, nfiles);
	if (apply_journal_write(state, r->id, doc, cause) == -1) {
		r->id[0] = '\0';
		goto out;
	}
	test_hook(0);
	if (set_all(acc, kb, r, state, doc, cause) == -1)
		goto out;
	for (i = 0; i <= nfiles; i++) {
		/* Last, the one-boot trial: nextboot(8) after every file is written. */
		if (i < nfiles ? apply_write_file(files[i].path, files[i].text, &why) == -1 :
		    apply_trial_start(o->root, r->changes, r->nchanges, &why) == -1) {
			rollback(acc, kb, r, r->nchanges, &failed);
			apply_restore_files(json_object_get(doc, "files"), NULL);
			util_cause(cause, "cannot %s: %s (runtime changes restored)",
			    i < nfiles ? "persist" : "start the one-boot trial", why);
			apply_set_state(doc, "failed", why);
			apply_journal_write(state, r->id, doc, NULL);
			goto out;
		}
	}
	apply_set_state(doc, "applied", NULL);
	if (o->confirm_secs > 0) {
		json_object_set_new(doc, "confirm_deadline",
		    json_integer((json_int_t)time(NULL) + o->confirm_secs));
	}
	if (apply_journal_write(state, r->id, doc, cause) == -1)
		goto out;
	if (o->confirm_secs > 0) {
		apply_unlock(lock);
		lock = -1;
		if (apply_deadman_start(state, r->id, o->self_exe, &r->deadman_pid, &why) == -1) {
			/* Without its safety net the change must not stay. */
			apply_revert(state, r->id, NULL, 0, NULL);
			util_cause(cause, "cannot start the dead-man timer: %s (change reverted)", why);
			goto out;
		}
	}
	rc = 0;
out:
	if (blocked)
		sigprocmask(SIG_SETMASK, &saved, NULL);
	free(why);
	free(failed);
	if (doc != NULL)
		json_decref(doc);
	apply_files_free(files, nfiles);
	apply_access_close(acc);
	apply_unlock(lock);
	return rc;
}
