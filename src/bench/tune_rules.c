/*
 * The tuner's rules: a step's runs from the spread, what a step may cost in
 * the budget, and when a change is kept.
 */
#include <math.h>
#include <string.h>

#include "bench/cand.h"
#include "bench/runner.h"
#include "bench/tune_impl.h"
#include "kb/kb.h"
#include "stat/stat.h"

int
bench_tune_plan_runs(const struct bench_seq *seq, double cv, double effect, int cap)
{
	struct bench_seq s = *seq;
	double za, zb = stat_normal_quantile(0.80), need;
	int n;

	if (s.min_runs < 2)
		s.min_runs = 2;
	if (cap < s.min_runs)
		cap = s.min_runs;
	if (!(cv > 0) || !(effect > 0) || !isfinite(cv))
		return cap;
	for (n = s.min_runs; n < cap; n++) {
		s.max_runs = n;
		za = stat_t_quantile(1 - bench_seq_alpha(&s) / 2, 2.0 * n - 2);
		need = 2 * ((za + zb) * cv / effect) * ((za + zb) * cv / effect);
		if (need <= n)
			return n;
	}
	return cap;
}

double
bench_tune_gain(const struct bench_tune *t, double pct)
{
	return t->latency ? -pct : pct;
}

bool
bench_tune_keep(enum bench_stop stop, const struct bench_verdict *v)
{
	int better = strcmp(v->unit, "latency") == 0 ? -1 : 1;

	return stop == BENCH_DECIDED && v->na > 0 && v->decided && v->direction == better;
}

bool
bench_tune_still_needed(enum bench_stop stop, const struct bench_verdict *v)
{
	int worse = strcmp(v->unit, "latency") == 0 ? 1 : -1;

	return stop == BENCH_DECIDED && v->na > 0 && v->decided && v->direction == worse;
}

int
bench_tune_runs_next(const struct bench_ctx *c, const struct bench_tune *t)
{
	int cap = t->max_runs_cap > 0 ? t->max_runs_cap : c->seq.max_runs;

	if (t->cv_df == 0)
		return c->seq.max_runs < cap ? c->seq.max_runs : cap;
	return bench_tune_plan_runs(&c->seq, t->cv, t->min_effect > 0 ? t->min_effect : 0.10, cap);
}

bool
bench_tune_boot_change(const struct bench_ctx *c, const struct bench_tune *t,
    const struct bench_candidate *cand)
{
	const struct kb_knob *k;
	size_t i;

	if (t->reboot_s == NULL || t->gens == NULL || !t->gens->boot)
		return false;
	for (i = 0; i < cand->n; i++) {
		k = kb_find(c->kb, cand->set[i].name, t->gens->os);
		if (k != NULL && k->placement == KB_PLACE_LOADER)
			return true;
	}
	return false;
}

double
bench_tune_step_cost(const struct bench_ctx *c, const struct bench_tune *t, bool boot,
    double per_run, int runs, int *reboots)
{
	int nr = boot ? 2 * runs + (c->warmup > 0 ? 2 : 0) + 1 : 0;

	if (reboots != NULL)
		*reboots = nr;
	return per_run * 2.0 * runs + (c->warmup > 0 ? 2 * (c->warmup + 1.3) : 0) +
	    (nr > 0 ? nr * *t->reboot_s : 0);
}

double
bench_tune_step_time(const struct bench_ctx *c, const struct bench_tune *t,
    const struct bench_tune_loop *l, const struct bench_candidate *cand, int runs)
{
	return bench_tune_step_cost(c, t, cand != NULL && bench_tune_boot_change(c, t, cand),
	    l->per_run, runs, NULL);
}

double
bench_tune_final_time(const struct bench_ctx *c, const struct bench_tune *t,
    const struct bench_tune_loop *l, int runs)
{
	bool boot = false;
	size_t i;

	for (i = 0; i < t->nsteps; i++)
		boot = boot || (t->steps[i].kept && bench_tune_boot_change(c, t, &t->steps[i].c));
	return bench_tune_step_cost(c, t, boot, l->per_run, runs, NULL);
}
