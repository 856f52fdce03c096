#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "bench/schedule.h"
#include "bench/sequential.h"

static void
test_bench_seq_alpha_is_bonferroni_over_looks(void **state)
{
	struct bench_seq s = { 5, 10, 0.95, 1 };

	(void)state;
	assert_int_equal(bench_seq_looks(&s), 6);
	assert_true(bench_seq_alpha(&s) > 0.05 / 6 - 1e-12 && bench_seq_alpha(&s) < 0.05 / 6 + 1e-12);
	s.ncomparisons = 2;
	assert_true(bench_seq_alpha(&s) < 0.05 / 12 + 1e-12);
	s.max_runs = 5;
	s.ncomparisons = 1;
	assert_int_equal(bench_seq_looks(&s), 1);
	assert_true(bench_seq_alpha(&s) > 0.0499 && bench_seq_alpha(&s) < 0.0501);
}

static void
test_bench_seq_decide_waits_for_min_runs(void **state)
{
	struct bench_seq s = { 5, 10, 0.95, 1 };
	double p = 1e-9;

	(void)state;
	assert_int_equal(bench_seq_decide(&s, 3, &p, 1), BENCH_CONTINUE);
	assert_int_equal(bench_seq_decide(&s, 5, &p, 1), BENCH_DECIDED);
}

/* p = 0.02 would be "significant" at a single look but not after correction. */
static void
test_bench_seq_decide_corrects_for_repeated_looks(void **state)
{
	struct bench_seq s = { 5, 10, 0.95, 1 };
	double p = 0.02;

	(void)state;
	assert_int_equal(bench_seq_decide(&s, 6, &p, 1), BENCH_CONTINUE);
	assert_int_equal(bench_seq_decide(&s, 10, &p, 1), BENCH_MAX_RUNS);
	p = 0.008;
	assert_int_equal(bench_seq_decide(&s, 6, &p, 1), BENCH_DECIDED);
}

static void
test_bench_seq_decide_needs_every_comparison(void **state)
{
	struct bench_seq s = { 3, 8, 0.95, 2 };
	double p[2] = { 1e-6, 0.5 };

	(void)state;
	assert_int_equal(bench_seq_decide(&s, 4, p, 2), BENCH_CONTINUE);
	assert_int_equal(bench_seq_decide(&s, 8, p, 2), BENCH_MAX_RUNS);
	p[1] = 1e-6;
	assert_int_equal(bench_seq_decide(&s, 4, p, 2), BENCH_DECIDED);
	assert_string_equal(bench_stop_name(BENCH_DECIDED), "decided");
	assert_string_equal(bench_stop_name(BENCH_MAX_RUNS), "max-runs");
}

/*
 * The correction does its job: with no true difference, sampled p values
 * (uniform under the null) cross the per-look level at some look in at most
 * about alpha of the benches (independent p values are the worst case for
 * Bonferroni; uncorrected looks would give about 1 - 0.95^8 = 34%).
 */
static void
test_bench_seq_false_positive_rate_stays_below_alpha(void **state)
{
	struct bench_seq s = { 5, 12, 0.95, 1 };
	uint64_t rng = 2024;
	int trial, runs, false_pos = 0, naive = 0, trials = 20000, hit;
	double p;

	(void)state;
	for (trial = 0; trial < trials; trial++) {
		hit = 0;
		for (runs = s.min_runs; runs <= s.max_runs; runs++) {
			p = (double)(bench_rand(&rng) >> 11) / 9007199254740992.0;
			if (p < 0.05)
				hit = 1;
			if (bench_seq_decide(&s, runs, &p, 1) == BENCH_DECIDED) {
				false_pos++;
				break;
			}
		}
		naive += hit;
	}
	assert_true((double)false_pos / trials < 0.055);
	assert_true((double)naive / trials > 0.25);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_seq_alpha_is_bonferroni_over_looks),
		cmocka_unit_test(test_bench_seq_decide_waits_for_min_runs),
		cmocka_unit_test(test_bench_seq_decide_corrects_for_repeated_looks),
		cmocka_unit_test(test_bench_seq_decide_needs_every_comparison),
		cmocka_unit_test(test_bench_seq_false_positive_rate_stays_below_alpha),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
