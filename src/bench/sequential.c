/* Sequential stopping with a Bonferroni correction over the planned looks. */
#include <stddef.h>

#include "bench/sequential.h"

int
bench_seq_looks(const struct bench_seq *s)
{
	int looks;

	looks = s->max_runs - s->min_runs + 1;
	return looks < 1 ? 1 : looks;
}

double
bench_seq_alpha(const struct bench_seq *s)
{
	int ncmp = s->ncomparisons < 1 ? 1 : s->ncomparisons;

	return (1.0 - s->confidence) / ((double)bench_seq_looks(s) * ncmp);
}

enum bench_stop
bench_seq_decide(const struct bench_seq *s, int runs, const double *p, size_t n)
{
	double alpha = bench_seq_alpha(s);
	size_t i;
	int all = 1;

	if (runs < s->min_runs)
		return BENCH_CONTINUE;
	for (i = 0; i < n; i++) {
		if (!(p[i] < alpha))
			all = 0;
	}
	if (all && n > 0)
		return BENCH_DECIDED;
	if (runs >= s->max_runs)
		return BENCH_MAX_RUNS;
	return BENCH_CONTINUE;
}

const char *
bench_stop_name(enum bench_stop s)
{
	switch (s) {
	case BENCH_DECIDED:
		return "decided";
	case BENCH_MAX_RUNS:
		return "max-runs";
	default:
		return "running";
	}
}
