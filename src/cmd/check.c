/* ntune check: lint a tunables profile against the knowledge base and the machine. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "kb/kb.h"
#include "os/os.h"
#include "kb/system.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_check;

/* --target: a file kind, or the platform whose tunables page takes the list. */
static int
parse_target(const char *s)
{
	static const char *const files[] = { "any", "loader", "sysctl" };
	int t;

	if ((t = cmd_pick(s, files, nitems(files))) != -1)
		return t;
	switch (os_platform_parse(s)) {
	case OS_PLATFORM_OPNSENSE:
		return KB_TARGET_OPNSENSE;
	case OS_PLATFORM_PFSENSE:
		return KB_TARGET_PFSENSE;
	default:
		return -1;
	}
}

struct summary {
	size_t	count[3];	/* by severity */
	size_t	unknown;	/* settings neither the catalogue nor the knowledge base knows */
	size_t	syntax;		/* lines not read */
	const char *against;	/* what the lines were checked against (target_name) */
	enum kb_target target;	/* where the profile goes (a line's boot risk depends on it) */
};

static void
summarize(const struct kb_diag *d, size_t nd, struct summary *s)
{
	size_t i;

	memset(s, 0, sizeof *s);
	for (i = 0; i < nd; i++) {
		s->count[d[i].severity]++;
		if (strcmp(d[i].rule, "unknown-knob") == 0)
			s->unknown++;
		if (strcmp(d[i].rule, "syntax") == 0)
			s->syntax++;
	}
}

/* The platform whose knobs the lines are, for their risk class (NULL: any). */
static const char *
risk_os(const struct kb_sysinfo *si)
{
	return si->sys.platform != OS_PLATFORM_UNKNOWN ? os_platform_name(si->sys.platform) : NULL;
}

/*
 * Whether a diagnostic of d says the line of e has no effect where it is written: a
 * boot-time tunable in sysctl.conf, a runtime sysctl in loader.conf, a knob gone from
 * the release checked, read-only, another OS's. Such a line carries no risk either (a
 * ring size sysctl(8) cannot set stops no boot).
 */
static bool
no_effect(const struct kb_entry *e, const struct kb_diag *d, size_t nd)
{
	static const char *const rules[] = { "placement", "obsolete", "version", "read-only",
	    "nonexistent", "misplaced", "platform", "wrong-os" };
	size_t i, j;

	for (i = 0; i < nd; i++) {
		if (d[i].line != e->line || strcmp(d[i].file, e->file) != 0)
			continue;
		if (d[i].severity == KB_WARNING && strcmp(d[i].rule, "placement") == 0)
			return true;
		for (j = 0; d[i].severity == KB_ERROR && j < sizeof rules / sizeof rules[0]; j++)
			if (strcmp(d[i].rule, rules[j]) == 0)
				return true;
	}
	return false;
}

/* The risk of the line e, none where the line has no effect. */
static enum kb_risk_class
line_risk(const struct kb *kb, const struct kb_entry *e, const struct kb_sysinfo *si,
    enum kb_target t, const struct kb_diag *d, size_t nd, const char **why)
{
	enum kb_risk_class c = kb_line_risk(kb, e, risk_os(si), t, why);

	return c != KB_RISK_NONE && no_effect(e, d, nd) ? KB_RISK_NONE : c;
}

/* The lines that can stop a boot or cut the admin off, each with why and how to prove it. */
static json_t *
risks_json(const struct kb *kb, const struct kb_profile *p, const struct kb_sysinfo *si,
    enum kb_target t, const struct kb_diag *d, size_t nd)
{
	json_t *arr = json_array();
	const char *why;
	enum kb_risk_class c;
	size_t i;

	for (i = 0; i < p->nentries; i++) {
		if ((c = line_risk(kb, &p->entries[i], si, t, d, nd, &why)) == KB_RISK_NONE)
			continue;
		json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:s, s:s, s:s}", "file",
		    p->entries[i].file, "line", p->entries[i].line, "knob", p->entries[i].name,
		    "class", kb_risk_class_name(c), "why", why, "trial", kb_risk_class_trial(c)));
	}
	return arr;
}

/* Whether the line sets the knob's own default (without a default-when condition). */
static bool
default_value(const struct kb_knob *k, const struct kb_entry *e)
{
	return k != NULL && k->def != NULL && k->default_when == NULL && e->op == KB_OP_SET &&
	    kb_value_equal(k, e->value, k->def);
}

static void
print_risks(const struct kb *kb, const struct kb_profile *p, const struct kb_sysinfo *si,
    enum kb_target t, const struct kb_diag *d, size_t nd)
{
	const char *why;
	enum kb_risk_class c;
	size_t i;
	bool def;

	for (i = 0; i < p->nentries; i++) {
		if ((c = line_risk(kb, &p->entries[i], si, t, d, nd, &why)) == KB_RISK_NONE)
			continue;
		/* a risky value that is also the default (ip_forward=0): the box has it unless
		 * something else set another, so say that the risk is only there */
		def = default_value(kb_find(kb, p->entries[i].name, risk_os(si)), &p->entries[i]);
		printf("%s:%d: %s risk: %s: %s%s%s%s; %s\n", p->entries[i].file, p->entries[i].line,
		    kb_risk_class_name(c), p->entries[i].name, why, def ? " (" : "",
		    def ? p->entries[i].value : "", def ? " is also the default: a risk only where "
		    "something set it otherwise before)" : "", kb_risk_class_trial(c));
	}
}

static void
print_json(const struct kb *kb, const struct kb_profile *p, const struct kb_sysinfo *si,
    const struct kb_diag *d, size_t nd, const struct summary *s)
{
	json_t *doc = json_object(), *arr = json_array(), *o;
	size_t i;

	json_object_set_new(doc, "schema", json_integer(2));
	json_object_set_new(doc, "file", json_string(p->path));
	json_object_set_new(doc, "os", json_string(os_platform_name(si->sys.platform)));
	json_object_set_new(doc, "version", si->sys.version ? json_string(si->sys.version) :
	    json_null());
	json_object_set_new(doc, "lines", json_integer(p->nlines));
	json_object_set_new(doc, "checked_against", json_string(s->against));
	json_object_set_new(doc, "settings", json_integer((json_int_t)p->nentries));
	json_object_set_new(doc, "errors", json_integer((json_int_t)s->count[KB_ERROR]));
	json_object_set_new(doc, "warnings", json_integer((json_int_t)s->count[KB_WARNING]));
	json_object_set_new(doc, "notes", json_integer((json_int_t)s->count[KB_NOTE]));
	json_object_set_new(doc, "unknown", json_integer((json_int_t)s->unknown));
	json_object_set_new(doc, "unreadable_lines", json_integer((json_int_t)s->syntax));
	/* The settings read and in effect (a tuned profile's: its includes' too, merged). */
	json_object_set_new(doc, "entries", json_array());
	for (i = 0; i < p->nentries; i++) {
		o = json_pack("{s:s, s:i, s:s, s:s, s:s}", "file", p->entries[i].file, "line",
		    p->entries[i].line, "name", p->entries[i].name, "op",
		    kb_op_text(p->entries[i].op), "value", p->entries[i].value);
		json_array_append_new(json_object_get(doc, "entries"), o);
	}
	for (i = 0; i < nd; i++) {
		o = json_object();
		json_object_set_new(o, "file", json_string(d[i].file));
		json_object_set_new(o, "line", json_integer(d[i].line));
		json_object_set_new(o, "severity", json_string(kb_severity_name(d[i].severity)));
		json_object_set_new(o, "rule", json_string(d[i].rule));
		json_object_set_new(o, "knob", json_string(d[i].name));
		json_object_set_new(o, "message", json_string(d[i].message));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "diagnostics", arr);
	json_object_set_new(doc, "risks", risks_json(kb, p, si, s->target, d, nd));
	util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(doc);
}

static void
print_text(const struct kb *kb, const struct kb_profile *p, const struct kb_sysinfo *si,
    const struct kb_diag *d, size_t nd, const struct summary *s)
{
	size_t i;

	for (i = 0; i < nd; i++)
		printf("%s:%d: %s: %s\n", d[i].file, d[i].line, kb_severity_name(d[i].severity),
		    d[i].message);
	print_risks(kb, p, si, s->target, d, nd);
	fprintf(stderr, "%s: %zu setting%s for %s%s%s: %zu error%s, %zu warning%s, %zu note%s, "
	    "%zu unknown (%d line%s); checked against %s\n", p->path, p->nentries,
	    p->nentries == 1 ? "" : "s", os_platform_name(si->sys.platform), si->sys.version ? " " : "",
	    si->sys.version ? si->sys.version : "", s->count[KB_ERROR],
	    s->count[KB_ERROR] == 1 ? "" : "s", s->count[KB_WARNING],
	    s->count[KB_WARNING] == 1 ? "" : "s", s->count[KB_NOTE],
	    s->count[KB_NOTE] == 1 ? "" : "s", s->unknown, p->nlines, p->nlines == 1 ? "" : "s",
	    s->against);
}

/*
 * Whether the profile is a file this machine itself reads (its sysctl.d, loader.conf,
 * tuned directories): then its kernel is the target. A file anywhere else may be for
 * another box, and this machine's kernel is no witness for it (issue 36).
 */
static bool
read_here(const char *path)
{
	static const char *const own[] = { "/etc/sysctl.conf", "/etc/sysctl.d/", "/run/sysctl.d/",
	    "/usr/lib/sysctl.d/", "/lib/sysctl.d/", "/usr/local/lib/sysctl.d/", "/boot/loader.conf",
	    "/etc/tuned/", "/usr/lib/tuned/" };
	size_t i;

	for (i = 0; i < nitems(own); i++) {
		if (util_startswith(path, own[i]))
			return true;
	}
	return false;
}

/* What the file was checked against, for the summary and JSON. */
static const char *
target_name(size_t nfrom, bool live)
{
	return nfrom > 0 ? "the snapshot" : live ? "this machine" : "the source only";
}

static const struct option longopts[] = {
	{ "local", no_argument, NULL, 'l' },
	{ "os-version", required_argument, NULL, 'V' },
	{ "os", required_argument, NULL, 'o' },
	{ "from", required_argument, NULL, 'f' },
	{ "root", required_argument, NULL, 'r' },
	{ "target", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	const char *from[16], *root = NULL, *version = NULL;
	enum os_platform os = OS_PLATFORM_UNKNOWN;
	size_t nfrom = 0, nd = 0;
	struct summary sum;
	enum kb_target target = KB_TARGET_ANY;
	bool json = false, target_set = false, local = false;
	const char *against;
	struct kb_profile *p;
	struct kb *kb;
	struct kb_sysinfo si;
	struct kb_diag *d;
	struct os_ctx *ctx;
	char *cause = NULL;
	char *arg;
	int ch, t, errors;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'o':
			if (cmd_parse_os(&cmd_check, arg, &os) == -1)
				return 2;
			break;
		case 'f':
			if (cmd_add_from(&cmd_check, from, &nfrom, nitems(from), arg) == -1)
				return 2;
			break;
		case 'r':
			root = arg;
			break;
		case 't':
			if ((t = parse_target(arg)) == -1)
				return cmd_error(&cmd_check, 2, "bad --target '%s' (any, loader, sysctl, "
				    "opnsense, pfsense)", arg);
			target = (enum kb_target)t;
			target_set = true;
			break;
		case 'j':
			json = true;
			break;
		case 'l':
			local = true;
			break;
		case 'V':
			version = arg;
			break;
		}
	}
	if ((p = kb_profile_load_all(args->argv[0], &cause)) == NULL)
		return cmd_fail(&cmd_check, &cause, 2);
	if (kb_load(NULL, &kb, &cause) == -1) {
		kb_profile_free(p);
		return cmd_fail(&cmd_check, &cause, 2);
	}
	if (os == OS_PLATFORM_UNKNOWN && nfrom == 0)
		os = kb_os_guess(kb, p);
	/* the target: the snapshots, this machine (--local, --root, or a file it reads), or none */
	local = local || root != NULL || *os_target_root() != '\0' || read_here(p->path);
	if (nfrom == 0 && !local) {
		ctx = NULL;
		kb_target_none(os, version, &si);
	} else if (kb_target_open(from, nfrom, os, root, &ctx, &si, &cause) == -1) {
		kb_profile_free(p);
		kb_free(kb);
		return cmd_fail(&cmd_check, &cause, 2);
	}
	if (version != NULL && (nfrom > 0 || local)) {
		free(si.version);
		si.version = xstrdup(version);
		si.sys.version = si.version;
	}
	against = target_name(nfrom, local);
	if (!target_set)
		target = kb_target_guess(p, si.sys.platform);
	errors = kb_check(kb, p, &si.sys, target, &d, &nd);
	summarize(d, nd, &sum);
	sum.against = against;
	sum.target = target;
	if (json)
		print_json(kb, p, &si, d, nd, &sum);
	else
		print_text(kb, p, &si, d, nd, &sum);
	kb_diags_free(d, nd);
	kb_target_close(ctx, &si);
	kb_profile_free(p);
	kb_free(kb);
	/* A line that could not be read is an input error, once every other line is checked. */
	return sum.syntax > 0 ? 2 : errors > 0 ? 1 : 0;
}

const struct ntune_cmd cmd_check = {
	.name = "check",
	.summary = "lint a tunables profile against the knowledge base and the machine",
	.usage = "check PROFILE [--os freebsd|opnsense|pfsense|linux] [--os-version V]\n"
	    "      [--from SNAPSHOT]... [--local] [--root DIR] [--target any|loader|sysctl|opnsense|pfsense]\n"
	    "      [--json]",
	.optstring = "o:f:r:t:j",
	.longopts = longopts,
	.min_args = 1,
	.max_args = 1,
	.run = run,
};
