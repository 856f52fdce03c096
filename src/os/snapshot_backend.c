/*
 * The snapshot backend: answers os_ops from a document of the inspect schema,
 * either a JSON file written by `ntune snapshot` or one built from FreeBSD text
 * (sysctl -a, pciconf, vmstat -i, ifconfig -a, dmesg, ... see fbsd_text.c).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/os_impl.h"
#include "os/os_json.h"
#include "os/snapshot.h"
#include "util/util.h"

struct snap {
	json_t	*doc;
};

static json_t *
doc(struct os_ctx *ctx)
{
	return ((struct snap *)ctx->priv)->doc;
}

static int
missing(const char *what, char **cause)
{
	util_cause(cause, "the snapshot has no %s", what);
	return -1;
}

static int
snap_system(struct os_ctx *ctx, struct os_system *s, char **cause)
{
	json_t *o = json_object_get(doc(ctx), "system");

	if (!json_is_object(o))
		return missing("system information", cause);
	return os_json_to_system(o, s);
}

static int
snap_cpu(struct os_ctx *ctx, struct os_cpu *c, char **cause)
{
	json_t *o = json_object_get(doc(ctx), "cpu");

	if (!json_is_object(o))
		return missing("CPU information", cause);
	return os_json_to_cpu(o, c);
}

static int
snap_nics(struct os_ctx *ctx, struct os_nic **out, size_t *n, char **cause)
{
	json_t *a = json_object_get(doc(ctx), "nics"), *e;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!json_is_array(a))
		return missing("NIC list", cause);
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, e)
		os_json_to_nic(e, &(*out)[(*n)++]);
	return 0;
}

static int
snap_cpu_times(struct os_ctx *ctx, struct os_cpu_times **out, size_t *n, char **cause)
{
	json_t *a = json_object_get(doc(ctx), "cpu_times"), *e;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!json_is_array(a) || json_array_size(a) == 0)
		return missing("per-CPU times", cause);
	*out = xcalloc(json_array_size(a), sizeof **out);
	json_array_foreach(a, i, e)
		os_json_to_cpu_times(e, &(*out)[i]);
	*n = json_array_size(a);
	return 0;
}

static int
snap_if_counters(struct os_ctx *ctx, struct os_if_counters **out, size_t *n, char **cause)
{
	json_t *a = json_object_get(doc(ctx), "if_counters"), *e;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!json_is_array(a))
		return missing("interface counters", cause);
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, e)
		os_json_to_if_counters(e, &(*out)[i]);
	*n = json_array_size(a);
	return 0;
}

static int
snap_irqs(struct os_ctx *ctx, struct os_irq **out, size_t *n, char **cause)
{
	json_t *a = json_object_get(doc(ctx), "irqs"), *e;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!json_is_array(a))
		return missing("interrupt counts", cause);
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, e)
		os_json_to_irq(e, &(*out)[i]);
	*n = json_array_size(a);
	return 0;
}

static json_t *
find_tunable(struct os_ctx *ctx, const char *name)
{
	json_t *a = json_object_get(doc(ctx), "tunables"), *e, *nm;
	size_t i;

	json_array_foreach(a, i, e) {
		nm = json_object_get(e, "name");
		if (json_is_string(nm) && strcmp(json_string_value(nm), name) == 0)
			return e;
	}
	return NULL;
}

static int
snap_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	json_t *t = find_tunable(ctx, name), *v;

	*value = NULL;
	if (t != NULL && json_is_string(v = json_object_get(t, "value"))) {
		*value = xstrdup(json_string_value(v));
		return 0;
	}
	v = json_object_get(json_object_get(doc(ctx), "sysctls"), name);
	if (json_is_string(v)) {
		*value = xstrdup(json_string_value(v));
		return 0;
	}
	util_cause(cause, "not in the snapshot");
	return -1;
}

static int
snap_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	util_cause(cause, "a snapshot is read-only");
	return -1;
}

static int
snap_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *kind, char **cause)
{
	json_t *t = find_tunable(ctx, name), *k;

	*kind = OS_TUNABLE_NONE;
	if (t != NULL && json_is_string(k = json_object_get(t, "kind")))
		*kind = os_tunable_kind_parse(json_string_value(k));
	else if (json_is_string(json_object_get(json_object_get(doc(ctx), "sysctls"), name)))
		*kind = OS_TUNABLE_RUNTIME;
	return 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
snap_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *, const char *, void *), void *arg, char **cause)
{
	json_t *o = json_object_get(doc(ctx), "sysctls"), *v;
	const char *key, **keys;
	size_t n = 0, i;

	if (!json_is_object(o))
		return 0;
	keys = xcalloc(json_object_size(o) + 1, sizeof *keys);
	json_object_foreach(o, key, v)
		if (json_is_string(v) && strncmp(key, prefix, strlen(prefix)) == 0)
			keys[n++] = key;
	qsort(keys, n, sizeof *keys, cmpstr);
	for (i = 0; i < n; i++)
		if (fn(keys[i], json_string_value(json_object_get(o, keys[i])), arg) != 0)
			break;
	free(keys);
	return 0;
}

static void
snap_close(struct os_ctx *ctx)
{
	struct snap *s = ctx->priv;

	if (s != NULL) {
		json_decref(s->doc);
		free(s);
	}
}

const struct os_ops os_snapshot_ops = {
	.name = "snapshot",
	.system = snap_system,
	.cpu = snap_cpu,
	.nics = snap_nics,
	.cpu_times = snap_cpu_times,
	.if_counters = snap_if_counters,
	.irqs = snap_irqs,
	.tunable_get = snap_tunable_get,
	.tunable_set = snap_tunable_set,
	.tunable_kind = snap_tunable_kind,
	.tunable_list = snap_tunable_list,
	.close = snap_close,
};

json_t *
os_snapshot_errors(struct os_ctx *ctx)
{
	if (ctx->ops != &os_snapshot_ops)
		return NULL;
	return json_object_get(doc(ctx), "errors");
}

json_t *
os_snapshot_doc(struct os_ctx *ctx)
{
	if (ctx->ops != &os_snapshot_ops)
		return NULL;
	return doc(ctx);
}

/* Validates a JSON snapshot; returns a new reference or NULL with cause. */
json_t *
os_snapshot_parse(const char *data, size_t len, const char *path, char **cause)
{
	json_t *d, *v;
	json_error_t err;

	if ((d = json_loadb(data, len, 0, &err)) == NULL) {
		util_cause(cause, "%s:%d: invalid JSON: %s", path, err.line, err.text);
		return NULL;
	}
	if (!json_is_object(d) || !json_is_string(v = json_object_get(d, "schema")) ||
	    strcmp(json_string_value(v), OS_JSON_SCHEMA) != 0) {
		util_cause(cause, "%s: not an ntune snapshot (no \"schema\": \"%s\")", path,
		    OS_JSON_SCHEMA);
		json_decref(d);
		return NULL;
	}
	v = json_object_get(d, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > OS_JSON_VERSION) {
		util_cause(cause, "%s: unsupported snapshot version (this ntune reads version %d)",
		    path, OS_JSON_VERSION);
		json_decref(d);
		return NULL;
	}
	if (!json_is_array(json_object_get(d, "errors")))
		json_object_set_new(d, "errors", json_array());
	return d;
}

struct os_ctx *
os_open_doc(json_t *d)
{
	struct os_ctx *ctx;
	struct snap *s;

	if (!json_is_array(json_object_get(d, "errors")))
		json_object_set_new(d, "errors", json_array());
	s = xcalloc(1, sizeof *s);
	s->doc = d;
	ctx = xcalloc(1, sizeof *ctx);
	ctx->ops = &os_snapshot_ops;
	ctx->root = xstrdup("");
	ctx->priv = s;
	return ctx;
}

struct os_ctx *
os_open_files(const char *const *paths, size_t n, char **cause)
{
	struct fbsd_text *t = NULL;
	json_t *d = NULL;
	char *data;
	size_t len, i;
	const char *p;

	if (n == 0) {
		util_cause(cause, "no files given");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (util_read_file(paths[i], &data, &len, cause) != 0)
			goto fail;
		for (p = data; isspace((unsigned char)*p); p++)
			;
		if (*p == '{') {
			if (d != NULL || t != NULL) {
				util_cause(cause, "%s: a JSON snapshot must be the only --from file",
				    paths[i]);
				free(data);
				goto fail;
			}
			d = os_snapshot_parse(data, len, paths[i], cause);
			free(data);
			if (d == NULL)
				goto fail;
			continue;
		}
		if (d != NULL) {
			util_cause(cause, "%s: a JSON snapshot must be the only --from file", paths[i]);
			free(data);
			goto fail;
		}
		if (t == NULL)
			t = fbsd_text_new();
		fbsd_text_add(t, data, len, paths[i]);
		free(data);
	}
	if (t != NULL) {
		d = fbsd_text_doc(t);
		fbsd_text_free(t);
	}
	return os_open_doc(d);
fail:
	json_decref(d);
	if (t != NULL)
		fbsd_text_free(t);
	return NULL;
}
