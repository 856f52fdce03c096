#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/sequential.h"
#include "bench/verdict.h"

/* The verdict on B against A, 5 runs each, at 95% confidence (alpha 0.05); fails the test if none. */
static void
verdict(const double *a, const double *b, struct bench_verdict *v)
{
	char *cause = NULL;

	if (bench_verdict_compute("A", a, 5, "B", b, 5, 0.95, 0.05, v, &cause) != 0)
		fail_msg("bench_verdict_compute: %s", cause);
}

static void
test_bench_verdict_text_says_how_much_more(void **state)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 120, 122, 118, 121, 119 };
	struct bench_verdict v;
	char *text;

	(void)state;
	verdict(a, b, &v);
	assert_true(v.decided);
	assert_int_equal(v.direction, 1);
	assert_true(v.pct > 19.99 && v.pct < 20.01);
	assert_true(v.ratio > 1.1999 && v.ratio < 1.2001);
	assert_true(v.ratio_lo < v.ratio && v.ratio < v.ratio_hi);
	text = bench_verdict_text(&v);
	assert_non_null(strstr(text, "B forwards 20.0% ± "));
	assert_non_null(strstr(text, "% more packets than A, 95% confidence, 5 runs each"));
	free(text);
}

static void
test_bench_verdict_text_says_fewer_when_worse(void **state)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 80, 82, 78, 81, 79 };
	struct bench_verdict v;
	char *text;

	(void)state;
	verdict(a, b, &v);
	assert_int_equal(v.direction, -1);
	text = bench_verdict_text(&v);
	assert_non_null(strstr(text, "B forwards 20.0% ± "));
	assert_non_null(strstr(text, "fewer packets than A"));
	free(text);
}

static void
test_bench_verdict_no_difference_when_overlapping(void **state)
{
	const double a[] = { 100, 110, 90, 105, 95 }, b[] = { 101, 109, 91, 104, 96 };
	struct bench_verdict v;
	char *text;

	(void)state;
	verdict(a, b, &v);
	assert_false(v.decided);
	assert_int_equal(v.direction, 0);
	text = bench_verdict_text(&v);
	assert_non_null(strstr(text, "no difference proven between B and A at 95% confidence"));
	free(text);
}

/* A zero baseline (nothing forwarded) has no percentage and no ratio: say the absolute change. */
static void
test_bench_verdict_zero_baseline_says_absolute_change(void **state)
{
	const double a[] = { 0, 0, 0, 0, 0 }, b[] = { 120, 122, 118, 121, 119 };
	const double c[] = { 0, 1, 0, 0, 1 };
	struct bench_verdict v;
	char *text, *table;

	(void)state;
	verdict(a, b, &v);
	assert_int_equal(v.direction, 1);
	text = bench_verdict_text(&v);
	table = bench_verdict_table(&v);
	assert_null(strstr(text, "inf"));
	assert_null(strstr(text, "nan"));
	assert_null(strstr(table, "inf"));
	assert_null(strstr(table, "nan"));
	assert_non_null(strstr(text, "B has 120.0 ± "));
	assert_non_null(strstr(text, " packets/s more than A, whose mean is 0.0"));
	assert_non_null(strstr(table, "no ratio: the mean of A is 0"));
	free(text);
	free(table);
	assert_int_equal(bench_verdict_compute("A", a, 5, "C", c, 5, 0.95, 0.05, &v, NULL), 0);
	text = bench_verdict_text(&v);
	assert_null(strstr(text, "nan"));
	assert_non_null(strstr(text, "no difference proven between C and A"));
	assert_non_null(strstr(text, "A's mean is 0.0"));
	free(text);
}

/* Significant at a single look but not at the level corrected for 6 looks. */
static void
test_bench_verdict_uses_the_corrected_level(void **state)
{
	const double a[] = { 100, 104, 97, 101, 98 }, b[] = { 104, 107, 101, 103, 105 };
	struct bench_verdict v1, v6;
	struct bench_seq s = { 5, 10, 0.95, 1 };

	(void)state;
	verdict(a, b, &v1);
	assert_int_equal(bench_verdict_compute("A", a, 5, "B", b, 5, 0.95, bench_seq_alpha(&s), &v6,
	    NULL), 0);
	assert_true(v1.p_welch < 0.05 && v1.p_welch > bench_seq_alpha(&s));
	assert_true(v1.decided);
	assert_false(v6.decided);
}

static void
test_bench_verdict_text_for_latency_says_lower(void **state)
{
	const double a[] = { 100, 102, 98, 101, 99 }, b[] = { 80, 82, 78, 81, 79 };
	struct bench_verdict v;
	char *text;

	(void)state;
	verdict(a, b, &v);
	strcpy(v.unit, "latency");
	text = bench_verdict_text(&v);
	assert_non_null(strstr(text, "B has a 20.0% ± "));
	assert_non_null(strstr(text, "% lower p99 latency than A (80 vs 100 µs)"));
	free(text);
}

static void
test_bench_verdict_refuses_single_runs(void **state)
{
	const double a[] = { 1 }, b[] = { 2, 3 };
	struct bench_verdict v;
	char *cause = NULL;

	(void)state;
	assert_int_equal(bench_verdict_compute("A", a, 1, "B", b, 2, 0.95, 0.05, &v, &cause), -1);
	assert_non_null(strstr(cause, "too few runs"));
	free(cause);
}

static void
test_bench_verdict_json_has_both_tests_and_the_ratio(void **state)
{
	const double a[] = { 100, 102, 98 }, b[] = { 150, 152, 148 };
	struct bench_verdict v;
	json_t *j;

	(void)state;
	assert_int_equal(bench_verdict_compute("A", a, 3, "B", b, 3, 0.95, 0.05, &v, NULL), 0);
	j = bench_verdict_json(&v);
	assert_true(json_is_object(json_object_get(j, "welch")));
	assert_true(json_is_object(json_object_get(j, "mann_whitney")));
	assert_true(json_real_value(json_object_get(j, "ratio")) > 1.49);
	assert_true(json_is_string(json_object_get(j, "text")));
	json_decref(j);
}

/*
 * Decided exactly when Welch's p is below the decision level: at a level equal to the
 * p of the data, not decided; just above it, decided (and the direction follows).
 */
static void
test_bench_verdict_decided_only_below_the_level(void **state)
{
	const double a[] = { 100, 104, 97, 101, 99 }, b[] = { 103, 106, 100, 104, 102 };
	struct bench_verdict v;
	double p;

	(void)state;
	assert_int_equal(bench_verdict_compute("A", a, 5, "B", b, 5, 0.95, 0.05, &v, NULL), 0);
	p = v.p_welch;
	assert_true(p > 0.01 && p < 0.5);
	assert_int_equal(bench_verdict_compute("A", a, 5, "B", b, 5, 0.95, p, &v, NULL), 0);
	assert_false(v.decided);
	assert_int_equal(v.direction, 0);
	assert_int_equal(bench_verdict_compute("A", a, 5, "B", b, 5, 0.95, p * 1.001, &v, NULL), 0);
	assert_true(v.decided);
	assert_int_equal(v.direction, 1);
}

/* A rate's ratio is not negative: a wide interval's lower end is cut at 0, not below. */
static void
test_bench_verdict_ratio_interval_cut_at_zero(void **state)
{
	const double a[] = { 100, 101, 99, 100, 100 }, b[] = { 1, 200, 1, 150, 2 };
	struct bench_verdict v;

	(void)state;
	verdict(a, b, &v);
	assert_true(v.ratio > 0.7 && v.ratio < 0.72);
	assert_true(v.ratio_lo == 0);
	assert_true(v.ratio_hi > v.ratio);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_verdict_text_says_how_much_more),
		cmocka_unit_test(test_bench_verdict_decided_only_below_the_level),
		cmocka_unit_test(test_bench_verdict_ratio_interval_cut_at_zero),
		cmocka_unit_test(test_bench_verdict_text_says_fewer_when_worse),
		cmocka_unit_test(test_bench_verdict_zero_baseline_says_absolute_change),
		cmocka_unit_test(test_bench_verdict_no_difference_when_overlapping),
		cmocka_unit_test(test_bench_verdict_uses_the_corrected_level),
		cmocka_unit_test(test_bench_verdict_text_for_latency_says_lower),
		cmocka_unit_test(test_bench_verdict_refuses_single_runs),
		cmocka_unit_test(test_bench_verdict_json_has_both_tests_and_the_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
