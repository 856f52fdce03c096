/* The tuner's files: best.conf, summary.json and verdict.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/results.h"
#include "bench/runner.h"
#include "bench/tune_impl.h"
#include "diag/diag.h"
#include "util/util.h"

int
bench_tune_write(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_verdict_file vf;
	json_t *sum, *doc, *a;
	int rc = 0;

	free(t->best_text);
	t->best_text = bench_tune_best_conf(t, c->lab != NULL ? c->lab->prefix : "ntune");
	if (c->dir == NULL)
		return 0;
	sum = bench_tune_summary(t);
	if (bench_results_write_json(c->dir, "summary.json", sum, cause) == -1 ||
	    bench_results_write_text(c->dir, "best.conf", t->best_text, cause) == -1)
		rc = -1;
	json_decref(sum);
	a = json_array();
	if (t->have_final)
		json_array_append_new(a, bench_verdict_json(&t->final));
	bench_verdict_file_init(&vf, c, t->stopped);
	doc = bench_verdict_file_json(&vf, a);
	if (rc == 0 && bench_results_write_json(c->dir, "verdict.json", doc, cause) == -1)
		rc = -1;
	json_decref(doc);
	return rc;
}

/* The baseline's findings as summary.json shows them, or a note why there are none. */
static json_t *
diag_json(const struct bench_tune *t)
{
	json_t *a, *k;
	size_t i, j;

	if (t->diag == NULL)
		return json_pack("{s:s, s:o}", "note", t->diag_note != NULL ? t->diag_note : "not run",
		    "findings", json_array());
	a = json_array();
	for (i = 0; i < t->diag->nfindings; i++) {
		const struct diag_finding *f = &t->diag->findings[i];

		k = json_array();
		for (j = 0; j < f->nknobs; j++)
			json_array_append_new(k, json_string(f->knobs[j].name));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o}", "kind", f->kind,
		    "entity", f->entity, "certainty", diag_certainty_name(f->certainty), "summary",
		    f->summary, "knobs", k));
	}
	return json_pack("{s:s, s:o}", "file", t->diag_from != NULL ? t->diag_from :
	    "diagnosis.json", "findings", a);
}

/* Step i as summary.json has it; its strings point into t (changes malloc'd). */
static void
summary_step(const struct bench_tune *t, size_t i, struct bench_summary_step *o)
{
	const struct bench_tune_step *st = &t->steps[i];
	size_t j;

	*o = (struct bench_summary_step){ .change = (char *)st->c.label, .was = (char *)st->c.was,
	    .tried = st->tried, .why = (char *)st->c.why, .order = (char *)st->c.order,
	    .pair = st->pair, .drop_of = st->drop_of > 0 ? (int)st->drop_of : -1,
	    .removed = st->removed, .dropped_at = st->dropped_at > 0 ? (int)st->dropped_at : -1,
	    .extended = st->extended, .max_runs = st->max_runs, .spread = st->cv > 0 ? st->cv : 0,
	    .verdict = st->verdict != NULL ? st->verdict : (char *)"", .kept = st->kept,
	    .stopped = (char *)bench_stop_name(st->stop), .runs = st->runs,
	    .mean_best = st->mean_best, .mean_try = st->mean_try, .pct = st->pct,
	    .pct_hw = st->pct_hw, .p = st->p, .note = st->note };
	if (t->diag != NULL && st->c.finding >= 0 && (size_t)st->c.finding < t->diag->nfindings)
		o->finding = (char *)t->diag->findings[st->c.finding].kind;
	o->changes = xcalloc(st->c.n + 1, sizeof *o->changes);
	for (j = 0; j < st->c.n; j++)
		o->changes[o->nchanges++] = (struct bench_summary_change){ (char *)st->c.set[j].name,
		    (char *)st->c.set[j].value, (char *)st->c.set[j].current };
}

json_t *
bench_tune_summary(const struct bench_tune *t)
{
	struct bench_summary sum = { .baseline = (char *)"the settings in force when the tune started",
	    .best = t->best_text != NULL ? t->best_text : (char *)"", .baseline_pps = NAN,
	    .best_pps = NAN, .gain_pct = t->have_final ? t->final.pct : 0,
	    .gain_pct_hw = t->have_final ? t->final.pct_hw : NAN,
	    .gain_ratio = t->have_final ? t->final.ratio : 1,
	    .gain_proven = t->have_final && bench_tune_keep(BENCH_DECIDED, &t->final),
	    .kept = (int)t->nkept, .stopped = (char *)(t->stopped != NULL ? t->stopped : "error"),
	    .order = (char *)(t->diag != NULL ? "diagnosis" : "list"), .diagnosis = diag_json(t),
	    .spread = t->cv > 0 ? t->cv : NAN,
	    .min_effect_pct = (t->min_effect > 0 ? t->min_effect : 0.10) * 100,
	    .left_out = t->notes, .nleft_out = t->nnotes };
	json_t *o;
	size_t i;

	snprintf(sum.metric, sizeof sum.metric, "%s", t->latency ? "latency_p99_us" : t->bits ?
	    "bps" : "pps");
	if (t->have_final) {
		sum.baseline_pps = t->final.mean_a;
		sum.best_pps = t->final.mean_b;
		if (t->final_lab[0] != '\0')
			sum.final_lab = (char *)t->final_lab;
		sum.verdict = bench_verdict_text(&t->final);
	} else if (t->nsteps > 0 && t->steps[0].runs > 0)
		sum.baseline_pps = sum.best_pps = t->steps[0].mean_best;
	sum.steps = xcalloc(t->nsteps + 1, sizeof *sum.steps);
	for (i = 0; i < t->nsteps; i++)
		summary_step(t, i, &sum.steps[i]);
	sum.nsteps = t->nsteps;
	o = bench_summary_json(&sum);
	for (i = 0; i < t->nsteps; i++)
		free(sum.steps[i].changes);
	free(sum.steps);
	free(sum.verdict);
	return o;
}
