/* A/B runs: apply, measure, revert, in interleaved blocks until decided. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lab_bench.h"
#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "bench/schedule.h"
#include "bench/sequential.h"
#include "bench/verdict.h"
#include "kb/kb.h"
#include "util/util.h"

void
bench_say(void (*fn)(void *, const char *), void *arg, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (fn == NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	fn(arg, msg);
	free(msg);
}

void
bench_profile_free(struct bench_profile *p)
{
	free(p->text);
	if (p->prof != NULL)
		kb_profile_free(p->prof);
	free(p->values);
	memset(p, 0, sizeof *p);
}

static int
apply_one(struct bench_ctx *c, struct bench_profile *p, char **cause)
{
	c->journal[0] = '\0';
	return c->runner->apply(c->runner->arg, p, c->journal, sizeof c->journal, cause);
}

static int
revert_one(struct bench_ctx *c, char **cause)
{
	if (c->journal[0] == '\0')
		return 0;
	if (c->runner->restore(c->runner->arg, c->journal, cause) == -1)
		return -1;
	c->journal[0] = '\0';
	return 0;
}

static int one_run(struct bench_ctx *, struct bench_profile *, int, bool, char **);

/*
 * A measured run of profile k; the first one of profiles[0] (the baseline) also keeps
 * the DUT's diagnosis under that load in DIR/diagnosis.json (`ntune diagnose --json`).
 */
static int
diagnose_baseline(struct bench_ctx *c, size_t k, int block, struct bench_profile *p, char **cause)
{
	char *path = NULL;
	int rc;

	if (!c->diagnosed && k == 0 && c->dir != NULL) {
		xasprintf(&path, "%s/diagnosis.json", c->dir);
		c->lab->diagnose_to = path;
	}
	rc = one_run(c, &p[k], block, false, cause);
	if (path != NULL) {
		c->diagnosed = true;
		c->lab->diagnose_to = NULL;
		free(path);
	}
	return rc;
}

/* One run of profile p: apply, measure, revert, record. */
/* "; DUT CPU 0.85 (softirq 0.30 + NAPI threads 0.56)": what --metric efficiency divides by. */
static void
dut_cpu_words(const struct bench_run *r, char *buf, size_t len)
{
	if (r->dut_cpu_from == NULL)
		snprintf(buf, len, "; DUT CPU not measured");
	else if (strcmp(r->dut_cpu_from, BENCH_DUT_CPU_LAB) == 0)
		snprintf(buf, len, "; DUT CPU %.2f (softirq %.2f + NAPI threads %.2f)", r->dut_cpu,
		    r->dut_softirq, r->dut_napi);
	else
		snprintf(buf, len, "; DUT CPU %.2f (its CPUs busy)", r->dut_cpu);
}

static int
one_run(struct bench_ctx *c, struct bench_profile *p, int block, bool warmup, char **cause)
{
	struct bench_run r;
	char *why = NULL, *rcause = NULL;
	int rc;

	memset(&r, 0, sizeof r);
	r.run = ++c->run;
	r.block = block;
	r.step = c->step;
	r.warmup = warmup;
	snprintf(r.label, sizeof r.label, "%s", p->label);
	if (apply_one(c, p, cause) == -1)
		return -1;
	rc = c->runner->measure(c->runner->arg, warmup ? c->warmup : c->duration, &r, &why);
	r.value = rc == 0 ? bench_run_value(c, &r) : 0;
	if (revert_one(c, &rcause) == -1) {
		if (rc == -1) {
			util_cause(cause, "%s; %s", why, rcause);
			free(rcause);
		} else
			*cause = rcause;
		free(why);
		bench_run_free(&r);
		return -1;
	}
	if (rc == -1) {
		*cause = why;
		bench_run_free(&r);
		return -1;
	}
	if (c->dir != NULL && bench_results_add_run(c->dir, &r, cause) == -1) {
		bench_run_free(&r);
		return -1;
	}
	if (!r.ok) {
		util_cause(cause, "run %d (%s): %s", r.run, p->label, r.error);
		bench_run_free(&r);
		return -1;
	}
	if (!warmup) {
		if (c->per_boot && r.boot[0] != '\0' && p->nvalues > 0 && strcmp(p->boot, r.boot) == 0) {
			p->values[p->nvalues - 1] = (p->values[p->nvalues - 1] * p->in_boot + r.value) /
			    (p->in_boot + 1);
			p->in_boot++;
		} else {
			p->values = xreallocarray(p->values, p->nvalues + 1, sizeof *p->values);
			p->values[p->nvalues++] = r.value;
			snprintf(p->boot, sizeof p->boot, "%s", r.boot);
			p->in_boot = 1;
		}
	}
	{
		struct strbuf sb;
		char lat[64] = "", dut[128] = "";
		size_t i;

		if (r.lat_p99 > 0)
			snprintf(lat, sizeof lat, ", latency avg %.0f p99 %.0f µs", r.lat_avg, r.lat_p99);
		if (c->efficiency)
			dut_cpu_words(&r, dut, sizeof dut);
		strbuf_init(&sb);
		for (i = 0; i < r.ncpu && i < 16; i++)
			strbuf_addf(&sb, "%s%.0f%%", i > 0 ? " " : "", r.cpu_busy[i]);
		BENCH_SAY(c, "run %d/%d %s%s: %.0f pps forwarded, %llu lost%s%s%s%s", r.run, c->planned,
		    p->label, warmup ? " (warm-up, discarded)" : "", r.pps,
		    (unsigned long long)r.drops, lat, r.ncpu > 0 ? "; CPUs busy " : "",
		    r.ncpu > 0 ? sb.buf : "", dut);
		strbuf_free(&sb);
	}
	bench_run_free(&r);
	return 0;
}

static void
compare_all(struct bench_ctx *c, struct bench_profile *p, size_t n, struct bench_verdict *v,
    double *pv, double alpha)
{
	size_t i;
	char *why = NULL;

	for (i = 1; i < n; i++) {
		if (bench_verdict_compute(p[0].label, p[0].values, p[0].nvalues, p[i].label,
		    p[i].values, p[i].nvalues, c->seq.confidence, alpha, &v[i - 1], &why) == -1) {
			free(why);
			why = NULL;
			v[i - 1].na = v[i - 1].nb = 0;
			pv[i - 1] = 1;
			continue;
		}
		if (c->bits || c->latency || c->efficiency)
			snprintf(v[i - 1].unit, sizeof v[i - 1].unit, "%s", c->latency ? "latency" :
			    c->bits ? "bits" : "efficiency");
		pv[i - 1] = isfinite(v[i - 1].p_welch) ? v[i - 1].p_welch : 1;
	}
}

int
bench_ab(struct bench_ctx *c, struct bench_profile *p, size_t n, struct bench_verdict *v,
    enum bench_stop *stop, char **cause)
{
	size_t *order, i;
	double *pv, alpha, busy = -1;
	int block, total;

	*stop = BENCH_CONTINUE;
	c->failed_profile = -1;
	c->blocks = 0;
	if (n < 2) {
		util_cause(cause, "need at least two profiles to compare");
		return -1;
	}
	c->seq.ncomparisons = (int)n - 1;
	if (c->runner->per_boot != NULL)
		c->per_boot = c->runner->per_boot(c->runner->arg, p, n);
	alpha = bench_seq_alpha(&c->seq);
	order = xreallocarray(NULL, n, sizeof *order);
	pv = xcalloc(n, sizeof *pv);
	memset(v, 0, (n - 1) * sizeof *v);
	total = c->seq.max_runs * (int)n + (c->warmup > 0 ? (int)n : 0);
	c->planned = c->run + total;
	BENCH_SAY(c, "%zu profiles, %d to %d runs each of %.1f s, up to %d runs; each look "
	    "tests at %.4g (%.0f%% confidence, Bonferroni over %d looks)", n, c->seq.min_runs,
	    c->seq.max_runs, c->duration, total, alpha, c->seq.confidence * 100,
	    bench_seq_looks(&c->seq) * c->seq.ncomparisons);
	if (c->step <= 1)
		c->busy_before = busy = c->runner->idle_busy(c->runner->arg, 0.5);
	if (c->step <= 1 && busy > 25)
		BENCH_SAY(c, "warning: the CPUs are %.0f%% busy before any load of ours: other work will "
		    "add noise (the interleaved blocks keep it from biasing the verdict)", busy);
	if (c->warmup > 0) {
		bench_block_order(n, 0, c->seed ^ 0x5741524d55ULL, order);
		for (i = 0; i < n; i++) {
			if (one_run(c, &p[order[i]], 0, true, cause) == -1) {
				c->failed_profile = (int)order[i];
				goto fail;
			}
		}
	}
	for (block = 1; block <= c->seq.max_runs; block++) {
		bench_block_order(n, (size_t)block - 1, c->seed, order);
		for (i = 0; i < n; i++) {
			if (diagnose_baseline(c, order[i], block, p, cause) == -1) {
				c->failed_profile = (int)order[i];
				goto fail;
			}
		}
		c->blocks = block;
		compare_all(c, p, n, v, pv, alpha);
		for (i = 1; i < n && block >= 2; i++) {
			if (v[i - 1].na == 0)
				continue;
			BENCH_SAY(c, "block %d/%d: %s vs %s: %+.1f%% ± %.1f%% (Welch p = %.3g, needs < %.3g%s)",
			    block, c->seq.max_runs, p[i].label, p[0].label, v[i - 1].pct,
			    isfinite(v[i - 1].pct_hw) ? v[i - 1].pct_hw : 0.0, v[i - 1].p_welch, alpha,
			    block < c->seq.min_runs ? ", before the first look" : "");
		}
		*stop = bench_seq_decide(&c->seq, block, pv, n - 1);
		if (*stop != BENCH_CONTINUE)
			break;
	}
	free(order);
	free(pv);
	return 0;
fail:
	compare_all(c, p, n, v, pv, alpha);
	free(order);
	free(pv);
	return -1;
}
