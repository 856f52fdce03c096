/*
 * The statistical verdict of a comparison of two samples (verdict.c).
 */
#ifndef NTUNE_BENCH_VERDICT_H
#define NTUNE_BENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "bench/label.h"
#include "stat/stat.h"

struct bench_verdict {
	char	a[BENCH_LABEL_MAX], b[BENCH_LABEL_MAX];
	size_t	na, nb;
	double	mean_a, mean_b, sd_a, sd_b;
	double	confidence;		/* level of the intervals shown, e.g. 0.95 */
	double	alpha_decide;		/* level the decision used (corrected for looks) */
	/* Welch t */
	double	diff, diff_hw;		/* mean_b - mean_a and the interval's half width */
	double	pct, pct_hw;		/* the same as % of mean_a */
	double	df, p_welch;
	/* Mann-Whitney U (normal approximation with tie correction) */
	double	u, p_mw;
	struct stat_cmp welch, mw;	/* as `ntune stat` computes them */
	/* ratio mean_b / mean_a, interval by the delta method with Welch df */
	double	ratio, ratio_lo, ratio_hi;
	bool	decided;		/* p_welch < alpha_decide */
	char	unit[16];		/* "packets" (pps, default), "bits" (bit/s), "latency" (p99 µs)
					   or "efficiency" (packets per DUT CPU-second) */
	int	direction;		/* +1 b higher, -1 b lower, 0 no difference proven */
};

/*
 * Compares sample b with sample a (at least 2 values each). confidence sets
 * the intervals; alpha_decide the decision (pass 1 - confidence for a single
 * look).
 */
int	bench_verdict_compute(const char *label_a, const double *a, size_t na,
	    const char *label_b, const double *b, size_t nb, double confidence,
	    double alpha_decide, struct bench_verdict *, char **cause);
/*
 * In words, e.g. "B forwards 23.1% ± 3.2% more packets than A, 95%
 * confidence, 12 runs each". what: "forwards", more: "more packets".
 */
char	*bench_verdict_text(const struct bench_verdict *);
/* ministat-style block: the two samples, the differences, the tests. */
char	*bench_verdict_table(const struct bench_verdict *);
json_t	*bench_verdict_json(const struct bench_verdict *);

#endif
