/* ntune tune: try candidate changes in the lab, keep only those proven better. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "apply/dut_apply.h"
#include "bench/cand.h"
#include "bench/lab_bench.h"
#include "bench/dut_bench.h"
#include "bench/results.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "bench/tune.h"
#include "bench/tune_remote.h"
#include "bench/verdict.h"
#include "cli/cli.h"
#include "cli/bench_dut_opts.h"
#include "diag/diag.h"
#include "doctor/doctor.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "remote/remote.h"
#include "util/util.h"
#include "util/util_json.h"

static void
progress(void *arg, const char *msg)
{
	(void)arg;
	cmd_error(&cmd_tune, 0, "%s", msg);
}

static void
print_summary(const struct bench_tune *t, const char *dir)
{
	size_t i;
	char *text;

	printf("%-4s %-9s %-40s %s\n", "step", "result", "change", "verdict");
	for (i = 0; i < t->nsteps; i++) {
		const struct bench_tune_step *s = &t->steps[i];

		printf("%-4zu %-9s %-40s %s%s%s\n", i + 1, s->drop_of > 0 ? (s->removed ? "dropped" :
		    "needed") : s->kept ? "kept" : s->dropped_at > 0 ? "dropped" : s->tried ?
		    "rejected" : "skipped", s->c.label,
		    s->verdict != NULL ? s->verdict : "", s->note != NULL ? " " : "",
		    s->note != NULL ? s->note : "");
	}
	if (t->have_final) {
		text = bench_verdict_text(&t->final);
		printf("gain over the starting settings%s%s%s: %+.1f%% ± %.1f%% (%.0f -> %.0f %s)\n",
		    t->final_lab[0] != '\0' ? ", re-measured in the fresh lab '" : "", t->final_lab,
		    t->final_lab[0] != '\0' ? "'" : "", t->final.pct, isfinite(t->final.pct_hw) ? t->final.pct_hw : 0.0, t->final.mean_a,
		    t->final.mean_b, strcmp(t->final.unit, "bits") == 0 ? "bit/s" :
		    strcmp(t->final.unit, "latency") == 0 ? "µs p99 latency" :
		    strcmp(t->final.unit, "efficiency") == 0 ? "packets per DUT CPU-second" : "pps");
		printf("%s\n", text);
		free(text);
	} else
		printf("gain over the starting settings: none proven (no change kept)\n");
	if (t->diag != NULL && t->diag->nfindings > 0)
		printf("order: the knobs of %zu finding%s of %s first (%s)\n", t->diag->nfindings,
		    t->diag->nfindings == 1 ? "" : "s", t->diag_from != NULL ? t->diag_from :
		    "the DUT's diagnosis under the load, diagnosis.json", t->diag->findings[0].summary);
	else if (t->diag != NULL)
		printf("order: the candidate list's (no finding in %s)\n", t->diag_from != NULL ?
		    t->diag_from : "the DUT's diagnosis under the load, diagnosis.json");
	else
		printf("order: %s\n", t->diag_note != NULL ? t->diag_note : "the candidate list's");
	printf("stopped: %s\n", t->stopped);
	printf("best profile: %s/best.conf\nresults: %s\n", dir, dir);
}

/*
 * The final bench in a lab built for it, like the tuned one (mode, queues,
 * MTU), so that the gain reported is re-measured from a start no step has
 * touched: a NAPI thread left where a step put it, a warm conntrack table,
 * a drifted generator no longer count.
 */
static int
final_in_fresh_lab(struct bench_ctx *c, struct bench_tune *t, const char *prefix, char **cause)
{
	struct bench_lab fresh, *tuned = c->lab;
	struct lab_config cfg;
	char *why = NULL;
	int rc = -1, removed;

	if (lab_read_config(prefix, &cfg, NULL) == -1)
		lab_config_init(&cfg);
	snprintf(cfg.prefix, sizeof cfg.prefix, "%.20s-f%ld", prefix, (long)getpid() % 1000000);
	snprintf(t->final_lab, sizeof t->final_lab, "%s", cfg.prefix);
	cmd_error(&cmd_tune, 0, "final bench in a fresh lab '%s'", cfg.prefix);
	if (lab_up(&cfg, cause) == -1)
		return -1;
	fresh = *tuned;
	fresh.os = NULL;
	if (bench_lab_open(&fresh, cfg.prefix, cause) == 0) {
		c->lab = &fresh;
		rc = bench_tune_final(c, t, cause);
		c->lab = tuned;
	}
	bench_lab_close(&fresh);
	if (lab_down(cfg.prefix, &removed, &why) == -1)
		cmd_fail(&cmd_tune, &why, 1);
	return rc;
}

/* A --cand file is read before anything starts: its errors are usage errors. */
static int
cand_check(const char *path, char **cause)
{
	struct bench_gens g;

	if (path == NULL)
		return 0;
	if (bench_gens_load(path, &g, cause) == -1)
		return -1;
	bench_gens_free(&g);
	return 0;
}

/*
 * --diagnosis FILE: an ntune-diagnosis document (`ntune diagnose --json`, a bench's or
 * tune's DIR/diagnosis.json), or the diagnosis part of an ntune-doctor one (`ntune
 * doctor -o DIR`'s doctor.json, `doctor --json`).
 */
static int
load_diagnosis(const char *path, struct diag_result **d, char **cause)
{
	struct doctor_doc doc;
	json_error_t jerr;
	json_t *o, *v;
	bool doctor;
	int rc;

	if ((o = json_load_file(path, 0, &jerr)) == NULL)
		return diag_load(path, d, cause);	/* its "PATH:LINE: ..." */
	doctor = json_is_string(v = json_object_get(o, "schema")) &&
	    strcmp(json_string_value(v), DOCTOR_SCHEMA) == 0;
	if (!doctor) {
		json_decref(o);
		return diag_load(path, d, cause);
	}
	memset(&doc, 0, sizeof doc);
	if ((rc = doctor_doc_read(o, path, &doc, cause)) == 0 &&
	    (rc = diag_from_json(doc.diagnosis, d, cause)) == -1) {
		char *why = *cause;

		xasprintf(cause, "%s: its diagnosis: %s", path, why);
		free(why);
	}
	doctor_doc_free(&doc);
	json_decref(o);
	return rc;
}

/* What the options say. */
struct tune_opts {
	const char *prefix, *dir;
	struct cmd_measure m;
	double	budget, pairs, effect;
	int	json, keep, have_load, same_lab_final;
	struct cmd_remote_opts ro;	/* --dut and friends */
};

/* tune --dut: the hosts, the runner, the candidates read on the DUT. */
struct tune_remote {
	struct bench_remote rb;
	struct bench_runner runner;
	struct bench_gens gens;
	json_t	*values;		/* the candidates' knobs on the DUT */
	double	secs;			/* the diagnosis' samples apart: a run's duration */
	bool	opened;
};

/* bench_tune.diagnose on the DUT (arg: the struct tune_remote). */
static int
diagnose_dut(void *arg, const char *path, struct diag_result **d, char **why)
{
	struct tune_remote *r = arg;

	return bench_remote_tune_diagnose(&r->rb, r->secs, path, d, why);
}

static const struct option longopts[] = {
	{ "lab", no_argument, NULL, 'L' },
	{ "host", required_argument, NULL, 'H' },
	{ "goal", required_argument, NULL, 'g' },
	{ "metric", required_argument, NULL, 'g' },
	{ "budget", required_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "keep", no_argument, NULL, 'k' },
	{ "host-knobs", no_argument, NULL, 'K' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "load", required_argument, NULL, 'l' },
	{ "json", no_argument, NULL, 'j' },
	{ "no-fresh-final", no_argument, NULL, 'N' },
	{ "cand", required_argument, NULL, 'C' },
	{ "pairs", required_argument, NULL, 'P' },
	{ "min-effect", required_argument, NULL, 'E' },
	{ "diagnosis", required_argument, NULL, 'D' },
	CMD_MEASURE_LONGOPTS,
	CMD_REMOTE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* One option of tune's own: 1 taken, -1 usage error (said), 0 not ours. */
static int
tune_option(int ch, const char *arg, struct tune_opts *o, struct bench_lab *lab, struct bench_ctx *c,
    struct bench_tune *t)
{
	switch (ch) {
	case 'L':
		return 1;
	case 'H':
		return cmd_error(&cmd_tune, -1, "a DUT reached over ssh is --dut ssh://[user@]host, "
		    "not --host");
	case 'g':
		return cmd_parse_metric(&cmd_tune, "--goal", "throughput", arg, lab, c) == -1 ? -1 : 1;
	case 'b':
		return cmd_parse_num(&cmd_tune, "--budget", arg, 0.1, 24 * 60, &o->budget) == -1 ? -1 : 1;
	case 'P':
		return cmd_parse_num(&cmd_tune, "--pairs", arg, 0, 8, &o->pairs) == -1 ? -1 : 1;
	case 'E':
		return cmd_parse_num(&cmd_tune, "--min-effect", arg, 0.5, 500, &o->effect) == -1 ? -1 : 1;
	case 'o': o->dir = arg; return 1;
	case 'k': o->keep = 1; return 1;
	case 'K': t->host_knobs = true; return 1;
	case 'N': o->same_lab_final = 1; return 1;
	case 'C': t->cand_path = arg; return 1;
	case 'D': t->diag_from = arg; return 1;
	case 'p': o->prefix = arg; return 1;
	case 'j': o->json = 1; return 1;
	case 'l':
		o->have_load = 1;
		if (bench_parse_load(arg, lab) == -1) {
			if (*arg == '\0')
				return -1;
			lab->load = BENCH_LOAD_CMD;
			lab->cmd = arg;
		}
		return 1;
	}
	return 0;
}

/* Reads the options and what follows from them. 0 go on, 2 usage error (said). */
static int
parse(struct cmd_args *args, struct tune_opts *o, struct bench_lab *lab, struct bench_ctx *c,
    struct bench_tune *t, struct bench_remote *rb)
{
	char *arg;
	int ch, r;

	while ((ch = cmd_next(args, &arg)) != -1) {
		if ((r = tune_option(ch, arg, o, lab, c, t)) == 1 ||
		    (r == 0 && (r = cmd_remote_option(&cmd_tune, ch, arg, &o->ro, rb)) == 1))
			continue;
		if (r == -1 || cmd_measure_option(&cmd_tune, ch, arg, &o->m, lab, c) != 1)
			return 2;
	}
	if (o->m.max_runs < o->m.runs) {
		cmd_error(&cmd_tune, 0, "--max-runs %.0f is below --runs %.0f", o->m.max_runs,
		    o->m.runs);
		return 2;
	}
	/* Throughput is a TCP stream's business: iperf3 unless told otherwise. */
	if (c->bits && !o->have_load)
		lab->load = BENCH_LOAD_IPERF3;
	/*
	 * The generator pinned to CPU 0: where it runs is then no longer left to
	 * the scheduler, and the candidates that pin the DUT's NAPI thread to
	 * another CPU mean the same thing on every start.
	 */
	if (!o->have_load && lab->load == BENCH_LOAD_GEN)
		lab->args = "--cpus 0";
	/* A DUT that forwards nothing at the start (a planted rp_filter) is a finding to fix. */
	lab->zero_ok = !c->latency;
	/* Latency is measured below saturation: a fixed rate unless told. */
	if (c->latency && lab->rate == 0)
		lab->rate = 100000;
	if (c->latency && lab->load != BENCH_LOAD_GEN) {
		cmd_error(&cmd_tune, 0, "--goal latency needs --load gen (its packets carry timestamps)");
		return 2;
	}
	if (o->ro.dut == NULL && (o->ro.gen != NULL || o->ro.sink != NULL))
		return cmd_error(&cmd_tune, 2, "--gen and --sink go with --dut ssh://...");
	if (o->ro.dut != NULL && o->keep) {
		return cmd_error(&cmd_tune, 2, "--keep is for a lab; on a DUT apply best.conf agentless "
		    "(ntune apply best.conf --dut %s --confirm 300)", o->ro.dut);
	}
	if (o->ro.dut == NULL && o->ro.plan)
		return cmd_error(&cmd_tune, 2, "--plan goes with --dut ssh://...");
	if (o->ro.dut != NULL && rb->reboot)
		return cmd_error(&cmd_tune, 2, "--reboot is bench's: tune --dut reboots the DUT only "
		    "for the steps that change a boot-time knob");
	if (o->ro.dut != NULL && cmd_remote_check(&cmd_tune, &o->ro, rb, lab, c) == -1)
		return 2;
	return 0;
}

/*
 * tune --dut: reaches the hosts, reads on the DUT the knobs the candidates
 * start from (the candidate file's dut0/dut1 are --dut-in/--dut-out there),
 * and measures with the remote runner. -1 + cause.
 */
static int
remote_open(struct tune_remote *r, struct bench_lab *lab, struct bench_ctx *c, struct bench_tune *t,
    char **cause)
{
	char **names = NULL;
	size_t n, i;
	int rc;

	r->rb.lab = lab;
	if (r->rb.confirm_secs == 0)
		r->rb.confirm_secs = (int)(300 + 3 * (lab->settle + c->duration + c->warmup));
	r->rb.progress = progress;
	/* Boot-time candidates: a reboot when a profile's boot-time part changes. */
	r->rb.reboot_auto = true;
	r->rb.kb = c->kb;
	r->opened = true;
	if (bench_remote_open(&r->rb, cause) == -1)
		return -1;
	cmd_dut_said(&cmd_tune, &r->rb);
	/* The DUT says what it runs: its candidates and knowledge base are that OS's. */
	if (bench_remote_gens(&r->rb, t->cand_path, &r->gens, cause) == -1)
		return -1;
	cmd_error(&cmd_tune, 0, "the DUT runs %s: candidates from %s", r->rb.os,
	    t->cand_path != NULL ? t->cand_path : "the knowledge base's list for it");
	n = bench_gens_knobs(&r->gens, &names);
	rc = bench_remote_knobs(&r->rb, names, n, &r->values, cause);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc == -1)
		return -1;
	t->gens = &r->gens;
	t->get = bench_remote_knob_get;
	t->get_arg = r->values;
	t->ncpu = r->rb.ncpu;
	/* The DUT is a host of its own: its host-wide knobs are its to tune. */
	t->host_knobs = true;
	t->dut_name = r->rb.dut.url;
	t->reboot_s = &r->rb.reboot_mean;
	bench_remote_runner(&r->rb, &r->runner);
	c->runner = &r->runner;
	/* The first baseline: the DUT diagnosed under the load, read agentless. */
	r->secs = c->duration;
	t->diagnose = diagnose_dut;
	t->diagnose_arg = r;
	return 0;
}

/* --plan: the steps, the reboots and the DUT time, read on the DUT; nothing changed. */
static int
print_plan(const struct tune_opts *o, struct bench_lab *lab, struct bench_ctx *c,
    struct bench_tune *t, struct bench_remote *rb)
{
	json_t *plan, *s;
	size_t i;

	c->lab = lab;
	c->seq.confidence = 0.95;
	t->budget_s = o->budget * 60;
	t->pairs = (int)o->pairs;
	plan = bench_remote_tune_plan(rb, c, t);
	if (o->json) {
		util_json_print(plan, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(plan);
		return 0;
	}
	printf("plan: tune %s (%s), budget %.1f min; generator %s, sink %s\n", rb->dut.url,
	    rb->os, o->budget, o->ro.gen != NULL ? o->ro.gen : "local",
	    o->ro.sink != NULL ? o->ro.sink : "local");
	printf("  each run: apply --confirm and verify on the DUT, %.1f s settle + %.1f s measured, "
	    "about %.0f s; up to %d runs per profile a step\n", lab->settle, c->duration,
	    json_real_value(json_object_get(plan, "run_s")), c->seq.max_runs);
	printf("  each reboot: up to %.0f s (drop, new boot id, probe through the DUT), %.0f s settle; "
	    "counted as %.0f s\n", rb->reboot_timeout, rb->reboot_settle, rb->reboot_mean);
	if (t->diag != NULL)
		printf("  order: the knobs of the %zu finding%s of %s first\n", t->diag->nfindings,
		    t->diag->nfindings == 1 ? "" : "s", t->diag_from);
	else
		printf("  order: the candidate list's (the tune diagnoses the DUT under its load "
		    "first, and orders by that)\n");
	json_array_foreach(json_object_get(plan, "steps"), i, s) {
		printf("  step %zu: %s (now %s): %s, at most %lld reboots, about %.0f s%s\n", i + 1,
		    json_string_value(json_object_get(s, "change")),
		    json_string_value(json_object_get(s, "was")),
		    json_is_true(json_object_get(s, "boot")) ? "boot time" : "runtime",
		    json_integer_value(json_object_get(s, "reboots")),
		    json_real_value(json_object_get(s, "secs")),
		    json_is_true(json_object_get(s, "in_budget")) ? "" :
		    json_is_true(json_object_get(s, "boot")) ? " (skipped: its reboots do not fit "
		    "in the budget)" : " (beyond the budget: the tune stops before it)");
	}
	json_array_foreach(json_object_get(plan, "left_out"), i, s)
		printf("  left out: %s\n", json_string_value(s));
	printf("  in the budget: %lld of %zu steps, at most %lld reboots (one to restore the "
	    "original boot-time settings included)\n",
	    json_integer_value(json_object_get(plan, "steps_in_budget")),
	    json_array_size(json_object_get(plan, "steps")),
	    json_integer_value(json_object_get(plan, "reboots_in_budget")));
	printf("  DUT time: about %.0f min %02.0f s, never beyond the budget (pairs and the final "
	    "bench come out of it too)\n", floor(json_real_value(json_object_get(plan, "dut_s")) / 60),
	    fmod(json_real_value(json_object_get(plan, "dut_s")), 60));
	printf("nothing was changed\n");
	json_decref(plan);
	return 0;
}

static void
remote_close(struct tune_remote *r)
{
	if (r->opened)
		bench_remote_close(&r->rb);
	bench_gens_free(&r->gens);
	json_decref(r->values);
}

/* --keep: best.conf applied in the DUT, journalled (the journal of `ntune history`). */
static int
keep_best(const struct kb *kb, const struct bench_lab *lab, const struct bench_tune *t, char **cause)
{
	struct kb_profile *p;
	struct remote_host h;
	struct agentless_opts o;
	struct agentless_result res;
	int rc;

	if ((p = kb_profile_parse("best.conf", t->best_text, strlen(t->best_text), cause)) == NULL)
		return -1;
	memset(&res, 0, sizeof res);
	if ((rc = agentless_local(&o, &h, NULL, NULL, lab->dut_ns, cause)) == 0) {
		o.persist = false;
		rc = agentless_apply(kb, p, &o, &res, cause);
	}
	if (rc == 0)
		cmd_error(&cmd_tune, 0, "--keep: best.conf applied in %s (journal %s; undo with "
		    "`ntune revert %s`)", lab->dut_ns, res.id, res.id);
	agentless_result_free(&res);
	kb_profile_free(p);
	return rc;
}

/*
 * A DUT's original boot-time settings back (with a reboot when a boot-time part
 * of ours is in force), also after a failure or Ctrl-C; false when that failed.
 */
static bool
remote_finish(struct bench_remote *rb, bool ok, char **cause)
{
	char *why = NULL;

	if (rb == NULL || bench_remote_finish(rb, &why) == 0)
		return ok;
	cmd_error(&cmd_tune, 1, "%s", why);
	if (ok)
		*cause = why;
	else
		free(why);
	return false;
}

/* Runs the tune in the open lab (or on the DUT of rb) and prints its summary; 0 or -1 + cause. */
static int
tune(struct bench_ctx *c, struct bench_tune *t, const struct tune_opts *o, const char *dir,
    struct bench_remote *rb, char **cause)
{
	int ok;

	if (!c->runner->in_lab)
		cmd_error(&cmd_tune, 0, "DUT %s, budget %.1f min, results in %s", t->dut_name,
		    o->budget, dir);
	else
		cmd_error(&cmd_tune, 0, "lab '%s', budget %.1f min, results in %s", o->prefix,
		    o->budget, dir);
	bench_interrupted = 0;
	bench_signals_install();
	/* On a DUT the final bench re-measures the best against its start there. */
	t->final_apart = !o->same_lab_final && c->runner->in_lab;
	ok = bench_tune_run(c, t, cause) == 0;
	if (ok && t->final_apart && t->nkept > 0)
		ok = final_in_fresh_lab(c, t, o->prefix, cause) == 0;
	ok = remote_finish(rb, ok, cause);
	if (rb != NULL && rb->nreboots > 0)
		cmd_error(&cmd_tune, 0, "reboots of the DUT: %d, %.0f s in all (each boot-time step's "
		    "boots are its samples)", rb->nreboots, rb->reboot_total);
	bench_signals_restore();
	bench_results_finish(dir, ok, t->stopped, ok ? NULL : *cause, NULL);
	if (o->json) {
		json_t *sum = bench_tune_summary(t);

		util_json_print(sum, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(sum);
	} else
		print_summary(t, dir);
	return ok ? 0 : -1;
}

/* The lab: made when it does not exist (*made, removed at the end), opened. -1 + cause. */
static int
lab_open(const struct tune_opts *o, struct bench_lab *lab, int *made, char **cause)
{
	struct lab_config cfg;
	char ns[LAB_NSNAME_MAX];

	lab_netns_name(o->prefix, LAB_DUT, ns, sizeof ns);
	if (!lab_netns_exists(ns)) {
		lab_config_init(&cfg);
		snprintf(cfg.prefix, sizeof cfg.prefix, "%s", o->prefix);
		cmd_error(&cmd_tune, 0, "no lab '%s': creating it (removed at the end)", o->prefix);
		if (lab_up(&cfg, cause) == -1)
			return -1;
		*made = 1;
	}
	return bench_lab_open(lab, o->prefix, cause);
}

static int
run(struct cmd_args *args)
{
	struct tune_opts o = { .prefix = LAB_PREFIX_DEFAULT, .budget = 5, .pairs = 3, .effect = 20,
	    .m = { .runs = 3, .max_runs = 10, .duration = 2, .warmup = 1, .size = 64 } };
	struct bench_lab lab;
	struct bench_ctx c;
	struct bench_tune t;
	struct tune_remote tr;
	struct kb *kb = NULL;
	const char *dir;
	char dirbuf[96], *cause = NULL;
	int rc = 1, made_lab = 0, removed;

	memset(&lab, 0, sizeof lab);
	memset(&c, 0, sizeof c);
	memset(&t, 0, sizeof t);
	memset(&tr, 0, sizeof tr);
	cmd_remote_init(&tr.rb);
	c.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if ((rc = parse(args, &o, &lab, &c, &t, &tr.rb)) != 0)
		goto out;
	if (kb_load(NULL, &kb, &cause) == -1)
		goto fail;
	if (lab_prefix_valid(o.prefix, &cause) == -1 || cand_check(t.cand_path, &cause) == -1 ||
	    (t.diag_from != NULL && load_diagnosis(t.diag_from, &t.diag, &cause) == -1))
		goto fail_usage;
	cmd_measure_setup(&o.m, &lab, &c);
	c.kb = kb;
	if (o.ro.dut != NULL) {
		if (remote_open(&tr, &lab, &c, &t, &cause) == -1)
			goto fail_usage;
		if (o.ro.plan) {
			rc = print_plan(&o, &lab, &c, &t, &tr.rb);
			goto out;
		}
	} else if (lab_open(&o, &lab, &made_lab, &cause) == -1)
		goto fail;
	if ((dir = o.dir) == NULL) {
		cmd_results_dir(dirbuf, sizeof dirbuf, "tune");
		dir = dirbuf;
	}
	if (bench_results_create(dir, "tune", args->nwords, args->words, &cause) == -1 ||
	    (o.ro.dut != NULL && (tr.rb.dir = dir, bench_remote_open_dir(&tr.rb, &cause)) == -1))
		goto fail_usage;
	c.lab = &lab;
	c.dir = dir;
	c.seq.confidence = 0.95;
	c.progress = progress;
	t.budget_s = o.budget * 60;
	t.bits = c.bits;
	t.latency = c.latency;
	t.efficiency = c.efficiency;
	if (t.ncpu == 0)
		t.ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	t.pairs = (int)o.pairs;
	t.min_effect = o.effect / 100;
	if (tune(&c, &t, &o, dir, o.ro.dut != NULL ? &tr.rb : NULL, &cause) == -1) {
		cmd_fail(&cmd_tune, &cause, 1);
		cmd_said_restored(&cmd_tune, &c, o.ro.dut != NULL ? &tr.rb : NULL, dir);
		rc = bench_interrupted ? 128 + (int)bench_interrupted : 1;
		goto out;
	}
	if (o.keep && t.nkept > 0 && !made_lab) {
		if (keep_best(kb, &lab, &t, &cause) == -1)
			goto fail;
	} else if (o.keep && made_lab)
		cmd_error(&cmd_tune, 0, "--keep has no effect on a lab this tune created");
	rc = 0;
	goto out;
fail_usage:
	rc = cmd_fail(&cmd_tune, &cause, 2);
	goto out;
fail:
	rc = cmd_fail(&cmd_tune, &cause, 1);
out:
	remote_close(&tr);
	bench_lab_close(&lab);
	if (made_lab) {
		cause = NULL;
		if (lab_down(o.prefix, &removed, &cause) == -1)
			cmd_fail(&cmd_tune, &cause, 1);
	}
	bench_tune_free(&t);
	kb_free(kb);
	return rc;
}

const struct ntune_cmd cmd_tune = {
	.name = "tune",
	.summary = "auto-tuner: try knobs, keep only changes proven better",
	.usage = "tune [--lab] [--goal|--metric pps|throughput|latency|efficiency] [--budget MINUTES]\n"
	    "     [-o DIR] [--keep] [--host-knobs] [--prefix LAB] [--runs N] [--max-runs N]\n"
	    "     [--duration S] [--warmup S]\n"
	    "     [--load gen|iperf3|CMD] [--size BYTES] [--flows N] [--threads N] [--rate PPS] [--seed N]\n"
	    "     [--cand FILE] [--diagnosis FILE] [--pairs N] [--min-effect PCT] [--no-fresh-final]\n"
	    "     [--json]\n"
	    "     [--dut ssh://[user@]host[:port] [--gen HOST|local] [--sink HOST|local] [--dut-in IF]\n"
	    "      [--dut-out IF] [--gen-if IF] [--sink-if IF] [--dst ADDR] [--ntune PATH]\n"
	    "      [--ssh-config FILE] [--ssh-accept-new] [--gen-args ARGS] [--sink-args ARGS] [--plan]\n"
	    "      [--dut-root DIR] [--reboot-cmd CMD] [--reboot-timeout S] [--reboot-settle S]\n"
	    "      [--dut-confirm S]]",
	.notes = "--goal efficiency compares forwarded packets per CPU-second the DUT spent, as\n"
	    "`ntune bench --metric efficiency` does (its --help says what is counted).\n"
	    "The candidates are ordered by a diagnosis of the starting settings under the load:\n"
	    "in the lab `ntune diagnose` in the DUT, with --dut the DUT's counters sampled over\n"
	    "ssh with its own commands (ntune not needed there) during a first baseline run;\n"
	    "either is kept in DIR/diagnosis.json. A DUT that cannot be diagnosed keeps the\n"
	    "file's order, with a note why. --diagnosis FILE orders by a saved diagnosis instead:\n"
	    "`ntune diagnose --json` output, or the doctor.json of `ntune doctor -o DIR`.\n",
	.optstring = "o:",
	.longopts = longopts,
	.max_args = 0,
	.run = run,
};
