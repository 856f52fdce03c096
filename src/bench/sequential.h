/*
 * Sequential stopping (seq.c).
 */
#ifndef NTUNE_BENCH_SEQ_H
#define NTUNE_BENCH_SEQ_H

#include <stddef.h>

/*
 * The stopping rule. After every complete block with at least min_runs runs
 * per profile, the comparisons are looked at; the bench stops as soon as all
 * of them are decided, or at max_runs. Repeated looks inflate the false
 * positive rate, so each look tests at a Bonferroni-corrected level:
 * alpha / (looks * comparisons), looks = max_runs - min_runs + 1 (the
 * number of planned looks). This is conservative (it keeps the overall error
 * below alpha whatever the correlation between looks) and valid for the
 * rank test as well as for the t test.
 */
struct bench_seq {
	int	min_runs;
	int	max_runs;
	double	confidence;	/* e.g. 0.95 */
	int	ncomparisons;	/* profiles - 1 */
};

enum bench_stop {
	BENCH_CONTINUE = 0,
	BENCH_DECIDED,		/* every comparison significant at the corrected level */
	BENCH_MAX_RUNS,		/* max_runs reached, something still undecided */
};

int	bench_seq_looks(const struct bench_seq *);
/* The per-look significance level (two-sided). */
double	bench_seq_alpha(const struct bench_seq *);
/* runs = runs per profile so far; p[] the comparisons' p values (Welch). */
enum bench_stop bench_seq_decide(const struct bench_seq *, int runs, const double *p, size_t n);
const char *bench_stop_name(enum bench_stop);

#endif
