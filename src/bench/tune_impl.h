/*
 * Inside the tuner: tune.c (the loop), tune_cand.c (the candidates),
 * tune_rules.c (a step's runs and cost, the keep rule), tune_profile.c (the
 * kept steps as a profile, pairs, best.conf) and tune_out.c (its files).
 */
#ifndef NTUNE_BENCH_TUNE_IMPL_H
#define NTUNE_BENCH_TUNE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/tune.h"

struct bench_ctx;

/*
 * Fills cand's changes, label and was from set (a bundle's was says which part
 * was what). -1 when it does not fit.
 */
int	bench_tune_cand_fill(struct bench_candidate *cand, const struct bench_change *set,
	    size_t nset);

/* The profile of the kept steps except step skip (SIZE_MAX: none), then extra's changes. */
char	*bench_tune_profile_text(const struct bench_tune *t, size_t skip,
	    const struct bench_candidate *extra);
/* Whether every change of c is in the profile of the kept steps already. */
bool	bench_tune_in_best(const struct bench_tune *t, const struct bench_candidate *c);

/* A change for the better of the tune's metric (latency: lower). */
double	bench_tune_gain(const struct bench_tune *t, double pct);

/* The loop's bookkeeping: the time of one run, measured as we go. */
struct bench_tune_loop {
	double	t0;
	double	per_run;
	size_t	ncand;
};

/* Runs per profile for the next step: from the spread once it is known. */
int	bench_tune_runs_next(const struct bench_ctx *c, const struct bench_tune *t);
/* The time a step of runs runs per profile may take, warm-ups and reboots included. */
double	bench_tune_step_time(const struct bench_ctx *c, const struct bench_tune *t,
	    const struct bench_tune_loop *l, const struct bench_candidate *cand, int runs);
/* The final bench's time: the best against the start, with reboots when a kept step needs them. */
double	bench_tune_final_time(const struct bench_ctx *c, const struct bench_tune *t,
	    const struct bench_tune_loop *l, int runs);

/*
 * t->best_text, and with a results directory (c->dir) best.conf, summary.json
 * and verdict.json: 0, or -1 + cause.
 */
int	bench_tune_write(struct bench_ctx *c, struct bench_tune *t, char **cause);

#endif
