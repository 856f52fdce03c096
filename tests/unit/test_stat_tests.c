/* Two-sample tests: ministat's Student t, Welch's t, Mann-Whitney U; their JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "stat/stat.h"

static void
assert_g(const char *fmt, double v, const char *want)
{
	char buf[64];

	snprintf(buf, sizeof buf, fmt, v);
	if (strcmp(buf, want) != 0)
		fail_msg("%s printed %s, want %s", fmt, buf, want);
}

/* The seed 001 page: three published summaries, N = 5 each. */
static void
test_stat_compare_student_reproduces_the_seed_page(void **state)
{
	struct stat_summary a, b, c;
	struct stat_cmp r;

	(void)state;
	stat_summary_given(&a, 5, 1704710.4, 48677.407);
	stat_summary_given(&b, 5, 1681153.8, 17459.489);
	stat_summary_given(&c, 5, 1963257, 44988.621);
	assert_int_equal(stat_compare_student(&a, &b, 95, &r), 0);
	assert_false(r.significant);
	assert_int_equal(stat_compare_student(&a, &c, 95, &r), 0);
	assert_true(r.significant);
	assert_string_equal(r.test, "student");
	assert_g("%g", r.diff, "258547");
	assert_g("%g", r.diff_hw, "68356.2");
	assert_g("%g", r.pct, "15.1666");
	assert_g("%g", r.pct_hw, "4.00984");
	assert_g("%g", r.s, "46869.3");
	assert_true(r.df == 8);
	assert_true(r.crit == 2.306);
	assert_true(r.p > 0 && r.p < 0.001);
}

static void
test_stat_compare_student_any_confidence_uses_exact_quantiles(void **state)
{
	struct stat_summary a, b;
	struct stat_cmp r95, r96;

	(void)state;
	stat_summary_given(&a, 5, 100, 10);
	stat_summary_given(&b, 5, 115, 10);
	assert_int_equal(stat_compare_student(&a, &b, 95, &r95), 0);
	assert_int_equal(stat_compare_student(&a, &b, 96, &r96), 0);
	assert_true(r95.crit == 2.306);
	assert_true(fabs(r96.crit - stat_t_quantile(0.98, 8)) < 1e-12);
	assert_true(r96.diff_hw > r95.diff_hw);
	/* t = 15 / (10 sqrt(2/5)) = 2.3717, just past 2.306: p a bit under 0.05. */
	assert_true(r95.significant);
	assert_true(r95.p < 0.05 && r95.p > 0.04);
	assert_int_equal(stat_compare_student(&a, &b, 100, &r95), -1);
	assert_int_equal(stat_compare_student(&a, &b, 0, &r95), -1);
}

static void
test_stat_compare_welch_uses_welch_satterthwaite_df(void **state)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
	struct stat_summary a, b;
	struct stat_cmp r;

	(void)state;
	stat_summarize(x, 5, &a);
	stat_summarize(y, 5, &b);
	assert_int_equal(stat_compare_welch(&a, &b, 95, &r), 0);
	assert_string_equal(r.test, "welch");
	assert_true(fabs(r.df - 6.25 / 1.0625) < 1e-12);
	assert_true(fabs(r.statistic - 3 / sqrt(2.5)) < 1e-12);
	assert_true(fabs(r.p - 0.10753119493072048) < 1e-9);
	assert_true(fabs(r.crit - stat_t_quantile(0.975, r.df)) < 1e-12);
	assert_false(r.significant);
	assert_true(r.diff == 3);
}

static void
test_stat_compare_welch_equals_student_for_equal_sizes_and_variances(void **state)
{
	struct stat_summary a, b;
	struct stat_cmp w, s;

	(void)state;
	stat_summary_given(&a, 10, 50, 4);
	stat_summary_given(&b, 10, 55, 4);
	stat_compare_welch(&a, &b, 95, &w);
	stat_compare_student(&a, &b, 95, &s);
	assert_true(fabs(w.df - 18) < 1e-9);
	assert_true(fabs(w.statistic - s.statistic) < 1e-12);
	assert_true(fabs(w.p - s.p) < 1e-12);
}

static void
test_stat_compare_mannwhitney_exact_for_small_samples(void **state)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 1.5, 2.5, 3.5 };
	struct stat_cmp r;

	(void)state;
	assert_int_equal(stat_compare_mannwhitney(a, 3, b, 3, 95, &r), 0);
	assert_string_equal(r.test, "mann-whitney");
	assert_true(r.exact);
	assert_true(r.statistic == 9);
	/* All 3 of b above all of a: one arrangement of C(6,3) = 20 each side. */
	assert_true(fabs(r.p - 0.1) < 1e-15);
	assert_false(r.significant);
	/* Differences 1 2 2 3 3 3 4 4 5: the shift is their median. */
	assert_true(r.diff == 3);
	/* 95%: P(U = 0) = 0.05 > 0.025, no interval; 80%: P(U <= 1) = 0.1 gives C = 2. */
	assert_true(isnan(r.ci_lo) && isnan(r.ci_hi));
	assert_int_equal(stat_compare_mannwhitney(a, 3, b, 3, 80, &r), 0);
	assert_true(r.ci_lo == 2 && r.ci_hi == 4);
	assert_int_equal(stat_compare_mannwhitney(a, 3, c, 3, 95, &r), 0);
	assert_true(r.statistic == 6);
	/* U over 0..9 counts 1 1 2 3 3 3 3 2 1 1: P(U >= 6) = 7/20, two-sided 0.7. */
	assert_true(fabs(r.p - 0.7) < 1e-15);
}

static void
test_stat_compare_mannwhitney_normal_with_tie_correction(void **state)
{
	double a[60], b[60];
	struct stat_cmp r;
	size_t i;

	(void)state;
	for (i = 0; i < 60; i++) {
		a[i] = (double)(i / 10);		/* 0..5, ties of 10 */
		b[i] = (double)(i / 10 + 1);		/* 1..6 */
	}
	assert_int_equal(stat_compare_mannwhitney(a, 60, b, 60, 95, &r), 0);
	assert_false(r.exact);
	/*
	 * U = 100 (1 + ... + 6) + 500 / 2 = 2350, mean 1800; ties 0 and 6 (10 each),
	 * 1..5 (20 each): sum t^3 - t = 41880; continuity correction 0.5.
	 */
	assert_true(r.statistic == 2350);
	assert_true(fabs(r.z - 549.5 / sqrt(300 * (121 - 41880.0 / (120 * 119)))) < 1e-12);
	assert_true(fabs(r.p - 2 * stat_normal_cdf(-r.z)) < 1e-15);
	assert_true(r.p < 0.005);
	assert_true(r.significant);
	/*
	 * Differences -4..6 come 100, 200, 300, 400, 500, 600, 500, ... times: the
	 * median is 1; C = floor(1800 - 1.96 sqrt(var) + 0.5) = 1431 falls in the
	 * zeros (ranks 1001-1500) and 3601 - C = 2170 in the twos (2101-2600).
	 */
	assert_true(r.diff == 1);
	assert_true(r.ci_lo == 0 && r.ci_hi == 2);
	assert_false(signbit(r.ci_lo));
	/* Identical samples: U is its mean, z = 0, p = 1. */
	assert_int_equal(stat_compare_mannwhitney(a, 60, a, 60, 95, &r), 0);
	assert_true(r.statistic == 1800);
	assert_true(r.p == 1);
	assert_false(r.significant);
}

/* The Hodges-Lehmann shift is the median of all pairwise differences (checked by brute force). */
static void
test_stat_compare_mannwhitney_shift_is_the_median_of_differences(void **state)
{
	double a[37], b[29], d[37 * 29], t;
	struct stat_summary sa, sb;
	struct stat_cmp r;
	size_t i, j, n = 0;

	(void)state;
	srand(5);
	for (i = 0; i < 37; i++)
		a[i] = rand() % 1000 / 10.0;
	for (j = 0; j < 29; j++)
		b[j] = rand() % 1000 / 10.0 + 7;
	for (i = 0; i < 37; i++)
		for (j = 0; j < 29; j++)
			d[n++] = b[j] - a[i];
	/* An insertion sort is enough for 1073 values. */
	for (i = 1; i < n; i++) {
		t = d[i];
		for (j = i; j > 0 && d[j - 1] > t; j--)
			d[j] = d[j - 1];
		d[j] = t;
	}
	stat_summarize(a, 37, &sa);
	stat_summarize(b, 29, &sb);
	assert_int_equal(stat_compare_mannwhitney(a, 37, b, 29, 90, &r), 0);
	assert_true(r.diff == d[n / 2]);
	assert_false(isnan(r.ci_lo));
	assert_true(r.ci_lo <= r.diff && r.diff <= r.ci_hi);
	/* Both ends are differences, symmetric in rank. */
	for (i = 0; i < n && d[i] != r.ci_lo; i++)
		;
	assert_true(i < n);
	for (j = n; j-- > 0 && d[j] != r.ci_hi;)
		;
	assert_true(j < n);
}

static void
test_stat_cmp_json_has_stable_keys(void **state)
{
	struct stat_summary a, b;
	struct stat_cmp r;
	json_t *o;

	(void)state;
	stat_summary_given(&a, 5, 1704710.4, 48677.407);
	stat_summary_given(&b, 5, 1963257, 44988.621);
	stat_compare_student(&a, &b, 95, &r);
	o = stat_cmp_json(&r);
	assert_string_equal(json_string_value(json_object_get(o, "test")), "student");
	assert_true(json_is_true(json_object_get(o, "significant")));
	assert_string_equal(json_string_value(json_object_get(o, "verdict")), "difference");
	assert_true(fabs(json_real_value(json_object_get(o, "difference")) - 258546.6) < 1e-6);
	assert_true(json_is_real(json_object_get(o, "p")));
	assert_true(json_is_null(json_object_get(o, "z")));
	json_decref(o);
	o = stat_summary_json("x", &a);
	assert_true(json_is_null(json_object_get(o, "median")));
	assert_int_equal(json_integer_value(json_object_get(o, "n")), 5);
	json_decref(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_compare_student_reproduces_the_seed_page),
		cmocka_unit_test(test_stat_compare_student_any_confidence_uses_exact_quantiles),
		cmocka_unit_test(test_stat_compare_welch_uses_welch_satterthwaite_df),
		cmocka_unit_test(test_stat_compare_welch_equals_student_for_equal_sizes_and_variances),
		cmocka_unit_test(test_stat_compare_mannwhitney_exact_for_small_samples),
		cmocka_unit_test(test_stat_compare_mannwhitney_normal_with_tie_correction),
		cmocka_unit_test(test_stat_compare_mannwhitney_shift_is_the_median_of_differences),
		cmocka_unit_test(test_stat_cmp_json_has_stable_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
