/* ntune explain: what a knob does, where it goes, its type, default and sources. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "kb/kb.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_explain;

static const char *
where(const struct kb_knob *k)
{
	switch (k->placement) {
	case KB_PLACE_LOADER:
		return "boot time only: /boot/loader.conf(.local); a reboot applies it";
	case KB_PLACE_SYSCTL:
		return strcmp(k->os, "linux") == 0 ? "runtime: sysctl -w, /etc/sysctl.d" :
		    "runtime: sysctl(8), /etc/sysctl.conf(.local)";
	case KB_PLACE_BOTH:
		return "loader.conf at boot, or sysctl(8) at runtime";
	case KB_PLACE_IFCONFIG:
		return "per interface: ifconfig(8)";
	case KB_PLACE_ETHTOOL:
		return "per interface: ethtool(8); ntune apply sets it";
	case KB_PLACE_SYSFS:
		return "/sys; ntune apply sets it";
	case KB_PLACE_READONLY:
		return "read-only: the kernel reports it; setting it is an error";
	default:
		return "";
	}
}

static void
field(const char *key, const char *value)
{
	if (value != NULL && *value != '\0')
		printf("  %-12s %s\n", key, value);
}

static void
print_text(const struct kb_knob *k)
{
	char *s = NULL;
	size_t i;

	printf("%s (%s%s%s)\n", k->name, k->os, k->platform ? ", " : "",
	    k->platform ? k->platform : "");
	printf("  %-12s %s: %s\n", "placement", kb_placement_name(k->placement), where(k));
	if (k->range != NULL)
		xasprintf(&s, "%s, range %s", kb_type_name(k->type), k->range);
	else if (k->nvalues > 0) {
		struct strbuf sb;

		strbuf_init(&sb);
		strbuf_addf(&sb, "%s:", kb_type_name(k->type));
		for (i = 0; i < k->nvalues; i++)
			strbuf_addf(&sb, " %s", k->values[i]);
		s = strbuf_detach(&sb);
	} else
		s = xstrdup(kb_type_name(k->type));
	field("type", s);
	free(s);
	field("default", k->def ? k->def : "depends on the system");
	field("default when", k->default_when);
	field("unit", k->unit);
	field("scope", k->scope == KB_SCOPE_NETNS ? "per network namespace" :
	    k->scope == KB_SCOPE_HOST ? "host-global (invisible inside a network namespace)" : NULL);
	field("since", k->since);
	field("removed", k->removed);
	field("no effect since", k->no_effect_since);
	field("nonexistent", k->nonexistent);
	field("forwarding", k->forwarding);
	field("replaced by", k->replaced_by);
	for (i = 0; i < k->nrequires; i++)
		field(i == 0 ? "requires" : "", k->requires[i]);
	for (i = 0; i < k->nconflicts; i++)
		field(i == 0 ? "conflicts" : "", k->conflicts[i]);
	field("effect", k->effect);
	field("risk", k->risk);
	if (k->risk_class != KB_RISK_NONE) {
		printf("  %-12s %s: %s\n", "risk class", kb_risk_class_name(k->risk_class),
		    kb_risk_class_why(k));
		field("", kb_risk_class_trial(k->risk_class));
	}
	for (i = 0; i < k->nsources; i++)
		printf("  %-12s %s\n", i == 0 ? "sources" : "", k->sources[i]);
	field("verified", k->verified);
	if (k->unverified != NULL)
		printf("  %-12s not confirmed at its source: %s\n", "unverified", k->unverified);
}

static json_t *
strv(char **v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
opt(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
to_json(const struct kb_knob *k)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(k->name));
	json_object_set_new(o, "os", json_string(k->os));
	json_object_set_new(o, "platform", opt(k->platform));
	json_object_set_new(o, "placement", json_string(kb_placement_name(k->placement)));
	json_object_set_new(o, "type", json_string(kb_type_name(k->type)));
	json_object_set_new(o, "range", opt(k->range));
	json_object_set_new(o, "values", strv(k->values, k->nvalues));
	json_object_set_new(o, "default", opt(k->def));
	json_object_set_new(o, "default_when", opt(k->default_when));
	json_object_set_new(o, "unit", opt(k->unit));
	json_object_set_new(o, "scope", k->scope ? json_string(kb_scope_name(k->scope)) : json_null());
	json_object_set_new(o, "since", opt(k->since));
	json_object_set_new(o, "removed", opt(k->removed));
	json_object_set_new(o, "no_effect_since", opt(k->no_effect_since));
	json_object_set_new(o, "nonexistent", opt(k->nonexistent));
	json_object_set_new(o, "forwarding", opt(k->forwarding));
	json_object_set_new(o, "replaced_by", opt(k->replaced_by));
	json_object_set_new(o, "requires", strv(k->requires, k->nrequires));
	json_object_set_new(o, "conflicts", strv(k->conflicts, k->nconflicts));
	json_object_set_new(o, "effect", json_string(k->effect));
	json_object_set_new(o, "risk", opt(k->risk));
	json_object_set_new(o, "risk_class", opt(kb_risk_class_name(k->risk_class)));
	json_object_set_new(o, "risk_class_why", opt(kb_risk_class_why(k)));
	json_object_set_new(o, "trial", opt(kb_risk_class_trial(k->risk_class)));
	json_object_set_new(o, "sources", strv(k->sources, k->nsources));
	json_object_set_new(o, "verified", opt(k->verified));
	json_object_set_new(o, "unverified", opt(k->unverified));
	return o;
}

static const struct option longopts[] = {
	{ "list", no_argument, NULL, 'l' },
	{ "os", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	const char *os = NULL, *near, *name;
	char *arg;
	enum os_platform pf;
	const struct kb_knob *k;
	bool list = false, json = false;
	struct kb *kb;
	char *cause = NULL;
	json_t *arr;
	size_t i, found = 0;
	int ch;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'l':
			list = true;
			break;
		case 'o':
			if (cmd_parse_os(&cmd_explain, arg, &pf) == -1)
				return 2;
			os = os_platform_name(pf);
			break;
		case 'j':
			json = true;
			break;
		}
	}
	if (list != (args->argc == 0)) {
		cmd_usage(&cmd_explain, 0);
		return 2;
	}
	name = args->argv[0];
	if (kb_load(NULL, &kb, &cause) == -1)
		return cmd_fail(&cmd_explain, &cause, 2);
	arr = json_array();
	for (i = 0; i < kb_count(kb); i++) {
		k = kb_knob(kb, i);
		if (!kb_knob_on(k, os))
			continue;
		if (!list && strcmp(k->name, name) != 0 && !kb_name_match(k->name, name))
			continue;
		/* A concrete name matching several patterns: only the one kb_find picks. */
		if (!list && strcmp(k->name, name) != 0 &&
		    kb_find(kb, name, k->os) != k)
			continue;
		found++;
		if (json)
			json_array_append_new(arr, to_json(k));
		else if (list)
			printf("%-48s %-8s %-8s %s\n", k->name, k->platform ? k->platform : k->os,
			    kb_placement_name(k->placement), k->effect);
		else {
			if (found > 1)
				printf("\n");
			print_text(k);
		}
	}
	if (json && (list || found > 0)) {
		util_json_print(list || found > 1 ? arr : json_array_get(arr, 0), stdout,
		    JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	}
	json_decref(arr);
	if (!list && found == 0) {
		if ((near = kb_suggest(kb, name, os)) != NULL)
			cmd_error(&cmd_explain, 2, "unknown knob '%s' (did you mean %s?)", name, near);
		else
			cmd_error(&cmd_explain, 2, "unknown knob '%s'", name);
		kb_free(kb);
		return 2;
	}
	kb_free(kb);
	return 0;
}

const struct ntune_cmd cmd_explain = {
	.name = "explain",
	.summary = "describe a tunable: placement, type, default, effect, sources",
	.usage = "explain [--os freebsd|opnsense|pfsense|linux] [--json] KNOB\n"
	    "explain --list [--os freebsd|opnsense|pfsense|linux] [--json]",
	.optstring = "lo:j",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
