/* The journal: a JSON file per apply in $NTUNE_STATE_DIR/journal, its change records, the lock. */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "util/util.h"
#include "util/util_json.h"

const char *
apply_action_name(enum apply_action a)
{
	static const char *const names[] = { "set", "same", "condition", "boot", "trial" };

	return names[a];
}

json_t *
apply_change_json(const struct apply_change *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(c->name));
	json_object_set_new(o, "old", c->old != NULL ? json_string(c->old) : json_null());
	json_object_set_new(o, "new", json_string(c->want));
	json_object_set_new(o, "action", json_string(apply_action_name(c->action)));
	json_object_set_new(o, "netns", json_boolean(c->in_netns));
	return o;
}

const char *
apply_state_dir(const char *override)
{
	const char *s;

	if (override != NULL && *override != '\0')
		return override;
	if ((s = getenv("NTUNE_STATE_DIR")) != NULL && *s != '\0')
		return s;
	return "/var/lib/ntune";
}

int
apply_mkdirs(const char *path, char **cause)
{
	char *copy = xstrdup(path), *p;

	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
			util_cause(cause, "cannot create '%s': %s", copy, strerror(errno));
			free(copy);
			return -1;
		}
		*p = '/';
	}
	if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
		util_cause(cause, "cannot create '%s': %s", copy, strerror(errno));
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

/* Writes a boot file, making its directory first. */
int
apply_write_file(const char *path, const char *text, char **cause)
{
	char *dir = xstrdup(path), *slash;
	int rc = 0;

	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		rc = apply_mkdirs(dir, cause);
	}
	free(dir);
	if (rc == 0)
		rc = util_write_file_atomic(path, text, strlen(text), 0644, cause);
	return rc;
}

int
apply_lock(const char *state_dir, bool wait, char **cause)
{
	char *path, pidbuf[32];
	int fd;
	ssize_t n;

	if (apply_mkdirs(state_dir, cause) == -1)
		return -1;
	xasprintf(&path, "%s/lock", state_dir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	if (flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) == -1) {
		n = pread(fd, pidbuf, sizeof pidbuf - 1, 0);
		pidbuf[n > 0 ? n : 0] = '\0';
		util_cause(cause, "another ntune apply or revert is running (pid %s)",
		    *util_trim(pidbuf) ? util_trim(pidbuf) : "?");
		close(fd);
		return -1;
	}
	if (ftruncate(fd, 0) == 0) {
		n = snprintf(pidbuf, sizeof pidbuf, "%ld\n", (long)getpid());
		if (pwrite(fd, pidbuf, (size_t)n, 0) != n) {
			/* The pid is only informative. */
		}
	}
	return fd;
}

void
apply_unlock(int fd)
{
	if (fd != -1)
		close(fd);
}

static bool
valid_id(const char *id)
{
	size_t i;

	if (id == NULL || *id == '\0' || strlen(id) >= APPLY_ID_MAX)
		return false;
	for (i = 0; id[i] != '\0'; i++) {
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'A' && id[i] <= 'Z') || id[i] == '-'))
			return false;
	}
	return true;
}

char *
apply_journal_path(const char *state_dir, const char *id)
{
	char *path;

	xasprintf(&path, "%s/journal/%s.json", state_dir, id);
	return path;
}

int
apply_journal_write(const char *state_dir, const char *id, json_t *doc, char **cause)
{
	char *dir, *path, *text;
	int rc;

	xasprintf(&dir, "%s/journal", state_dir);
	rc = apply_mkdirs(dir, cause);
	free(dir);
	if (rc == -1)
		return -1;
	if ((text = util_json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER)) == NULL) {
		util_cause(cause, "cannot encode the journal");
		return -1;
	}
	path = apply_journal_path(state_dir, id);
	rc = util_write_file_atomic(path, text, strlen(text), 0600, cause);
	free(path);
	free(text);
	return rc;
}

json_t *
apply_journal_load(const char *state_dir, const char *id, char **cause)
{
	json_error_t err;
	json_t *doc;
	char *path;

	if (!valid_id(id)) {
		util_cause(cause, "bad journal id '%s'", id ? id : "");
		return NULL;
	}
	path = apply_journal_path(state_dir, id);
	if (access(path, F_OK) != 0) {
		util_cause(cause, "no journal entry '%s' in '%s/journal'", id, state_dir);
		free(path);
		return NULL;
	}
	doc = json_load_file(path, 0, &err);
	if (doc == NULL || !json_is_object(doc))
		util_cause(cause, "%s:%d: bad journal entry: %s", path, err.line, err.text);
	free(path);
	return doc;
}

void *
apply_journal_read(const char *state_dir, const char *id, char **cause)
{
	return apply_journal_load(apply_state_dir(state_dir), id, cause);
}

static int
idcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted ids of the journal. */
static int
list_ids(const char *state_dir, char ***ids, size_t *n, char **cause)
{
	DIR *d;
	struct dirent *de;
	char *dir;
	size_t len;

	*ids = NULL;
	*n = 0;
	xasprintf(&dir, "%s/journal", state_dir);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		if (errno == ENOENT)
			return 0;
		util_cause(cause, "cannot open '%s/journal': %s", state_dir, strerror(errno));
		return -1;
	}
	free(dir);
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = xstrndup(de->d_name, len - 5);
	}
	closedir(d);
	if (*n > 1)
		qsort(*ids, *n, sizeof **ids, idcmp);
	return 0;
}

int
apply_new_id(const char *state_dir, char *id, size_t len, char **cause)
{
	char stamp[UTIL_UTC_LEN], *path;
	int i;

	util_utc(0, true, stamp);
	for (i = 1; i < 10000; i++) {
		snprintf(id, len, "%s-%04d", stamp, i);
		path = apply_journal_path(state_dir, id);
		if (access(path, F_OK) != 0) {
			free(path);
			return 0;
		}
		free(path);
	}
	util_cause(cause, "too many journal entries this second");
	return -1;
}

int
apply_find_latest(const char *state_dir, bool (*pred)(json_t *), char *id, size_t len,
    char **cause)
{
	char **ids;
	size_t n, i;
	json_t *doc;
	int found = -1;

	if (list_ids(state_dir, &ids, &n, cause) == -1)
		return -1;
	for (i = n; i > 0 && found == -1; i--) {
		if ((doc = apply_journal_load(state_dir, ids[i - 1], NULL)) == NULL)
			continue;
		if (pred(doc)) {
			snprintf(id, len, "%s", ids[i - 1]);
			found = 0;
		}
		json_decref(doc);
	}
	util_strv_free(ids, n);
	return found;
}

static char *
jstr(json_t *doc, const char *key)
{
	const char *s = json_string_value(json_object_get(doc, key));

	return s != NULL ? xstrdup(s) : NULL;
}

int
apply_history(const char *state_dir, struct apply_entry **out, size_t *nout, char **cause)
{
	char **ids;
	size_t n, i;
	json_t *doc;
	struct apply_entry *e;

	state_dir = apply_state_dir(state_dir);
	*out = NULL;
	*nout = 0;
	if (list_ids(state_dir, &ids, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((doc = apply_journal_load(state_dir, ids[i], NULL)) == NULL)
			continue;
		*out = xreallocarray(*out, *nout + 1, sizeof **out);
		e = &(*out)[(*nout)++];
		memset(e, 0, sizeof *e);
		snprintf(e->id, sizeof e->id, "%s", ids[i]);
		e->created = jstr(doc, "created");
		e->state = jstr(doc, "state");
		e->profile = jstr(doc, "profile");
		e->netns = jstr(doc, "netns");
		e->reverted_by = jstr(doc, "reverted_by");
		e->nchanges = (int)json_array_size(json_object_get(doc, "changes"));
		e->deadline = json_integer_value(json_object_get(doc, "confirm_deadline"));
		e->confirmed = json_is_true(json_object_get(doc, "confirmed"));
		e->confirm_pending = e->deadline > 0 && !e->confirmed && e->state != NULL &&
		    strcmp(e->state, "applied") == 0;
		json_decref(doc);
	}
	util_strv_free(ids, n);
	return 0;
}

static void
entry_free(void *p)
{
	struct apply_entry *e = p;

	free(e->created);
	free(e->state);
	free(e->profile);
	free(e->netns);
	free(e->reverted_by);
}

void
apply_history_free(struct apply_entry *e, size_t n)
{
	util_array_free(e, n, sizeof *e, entry_free);
}

void
apply_set_state(json_t *doc, const char *state, const char *error)
{
	char when[UTIL_UTC_LEN];

	util_utc(0, false, when);
	json_object_set_new(doc, "state", json_string(state));
	json_object_set_new(doc, "updated", json_string(when));
	if (error != NULL)
		json_object_set_new(doc, "error", json_string(error));
}
