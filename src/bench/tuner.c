/* The tuner: try candidate changes, keep only those proven better. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lab_bench.h"
#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "bench/tune_impl.h"
#include "diag/diag.h"
#include "kb/kb.h"
#include "util/util.h"

static int
make_profile(struct bench_ctx *c, struct bench_profile *p, const char *label, char *text,
    char **cause)
{
	memset(p, 0, sizeof *p);
	snprintf(p->label, sizeof p->label, "%s", label);
	p->text = text;
	if ((p->prof = kb_profile_parse(label, text, strlen(text), cause)) == NULL)
		return -1;
	if (c->dir != NULL && bench_results_profile(c->dir, label, text, cause) == -1)
		return -1;
	return 0;
}

static void
step_from_verdict(struct bench_tune_step *s, const struct bench_verdict *v, enum bench_stop stop)
{
	s->stop = stop;
	if (v->na == 0)
		return;
	s->mean_best = v->mean_a;
	s->mean_try = v->mean_b;
	s->pct = v->pct;
	s->pct_hw = isfinite(v->pct_hw) ? v->pct_hw : 0;
	s->p = v->p_welch;
	s->runs = (int)v->nb;
	free(s->verdict);
	s->verdict = bench_verdict_text(v);
}

int
bench_tune_final(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_profile pr[2];
	enum bench_stop stop;
	char *why = NULL;
	int rc = -1;

	BENCH_SAY(c, "final: the best profile against the settings at the start%s%s", c->lab != NULL &&
	    t->final_lab[0] != '\0' ? " in the fresh lab " : "", t->final_lab);
	memset(pr, 0, sizeof pr);
	if (make_profile(c, &pr[0], "start", xstrdup(""), cause) == -1 ||
	    make_profile(c, &pr[1], "best", bench_tune_profile(t, NULL), cause) == -1)
		goto out;
	c->step = (int)t->nsteps + 1;
	if (bench_ab(c, pr, 2, &t->final, &stop, &why) == -1) {
		*cause = why;
		if (bench_interrupted)
			t->stopped = "interrupted";
		goto out;
	}
	t->have_final = t->final.na > 0;
	rc = 0;
out:
	bench_profile_free(&pr[0]);
	bench_profile_free(&pr[1]);
	if (bench_tune_write(c, t, rc == 0 ? cause : NULL) == -1 && rc == 0)
		rc = -1;
	return rc;
}

/* Adds a bench's two samples to the pooled run-to-run spread. */
static void
spread_add(struct bench_tune *t, struct bench_tune_step *s, const struct bench_verdict *v)
{
	double ca, cb;

	if (v->na < 2 || v->nb < 2 || !(v->mean_a > 0) || !(v->mean_b > 0))
		return;
	ca = v->sd_a / v->mean_a;
	cb = v->sd_b / v->mean_b;
	s->cv = sqrt((ca * ca * (double)(v->na - 1) + cb * cb * (double)(v->nb - 1)) /
	    (double)(v->na + v->nb - 2));
	t->cv_ss += ca * ca * (double)(v->na - 1) + cb * cb * (double)(v->nb - 1);
	t->cv_df += (int)(v->na + v->nb - 2);
	t->cv = sqrt(t->cv_ss / t->cv_df);
}

/* The value a run gives for the tune's metric. */
static double
run_value(const struct bench_ctx *c, struct bench_run *r)
{
	return bench_run_value(c, r);
}

/*
 * A DUT outside the lab: one run of the load with the DUT's counters sampled
 * under it (t->diagnose), its diagnosis in DIR/diagnosis.json ordering the
 * candidates. A diagnosis that cannot be made is a note, not a failure. -1
 * only when interrupted.
 */
static int
baseline_dut(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	char *path, *why = NULL;

	if (t->diag != NULL)
		return 0;	/* the caller's (tune --diagnosis FILE) */
	if (t->diagnose == NULL || c->dir == NULL) {
		t->diag_note = xstrdup(c->dir == NULL ? "no results directory: no diagnosis" :
		    "no diagnosis of this DUT: the candidate list's order");
		return 0;
	}
	xasprintf(&path, "%s/diagnosis.json", c->dir);
	if (t->diagnose(t->diagnose_arg, path, &t->diag, &why) == -1) {
		free(path);
		if (bench_interrupted) {
			*cause = why;
			return -1;
		}
		xasprintf(&t->diag_note, "no diagnosis of the DUT (%s): the candidate list's order",
		    why != NULL ? why : "no cause given");
		free(why);
		return 0;
	}
	free(path);
	c->diagnosed = true;
	return 0;
}

/*
 * Two runs of the settings in force before any step: the first one with the
 * DUT's diagnosis under load (DIR/diagnosis.json), which orders the candidates;
 * both give a first run-to-run spread. Outside the lab: baseline_dut. -1 only
 * when interrupted.
 */
static int
baseline(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_run r;
	double v[2];
	char *path = NULL, *why = NULL;
	int k, nv = 0;

	if (!c->runner->in_lab || c->lab == NULL)
		return baseline_dut(c, t, cause);
	/* A diagnosis given by the caller (tune --diagnosis FILE) orders instead. */
	if (c->dir != NULL && t->diag == NULL)
		xasprintf(&path, "%s/diagnosis.json", c->dir);
	for (k = 0; k < 2; k++) {
		memset(&r, 0, sizeof r);
		c->lab->diagnose_to = k == 0 ? path : NULL;
		if (bench_lab_measure(c->lab, c->duration, &r, &why) == -1) {
			c->lab->diagnose_to = NULL;
			bench_run_free(&r);
			free(path);
			if (bench_interrupted) {
				*cause = why;
				return -1;
			}
			t->diag_note = why;
			return 0;
		}
		if (r.ok)
			v[nv++] = run_value(c, &r);
		BENCH_SAY(c, "baseline %d/2 (the settings in force%s): %.0f pps forwarded", k + 1,
		    k == 0 && path != NULL ? ", diagnosed" : "", r.pps);
		bench_run_free(&r);
	}
	c->lab->diagnose_to = NULL;
	c->diagnosed = path != NULL;
	if (t->diag != NULL)
		;
	else if (path == NULL)
		t->diag_note = xstrdup("no results directory: no diagnosis");
	else if (diag_load(path, &t->diag, &why) == -1) {
		xasprintf(&t->diag_note, "no diagnosis: %s", why);
		free(why);
	}
	free(path);
	if (nv == 2 && v[0] + v[1] > 0) {
		/* sd of two values: |a - b| / sqrt(2); one degree of freedom. */
		double cv = fabs(v[0] - v[1]) / M_SQRT2 / ((v[0] + v[1]) / 2);

		t->cv_ss += cv * cv;
		t->cv_df += 1;
		t->cv = cv;
	}
	return 0;
}

/*
 * Benches s's candidate against the best so far with at most runs runs each.
 * 0 with *v and *stop; 1 when the candidate broke something (s->note says what);
 * -1 + cause when the tune cannot go on.
 */
static int
bench_step(struct bench_ctx *c, struct bench_tune *t, struct bench_tune_step *s, int runs,
    struct bench_tune_loop *l, struct bench_verdict *v, enum bench_stop *stop, char **cause)
{
	struct bench_profile pr[2];
	char label[2][BENCH_LABEL_MAX], *why = NULL;
	int rc = -1, runs_before = c->run, max_saved = c->seq.max_runs;
	double run_t0;

	snprintf(label[0], sizeof label[0], "s%02zu-best", t->nsteps);
	snprintf(label[1], sizeof label[1], "s%02zu-try", t->nsteps);
	memset(pr, 0, sizeof pr);
	if (make_profile(c, &pr[0], label[0], bench_tune_profile(t, NULL), cause) == -1 ||
	    make_profile(c, &pr[1], label[1], s->drop_of > 0 ?
	    bench_tune_profile_text(t, s->drop_of - 1, NULL) : bench_tune_profile(t, &s->c),
	    cause) == -1)
		goto out;
	c->step = (int)t->nsteps;
	c->seq.max_runs = runs;
	run_t0 = util_now();
	if (bench_ab(c, pr, 2, v, stop, &why) == -1) {
		step_from_verdict(s, v, BENCH_CONTINUE);
		free(s->note);
		s->note = NULL;
		if (bench_interrupted) {
			s->note = xstrdup("interrupted");
			*cause = why;
			t->stopped = "interrupted";
		} else if (c->failed_profile == 1) {
			/* The candidate broke something: reject it and go on. */
			s->note = why;
			BENCH_SAY(c, "step %zu: rejected: %s", t->nsteps, s->note);
			rc = 1;
		} else
			*cause = why;
		goto out;
	}
	/* A step with reboots says nothing of a run's time: they are counted apart. */
	if (c->run > runs_before && !bench_tune_boot_change(c, t, &s->c))
		l->per_run = (util_now() - run_t0) / (c->run - runs_before);
	rc = 0;
out:
	c->seq.max_runs = max_saved;
	bench_profile_free(&pr[0]);
	bench_profile_free(&pr[1]);
	return rc;
}

/*
 * A bench that ran out of runs with the effect pointing the right way, when
 * the spread says how many runs would decide that effect and they fit: the
 * number of runs, else 0.
 */
static int
extension(const struct bench_ctx *c, const struct bench_tune *t, const struct bench_tune_loop *l,
    const struct bench_tune_step *s, const struct bench_verdict *v, enum bench_stop stop)
{
	int cap = t->max_runs_cap > 0 ? t->max_runs_cap : c->seq.max_runs, need;

	if (s->extended || stop != BENCH_MAX_RUNS || v->na < 2 ||
	    !(bench_tune_gain(t, v->pct) > 0) || !(s->cv > 0))
		return 0;
	need = bench_tune_plan_runs(&c->seq, s->cv, fabs(v->pct) / 100, cap + 1);
	if (need <= s->max_runs || need > cap ||
	    util_now() - l->t0 + bench_tune_step_time(c, t, l, &s->c, need) +
	    bench_tune_final_time(c, t, l, need) > t->budget_s)
		return 0;
	return need;
}

/* One step: s's candidate against the best so far. 0 go on, -1 + cause stop. */
static int
try_step(struct bench_ctx *c, struct bench_tune *t, struct bench_tune_step *s,
    struct bench_tune_loop *l, char **cause)
{
	struct bench_verdict v;
	enum bench_stop stop;
	char *first;
	int r, more;

	s->tried = true;
	s->max_runs = bench_tune_runs_next(c, t);
	BENCH_SAY(c, "step %zu/%zu: %s (now %s): %s", t->nsteps, l->ncand, s->c.label, s->c.was, s->c.why);
	BENCH_SAY(c, "  why now: %s; up to %d runs each (spread %.1f%%)", s->c.order, s->max_runs,
	    t->cv * 100);
	if ((r = bench_step(c, t, s, s->max_runs, l, &v, &stop, cause)) != 0)
		return r == 1 ? 0 : -1;
	step_from_verdict(s, &v, stop);
	spread_add(t, s, &v);
	if ((more = extension(c, t, l, s, &v, stop)) > 0) {
		first = s->verdict != NULL ? s->verdict : xstrdup("no verdict");
		s->verdict = NULL;
		BENCH_SAY(c, "step %zu: undecided after %d runs (%s); the spread (%.1f%%) says %d runs "
		    "decide it: benched again", t->nsteps, s->runs, first, s->cv * 100, more);
		xasprintf(&s->note, "extended: the first bench (%d runs) was undecided: %s", s->runs,
		    first);
		free(first);
		s->extended = true;
		s->max_runs = more;
		if ((r = bench_step(c, t, s, more, l, &v, &stop, cause)) != 0)
			return r == 1 ? 0 : -1;
		step_from_verdict(s, &v, stop);
		spread_add(t, s, &v);
	}
	s->kept = bench_tune_keep(stop, &v);
	if (v.na == 0)
		s->verdict = xstrdup("no verdict (too few runs)");
	BENCH_SAY(c, "step %zu: %s: %s", t->nsteps, s->kept ? "KEPT" : "rejected", s->verdict);
	if (s->kept)
		t->nkept++;
	return bench_tune_write(c, t, cause);
}

/* A boot-time step whose reboots do not fit in the budget left: recorded as skipped. */
static void
skip_step(struct bench_ctx *c, struct bench_tune *t, const struct bench_tune_loop *l,
    const struct bench_candidate *cand, bool pairs, double need)
{
	struct bench_tune_step *s;

	t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
	s = &t->steps[t->nsteps++];
	memset(s, 0, sizeof *s);
	s->c = *cand;
	s->pair = pairs;
	xasprintf(&s->note, "skipped: it takes effect at boot and its reboots (%.0f s each) make "
	    "it take up to %.0f s, more than the budget left (%.0f s)", *t->reboot_s, need,
	    t->budget_s - (util_now() - l->t0));
	BENCH_SAY(c, "step %zu/%zu: %s: %s", t->nsteps, l->ncand, s->c.label, s->note);
}

/* Takes kept step j out of the best profile, saying why in its note. */
static void
drop(struct bench_tune *t, size_t j, size_t at, const char *why)
{
	struct bench_tune_step *d = &t->steps[j];
	char *note;

	d->kept = false;
	d->dropped_at = at;
	t->nkept--;
	xasprintf(&note, "%s%sdropped at step %zu: %s", d->note != NULL ? d->note : "",
	    d->note != NULL ? "; " : "", at, why);
	free(d->note);
	d->note = note;
}

/*
 * Drop checks once step k is kept: each earlier kept step is benched out of
 * the best profile (the best without its changes against the best) and taken
 * out unless the profile without it is decided worse, so best.conf holds only
 * changes proven needed together, whatever order found them. A step whose
 * changes later ones override entirely goes without a bench. 0 go on, 1 out of
 * budget, -1 + cause stop.
 */
static int
prune(struct bench_ctx *c, struct bench_tune *t, size_t k, struct bench_tune_loop *l,
    char **cause)
{
	struct bench_tune_step *s;
	struct bench_verdict v;
	enum bench_stop stop;
	char *with, *without, why[160];
	size_t j;
	bool same, needed;
	int r, runs;

	for (j = 0; j < k && t->nkept >= 2; j++) {
		if (!t->steps[j].kept)
			continue;
		with = bench_tune_profile(t, NULL);
		without = bench_tune_profile_text(t, j, NULL);
		same = strcmp(with, without) == 0;
		free(with);
		free(without);
		if (same) {
			snprintf(why, sizeof why, "step %zu sets every knob it changed", k + 1);
			drop(t, j, k + 1, why);
			BENCH_SAY(c, "step %zu: dropped: %s", j + 1, why);
			continue;
		}
		runs = bench_tune_runs_next(c, t);
		if (util_now() - l->t0 + bench_tune_step_time(c, t, l, &t->steps[j].c, runs) +
		    bench_tune_final_time(c, t, l, runs) > t->budget_s) {
			BENCH_SAY(c, "budget: no time left to check whether step %zu is still needed "
			    "with step %zu", j + 1, k + 1);
			return 1;
		}
		t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
		s = &t->steps[t->nsteps++];
		memset(s, 0, sizeof *s);
		s->c = t->steps[j].c;
		snprintf(s->c.label, sizeof s->c.label, "without step %zu (%.*s)", j + 1,
		    (int)sizeof s->c.label - 48, t->steps[j].c.label);
		snprintf(s->c.why, sizeof s->c.why, "take step %zu's changes out of the best profile "
		    "unless it needs them", j + 1);
		snprintf(s->c.order, sizeof s->c.order, "a drop check: step %zu was kept before step "
		    "%zu; is it still needed with it?", j + 1, k + 1);
		s->drop_of = j + 1;
		s->tried = true;
		s->max_runs = bench_tune_runs_next(c, t);
		BENCH_SAY(c, "step %zu (drop check): is step %zu (%s) still needed now that step %zu is "
		    "kept? the best profile without it, up to %d runs each", t->nsteps, j + 1,
		    t->steps[j].c.label, k + 1, s->max_runs);
		if ((r = bench_step(c, t, s, s->max_runs, l, &v, &stop, cause)) == -1)
			return -1;
		if (r == 1)
			continue;
		step_from_verdict(s, &v, stop);
		spread_add(t, s, &v);
		needed = bench_tune_still_needed(stop, &v);
		if (!needed) {
			s->removed = true;
			snprintf(why, sizeof why, "the best profile without it was not decided worse "
			    "(%+.1f%% ± %.1f%%)", s->pct, s->pct_hw);
			drop(t, j, t->nsteps, why);
		}
		BENCH_SAY(c, "step %zu: step %zu %s: %s", t->nsteps, j + 1, needed ? "is still needed" :
		    "dropped", s->verdict != NULL ? s->verdict : "no verdict");
		if (bench_tune_write(c, t, cause) == -1)
			return -1;
	}
	return 0;
}

/*
 * Steps through cand[0..n-1] while the budget lasts. 0: all done, 1: out of
 * budget, -1 + cause: stop.
 */
static int
steps(struct bench_ctx *c, struct bench_tune *t, struct bench_candidate *cand, size_t n,
    bool pairs, struct bench_tune_loop *l, char **cause)
{
	struct bench_tune_step *s;
	double step_max, final_max;
	size_t i, k;
	int r, runs;

	for (i = 0; i < n; i++) {
		runs = bench_tune_runs_next(c, t);
		step_max = bench_tune_step_time(c, t, l, &cand[i], runs);
		/* The final bench is only needed once something is kept. */
		final_max = t->nkept > 0 ? bench_tune_final_time(c, t, l, runs) : 0;
		if (util_now() - l->t0 + step_max + final_max > t->budget_s &&
		    bench_tune_boot_change(c, t, &cand[i]) &&
		    util_now() - l->t0 + bench_tune_step_time(c, t, l, NULL, runs) + final_max <=
		    t->budget_s) {
			/* Its reboots do not fit; a step without any may. */
			skip_step(c, t, l, &cand[i], pairs, step_max);
			continue;
		}
		if (util_now() - l->t0 + step_max + final_max > t->budget_s) {
			BENCH_SAY(c, "budget: %.0f s left, a step may take %.0f s (+%.0f s for the final bench); "
			    "stopping after %zu of %zu %s", t->budget_s - (util_now() - l->t0),
			    step_max, final_max, i, n, pairs ? "pairs" : "candidates");
			return 1;
		}
		t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
		s = &t->steps[t->nsteps++];
		memset(s, 0, sizeof *s);
		s->c = cand[i];
		s->pair = pairs;
		if (bench_tune_in_best(t, &s->c)) {
			s->note = xstrdup("already in the best profile");
			BENCH_SAY(c, "step %zu/%zu: %s: already in the best profile", t->nsteps, l->ncand,
			    s->c.label);
			continue;
		}
		if (try_step(c, t, s, l, cause) == -1)
			return -1;
		k = t->nsteps - 1;
		if (t->steps[k].kept && t->nkept >= 2 && (r = prune(c, t, k, l, cause)) != 0)
			return r;
	}
	return 0;
}

int
bench_tune_run(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_candidate *cand = NULL, *pairs = NULL;
	struct bench_tune_loop l = { util_now(), 0, 0 };
	size_t ncand = 0, npairs = 0, i;
	int rc = -1, r;

	t->stopped = "error";
	if (t->get != NULL && t->gens != NULL)
		bench_tune_candidates_from(c->kb, t->gens, t->get, t->get_arg, t->ncpu, t->host_knobs,
		    &cand, &ncand, &t->notes, &t->nnotes);
	else if (bench_tune_candidates(c->kb, t->cand_path, c->lab->dut_ns, t->ncpu, t->host_knobs,
	    &cand, &ncand, &t->notes, &t->nnotes, cause) == -1)
		return -1;
	BENCH_SAY(c, "%zu candidate changes for %s (%zu left out)", ncand, t->dut_name != NULL ?
	    t->dut_name : c->lab->dut_ns, t->nnotes);
	for (i = 0; i < t->nnotes; i++)
		BENCH_SAY(c, "  note: %s", t->notes[i]);
	if (baseline(c, t, cause) == -1) {
		t->stopped = "interrupted";
		goto out;
	}
	bench_tune_order(cand, ncand, t->diag);
	if (t->diag != NULL && t->diag->nfindings == 0)
		BENCH_SAY(c, "order: no finding in %s: the candidate list's order", t->diag_from != NULL ?
		    t->diag_from : "the baseline's diagnosis (diagnosis.json)");
	else if (t->diag != NULL)
		BENCH_SAY(c, "order: the knobs named by the %zu finding%s of %s first", t->diag->nfindings,
		    t->diag->nfindings == 1 ? "" : "s", t->diag_from != NULL ? t->diag_from :
		    "the baseline's diagnosis (diagnosis.json)");
	else
		BENCH_SAY(c, "order: %s", t->diag_note);
	for (i = 0; t->diag != NULL && i < t->diag->nfindings; i++)
		BENCH_SAY(c, "  finding: %s", t->diag->findings[i].summary);
	/* Time of one run, to keep within the budget: measured as we go, guessed first. */
	l.per_run = c->duration + c->lab->settle + 0.8;
	l.ncand = ncand;
	r = steps(c, t, cand, ncand, false, &l, cause);
	if (r == 0 && t->pairs > 0 && bench_tune_pairs(t, (size_t)t->pairs, &pairs, &npairs) > 0) {
		BENCH_SAY(c, "%zu pairs of the best singles not kept", npairs);
		l.ncand = ncand + npairs;
		r = steps(c, t, pairs, npairs, true, &l, cause);
	}
	if (r == -1)
		goto out;
	t->stopped = r == 1 ? "budget" : "done";
	if (t->nkept > 0 && !t->final_apart && bench_tune_final(c, t, cause) == -1)
		goto out;
	rc = 0;
out:
	free(cand);
	free(pairs);
	if (bench_tune_write(c, t, rc == 0 ? cause : NULL) == -1 && rc == 0)
		rc = -1;
	return rc;
}

void
bench_tune_free(struct bench_tune *t)
{
	size_t i;

	for (i = 0; i < t->nsteps; i++) {
		free(t->steps[i].verdict);
		free(t->steps[i].note);
	}
	free(t->steps);
	util_strv_free(t->notes, t->nnotes);
	free(t->best_text);
	diag_result_free(t->diag);
	free(t->diag_note);
	t->diag = NULL;
	t->diag_note = NULL;
	t->steps = NULL;
	t->notes = NULL;
	t->best_text = NULL;
	t->nsteps = t->nnotes = 0;
}
