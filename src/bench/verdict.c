/* The verdict of one comparison: Welch t, Mann-Whitney U, the ratio and words. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/results.h"
#include "bench/verdict.h"
#include "stat/stat.h"
#include "util/util.h"

int
bench_verdict_compute(const char *label_a, const double *a, size_t na, const char *label_b,
    const double *b, size_t nb, double confidence, double alpha_decide,
    struct bench_verdict *v, char **cause)
{
	struct stat_summary sa, sb;
	struct stat_cmp welch, mw;
	double *ca, *cb, var_r, t;
	int rc = -1;

	memset(v, 0, sizeof *v);
	snprintf(v->a, sizeof v->a, "%s", label_a);
	snprintf(v->b, sizeof v->b, "%s", label_b);
	v->na = na;
	v->nb = nb;
	v->confidence = confidence;
	v->alpha_decide = alpha_decide;
	if (na < 2 || nb < 2) {
		util_cause(cause, "too few runs to compare '%s' with '%s' (%zu and %zu)",
		    label_b, label_a, nb, na);
		return -1;
	}
	ca = xreallocarray(NULL, na, sizeof *ca);
	cb = xreallocarray(NULL, nb, sizeof *cb);
	memcpy(ca, a, na * sizeof *ca);
	memcpy(cb, b, nb * sizeof *cb);
	if (stat_summarize(ca, na, &sa) == -1 || stat_summarize(cb, nb, &sb) == -1) {
		util_cause(cause, "a value is not a finite number");
		goto out;
	}
	if (stat_compare_welch(&sa, &sb, confidence * 100, &welch) == -1 ||
	    stat_compare_mannwhitney(ca, na, cb, nb, confidence * 100, &mw) == -1) {
		util_cause(cause, "cannot compare '%s' with '%s'", label_b, label_a);
		goto out;
	}
	v->mean_a = sa.mean;
	v->mean_b = sb.mean;
	v->sd_a = sa.stddev;
	v->sd_b = sb.stddev;
	v->diff = welch.diff;
	v->diff_hw = welch.diff_hw;
	v->pct = welch.pct;
	v->pct_hw = welch.pct_hw;
	v->df = welch.df;
	v->p_welch = welch.p;
	v->welch = welch;
	v->mw = mw;
	v->u = mw.statistic;
	v->p_mw = mw.p;
	if (sa.mean != 0) {
		/* Delta method: var(B/A) ~ r^2 (var(mB)/mB^2 + var(mA)/mA^2). */
		v->ratio = sb.mean / sa.mean;
		var_r = 0;
		if (sb.mean != 0)
			var_r += sb.stddev * sb.stddev / (double)nb / (sb.mean * sb.mean);
		var_r += sa.stddev * sa.stddev / (double)na / (sa.mean * sa.mean);
		var_r *= v->ratio * v->ratio;
		t = isfinite(welch.df) && welch.df > 0 ?
		    stat_t_quantile(1 - (1 - confidence) / 2, welch.df) : 1.959964;
		v->ratio_lo = v->ratio - t * sqrt(var_r);
		v->ratio_hi = v->ratio + t * sqrt(var_r);
		/* Rates are not negative: the symmetric approximation is cut at zero. */
		if (v->ratio_lo < 0 && v->ratio >= 0)
			v->ratio_lo = 0;
	} else {
		v->ratio = v->ratio_lo = v->ratio_hi = NAN;
	}
	v->decided = isfinite(welch.p) && welch.p < alpha_decide;
	v->direction = v->decided ? (v->diff > 0 ? 1 : v->diff < 0 ? -1 : 0) : 0;
	rc = 0;
out:
	free(ca);
	free(cb);
	return rc;
}

static double
pct_of(double conf)
{
	return conf * 100;
}

static const char *
unit_per_run(const char *unit)
{
	if (strcmp(unit, "latency") == 0)
		return "µs";
	if (strcmp(unit, "bits") == 0)
		return "bit/s";
	if (strcmp(unit, "efficiency") == 0)
		return "packets per DUT CPU-second";
	return "packets/s";
}

/*
 * A's mean is 0 (nothing forwarded: usually a failed measurement), so a
 * percentage or a ratio has no meaning: say the absolute difference instead.
 */
static char *
verdict_text_absolute(const struct bench_verdict *v, const char *runs)
{
	char *s;
	double hw = isfinite(v->diff_hw) ? v->diff_hw : 0.0;

	if (v->direction != 0)
		xasprintf(&s, "%s has %.1f ± %.1f %s %s than %s, whose mean is %.1f (no relative "
		    "change: a zero baseline), %g%% confidence, %s (Welch p = %.2g, Mann-Whitney "
		    "p = %.2g)", v->b, fabs(v->diff), hw, unit_per_run(v->unit),
		    v->direction > 0 ? "more" : "fewer", v->a, v->mean_a, pct_of(v->confidence),
		    runs, v->p_welch, v->p_mw);
	else
		xasprintf(&s, "no difference proven between %s and %s at %g%% confidence, %s"
		    " (%s-%s %+.1f ± %.1f %s; no relative change: %s's mean is %.1f; Welch p = %.2g,"
		    " Mann-Whitney p = %.2g)", v->b, v->a, pct_of(v->confidence), runs, v->b, v->a,
		    v->diff, hw, unit_per_run(v->unit), v->a, v->mean_a, v->p_welch, v->p_mw);
	return s;
}

char *
bench_verdict_text(const struct bench_verdict *v)
{
	char *s;
	char runs[64];

	if (v->na == v->nb)
		snprintf(runs, sizeof runs, "%zu runs each", v->na);
	else
		snprintf(runs, sizeof runs, "%zu and %zu runs", v->nb, v->na);
	if (!isfinite(v->pct) || !isfinite(v->ratio))
		return verdict_text_absolute(v, runs);
	if (v->direction != 0 && strcmp(v->unit, "latency") == 0) {
		xasprintf(&s, "%s has a %.1f%% ± %.1f%% %s p99 latency than %s (%.0f vs %.0f µs), %g%% "
		    "confidence, %s (ratio %.3f, %.3f..%.3f; Welch p = %.2g, Mann-Whitney p = %.2g)",
		    v->b, fabs(v->pct), v->pct_hw, v->direction < 0 ? "lower" : "higher", v->a,
		    v->mean_b, v->mean_a, pct_of(v->confidence), runs, v->ratio, v->ratio_lo,
		    v->ratio_hi, v->p_welch, v->p_mw);
	} else if (v->direction != 0) {
		xasprintf(&s, "%s forwards %.1f%% ± %.1f%% %s %s than %s, %g%% confidence, %s"
		    " (ratio %.3f, %.3f..%.3f; Welch p = %.2g, Mann-Whitney p = %.2g)",
		    v->b, fabs(v->pct), v->pct_hw, v->direction > 0 ? "more" : "fewer",
		    strcmp(v->unit, "efficiency") == 0 ? "packets per DUT CPU-second" :
		    v->unit[0] != '\0' ? v->unit : "packets", v->a,
		    pct_of(v->confidence), runs, v->ratio, v->ratio_lo, v->ratio_hi,
		    v->p_welch, v->p_mw);
	} else {
		xasprintf(&s, "no difference proven between %s and %s at %g%% confidence, %s"
		    " (%s/%s %+.1f%% ± %.1f%%, ratio %.3f, %.3f..%.3f; Welch p = %.2g,"
		    " Mann-Whitney p = %.2g)",
		    v->b, v->a, pct_of(v->confidence), runs, v->b, v->a, v->pct,
		    isfinite(v->pct_hw) ? v->pct_hw : 0.0, v->ratio, v->ratio_lo,
		    v->ratio_hi, v->p_welch, v->p_mw);
	}
	return s;
}

char *
bench_verdict_table(const struct bench_verdict *v)
{
	struct strbuf sb;
	char *text;

	strbuf_init(&sb);
	strbuf_addf(&sb, "    %-20s %4s %14s %14s\n", "profile", "N",
	    strcmp(v->unit, "bits") == 0 ? "Avg bit/s" : strcmp(v->unit, "latency") == 0 ?
	    "Avg p99 us" : strcmp(v->unit, "efficiency") == 0 ? "Avg pkt/CPU-s" : "Avg pps",
	    "Stddev");
	strbuf_addf(&sb, "x   %-20s %4zu %14.1f %14.1f\n", v->a, v->na, v->mean_a, v->sd_a);
	strbuf_addf(&sb, "+   %-20s %4zu %14.1f %14.1f\n", v->b, v->nb, v->mean_b, v->sd_b);
	if (isfinite(v->diff_hw)) {
		strbuf_addf(&sb, "Difference at %.1f%% confidence (Welch, df %.1f)\n"
		    "\t%.1f +/- %.1f\n", pct_of(v->confidence), v->df, v->diff, v->diff_hw);
		if (isfinite(v->pct))
			strbuf_addf(&sb, "\t%.2f%% +/- %.2f%%\n", v->pct, v->pct_hw);
	}
	if (isfinite(v->ratio))
		strbuf_addf(&sb, "\tratio %.4f (%.4f .. %.4f)\n", v->ratio, v->ratio_lo,
		    v->ratio_hi);
	else
		strbuf_addf(&sb, "\tno ratio: the mean of %s is 0\n", v->a);
	strbuf_addf(&sb, "\tWelch p = %.4g, Mann-Whitney U = %.1f, p = %.4g\n", v->p_welch,
	    v->u, v->p_mw);
	strbuf_addf(&sb, "\tdecision level %.4g (corrected for repeated looks): %s\n",
	    v->alpha_decide, v->decided ? "decided" : "not decided");
	text = bench_verdict_text(v);
	strbuf_addf(&sb, "%s\n", text);
	free(text);
	return strbuf_detach(&sb);
}

json_t *
bench_verdict_json(const struct bench_verdict *v)
{
	struct bench_comparison c = {
		.n_a = v->na, .n_b = v->nb, .mean_a = v->mean_a, .mean_b = v->mean_b,
		.stddev_a = v->sd_a, .stddev_b = v->sd_b, .confidence = pct_of(v->confidence),
		.welch = stat_cmp_json(&v->welch), .mann_whitney = stat_cmp_json(&v->mw),
		.ratio = v->ratio, .ratio_lo = v->ratio_lo, .ratio_hi = v->ratio_hi,
		.alpha_decide = v->alpha_decide, .decided = v->decided, .direction = v->direction,
	};
	json_t *o;

	snprintf(c.a, sizeof c.a, "%s", v->a);
	snprintf(c.b, sizeof c.b, "%s", v->b);
	snprintf(c.metric, sizeof c.metric, "%s", strcmp(v->unit, "bits") == 0 ? "bps" :
	    strcmp(v->unit, "latency") == 0 ? "latency_p99_us" :
	    strcmp(v->unit, "efficiency") == 0 ? "efficiency" : "pps");
	c.text = bench_verdict_text(v);
	o = bench_comparison_json(&c);
	free(c.text);
	return o;
}
