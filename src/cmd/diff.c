/*
 * ntune diff A B: compare two profiles, snapshots, FreeBSD `sysctl -a` dumps or
 * `current` (this machine). With a profile on either side only the knobs the
 * profiles name are compared; two systems are compared sysctl by sysctl.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "apply/dut_apply.h"
#include "cli/cli.h"
#include "cli/dut_write_opts.h"
#include "kb/kb.h"
#include "os/fbsd_text.h"
#include "os/os.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_diff;

struct side {
	const char *label;
	struct kb_profile *p;	/* a profile, or */
	struct os_ctx *os;	/* a system (snapshot or live), or */
	bool	dut;		/* `current` with --dut: */
	char	**dv;		/* the values there of the names compared */
};

struct names {
	char	**v;
	size_t	n;
	size_t	cap;
};

static void
names_add(struct names *ns, const char *name)
{
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 256;
		ns->v = xreallocarray(ns->v, ns->cap, sizeof *ns->v);
	}
	ns->v[ns->n++] = xstrdup(name);
}

static int
list_cb(const char *name, const char *value, void *arg)
{
	names_add(arg, name);
	return 0;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The kinds of FreeBSD command output (pciconf, vmstat -i, ifconfig...) ntune reads in
 * text, e.g. "sysctl top", or NULL when it holds none.
 */
static char *
dump_kinds(const char *data, size_t len, const char *path)
{
	struct fbsd_text *t = fbsd_text_new();
	char *kinds;

	fbsd_text_add(t, data, len, path);
	kinds = *fbsd_text_kinds(t) != '\0' ? xstrdup(fbsd_text_kinds(t)) : NULL;
	fbsd_text_free(t);
	return kinds;
}

static int
count_cb(const char *name, const char *value, void *arg)
{
	(void)name;
	(void)value;
	(*(size_t *)arg)++;
	return 0;
}

/*
 * Command output that holds no tunables (top -P, vmstat -i, pciconf) is not a system
 * to compare: diffing it would show every knob as unset.
 */
static int
side_empty(struct side *s, const char *arg, const char *kinds, char **cause)
{
	size_t n = 0;
	char *why = NULL;

	if (os_tunable_list(s->os, "", count_cb, &n, &why) == 0 && n > 0)
		return 0;
	free(why);
	os_close(s->os);
	s->os = NULL;
	xasprintf(cause, "%s: holds no tunables (it reads as %s output); diff compares "
	    "profiles, snapshots and sysctl -a dumps", arg, kinds);
	return -1;
}

/* A side: `current` (here, or the DUT of a when it is open), a journal entry's id, a file. */
static int
side_open(struct side *s, const char *arg, struct cmd_agentless *a, char **cause)
{
	char *data = NULL, *kinds;
	size_t len, i = 0;
	const char *paths[1] = { arg };

	memset(s, 0, sizeof *s);
	s->label = arg;
	if (strcmp(arg, "current") == 0 && a->opts.url != NULL) {
		s->label = a->dut.host.url;
		s->dut = true;
		return 0;
	}
	if (strcmp(arg, "current") == 0) {
		s->os = os_open_target(NULL, 0, cause);
		return s->os != NULL ? 0 : -1;
	}
	if (access(arg, F_OK) != 0 && agentless_check_id(arg, NULL) == 0) {
		s->p = apply_profile_or_entry(arg, &a->o, cause);
		return s->p != NULL ? 0 : -1;
	}
	if (util_read_file(arg, &data, &len, cause) == -1)
		return -1;
	while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t'))
		i++;
	if (i < len && data[i] == '{') {
		free(data);
		s->os = os_open_files(paths, 1, cause);
		return s->os != NULL ? 0 : -1;
	}
	s->p = kb_profile_parse_from(arg, data, len, kb_profile_files(), false, cause);
	/* Text that starts with '<' is a config.xml: its parse error (file:line) stands. */
	if (s->p == NULL && (i >= len || data[i] != '<') &&
	    (kinds = dump_kinds(data, len, arg)) != NULL) {
		/* Not a profile but FreeBSD command output the snapshot backend reads. */
		char *why = NULL;

		if ((s->os = os_open_files(paths, 1, &why)) != NULL) {
			free(*cause);
			*cause = NULL;
			if (side_empty(s, arg, kinds, cause) == -1) {
				free(kinds);
				free(why);
				free(data);
				return -1;
			}
		}
		free(kinds);
		free(why);
	}
	if (s->p == NULL && s->os == NULL) {
		/* Linux `sysctl -a` output: empty values are data there. */
		struct kb_profile *d;

		if ((d = kb_profile_parse_dump(arg, data, len, NULL)) != NULL) {
			s->p = d;
			free(*cause);
			*cause = NULL;
		}
	}
	/* Anything else keeps the profile's parse error (file:line): never an empty system. */
	free(data);
	return s->p != NULL || s->os != NULL ? 0 : -1;
}

/* The value of name, the i-th name compared. */
static char *
side_get(struct side *s, const char *name, size_t i)
{
	const struct kb_entry *e;
	char *v = NULL, *cause = NULL;

	if (s->dut)
		return s->dv[i] != NULL ? xstrdup(s->dv[i]) : NULL;

	if (s->p != NULL) {
		e = kb_profile_get(s->p, name);
		if (e == NULL)
			return NULL;
		if (e->op == KB_OP_SET)
			return xstrdup(e->value);
		xasprintf(&v, "%s%s", e->op == KB_OP_RAISE ? ">=" : "<=", e->value);
		return v;
	}
	if (os_tunable_get(s->os, name, &v, &cause) == -1) {
		free(cause);
		return NULL;
	}
	return v;
}

static void
side_close(struct side *s, size_t n)
{
	if (s->dv != NULL)
		util_strv_free(s->dv, n);
	kb_profile_free(s->p);
	if (s->os != NULL)
		os_close(s->os);
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* --dut: the DUT's values of the names compared, at once; -1 + cause. */
static int
dut_read(struct side *s, struct cmd_agentless *a, const struct names *ns, char **cause)
{
	if (!s->dut)
		return 0;
	return agentless_read(&a->o, ns->v, ns->n, true, &s->dv, cause);
}

/* The names compared, sorted, each once: a profile's, or every tunable of two systems. */
static int
collect(struct side *a, struct side *b, struct names *ns, size_t *w, char **cause)
{
	char *why = NULL;
	size_t i, j;

	if (a->p != NULL || b->p != NULL) {
		for (i = 0; a->p != NULL && i < a->p->nentries; i++)
			names_add(ns, a->p->entries[i].name);
		for (i = 0; b->p != NULL && i < b->p->nentries; i++)
			names_add(ns, b->p->entries[i].name);
	} else if (a->dut || b->dut) {
		util_cause(cause, "diff --dut compares `current` with a profile or a journal entry");
		return -1;
	} else if (os_tunable_list(a->os, "", list_cb, ns, &why) == -1 ||
	    os_tunable_list(b->os, "", list_cb, ns, &why) == -1) {
		util_cause(cause, "cannot list tunables: %s", why);
		free(why);
		return -1;
	}
	if (ns->n > 1)
		qsort(ns->v, ns->n, sizeof *ns->v, cmpstr);
	for (i = j = 0; i < ns->n; i++) {
		if (j > 0 && strcmp(ns->v[j - 1], ns->v[i]) == 0) {
			free(ns->v[i]);
			continue;
		}
		ns->v[j++] = ns->v[i];
		if (strlen(ns->v[i]) > *w)
			*w = strlen(ns->v[i]);
	}
	ns->n = j;
	return 0;
}

/* Prints each name whose values differ; their number. */
static size_t
compare(struct side *a, struct side *b, const struct names *ns, const struct kb *kb, size_t w,
    json_t *arr)
{
	char *va, *vb;
	json_t *o;
	size_t i, differ = 0;

	if (arr == NULL)
		printf("%-*s  %s  |  %s\n", (int)w, "KNOB", a->label, b->label);
	for (i = 0; i < ns->n; i++) {
		va = side_get(a, ns->v[i], i);
		vb = side_get(b, ns->v[i], i);
		if (va != NULL && vb != NULL && kb_value_equal(kb_find(kb, ns->v[i], NULL), va, vb)) {
			free(va);
			free(vb);
			continue;
		}
		differ++;
		if (arr != NULL) {
			o = json_object();
			json_object_set_new(o, "name", json_string(ns->v[i]));
			json_object_set_new(o, "a", va ? json_string(va) : json_null());
			json_object_set_new(o, "b", vb ? json_string(vb) : json_null());
			json_array_append_new(arr, o);
		} else
			printf("%-*s  %s  |  %s\n", (int)w, ns->v[i], va ? va : "-", vb ? vb : "-");
		free(va);
		free(vb);
	}
	return differ;
}

static void
print_json(const struct side *a, const struct side *b, size_t compared, size_t differ, json_t *arr)
{
	json_t *o = json_object();

	json_object_set_new(o, "a", json_string(a->label));
	json_object_set_new(o, "b", json_string(b->label));
	json_object_set_new(o, "compared", json_integer((json_int_t)compared));
	json_object_set_new(o, "differ", json_integer((json_int_t)differ));
	json_object_set_new(o, "knobs", arr);
	util_json_print(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(o);
}

/* The options: 0, or the exit status of a usage error or of a DUT that cannot be reached. */
static int
options(struct cmd_args *args, struct cmd_agentless *d, bool *json)
{
	char *arg;
	int ch;

	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(d, ch, arg))
			continue;
		if (ch == 'j')
			*json = true;
		else if (ch == 'r')
			d->o.root = arg;
	}
	if (d->opts.url == NULL && (d->o.root != NULL || dut_opts_ssh_given(&d->opts)))
		return cmd_error(&cmd_diff, 2, "--root, --ssh-config and --ssh-accept-new go with --dut");
	return cmd_agentless_open(&cmd_diff, d);
}

static int
run(struct cmd_args *args)
{
	struct side a, b;
	struct names ns = { NULL, 0, 0 };
	struct cmd_agentless d;
	struct kb *kb = NULL;
	char *cause = NULL;
	bool json = false;
	size_t i, w = 4, differ = 0;
	json_t *arr = NULL;
	int rc;

	memset(&d, 0, sizeof d);
	memset(&b, 0, sizeof b);
	if ((rc = options(args, &d, &json)) != 0)
		return rc;
	if (side_open(&a, args->argv[0], &d, &cause) == -1 ||
	    side_open(&b, args->argv[1], &d, &cause) == -1) {
		side_close(&a, 0);
		cmd_agentless_close(&d);
		return cmd_fail(&cmd_diff, &cause, 2);
	}
	kb_load(NULL, &kb, NULL);
	if (collect(&a, &b, &ns, &w, &cause) == -1 || dut_read(&a, &d, &ns, &cause) == -1 ||
	    dut_read(&b, &d, &ns, &cause) == -1) {
		rc = cmd_fail(&cmd_diff, &cause, 2);
	} else {
		arr = json ? json_array() : NULL;
		differ = compare(&a, &b, &ns, kb, w, arr);
		if (json)
			print_json(&a, &b, ns.n, differ, arr);
		else
			fprintf(stderr, "%zu of %zu knobs differ\n", differ, ns.n);
		rc = differ > 0 ? 1 : 0;
	}
	side_close(&a, ns.n);
	side_close(&b, ns.n);
	for (i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	kb_free(kb);
	cmd_agentless_close(&d);
	return rc;
}

const struct ntune_cmd cmd_diff = {
	.name = "diff",
	.summary = "compare two profiles, snapshots or the current state",
	.usage = "diff [--json] A B      (A, B: a profile, a snapshot, a sysctl -a dump, a journal\n"
	    "      entry's ID or `current`) [--dut ssh://[user@]host[:port] [--root|--dut-root DIR]\n"
	    "      [--ssh-config FILE] [--ssh-accept-new]]",
	.optstring = "j",
	.longopts = longopts,
	.min_args = 2,
	.max_args = 2,
	.run = run,
};
