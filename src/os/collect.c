/* The inspect/snapshot document collected from any backend (collect.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "os/collect.h"
#include "os/os_impl.h"
#include "os/os_json.h"
#include "os/snapshot.h"
#include "util/util.h"

static void
add_error(json_t *errors, const char *what, char *cause)
{
	char *msg;

	xasprintf(&msg, "%s: %s", what, cause != NULL ? cause : "failed");
	json_array_append_new(errors, json_string(msg));
	free(msg);
	free(cause);
}

/* A snapshot of pasted text has what the user pasted: what is missing was not asked for. */
static void
add_error_unless(int quiet, json_t *errors, const char *what, char **cause)
{
	if (!quiet)
		add_error(errors, what, *cause);
	else
		free(*cause);
	*cause = NULL;
}

static int
add_sysctl(const char *name, const char *value, void *arg)
{
	json_object_set_new((json_t *)arg, name, json_string(value));
	return 0;
}

static void
collect_snapshot(struct os_ctx *ctx, json_t *doc, json_t *errors)
{
	static const char *const linux_prefixes[] = { "net.", "vm." };
	static const char *const bsd_prefixes[] = { "net.", "kern.", "hw.", "dev.", "vm.",
	    "machdep." };
	const char *const *pre;
	size_t npre, i, n;
	char *cause = NULL;
	json_t *sysctls;
	int quiet = os_snapshot_doc(ctx) != NULL;

	if (strcmp(os_backend_name(ctx), "linux") == 0) {
		pre = linux_prefixes;
		npre = nitems(linux_prefixes);
	} else {
		pre = bsd_prefixes;
		npre = nitems(bsd_prefixes);
	}
	sysctls = json_object();
	for (i = 0; i < npre; i++)
		if (os_tunable_list(ctx, pre[i], add_sysctl, sysctls, &cause) != 0)
			add_error(errors, pre[i], cause), cause = NULL;
	json_object_set_new(doc, "sysctls", sysctls);

	{
		struct os_cpu_times *t;

		if (os_cpu_times(ctx, &t, &n, &cause) == 0) {
			json_object_set_new(doc, "cpu_times", os_json_cpu_times(t, n));
			free(t);
		} else
			add_error_unless(quiet, errors, "per-CPU times", &cause);
	}
	{
		struct os_if_counters *c;

		if (os_if_counters(ctx, &c, &n, &cause) == 0) {
			json_object_set_new(doc, "if_counters", os_json_if_counters(c, n));
			free(c);
		} else
			add_error_unless(quiet, errors, "interface counters", &cause);
	}
	{
		struct os_irq *q;

		if (os_irqs(ctx, &q, &n, &cause) == 0) {
			json_object_set_new(doc, "irqs", os_json_irqs(q, n));
			os_irqs_free(q, n);
		} else
			add_error_unless(quiet, errors, "interrupts", &cause);
	}
}

json_t *
os_collect(struct os_ctx *ctx, const char *const *tunables, size_t ntunables, int flags)
{
	json_t *doc, *errors, *nics, *tl;
	struct os_system sys;
	struct os_cpu cpu;
	struct os_nic *nv;
	size_t n, i;
	char *cause = NULL, *value;
	enum os_tunable_kind kind;

	doc = json_pack("{s:s, s:i, s:s, s:s}", "schema", OS_JSON_SCHEMA, "version", OS_JSON_VERSION,
	    "ntune_version", NTUNE_VERSION, "backend", os_backend_name(ctx));
	errors = json_array();
	if (os_system_info(ctx, &sys, &cause) == 0)
		json_object_set_new(doc, "system", os_json_system(&sys));
	else
		add_error(errors, "system", cause), cause = NULL;
	if (os_cpu_info(ctx, &cpu, &cause) == 0) {
		json_object_set_new(doc, "cpu", os_json_cpu(&cpu));
		os_cpu_free(&cpu);
	} else
		add_error(errors, "cpu", cause), cause = NULL;
	nics = json_array();
	if (os_nics(ctx, &nv, &n, &cause) == 0) {
		for (i = 0; i < n; i++) {
			json_array_append_new(nics, os_json_nic(&nv[i]));
			if (nv[i].unread[0] != '\0') {
				char *what;

				xasprintf(&what, "NIC '%s'", nv[i].name);	/* "NIC 'eth0': cannot read ..." */
				add_error(errors, what, xstrdup(nv[i].unread));
				free(what);
			}
		}
		os_nics_free(nv, n);
	} else
		add_error(errors, "nics", cause), cause = NULL;
	json_object_set_new(doc, "nics", nics);

	tl = json_array();
	for (i = 0; i < ntunables; i++) {
		json_t *t;

		kind = OS_TUNABLE_NONE;
		(void)os_tunable_kind(ctx, tunables[i], &kind, NULL);
		t = json_pack("{s:s}", "name", tunables[i]);
		value = NULL;
		if (kind != OS_TUNABLE_NONE) {
			if (os_tunable_get(ctx, tunables[i], &value, &cause) != 0) {
				add_error(errors, tunables[i], cause);
				cause = NULL;
			}
		}
		json_object_set_new(t, "value", value != NULL ? json_string(value) : json_null());
		json_object_set_new(t, "kind", json_string(os_tunable_kind_name(kind)));
		json_array_append_new(tl, t);
		free(value);
	}
	json_object_set_new(doc, "tunables", tl);
	if (flags & OS_COLLECT_SNAPSHOT) {
		char when[UTIL_UTC_LEN];

		json_object_set_new(doc, "taken", json_string(util_utc(0, false, when)));
		collect_snapshot(ctx, doc, errors);
	}
	if (os_snapshot_errors(ctx) != NULL) {
		json_t *e;

		json_array_foreach(os_snapshot_errors(ctx), i, e)
			if (json_is_string(e))
				json_array_append(errors, e);
	}
	json_object_set_new(doc, "errors", errors);
	return doc;
}
