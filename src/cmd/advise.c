/* ntune advise: propose a profile for this machine (or a snapshot), every line with its reason. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/results.h"
#include "cli/cli.h"
#include "diag/diag.h"
#include "kb/kb.h"
#include "kb/system.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_advise;

static const char *const goals[] = { "forwarding", "throughput", "latency" };
static const char *const roles[] = { "router", "firewall", "host" };

/* A setting a bench or tune in the lab decided worse than what it replaced. */
struct worse {
	char	*name, *value, *text;
	bool	 alone;		/* benched alone (a tune step, a one-line profile), not in a bundle */
};

static void
worse_add(struct worse **w, size_t *n, const char *name, const char *value, const char *text,
    bool alone)
{
	*w = xreallocarray(*w, *n + 1, sizeof **w);
	(*w)[*n].name = xstrdup(name);
	(*w)[*n].value = xstrdup(value);
	(*w)[*n].text = xstrdup(text);
	(*w)[(*n)++].alone = alone;
}

/*
 * The settings DIR proved worse: a tune's steps decided worse (summary.json),
 * a bench's profiles decided worse than the first (verdict.json + profiles/).
 */
static int
measured_worse(const char *dir, struct worse **w, size_t *n, char **cause)
{
	struct bench_verdict_file v;
	struct bench_summary sum;
	char path[1024], *text;
	json_t *doc;
	size_t i, j, len;
	int rc;

	snprintf(path, sizeof path, "%s/summary.json", dir);
	if ((doc = json_load_file(path, 0, NULL)) != NULL) {
		rc = bench_summary_read(doc, path, &sum, cause);
		json_decref(doc);
		if (rc == -1)
			return -1;
		for (i = 0; i < sum.nsteps; i++) {
			const struct bench_summary_step *st = &sum.steps[i];
			bool lat = strcmp(sum.metric, "latency_p99_us") == 0;

			/* pct NaN (not measured) is neither side of 0: not worse. */
			if (st->kept || strcmp(st->stopped, "decided") != 0 ||
			    !(lat ? st->pct > 0 : st->pct < 0))
				continue;
			for (j = 0; j < st->nchanges; j++)
				worse_add(w, n, st->changes[j].name, st->changes[j].value, st->verdict,
				    st->nchanges == 1);
		}
		bench_summary_free(&sum);
		return 0;
	}
	snprintf(path, sizeof path, "%s/verdict.json", dir);
	if ((doc = json_load_file(path, 0, NULL)) == NULL) {
		util_cause(cause, "'%s' holds neither summary.json (tune) nor verdict.json (bench)", dir);
		return -1;
	}
	rc = bench_verdict_file_read(doc, path, &v, cause);
	json_decref(doc);
	if (rc == -1)
		return -1;
	for (i = 0; i < v.ncmp; i++) {
		const struct bench_comparison *cmp = &v.cmp[i];
		struct kb_profile *p;
		int better = strcmp(cmp->metric, "latency_p99_us") == 0 ? -1 : 1;

		if (!cmp->decided || cmp->direction != -better)
			continue;
		snprintf(path, sizeof path, "%s/profiles/%s.conf", dir, cmp->b);
		if (util_read_file(path, &text, &len, NULL) == -1)
			continue;
		if ((p = kb_profile_parse(path, text, len, NULL)) != NULL) {
			for (j = 0; j < p->nentries; j++)
				worse_add(w, n, p->entries[j].name, p->entries[j].value, cmp->text,
				    p->nentries == 1);
			kb_profile_free(p);
		}
		free(text);
	}
	bench_verdict_file_free(&v);
	return 0;
}

static const struct worse *
worse_find(const struct worse *w, size_t n, const struct kb_advice *a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(w[i].name, a->name) == 0 && strcmp(w[i].value, a->value) == 0)
			return &w[i];
	return NULL;
}

/* What is known of the value now: "the default; the system did not say", a boot-value note. */
static const char *
now_note(const struct kb_advice *a, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", a->current_is_default ? "the default" : "",
	    a->current_is_default && a->boot_note != NULL ? ": " : "",
	    a->boot_note != NULL ? a->boot_note : "");
	return buf;
}

/* "4 -> 5", "0 (the default; the system did not say) -> 5", "unknown -> 5". */
static void
print_change(const struct kb_advice *a)
{
	char note[160];

	now_note(a, note, sizeof note);
	printf("# now: %s%s%s%s%s → %s\n", a->current != NULL ? a->current : "unknown",
	    *note ? " (" : "", note, a->current_is_default ? "; the system did not say" : "",
	    *note ? ")" : "", a->value);
}

/* The changes, each with its reason, source and current value; then what is already so. */
static void
print_text(const struct kb_advice *a, size_t na, const struct worse *worse, size_t nworse,
    const char *measured)
{
	const struct worse *wf;
	size_t i, nalready = 0, nnotes;

	for (i = 0; i < na; i++) {
		if (a[i].already) {
			nalready++;
			continue;
		}
		if (a[i].certainty == KB_NOT_ADVISED)
			continue;
		putchar('\n');
		if (a[i].risk_class != KB_RISK_NONE)
			printf("# %s risk: %s; %s\n", kb_risk_class_name(a[i].risk_class), a[i].risk_why,
			    kb_risk_class_trial(a[i].risk_class));
		printf("# [%s] %s\n# source: %s\n", kb_certainty_name(a[i].certainty), a[i].reason,
		    a[i].source);
		print_change(&a[i]);
		/* Proven worse here on its own: left out (commented); in a bundle: said. */
		if ((wf = worse_find(worse, nworse, &a[i])) != NULL)
			printf("# PROVEN WORSE in %s%s: %s\n%s", measured, wf->alone ? "" :
			    " (as part of a profile)", wf->text, wf->alone ? "# " : "");
		printf("%s=%s\n", a[i].name, a[i].value);
	}
	for (i = nnotes = 0; i < na; i++)
		nnotes += a[i].certainty == KB_NOT_ADVISED;
	if (nnotes > 0)
		printf("\n# Not advised, with why (%zu):\n", nnotes);
	for (i = 0; i < na; i++) {
		if (a[i].certainty == KB_NOT_ADVISED)
			printf("#   %s: %s [source: %s]\n", a[i].name, a[i].reason, a[i].source);
	}
	if (nalready == 0)
		return;
	printf("\n# Already in effect, nothing to change (%zu):\n", nalready);
	for (i = 0; i < na; i++) {
		if (a[i].already && a[i].boot_note != NULL)
			printf("#   %s=%s (%s)\n", a[i].name, a[i].value, a[i].boot_note);
		else if (a[i].already)
			printf("#   %s=%s (now %s%s)\n", a[i].name, a[i].value, a[i].current,
			    a[i].current_is_default ? ", the default" : "");
	}
}

/* The advice for name, or NULL. */
static const struct kb_advice *
advice_for(const struct kb_advice *a, size_t na, const char *name)
{
	size_t i;

	for (i = 0; i < na; i++) {
		if (strcmp(a[i].name, name) == 0)
			return &a[i];
	}
	return NULL;
}

/* Where a knob's facts come from, for a comparison line. */
static const char *
knob_source(const struct kb *kb, const char *name, enum os_platform pf)
{
	const struct kb_knob *k = kb_find(kb, name, os_platform_name(pf));

	if (k == NULL)
		return "not in ntune's knowledge base";
	if (k->verified != NULL)
		return k->verified;
	return k->nsources > 0 ? k->sources[0] : "";
}

/*
 * For each setting of a profile (a seed's own tunables): the same value as the advice,
 * a different one with the advice's reason and source, or why ntune proposes nothing
 * (from the lint: removed, a default, unknown...).
 */
static json_t *
compare(const struct kb *kb, const struct kb_system *sys, const struct kb_profile *p,
    const struct kb_advice *a, size_t na)
{
	json_t *arr = json_array(), *o;
	const struct kb_advice *x;
	const struct kb_knob *k;
	struct kb_diag *d;
	size_t nd, i, j;
	const char *verdict, *why, *src;

	kb_check(kb, p, sys, KB_TARGET_ANY, &d, &nd);
	for (i = 0; i < p->nentries; i++) {
		const struct kb_entry *e = &p->entries[i];

		k = kb_find(kb, e->name, os_platform_name(sys->platform));
		why = NULL;
		src = knob_source(kb, e->name, sys->platform);
		if ((x = advice_for(a, na, e->name)) != NULL && x->certainty != KB_NOT_ADVISED) {
			verdict = k != NULL && kb_same_effect(k, sys, e->name, e->value, x->value) ?
			    "same" : "different";
			why = x->reason;
			src = x->source;
		} else {
			/* why not: what check warns of, else the rule that leaves it alone */
			verdict = "not proposed";
			for (j = 0; j < nd && why == NULL; j++) {
				if (d[j].line == e->line && d[j].severity >= KB_WARNING)
					why = d[j].message;
			}
			if (why == NULL && x != NULL) {
				why = x->reason;
				src = x->source;
			}
			x = NULL;
			for (j = 0; j < nd && why == NULL; j++) {
				if (d[j].line == e->line)
					why = d[j].message;
			}
			if (why == NULL)
				why = "no rule of ntune derives a value for it on this system; keep "
				    "it only if `ntune bench` proves it";
		}
		o = json_pack("{s:s, s:s, s:o, s:s, s:s, s:s}", "name", e->name, "profile_value",
		    e->value, "advice_value", x != NULL ? json_string(x->value) : json_null(),
		    "verdict", verdict, "reason", why, "source", src);
		json_array_append_new(arr, o);
	}
	kb_diags_free(d, nd);
	return arr;
}

static void
print_compare(json_t *arr, const char *path)
{
	json_t *o;
	size_t i;

	printf("\n# Compared with %s (%zu settings):\n", path, json_array_size(arr));
	json_array_foreach(arr, i, o) {
		const char *v = json_string_value(json_object_get(o, "verdict"));

		printf("#   %s=%s: %s", json_string_value(json_object_get(o, "name")),
		    json_string_value(json_object_get(o, "profile_value")), v);
		if (strcmp(v, "different") == 0)
			printf(", ntune proposes %s",
			    json_string_value(json_object_get(o, "advice_value")));
		printf("\n#     why: %s\n#     source: %s\n",
		    json_string_value(json_object_get(o, "reason")),
		    json_string_value(json_object_get(o, "source")));
	}
}

/* One advice as JSON (measured: where a bench proved it worse, or NULL). */
static json_t *
one_json(const struct kb_advice *a, const struct worse *wf, const char *measured)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(a->name));
	if (a->certainty != KB_NOT_ADVISED)
		json_object_set_new(o, "value", json_string(a->value));
	json_object_set_new(o, "certainty", json_string(kb_certainty_name(a->certainty)));
	json_object_set_new(o, "reason", json_string(a->reason));
	json_object_set_new(o, "source", json_string(a->source));
	json_object_set_new(o, "risk_class", kb_risk_class_name(a->risk_class) != NULL ?
	    json_string(kb_risk_class_name(a->risk_class)) : json_null());
	if (a->risk_class != KB_RISK_NONE)
		json_object_set_new(o, "risk", json_pack("{s:s, s:s}", "why", a->risk_why, "trial",
		    kb_risk_class_trial(a->risk_class)));
	if (a->certainty == KB_NOT_ADVISED)
		return o;
	json_object_set_new(o, "current", a->current ? json_string(a->current) : json_null());
	json_object_set_new(o, "current_from", a->current == NULL ? json_null() :
	    json_string(a->current_is_default ? "default" : "system"));
	json_object_set_new(o, "already_set", json_boolean(a->already));
	json_object_set_new(o, "kernel_sets", a->boot_note != NULL ? json_string(a->boot_note) :
	    json_null());
	if (wf != NULL)
		json_object_set_new(o, "measured", json_pack("{s:s, s:b, s:s, s:s}", "verdict",
		    "worse", "alone", wf->alone, "text", wf->text, "results", measured));
	return o;
}

/*
 * The --json document: the system, the goal and role, each proposal ("advice"), the
 * knobs left alone with why ("not_advised"), the comparison.
 */
static json_t *
advice_json(const struct kb_system *sys, int goal, int role, const struct kb_advice *a,
    size_t na, const struct worse *worse, size_t nworse, const char *measured, json_t *cmp)
{
	json_t *doc = json_object(), *arr = json_array(), *notes = json_array();
	size_t i;

	json_object_set_new(doc, "os", json_string(os_platform_name(sys->platform)));
	json_object_set_new(doc, "version", sys->version ? json_string(sys->version) : json_null());
	json_object_set_new(doc, "cpus", json_integer(sys->ncpu));
	json_object_set_new(doc, "cores", json_integer(sys->ncores));
	json_object_set_new(doc, "smt", sys->smt < 0 ? json_null() : json_boolean(sys->smt));
	json_object_set_new(doc, "goal", json_string(goals[goal]));
	json_object_set_new(doc, "role", json_string(roles[role]));
	for (i = 0; i < na; i++)
		json_array_append_new(a[i].certainty == KB_NOT_ADVISED ? notes : arr,
		    one_json(&a[i], worse_find(worse, nworse, &a[i]), measured));
	json_object_set_new(doc, "advice", arr);
	json_object_set_new(doc, "not_advised", notes);
	if (cmp != NULL)
		json_object_set_new(doc, "compare", json_incref(cmp));
	return doc;
}

/* The text output's first lines: the system, the legend, what a diagnosis observed. */
static void
print_header(const struct kb_system *sys, int goal, int role, const struct diag_result *diag)
{
	size_t i;

	printf("# ntune advise for %s%s%s: %d CPUs", os_platform_name(sys->platform),
	    sys->version ? " " : "", sys->version ? sys->version : "", sys->ncpu);
	if (sys->ncores > 0)
		printf(" (%d cores, SMT %s)", sys->ncores, sys->smt == 1 ? "on" :
		    sys->smt == 0 ? "off" : "unknown");
	printf(", %zu NIC%s, goal %s, role %s\n", sys->nnics, sys->nnics == 1 ? "" : "s",
	    goals[goal], roles[role]);
	printf("# safe = fixes a clear misconfiguration; usually helps = per its source;\n"
	    "# measure it = a candidate for `ntune bench` / `ntune tune`, not a fact.\n");
	for (i = 0; diag != NULL && i < diag->nfindings; i++)
		printf("# observed (%s): %s\n", diag_certainty_name(diag->findings[i].certainty),
		    diag->findings[i].summary);
}

/* --cpus/--cores describe a machine ntune cannot see (planning a box). */
static void
plan_cpus(struct kb_system *sys, int cpus, int cores)
{
	if (cpus > 0) {
		sys->ncpu = cpus;
		sys->ncores = cores > 0 ? cores : cpus;
		sys->smt = sys->ncores < cpus;
	} else if (cores > 0 && sys->ncpu > 0) {
		sys->ncores = cores;
		sys->smt = cores < sys->ncpu;
	}
}

static const struct option longopts[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "os", required_argument, NULL, 'o' },
	{ "goal", required_argument, NULL, 'g' },
	{ "role", required_argument, NULL, 'r' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "cores", required_argument, NULL, 'C' },
	{ "json", no_argument, NULL, 'j' },
	{ "measured", required_argument, NULL, 'm' },
	{ "diagnosis", required_argument, NULL, 'D' },
	{ "compare", required_argument, NULL, 'P' },
	{ NULL, 0, NULL, 0 },
};

/* What the options ask for. */
struct advise_opts {
	const char		*from[16], *measured, *compare;
	size_t			 nfrom;
	enum os_platform	 os;
	int			 goal, role, cpus, cores;
	bool			 json;
	struct diag_result	*diag;		/* --diagnosis */
};

/* Reads the options into o; 0, or 2 after saying why. */
static int
options(struct cmd_args *args, struct advise_opts *o)
{
	char *cause = NULL, *arg;
	int ch;

	memset(o, 0, sizeof *o);
	o->os = OS_PLATFORM_UNKNOWN;
	o->goal = KB_GOAL_FORWARDING;
	o->role = KB_ROLE_ROUTER;
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'f':
			if (cmd_add_from(&cmd_advise, o->from, &o->nfrom, nitems(o->from), arg) == -1)
				return 2;
			break;
		case 'o':
			if (cmd_parse_os(&cmd_advise, arg, &o->os) == -1)
				return 2;
			break;
		case 'g':
			if ((o->goal = cmd_pick(arg, goals, nitems(goals))) == -1)
				return cmd_error(&cmd_advise, 2, "bad --goal '%s' (forwarding, throughput, "
				    "latency)", arg);
			break;
		case 'r':
			if ((o->role = cmd_pick(arg, roles, nitems(roles))) == -1)
				return cmd_error(&cmd_advise, 2, "bad --role '%s' (router, firewall, host)",
				    arg);
			break;
		case 'c':
		case 'C':
			if (atoi(arg) < 1 || atoi(arg) > 4096)
				return cmd_error(&cmd_advise, 2, "bad --%s '%s'", ch == 'c' ? "cpus" :
				    "cores", arg);
			*(ch == 'c' ? &o->cpus : &o->cores) = atoi(arg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'D':
			diag_result_free(o->diag);
			if (diag_load(arg, &o->diag, &cause) != 0)
				return cmd_fail(&cmd_advise, &cause, 2);
			break;
		case 'm':
			o->measured = arg;
			break;
		case 'P':
			o->compare = arg;
			break;
		}
	}
	return 0;
}

static int
run(struct cmd_args *args)
{
	struct advise_opts o;
	struct kb_profile *cp = NULL;
	json_t *cmp = NULL;
	struct worse *worse = NULL;
	size_t nworse = 0, na = 0, i;
	struct kb *kb;
	struct kb_sysinfo si;
	struct kb_advice *a;
	struct os_ctx *ctx;
	char *cause = NULL;
	int rc;

	if ((rc = options(args, &o)) != 0)
		return rc;
	if (o.measured != NULL && measured_worse(o.measured, &worse, &nworse, &cause) == -1) {
		diag_result_free(o.diag);
		return cmd_fail(&cmd_advise, &cause, 2);
	}
	if (o.compare != NULL && (cp = kb_profile_load(o.compare, &cause)) == NULL) {
		diag_result_free(o.diag);
		return cmd_fail(&cmd_advise, &cause, 2);
	}
	if (kb_load(NULL, &kb, &cause) == -1) {
		kb_profile_free(cp);
		diag_result_free(o.diag);
		return cmd_fail(&cmd_advise, &cause, 2);
	}
	if (kb_target_open(o.from, o.nfrom, o.os, NULL, &ctx, &si, &cause) == -1) {
		kb_profile_free(cp);
		kb_free(kb);
		diag_result_free(o.diag);
		return cmd_fail(&cmd_advise, &cause, 2);
	}
	plan_cpus(&si.sys, o.cpus, o.cores);
	if (kb_advise(kb, &si.sys, (enum kb_goal)o.goal, (enum kb_role)o.role, &a, &na,
	    &cause) == -1) {
		cmd_error(&cmd_advise, 2, "%s (use --from SNAPSHOT or --cpus N)", cause);
		free(cause);
		kb_target_close(ctx, &si);
		kb_profile_free(cp);
		kb_free(kb);
		diag_result_free(o.diag);
		return 2;
	}
	if (o.diag != NULL)
		diag_order_advice(o.diag, a, na);
	if (cp != NULL)
		cmp = compare(kb, &si.sys, cp, a, na);
	if (o.json) {
		json_t *doc = advice_json(&si.sys, o.goal, o.role, a, na, worse, nworse, o.measured,
		    cmp);

		util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(doc);
	} else {
		print_header(&si.sys, o.goal, o.role, o.diag);
		print_text(a, na, worse, nworse, o.measured);
		if (cmp != NULL)
			print_compare(cmp, cp->path);
	}
	json_decref(cmp);
	kb_profile_free(cp);
	kb_advice_free(a, na);
	diag_result_free(o.diag);
	kb_target_close(ctx, &si);
	kb_free(kb);
	for (i = 0; i < nworse; i++) {
		free(worse[i].name);
		free(worse[i].value);
		free(worse[i].text);
	}
	free(worse);
	return 0;
}

const struct ntune_cmd cmd_advise = {
	.name = "advise",
	.summary = "propose a profile for this machine, every line with its reason",
	.usage = "advise [--from SNAPSHOT]... [--os freebsd|opnsense|pfsense|linux] [--cpus N [--cores N]]\n"
	    "      [--goal forwarding|throughput|latency] [--role router|firewall|host]\n"
	    "      [--measured RESULTS_DIR] [--diagnosis FILE] [--compare PROFILE] [--json]",
	.optstring = "f:o:g:r:c:C:jP:",
	.longopts = longopts,
	.max_args = 0,
	.run = run,
};
