/* The inspect document with the knowledge base's tunables, shared by inspect and snapshot. */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/osdoc.h"
#include "dut/dut.h"
#include "kb/kb.h"
#include "kb/rules.h"
#include "os/collect.h"
#include "os/snapshot.h"
#include "remote/capture.h"
#include "util/util.h"

static const char *
js(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

struct names {
	char	**v;
	size_t	  n;
};

static void
add_name(struct names *ns, const char *name)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return;
	ns->v = xreallocarray(ns->v, ns->n + 1, sizeof *ns->v);
	ns->v[ns->n++] = xstrdup(name);
}

/* Expands %s (interface name) and %d (unit of a NIC of the driver the name mentions). */
static void
expand(struct names *ns, const char *pat, json_t *nics)
{
	json_t *nic;
	size_t i;
	const char *p;
	char buf[512], drv[64], mid[80];
	int unit;

	if ((p = strstr(pat, "%s")) == NULL && (p = strstr(pat, "%d")) == NULL) {
		add_name(ns, pat);
		return;
	}
	json_array_foreach(nics, i, nic) {
		const char *name = json_string_value(json_object_get(nic, "name"));

		if (name == NULL)
			continue;
		if (strncmp(p, "%s.%d", 5) == 0) {
			/* dev.%s.%d.iflib.*: the driver and unit of every NIC (dev.ax.0.iflib.*). */
			unit = util_ifname_unit(name, drv, sizeof drv);
			if (unit < 0)
				continue;
			snprintf(buf, sizeof buf, "%.*s%s.%d%s", (int)(p - pat), pat, drv, unit, p + 5);
		} else if (p[1] == 's') {
			snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - pat), pat, name, p + 2);
		} else {
			unit = util_ifname_unit(name, drv, sizeof drv);
			snprintf(mid, sizeof mid, ".%s.", drv);
			if (unit < 0 || strstr(pat, mid) == NULL || (size_t)(strstr(pat, mid) - pat) > (size_t)(p - pat))
				continue;
			snprintf(buf, sizeof buf, "%.*s%d%s", (int)(p - pat), pat, unit, p + 2);
		}
		if (strchr(buf, '%') == NULL)
			add_name(ns, buf);
	}
}

/* The knowledge base under util_share_dir()/knobs; a missing or empty one is an input error. */
static struct kb *
load_kb(char **cause)
{
	struct kb *kb = NULL;
	char *why = NULL, dir[4096];

	snprintf(dir, sizeof dir, "%s/knobs", util_share_dir());
	if (kb_load(dir, &kb, &why) != 0) {
		util_cause(cause, "cannot read the knowledge base in '%s' (set NTUNE_SHARE to the "
		    "directory holding knobs/): %s", dir, why);
		free(why);
		return NULL;
	}
	if (kb_count(kb) == 0) {
		util_cause(cause, "the knowledge base in '%s' holds no knobs (set NTUNE_SHARE to "
		    "the directory holding knobs/)", dir);
		kb_free(kb);
		return NULL;
	}
	return kb;
}

/*
 * A FreeBSD driver-wide knob (hw.ix.*, hw.em.*...) for a NIC driver the box does not
 * have; which interfaces a driver serves is data (share/knobs/drivers: hw.em.* also
 * serves igb ports, hw.cxgbe.* the cxl and cc ports).
 */
static bool
other_driver(const char *name, json_t *nics, const struct kb_drivers *ds)
{
	const struct kb_driver *d;
	const char *dot;
	char drv[64];
	json_t *n;
	size_t j;

	if (strncmp(name, "hw.", 3) != 0 || (dot = strchr(name + 3, '.')) == NULL ||
	    (size_t)(dot - name - 3) >= sizeof drv)
		return false;
	snprintf(drv, sizeof drv, "%.*s", (int)(dot - name - 3), name + 3);
	if ((d = kb_driver_named(ds, "freebsd", drv)) == NULL)
		return false;
	json_array_foreach(nics, j, n) {
		if (kb_driver_serves(d, js(n, "name"), js(n, "driver")))
			return false;
	}
	return true;
}

/* The knobs whose values inspect shows: the knowledge base's for this OS. */
static void
tunable_names(struct names *ns, const char *os, json_t *nics, const struct kb *kb,
    const struct kb_drivers *ds)
{
	size_t i;

	for (i = 0; i < kb_count(kb); i++) {
		const struct kb_knob *k = kb_knob(kb, i);

		/*
		 * Only the knobs of the NICs this box has, and none that no kernel
		 * defines (hw.ix.allow_unsupported_sfp): no output can hold them.
		 */
		if (k->os != NULL && strcmp(k->os, os) == 0 && k->nonexistent == NULL &&
		    !other_driver(k->name, nics, ds))
			expand(ns, k->name, nics);
	}
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Pasted `sysctl -a` text does not say which oids are loader tunables: take
 * the knowledge base's placement for the ones it knows.
 */
static void
text_kinds(json_t *doc, const char *os, const struct kb *kb)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "tunables"), i, e) {
		const struct kb_knob *k = kb_find(kb, js(e, "name"), os);

		if (k == NULL || strcmp(js(e, "kind"), "runtime") != 0)
			continue;
		if (k->placement == KB_PLACE_LOADER)
			json_object_set_new(e, "kind", json_string("loader"));
		else if (k->placement == KB_PLACE_BOTH)
			json_object_set_new(e, "kind", json_string("both"));
	}
}

/*
 * Inside a network namespace the host-global net.core knobs are not in
 * /proc/sys: they exist, on the host. Say so instead of "absent".
 */
static void
host_kinds(json_t *doc, const struct kb *kb)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "tunables"), i, e) {
		const struct kb_knob *k = kb_find(kb, js(e, "name"), "linux");

		if (k != NULL && k->scope == KB_SCOPE_HOST && strcmp(js(e, "kind"), "absent") == 0 &&
		    strncmp(js(e, "name"), "net.", 4) == 0)
			json_object_set_new(e, "kind", json_string("host"));
	}
}

/* The document of ctx with kb's tunables (cmd_os_document, cmd_os_capture_snapshot). */
static json_t *
document(struct os_ctx *ctx, const struct kb *kb, int snapshot_flags)
{
	json_t *probe, *nics, *doc, *sys;
	struct names ns = { NULL, 0 };
	const char *os;
	size_t i;

	/* The NIC list decides how %s / %d knob patterns expand. */
	probe = os_collect(ctx, NULL, 0, 0);
	nics = json_object_get(probe, "nics");
	sys = json_object_get(probe, "system");
	os = strcmp(os_backend_name(ctx), "linux") == 0 || (json_is_object(sys) &&
	    os_platform_of_uname(js(sys, "os")) == OS_PLATFORM_LINUX) ? "linux" : "freebsd";
	tunable_names(&ns, os, nics, kb, kb_get_drivers(kb));
	if (ns.n > 1)
		qsort(ns.v, ns.n, sizeof *ns.v, cmp_names);
	json_decref(probe);
	doc = os_collect(ctx, (const char *const *)ns.v, ns.n, snapshot_flags);
	if (os_snapshot_doc(ctx) != NULL) {
		json_t *inner = os_snapshot_doc(ctx);

		json_object_set_new(doc, "source_backend", json_string(
		    js(inner, "source_backend")[0] != '\0' ? js(inner, "source_backend") :
		    js(inner, "backend")));
	}
	/* top -P text: per-CPU load (user, nice, system, interrupt, idle %). */
	if (os_snapshot_doc(ctx) != NULL &&
	    json_is_array(json_object_get(os_snapshot_doc(ctx), "cpu_load")) &&
	    json_object_get(doc, "cpu_load") == NULL)
		json_object_set(doc, "cpu_load", json_object_get(os_snapshot_doc(ctx), "cpu_load"));
	if (os_snapshot_doc(ctx) != NULL &&
	    strcmp(js(os_snapshot_doc(ctx), "backend"), "freebsd-text") == 0)
		text_kinds(doc, os, kb);
	if (strcmp(os, "linux") == 0 &&
	    js(json_object_get(doc, "system"), "netns")[0] != '\0')
		host_kinds(doc, kb);
	json_object_set_new(doc, "tunables_from", json_string("knowledge-base"));
	for (i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	return doc;
}

json_t *
cmd_os_document(const struct ntune_cmd *cmd, struct os_ctx *ctx, int snapshot_flags)
{
	struct kb *kb;
	char *cause = NULL;
	json_t *doc;

	if ((kb = load_kb(&cause)) == NULL) {
		cmd_fail(cmd, &cause, 2);
		return NULL;
	}
	doc = document(ctx, kb, snapshot_flags);
	kb_free(kb);
	return doc;
}

/* A captured boot file's path and text, into the array arg. */
static void
add_captured_file(void *arg, const char *path, const char *text)
{
	json_array_append_new(arg, json_pack("{s:s, s:s}", "path", path, "text", text));
}

json_t *
cmd_os_capture_snapshot(const struct capture_set *cap, char **cause)
{
	struct os_ctx *ctx;
	struct kb *kb;
	json_t *doc, *files, *e;
	size_t i;

	if ((kb = load_kb(cause)) == NULL)
		return NULL;
	if ((ctx = os_open_captures(cap, cause)) == NULL) {
		kb_free(kb);
		return NULL;
	}
	json_array_foreach(os_snapshot_errors(ctx), i, e) {
		util_cause(cause, "%s", json_string_value(e));
		os_close(ctx);
		kb_free(kb);
		return NULL;
	}
	doc = document(ctx, kb, OS_COLLECT_SNAPSHOT);
	files = json_array();
	capture_boot_files(cap, add_captured_file, files);
	json_object_set_new(doc, "boot_files", files);
	os_close(ctx);
	kb_free(kb);
	return doc;
}

int
cmd_os_target(const struct ntune_cmd *cmd, struct cmd_args *args, struct dut_opts *o)
{
	if (args->argc > 0 && o->url != NULL)
		return cmd_usage_error(cmd, "give the router as ssh://... or --dut ssh://..., not both");
	if (args->argc > 0)
		o->url = args->argv[0];
	return 0;
}

/* The capture of an ssh:// host, taken agentless over one connection. */
static int
capture_ssh(const struct ntune_cmd *cmd, const struct dut_opts *o, struct capture_set *cap)
{
	char *cause = NULL;
	bool usage;

	if (strncmp(o->url, "ssh://", 6) != 0) {
		cmd_usage_error(cmd, "the target is ssh://[user@]host[:port] (this machine: none), "
		    "not '%s'", o->url);
		return -1;
	}
	if (dut_capture(o, 1, cap, &usage, &cause) == -1)
		return cmd_fail(cmd, &cause, -1);
	return 0;
}

/* Is the one --from path a capture (a directory, or a file of the capture script's output)? */
static bool
is_capture(const char *path)
{
	struct stat st;
	char *data;
	size_t len;
	bool yes;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	if (util_read_file(path, &data, &len, NULL) != 0)
		return false;
	yes = capture_is_capture(data, len);
	free(data);
	return yes;
}

/*
 * The platform layer over a capture; what its parsers could not read is an input
 * error here (exit 2), each complaint printed, as a capture is one command's output.
 */
static struct os_ctx *
open_capture(const struct ntune_cmd *cmd, const struct capture_set *cap)
{
	struct os_ctx *ctx;
	char *cause = NULL;
	json_t *errors;

	if ((ctx = os_open_captures(cap, &cause)) == NULL) {
		cmd_fail(cmd, &cause, 2);
		return NULL;
	}
	errors = os_snapshot_errors(ctx);
	if (json_array_size(errors) > 0) {
		cmd_os_errors(cmd, os_snapshot_doc(ctx));
		os_close(ctx);
		return NULL;
	}
	return ctx;
}

struct os_ctx *
cmd_os_open_at(const struct ntune_cmd *cmd, const struct dut_opts *o, const char **from,
    size_t nfrom, struct capture_set *cap)
{
	const char *target = o != NULL ? o->url : NULL;
	struct capture_set own;
	struct os_ctx *ctx = NULL;
	char *cause = NULL;

	if (cap == NULL)
		cap = &own;
	memset(cap, 0, sizeof *cap);
	if (target != NULL && nfrom > 0) {
		cmd_usage_error(cmd, "give a target or --from files, not both");
		return NULL;
	}
	if (target != NULL) {
		if (capture_ssh(cmd, o, cap) == -1)
			return NULL;
	} else if (nfrom == 1 && is_capture(from[0])) {
		if (capture_load(from[0], cap, &cause) == -1) {
			cmd_fail(cmd, &cause, 2);
			return NULL;
		}
	} else {
		if ((ctx = os_open_target(from, nfrom, &cause)) == NULL)
			cmd_fail(cmd, &cause, 2);
		return ctx;
	}
	ctx = open_capture(cmd, cap);
	if (cap == &own)
		capture_set_free(&own);
	return ctx;
}

struct os_ctx *
cmd_os_open(const struct ntune_cmd *cmd, const char **from, size_t nfrom)
{
	return cmd_os_open_at(cmd, NULL, from, nfrom, NULL);
}

size_t
cmd_os_errors(const struct ntune_cmd *cmd, json_t *doc)
{
	json_t *errors = json_object_get(doc, "errors"), *e;
	size_t i;

	json_array_foreach(errors, i, e)
		cmd_error(cmd, 1, "%s", json_string_value(e));
	return json_array_size(errors);
}
