/*
 * The host-wide sysctl a planted impairment changes (lab up --impair
 * conntrack-small, backlog-rps). nf_conntrack_max is read-only outside the
 * initial network namespace (nf_conntrack_standalone_init_sysctl in
 * net/netfilter/nf_conntrack_standalone.c gives NF_SYSCTL_CT_MAX mode 0444 in
 * any other net; 0444 inside a namespace on this Linux 6.18, a per-netns
 * limit was only proposed) and netdev_max_backlog exists only there (not
 * listed inside a namespace on 6.18), so the value is the host's: one lab at
 * a time holds it, its
 * original is recorded in LAB_HOST_STATE before it is changed and written
 * back when that lab goes down, or when its lab up fails. A lab that finds it
 * held by a live lab with the same impairment shares it (the fresh lab of
 * tune's final bench) and restores nothing.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "lab/lab.h"
#include "util/util.h"
#include "util/util_json.h"

static const struct lab_host_setting host_settings[] = {
	{ LAB_IMPAIR_CONNTRACK_SMALL, "net.netfilter.nf_conntrack_max", "128" },
	{ LAB_IMPAIR_BACKLOG_RPS, "net.core.netdev_max_backlog", "64" },
};

const struct lab_host_setting *
lab_host_setting(enum lab_impair impair)
{
	size_t i;

	for (i = 0; i < nitems(host_settings); i++) {
		if (host_settings[i].impair == impair)
			return &host_settings[i];
	}
	return NULL;
}

static void
proc_path(const char *name, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "/proc/sys/%s", name);
	for (p = buf + strlen("/proc/sys/"); *p != '\0'; p++) {
		if (*p == '.')
			*p = '/';
	}
}

static int
host_read(const char *name, char *buf, size_t len, char **cause)
{
	char path[256], *data = NULL;
	size_t n;

	proc_path(name, path, sizeof path);
	if (util_read_file(path, &data, &n, cause) == -1)
		return -1;
	snprintf(buf, len, "%s", util_trim(data));
	free(data);
	return 0;
}

static int
host_write(const char *name, const char *value, char **cause)
{
	char path[256];
	int fd;

	proc_path(name, path, sizeof path);
	if ((fd = open(path, O_WRONLY)) == -1 || write(fd, value, strlen(value)) == -1) {
		util_cause(cause, "cannot set host-wide '%s' to %s: %s (lab up must run in the "
		    "initial network namespace)", name, value, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* An exclusive lock on LAB_HOST_STATE's neighbour: lab up and down of other labs wait. */
static int
host_lock(char **cause)
{
	int fd;

	if (mkdir("/run/ntune", 0755) == -1 && errno != EEXIST) {
		util_cause(cause, "cannot create '/run/ntune': %s", strerror(errno));
		return -1;
	}
	if ((fd = open(LAB_HOST_STATE ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1 ||
	    flock(fd, LOCK_EX) == -1) {
		util_cause(cause, "cannot lock '%s.lock': %s", LAB_HOST_STATE, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	return fd;
}

/* The recorded holder: 0 with owner, name, value, original (malloc'd), -1 when none. */
struct holder {
	char	*owner, *impair, *name, *value, *original;
};

static void
holder_free(struct holder *h)
{
	free(h->owner); free(h->impair); free(h->name); free(h->value); free(h->original);
	memset(h, 0, sizeof *h);
}

static int
holder_read(struct holder *h)
{
	const char *owner, *impair, *name, *value, *original;
	json_t *o;
	int rc = -1;

	memset(h, 0, sizeof *h);
	if ((o = json_load_file(LAB_HOST_STATE, 0, NULL)) == NULL)
		return -1;
	if (json_unpack(o, "{s:s, s:s, s:s, s:s, s:s}", "owner", &owner, "impair", &impair,
	    "sysctl", &name, "value", &value, "original", &original) == 0) {
		h->owner = xstrdup(owner);
		h->impair = xstrdup(impair);
		h->name = xstrdup(name);
		h->value = xstrdup(value);
		h->original = xstrdup(original);
		rc = 0;
	}
	json_decref(o);
	return rc;
}

static bool
owner_alive(const char *prefix)
{
	char ns[LAB_NSNAME_MAX];

	if (lab_prefix_valid(prefix, NULL) == -1)
		return false;
	lab_netns_name(prefix, LAB_DUT, ns, sizeof ns);
	return lab_netns_exists(ns) && lab_netns_is_lab(prefix, ns);
}

/* Puts a holder's original back when the value is still the one it set; forgets it. */
static int
holder_restore(const struct holder *h, bool always, char **cause)
{
	char cur[64];

	if ((always || (host_read(h->name, cur, sizeof cur, NULL) == 0 &&
	    strcmp(cur, h->value) == 0)) && host_write(h->name, h->original, cause) == -1)
		return -1;
	if (unlink(LAB_HOST_STATE) == -1 && errno != ENOENT) {
		util_cause(cause, "cannot remove '%s': %s", LAB_HOST_STATE, strerror(errno));
		return -1;
	}
	return 0;
}

static int
hold_locked(const struct lab_config *c, const struct lab_host_setting *s, bool *owned,
    char **cause)
{
	struct holder h;
	char cur[64], *text;
	json_t *o;
	int rc;

	if (holder_read(&h) == 0) {
		if (owner_alive(h.owner)) {
			rc = strcmp(h.name, s->name) == 0 && strcmp(h.value, s->value) == 0 &&
			    host_read(s->name, cur, sizeof cur, NULL) == 0 &&
			    strcmp(cur, s->value) == 0 ? 0 : -1;
			if (rc == -1)
				util_cause(cause, "host-wide '%s' is held by lab '%s' (--impair %s): "
				    "one lab at a time may change it", h.name, h.owner, h.impair);
			holder_free(&h);
			return rc;
		}
		/* Its lab is gone without lab down (a crash): put its original back first. */
		rc = holder_restore(&h, false, cause);
		holder_free(&h);
		if (rc == -1)
			return -1;
	}
	if (host_read(s->name, cur, sizeof cur, cause) == -1)
		return -1;
	o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s}", "schema", 1, "owner", c->prefix, "impair",
	    lab_impair_name(c->impair), "sysctl", s->name, "value", s->value, "original", cur);
	text = util_json_dumps(o, JSON_INDENT(2));
	json_decref(o);
	rc = util_write_file_atomic(LAB_HOST_STATE, text, strlen(text), 0644, cause);
	free(text);
	if (rc == -1)
		return -1;
	if (host_write(s->name, s->value, cause) == -1) {
		unlink(LAB_HOST_STATE);
		return -1;
	}
	*owned = true;
	return 0;
}

int
lab_host_hold(const struct lab_config *c, bool *owned, char **cause)
{
	const struct lab_host_setting *s = lab_host_setting(c->impair);
	int fd, rc;

	*owned = false;
	if (s == NULL)
		return 0;
	if ((fd = host_lock(cause)) == -1)
		return -1;
	rc = hold_locked(c, s, owned, cause);
	close(fd);
	return rc;
}

int
lab_host_release(const char *prefix, char **cause)
{
	struct holder h;
	int fd, rc = 0;

	if (access(LAB_HOST_STATE, F_OK) == -1)
		return 0;
	if ((fd = host_lock(cause)) == -1)
		return -1;
	if (holder_read(&h) == 0 && strcmp(h.owner, prefix) == 0)
		rc = holder_restore(&h, true, cause);
	holder_free(&h);
	close(fd);
	return rc;
}

int
lab_host_held(const char *prefix, char *name, size_t nlen, char *value, size_t vlen,
    char *original, size_t olen)
{
	struct holder h;
	int rc = -1;

	if (holder_read(&h) == 0 && strcmp(h.owner, prefix) == 0) {
		snprintf(name, nlen, "%s", h.name);
		snprintf(value, vlen, "%s", h.value);
		snprintf(original, olen, "%s", h.original);
		rc = 0;
	}
	holder_free(&h);
	return rc;
}
