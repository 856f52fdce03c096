/* The HTML page: box plots, time series, heat map (drawn with svg.c), tables; no scripts. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/results.h"
#include "bench/bench_run.h"
#include "diag/diag.h"
#include "report/report.h"
#include "report/svg.h"
#include "util/util.h"

static void
fmt_rate(char *buf, size_t len, double v, const char *unit)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (strcmp(unit, "µs") == 0)
		snprintf(buf, len, "%.0f µs", v);
	else if (fabs(v) >= 1e9)
		snprintf(buf, len, "%.2f G%s", v / 1e9, unit);
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.3f M%s", v / 1e6, unit);
	else if (fabs(v) >= 1e3)
		snprintf(buf, len, "%.1f k%s", v / 1e3, unit);
	else
		snprintf(buf, len, "%.0f %s", v, unit);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
report_quantile(const double *v, size_t n, double q)
{
	double h;
	size_t i;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	i = (size_t)floor(h);
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

/* The labels of measured runs, in order of first appearance. */
struct labels {
	const char *key;	/* the run field compared: "pps" or "bps" */
	const char **name;
	double	**val;
	size_t	*nval;
	size_t	n;
};

static int
run_measured(const struct bench_run *r)
{
	return !r->warmup && r->ok;
}

/* The value a run is compared by: pps, bps, or the sink's p99 latency (NaN: not in the line). */
static double
run_value(const struct bench_run *r, const char *key)
{
	if (strcmp(key, "latency_p99_us") == 0)
		return r->lat_p99;
	return strcmp(key, "bps") == 0 ? r->bps : r->pps;
}

static const char *
key_unit(const char *key)
{
	return strcmp(key, "bps") == 0 ? "bit/s" : strcmp(key, "latency_p99_us") == 0 ? "µs" : "pps";
}

static size_t
label_index(struct labels *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->name[i], name) == 0)
			return i;
	}
	l->name = xreallocarray(l->name, l->n + 1, sizeof *l->name);
	l->val = xreallocarray(l->val, l->n + 1, sizeof *l->val);
	l->nval = xreallocarray(l->nval, l->n + 1, sizeof *l->nval);
	l->name[l->n] = name;
	l->val[l->n] = NULL;
	l->nval[l->n] = 0;
	return l->n++;
}

static void
labels_collect(const struct report_data *d, struct labels *l, const char *key)
{
	const struct bench_run *r;
	size_t i, k;

	memset(l, 0, sizeof *l);
	l->key = key;
	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		k = label_index(l, r->label);
		if (!run_measured(r) || !isfinite(run_value(r, key)))
			continue;
		l->val[k] = xreallocarray(l->val[k], l->nval[k] + 1, sizeof **l->val);
		l->val[k][l->nval[k]++] = run_value(r, key);
	}
	for (k = 0; k < l->n; k++) {
		if (l->nval[k] > 1)
			qsort(l->val[k], l->nval[k], sizeof **l->val, cmp_double);
	}
}

static void
labels_free(struct labels *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->val[i]);
	free(l->name);
	free(l->val);
	free(l->nval);
}

static const char *
color_of(const struct labels *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->name[i], name) == 0)
			return report_palette(i);
	}
	return "#777777";
}

static void
box_plots(struct strbuf *sb, const struct labels *l)
{
	double lo = INFINITY, hi = -INFINITY, y, q1, q3, med, mean, x;
	size_t i, j, rows = 0;
	struct axis ax;
	char t[32], a[32];
	int h, k;

	for (i = 0; i < l->n; i++) {
		if (l->nval[i] == 0)
			continue;
		rows++;
		lo = fmin(lo, l->val[i][0]);
		hi = fmax(hi, l->val[i][l->nval[i] - 1]);
	}
	if (rows == 0) {
		strbuf_adds(sb, "<p class=\"warn\">No measured run.</p>\n");
		return;
	}
	h = (int)rows * 44 + 50;
	report_axis_fit(&ax, lo, hi, 180, REPORT_W - 20, 6);
	report_svg_open(sb, h, "box plots of forwarded packets per second", true);
	for (k = 0; k <= report_axis_ticks(&ax); k++) {
		x = ax.lo + k * ax.step;
		report_tick_label(t, sizeof t, x);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>"
		    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
		    report_axis_map(&ax, x), report_axis_map(&ax, x), h - 30, report_axis_map(&ax, x), h - 14, t);
	}
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
	    REPORT_W - 20, h - 2, strcmp(l->key, "latency_p99_us") == 0 ? "p99 latency, µs" : key_unit(l->key));
	y = 20;
	for (i = 0; i < l->n; i++) {
		const char *c = report_palette(i);
		double *v = l->val[i];
		size_t n = l->nval[i];

		if (n == 0)
			continue;
		q1 = report_quantile(v, n, 0.25);
		med = report_quantile(v, n, 0.5);
		q3 = report_quantile(v, n, 0.75);
		mean = 0;
		for (j = 0; j < n; j++)
			mean += v[j];
		mean /= (double)n;
		fmt_rate(a, sizeof a, mean, key_unit(l->key));
		strbuf_adds(sb, "<g><title>");
		report_esc(sb, l->name[i]);
		strbuf_addf(sb, ": %zu runs, mean %s, median %.0f, min %.0f, max %.0f</title>\n",
		    n, a, med, v[0], v[n - 1]);
		strbuf_addf(sb, "<text x=\"170\" y=\"%.1f\" text-anchor=\"end\" class=\"lab\">", y + 16);
		report_esc(sb, l->name[i]);
		strbuf_addf(sb, " (%zu)</text>\n", n);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    report_axis_map(&ax, v[0]), y + 12, report_axis_map(&ax, v[n - 1]), y + 12, c);
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"24\" fill=\"%s\" "
		    "fill-opacity=\"0.35\" stroke=\"%s\" stroke-width=\"2\"/>\n", report_axis_map(&ax, q1), y,
		    fmax(report_axis_map(&ax, q3) - report_axis_map(&ax, q1), 1), c, c);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222222\" stroke-width=\"3\"/>\n",
		    report_axis_map(&ax, med), y, report_axis_map(&ax, med), y + 24);
		for (j = 0; j < n; j++)
			strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" stroke=\"#222222\" stroke-width=\"0.5\"/>\n",
			    report_axis_map(&ax, v[j]), y + 4 + (double)(j % 5) * 4, c);
		strbuf_addf(sb, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#ffffff\" stroke=\"#222222\"/>\n",
		    report_axis_map(&ax, mean), y + 7);
		strbuf_adds(sb, "</g>\n");
		y += 44;
	}
	strbuf_adds(sb, "</svg>\n");
}

static void
time_series(struct strbuf *sb, const struct report_data *d, const struct labels *l)
{
	double hi = 0, v, x;
	size_t i, j, maxsec = 0, nlines = 0;
	const struct bench_run *r;
	struct axis ax, ay;
	const int h = 300;
	int k;

	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		if (r->nsec > maxsec)
			maxsec = r->nsec;
		for (j = 0; j < r->nsec; j++) {
			v = r->per_second[j];
			if (isfinite(v) && v > hi)
				hi = v;
		}
		if (r->nsec > 0)
			nlines++;
	}
	if (nlines == 0) {
		strbuf_adds(sb, "<p>No per-second samples.</p>\n");
		return;
	}
	report_axis_fit(&ax, 0, (double)maxsec, 80, REPORT_W - 20, 8);
	report_axis_fit(&ay, 0, hi, h - 30, 10, 5);
	report_svg_open(sb, h, "forwarded packets per second during each run", true);
	report_y_grid(sb, &ay);
	for (k = 0; k <= report_axis_ticks(&ax); k++) {
		x = ax.lo + k * ax.step;
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%gs</text>\n",
		    report_axis_map(&ax, x), h - 12, x);
	}
	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		if (r->nsec == 0)
			continue;
		strbuf_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" stroke-opacity=\"0.8\"%s points=\"",
		    color_of(l, r->label), r->warmup ? " stroke-dasharray=\"4 3\"" : "");
		for (j = 0; j < r->nsec; j++) {
			v = r->per_second[j];
			if (!isfinite(v))
				v = 0;
			/* A sample covers second j..j+1: a step, visible even for one sample. */
			strbuf_addf(sb, "%.1f,%.1f %.1f,%.1f ", report_axis_map(&ax, (double)j), report_axis_map(&ay, v),
			    report_axis_map(&ax, (double)j + 1), report_axis_map(&ay, v));
		}
		strbuf_adds(sb, "\"><title>run ");
		strbuf_addf(sb, "%d ", r->run);
		report_esc(sb, r->label);
		strbuf_adds(sb, "</title></polyline>\n");
	}
	strbuf_adds(sb, "</svg>\n");
}

static void
legend(struct strbuf *sb, const struct labels *l)
{
	size_t i;

	strbuf_adds(sb, "<p class=\"legend\">");
	for (i = 0; i < l->n; i++) {
		strbuf_addf(sb, "<span><i style=\"background:%s\"></i>", report_palette(i));
		report_esc(sb, l->name[i]);
		strbuf_adds(sb, "</span> ");
	}
	strbuf_adds(sb, "</p>\n");
}

static void
heat_map(struct strbuf *sb, const struct report_data *d, const struct labels *l)
{
	size_t i, c, ncpu = 0, nruns = d->nruns;
	const struct bench_run *r;
	double cw, busy;
	char col[16];
	int h;

	for (i = 0; i < d->nruns; i++) {
		if (d->runs[i].ncpu > ncpu)
			ncpu = d->runs[i].ncpu;
	}
	if (ncpu == 0 || nruns == 0) {
		strbuf_adds(sb, "<p>No per-CPU load was recorded.</p>\n");
		return;
	}
	if (ncpu > 256)
		ncpu = 256;
	h = (int)ncpu * 22 + 60;
	cw = (double)(REPORT_W - 100) / (double)nruns;
	report_svg_open(sb, h, "per-CPU load during each run", false);
	for (c = 0; c < ncpu; c++)
		strbuf_addf(sb, "<text x=\"74\" y=\"%zu\" text-anchor=\"end\" class=\"tick\">CPU %zu</text>\n",
		    c * 22 + 25, c);
	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		for (c = 0; c < ncpu; c++) {
			/* A line with fewer CPUs than another: 0 for the rest (as ever); none: unknown. */
			busy = r->cpu_busy == NULL ? NAN : c < r->ncpu ? r->cpu_busy[c] : 0;
			if (isfinite(busy))
				report_heat_color(col, sizeof col, busy);
			else
				snprintf(col, sizeof col, "#e8e8e8");
			strbuf_addf(sb, "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"20\" fill=\"%s\">"
			    "<title>run %d ", 80 + cw * (double)i, c * 22 + 10, fmax(cw - 1, 0.5), col,
			    r->run);
			report_esc(sb, r->label);
			if (isfinite(busy))
				strbuf_addf(sb, ", CPU %zu %.0f%% busy</title></rect>\n", c, busy);
			else
				strbuf_addf(sb, ", CPU %zu not recorded</title></rect>\n", c);
		}
		/* A strip under the map says which profile the column ran. */
		strbuf_addf(sb, "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"8\" fill=\"%s\"/>\n",
		    80 + cw * (double)i, ncpu * 22 + 12, fmax(cw - 1, 0.5), color_of(l, r->label));
	}
	strbuf_addf(sb, "<text x=\"80\" y=\"%zu\" class=\"tick\">run 1</text>"
	    "<text x=\"%d\" y=\"%zu\" text-anchor=\"end\" class=\"tick\">run %zu</text>\n",
	    ncpu * 22 + 38, REPORT_W - 20, ncpu * 22 + 38, nruns);
	for (c = 0; c <= 10; c++) {
		report_heat_color(col, sizeof col, (double)c * 10);
		strbuf_addf(sb, "<rect x=\"%zu\" y=\"%zu\" width=\"20\" height=\"10\" fill=\"%s\"/>", 300 + c * 20,
		    ncpu * 22 + 44, col);
	}
	strbuf_addf(sb, "<text x=\"296\" y=\"%zu\" text-anchor=\"end\" class=\"tick\">idle</text>"
	    "<text x=\"526\" y=\"%zu\" class=\"tick\">100%% busy</text>\n</svg>\n", ncpu * 22 + 53,
	    ncpu * 22 + 53);
}

/* A decided verdict is better or worse for b (lower is better for latency), never just "decided". */
static const char *
verdict_class(const struct bench_comparison *c)
{
	int better = strcmp(c->metric, "latency_p99_us") == 0 ? -1 : 1;

	if (!c->decided)
		return "undecided";
	if (c->direction == 0)
		return "decided";
	return c->direction == better ? "decided better" : "decided worse";
}

static void
verdicts(struct strbuf *sb, const struct report_data *d)
{
	const struct bench_verdict_file *v = d->verdict;
	size_t i;

	if (v != NULL && isfinite(v->cpu_busy_before) && v->cpu_busy_before > 25)
		strbuf_addf(sb, "<p class=\"banner warn\">The CPUs were %.0f%% busy with other work before "
		    "the bench started: expect noise (the interleaved blocks keep it from biasing the "
		    "verdict, but fewer differences can be proven).</p>\n", v->cpu_busy_before);

	if (v == NULL || v->ncmp == 0) {
		if (d->summary != NULL)
			strbuf_adds(sb, "<p>No change was kept, so the best profile is the starting "
			    "settings and there was no final bench.</p>\n");
		else
			strbuf_adds(sb, "<p>No verdict was reached (too few runs).</p>\n");
		return;
	}
	strbuf_adds(sb, "<ul class=\"verdict\">\n");
	for (i = 0; i < v->ncmp; i++) {
		strbuf_addf(sb, "<li class=\"%s\">", verdict_class(&v->cmp[i]));
		report_esc(sb, v->cmp[i].text);
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
	if (isfinite(v->alpha_look))
		strbuf_addf(sb, "<p class=\"small\">Stopping rule: at least %.0f and at most %.0f runs a "
		    "profile; each look tests at %.4g (Bonferroni over %.0f planned looks), "
		    "so the verdict keeps its %.0f%% confidence despite looking repeatedly.</p>\n",
		    (double)v->min_runs, (double)v->max_runs, v->alpha_look, (double)v->looks,
		    v->confidence);
}

/* The baseline's diagnosis (DIR/diagnosis.json): each finding with its knobs, or the headroom. */
static void
diagnosis(struct strbuf *sb, const struct report_data *d)
{
	const struct diag_result *dg = d->diagnosis;
	const struct diag_finding *f;
	size_t i, j;

	if (dg->nfindings == 0) {
		strbuf_adds(sb, "<p>No bottleneck found: ");
		report_esc(sb, dg->headroom != NULL ? dg->headroom : "");
		strbuf_adds(sb, "</p>\n");
		return;
	}
	strbuf_adds(sb, "<ul class=\"diagnosis\">\n");
	for (i = 0; i < dg->nfindings; i++) {
		f = &dg->findings[i];
		strbuf_adds(sb, "<li><b>");
		report_esc(sb, f->kind);
		if (*f->entity != '\0') {
			strbuf_adds(sb, " on ");
			report_esc(sb, f->entity);
		}
		strbuf_adds(sb, "</b> (");
		report_esc(sb, diag_certainty_name(f->certainty));
		strbuf_adds(sb, "): ");
		report_esc(sb, f->summary);
		strbuf_adds(sb, "; knobs:");
		for (j = 0; j < f->nknobs; j++) {
			strbuf_adds(sb, j > 0 ? ", <code>" : " <code>");
			report_esc(sb, f->knobs[j].name);
			strbuf_adds(sb, "</code>");
		}
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
}

static const char *metric_key(const struct report_data *);

/*
 * A tuner step's result: kept, rejected, skipped (already in the best profile,
 * not run), dropped (kept, then taken out by a drop check); a drop check's:
 * dropped or needed.
 */
static const char *
step_result(const struct bench_summary_step *s)
{
	if (s->drop_of > 0)
		return s->removed ? "dropped" : "needed";
	if (s->kept)
		return "kept";
	if (s->dropped_at > 0)
		return "dropped";
	return s->tried ? "rejected" : "skipped";
}

static void
tuner_path(struct strbuf *sb, const struct report_data *d)
{
	const char *unit = key_unit(metric_key(d));
	const struct bench_summary *sum = d->summary;
	const struct bench_summary_step *s;
	size_t i, n;
	double best, hi = 0, lo = INFINITY, v, y0;
	struct axis ay;
	char a[32], b[32];
	const int h = 220;

	fmt_rate(a, sizeof a, sum->baseline_pps, unit);
	fmt_rate(b, sizeof b, sum->best_pps, unit);
	strbuf_addf(sb, "<p>Baseline %s, best %s: <b>%+.1f%%</b> %s.</p>\n", a, b,
	    sum->gain_pct, strcmp(unit, "pps") == 0 ? "forwarded packets" :
	    strcmp(unit, "µs") == 0 ? "p99 latency" : "forwarded bits");
	n = sum->nsteps;
	if (n == 0) {
		strbuf_adds(sb, "<p>No candidate was tried.</p>\n");
		return;
	}
	best = sum->baseline_pps;
	for (i = 0; i < n; i++) {
		s = &sum->steps[i];
		v = s->mean_try;
		if (isfinite(v)) {
			hi = fmax(hi, v);
			lo = fmin(lo, v);
		}
		v = s->mean_best;
		if (isfinite(v)) {
			hi = fmax(hi, v);
			lo = fmin(lo, v);
		}
	}
	if (isfinite(best)) {
		hi = fmax(hi, best);
		lo = fmin(lo, best);
	}
	report_axis_fit(&ay, isfinite(lo) ? lo * 0.9 : 0, hi, h - 30, 10, 4);
	report_svg_open(sb, h, "the tuner's path", true);
	report_y_grid(sb, &ay);
	for (i = 0; i < n; i++) {
		double cx = 80 + ((double)i + 0.5) * (double)(REPORT_W - 100) / (double)n;
		double bw = fmin(40, (double)(REPORT_W - 100) / (double)n / 3);
		const char *res = step_result(s = &sum->steps[i]);

		v = s->mean_best;
		y0 = report_axis_map(&ay, ay.lo);
		if (isfinite(v))
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#9aa5b1\"/>\n",
			    cx - bw, report_axis_map(&ay, v), bw, fmax(y0 - report_axis_map(&ay, v), 0));
		v = s->mean_try;
		if (isfinite(v)) {
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			    "<title>", cx, report_axis_map(&ay, v), bw, fmax(y0 - report_axis_map(&ay, v), 0),
			    strcmp(res, "kept") == 0 ? "#59a14f" : "#e15759");
			report_esc(sb, s->change);
			strbuf_addf(sb, ": %s</title></rect>\n", res);
		}
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%zu %s</text>\n",
		    cx, h - 12, i + 1, res);
	}
	strbuf_adds(sb, "</svg>\n<p class=\"legend\"><span><i style=\"background:#9aa5b1\"></i>best so far</span> "
	    "<span><i style=\"background:#59a14f\"></i>candidate, kept</span> "
	    "<span><i style=\"background:#e15759\"></i>candidate, rejected</span></p>\n");
	strbuf_adds(sb, "<table><tr><th>#</th><th>change</th><th>result</th><th>verdict</th></tr>\n");
	for (i = 0; i < n; i++) {
		const char *res = step_result(s = &sum->steps[i]);

		strbuf_addf(sb, "<tr class=\"%s\"><td>%zu</td><td><code>", res, i + 1);
		report_esc(sb, s->change);
		strbuf_addf(sb, "</code></td><td>%s</td><td>", res);
		report_esc(sb, s->verdict);
		if (s->note != NULL && s->note[0] != '\0') {
			strbuf_adds(sb, " <i>");
			report_esc(sb, s->note);
			strbuf_adds(sb, "</i>");
		}
		strbuf_adds(sb, "</td></tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

/* Mean interrupt rate per source and profile, the busiest sources first. */
static void
irq_table(struct strbuf *sb, const struct report_data *d, struct labels *l)
{
	const char **names = NULL;
	double *sum = NULL, *cell, total;
	size_t n = 0, i, j, k, q, *cnt, top[8], ntop = 0;
	const struct bench_run *r;

	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		for (q = 0; q < r->nirq; q++) {
			for (j = 0; j < n && strcmp(names[j], r->irq_names[q]) != 0; j++)
				;
			if (j == n) {
				names = xreallocarray(names, n + 1, sizeof *names);
				sum = xreallocarray(sum, n + 1, sizeof *sum);
				names[n] = r->irq_names[q];
				sum[n++] = 0;
			}
			if (isfinite(r->irq_rates[q]))
				sum[j] += r->irq_rates[q];
		}
	}
	if (n == 0 || l->n == 0) {
		strbuf_adds(sb, "<p>No interrupt moved during the runs (veth has none; "
		    "softirqs show as CPU load).</p>\n");
		free(names);
		free(sum);
		return;
	}
	while (ntop < nitems(top) && ntop < n) {
		for (k = n, j = 0; j < n; j++) {
			size_t t;
			int used = 0;

			for (t = 0; t < ntop; t++)
				used |= top[t] == j;
			if (!used && (k == n || sum[j] > sum[k]))
				k = j;
		}
		top[ntop++] = k;
	}
	cell = xcalloc(l->n, sizeof *cell);
	cnt = xcalloc(l->n, sizeof *cnt);
	strbuf_adds(sb, "<table><tr><th>interrupts/s</th>");
	for (k = 0; k < l->n; k++) {
		strbuf_adds(sb, "<th>");
		report_esc(sb, l->name[k]);
		strbuf_adds(sb, "</th>");
	}
	strbuf_adds(sb, "</tr>\n");
	for (i = 0; i < ntop; i++) {
		memset(cell, 0, l->n * sizeof *cell);
		memset(cnt, 0, l->n * sizeof *cnt);
		for (j = 0; j < d->nruns; j++) {
			r = &d->runs[j];
			if (!run_measured(r))
				continue;
			k = label_index(l, r->label);
			for (total = 0, q = 0; q < r->nirq; q++) {
				if (strcmp(r->irq_names[q], names[top[i]]) == 0)
					total = r->irq_rates[q];
			}
			cell[k] += isfinite(total) ? total : 0;
			cnt[k]++;
		}
		strbuf_adds(sb, "<tr><td><code>");
		report_esc(sb, names[top[i]]);
		strbuf_adds(sb, "</code></td>");
		for (k = 0; k < l->n; k++) {
			if (cnt[k] > 0)
				strbuf_addf(sb, "<td>%.0f</td>", cell[k] / (double)cnt[k]);
			else
				strbuf_adds(sb, "<td>-</td>");
		}
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
	free(cell);
	free(cnt);
	free(names);
	free(sum);
}

/* bench --dut: who the hosts were, and every boot of the DUT with its recovery time. */
static void
hosts_table(struct strbuf *sb, const struct report_data *d)
{
	static const char *const roles[] = { "dut", "gen", "sink" };
	const struct bench_host *host[] = { &d->hosts->dut, &d->hosts->gen, &d->hosts->sink };
	const struct bench_boot *b;
	size_t i;

	strbuf_adds(sb, "<table><tr><th>host</th><th>reached at</th><th>uname</th><th>ntune</th>"
	    "<th>boot id</th></tr>\n");
	for (i = 0; i < 3; i++) {
		if (!host[i]->present)
			continue;
		strbuf_addf(sb, "<tr><td>%s</td><td>", roles[i]);
		report_esc(sb, host[i]->url);
		strbuf_adds(sb, "</td><td>");
		report_esc(sb, host[i]->uname);
		strbuf_adds(sb, "</td><td>");
		report_esc(sb, host[i]->ntune_version);
		strbuf_adds(sb, "</td><td>");
		report_esc(sb, host[i]->boot_id);
		strbuf_adds(sb, "</td></tr>\n");
	}
	strbuf_adds(sb, "</table>\n<h3>Boots of the DUT</h3>\n<table><tr><th>before run</th>"
	    "<th>why</th><th>boot id</th><th>recovery</th><th>came back</th></tr>\n");
	for (i = 0; i < d->hosts->nboots; i++) {
		b = &d->hosts->boots[i];
		strbuf_addf(sb, "<tr><td>%d</td><td>", b->before_run);
		report_esc(sb, b->why);
		strbuf_adds(sb, "</td><td>");
		report_esc(sb, b->boot_id);
		if (isfinite(b->recovery_s))
			strbuf_addf(sb, "</td><td>%.1f s</td><td>%s</td></tr>\n", b->recovery_s,
			    b->came_back ? "yes" : "no");
		else
			strbuf_adds(sb, "</td><td></td><td>(found)</td></tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

static void
runs_table(struct strbuf *sb, const struct report_data *d)
{
	const struct bench_run *r;
	size_t i;
	char a[32], b[32];

	strbuf_adds(sb, "<table><tr><th>run</th><th>block</th><th>profile</th><th>forwarded</th>"
	    "<th>bit/s</th><th>lost</th><th>s</th><th>note</th></tr>\n");
	for (i = 0; i < d->nruns; i++) {
		r = &d->runs[i];
		fmt_rate(a, sizeof a, r->pps, "pps");
		fmt_rate(b, sizeof b, r->bps, "bit/s");
		strbuf_addf(sb, "<tr><td>%d</td><td>%d</td><td>", r->run, r->block);
		report_esc(sb, r->label);
		strbuf_addf(sb, "</td><td>%s</td><td>%s</td><td>%.0f</td><td>%.1f</td><td>", a, b,
		    (double)r->drops, r->duration_s);
		if (r->warmup)
			strbuf_adds(sb, "warm-up, discarded ");
		if (r->boot[0] != '\0') {
			strbuf_adds(sb, "DUT boot ");
			report_esc(sb, r->boot);
			strbuf_adds(sb, " ");
		}
		report_esc(sb, r->error);
		strbuf_adds(sb, "</td></tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

/* bench --metric bps and tune --goal throughput compare bit/s. */
static const char *
metric_key(const struct report_data *d)
{
	const char *m = "";

	if (d->summary != NULL)
		m = d->summary->metric;
	else if (d->verdict != NULL && d->verdict->ncmp > 0)
		m = d->verdict->cmp[0].metric;
	if (strcmp(m, "bps") == 0 || strcmp(m, "latency_p99_us") == 0)
		return m;
	return "pps";
}

static const char style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;"
    "max-width:1000px;color:#1d2733;background:#ffffff}"
    "h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;"
    "border-bottom:2px solid #4e79a7;padding-bottom:3px}"
    ".meta{color:#556270;font-size:13px}.fig{max-width:100%;height:auto;display:block}"
    ".tick{font-size:12px;fill:#556270}.lab{font-size:13px;fill:#1d2733}"
    ".legend span{margin-right:14px;font-size:13px}.legend i{display:inline-block;width:12px;"
    "height:12px;margin-right:4px;vertical-align:-1px}"
    "ul.verdict li{font-size:17px;margin:6px 0}li.decided{color:#1d2733}li.better{color:#1b5e20}li.worse{color:#b71c1c}"
    "li.worse::before{content:'worse: ';font-weight:600}li.undecided{color:#6d4c41}"
    ".banner{padding:10px 14px;border-radius:6px;margin:12px 0}"
    ".ok{background:#e8f5e9;border:1px solid #59a14f}.warn{background:#fff3e0;border:1px solid #f28e2b}"
    "table{border-collapse:collapse;font-size:13px;width:100%}td,th{border:1px solid #d8dee4;"
    "padding:3px 6px;text-align:left}th{background:#eef2f6}tr.kept td{background:#edf7ed}"
    "tr.rejected td{background:#fdf0f0}tr.skipped td{color:#6b7785}pre{background:#f4f6f8;border:1px solid #d8dee4;"
    "padding:8px;overflow:auto;font-size:13px}.small{font-size:13px;color:#556270}";

void
report_page_head(struct strbuf *sb, const char *title)
{
	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	    "<link rel=\"icon\" href=\"data:,\">\n<title>");
	report_esc(sb, title);
	strbuf_adds(sb, "</title>\n<style>");
	strbuf_adds(sb, style);
	strbuf_adds(sb, "</style>\n</head>\n<body>\n<h1>");
	report_esc(sb, title);
	strbuf_adds(sb, "</h1>\n");
}

char *
report_html(const struct report_data *d)
{
	struct strbuf sb;
	struct labels l;
	const struct bench_meta *m = &d->meta;
	const char *kind = m->kind;
	int complete = m->complete;
	size_t i;

	labels_collect(d, &l, metric_key(d));
	strbuf_init(&sb);
	strbuf_adds(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	    "<link rel=\"icon\" href=\"data:,\">\n<title>ntune ");
	report_esc(&sb, kind);
	strbuf_adds(&sb, " report</title>\n<style>");
	strbuf_adds(&sb, style);
	strbuf_adds(&sb, "</style>\n</head>\n<body>\n<h1>ntune ");
	report_esc(&sb, kind);
	strbuf_adds(&sb, " report</h1>\n<p class=\"meta\"><code>");
	report_esc(&sb, m->command != NULL ? m->command : "");
	strbuf_adds(&sb, "</code><br>started ");
	report_esc(&sb, m->started);
	strbuf_adds(&sb, ", finished ");
	report_esc(&sb, m->finished[0] ? m->finished : "(not finished)");
	strbuf_adds(&sb, ", ntune ");
	report_esc(&sb, m->ntune_version);
	strbuf_adds(&sb, "</p>\n");
	strbuf_addf(&sb, "<div class=\"banner %s\">%s; stopped: <b>", complete ? "ok" : "warn",
	    complete ? "Complete" : "Incomplete: partial results");
	report_esc(&sb, m->stopped);
	strbuf_adds(&sb, "</b>");
	if (m->note != NULL && m->note[0] != '\0') {
		strbuf_adds(&sb, " — ");
		report_esc(&sb, m->note);
	}
	strbuf_adds(&sb, "</div>\n");

	if (d->summary != NULL) {
		strbuf_adds(&sb, "<h2>The tuner's path</h2>\n");
		tuner_path(&sb, d);
	}
	if (d->verdict != NULL || d->summary == NULL) {
		strbuf_adds(&sb, "<h2>Verdict</h2>\n");
		verdicts(&sb, d);
	}
	if (d->diagnosis != NULL) {
		strbuf_adds(&sb, "<h2>Diagnosis of the baseline under load</h2>\n");
		diagnosis(&sb, d);
	}
	if (strcmp(l.key, "latency_p99_us") == 0)
		strbuf_adds(&sb, "<h2>p99 latency at the sink, per profile</h2>\n");
	else
		strbuf_addf(&sb, "<h2>Forwarded %s per second, per profile</h2>\n",
		    strcmp(l.key, "bps") == 0 ? "bits" : "packets");
	box_plots(&sb, &l);
	strbuf_adds(&sb, "<p class=\"small\">Box: quartiles; black bar: median; diamond: mean; "
	    "whiskers: min to max; dots: runs (warm-ups excluded).</p>\n");
	strbuf_adds(&sb, "<h2>Forwarded pps over time, per run</h2>\n");
	legend(&sb, &l);
	time_series(&sb, d, &l);
	strbuf_adds(&sb, "<p class=\"small\">Dashed: warm-up runs.</p>\n");
	strbuf_adds(&sb, "<h2>Per-CPU load during each run</h2>\n");
	heat_map(&sb, d, &l);
	strbuf_adds(&sb, "<h2>Interrupt rates (mean per profile)</h2>\n");
	irq_table(&sb, d, &l);
	if (d->hosts != NULL) {
		strbuf_adds(&sb, "<h2>Hosts</h2>\n");
		hosts_table(&sb, d);
	}
	strbuf_adds(&sb, "<h2>Runs</h2>\n");
	runs_table(&sb, d);
	strbuf_adds(&sb, "<h2>The exact profiles</h2>\n");
	if (d->best != NULL) {
		strbuf_adds(&sb, "<h3>best.conf</h3>\n<pre>");
		report_esc(&sb, d->best);
		strbuf_adds(&sb, "</pre>\n");
	}
	for (i = 0; i < d->nprofiles; i++) {
		strbuf_adds(&sb, "<h3>");
		report_esc(&sb, d->profiles[i].label);
		strbuf_adds(&sb, "</h3>\n<pre>");
		report_esc(&sb, d->profiles[i].text[0] != '\0' ? d->profiles[i].text :
		    "# (empty: the settings as they were)\n");
		strbuf_adds(&sb, "</pre>\n");
	}
	strbuf_adds(&sb, "</body>\n</html>\n");
	labels_free(&l);
	return strbuf_detach(&sb);
}
