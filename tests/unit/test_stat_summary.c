/* Sorting, selection and summaries with ministat's conventions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stat/stat.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double *
random_values(size_t n, unsigned seed, int ties)
{
	double *v = malloc(n * sizeof *v);
	size_t i;

	srand(seed);
	for (i = 0; i < n; i++)
		v[i] = ties ? (double)(rand() % 17) - 8 : ((double)rand() / RAND_MAX - 0.3) * 1e6;
	return v;
}

static void
test_stat_sort_orders_like_qsort(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 1000, 100000 };
	double *a, *b;
	size_t i, k;
	int ties;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (ties = 0; ties < 2; ties++) {
			a = random_values(sizes[i] + 1, (unsigned)(i * 2 + ties), ties);
			b = malloc((sizes[i] + 1) * sizeof *b);
			memcpy(b, a, (sizes[i] + 1) * sizeof *b);
			stat_sort(a, sizes[i]);
			qsort(b, sizes[i], sizeof *b, cmp_double);
			for (k = 0; k < sizes[i]; k++)
				assert_true(a[k] == b[k]);
			free(a);
			free(b);
		}
	}
}

/* glibc's qsort is a stable merge sort, so ministat keeps -0 and 0 in input order. */
static void
test_stat_sort_keeps_signed_zeros_in_input_order(void **state)
{
	double in[200], v[200], inz[200], outz[200];
	size_t i, ni = 0, no = 0;

	(void)state;
	for (i = 0; i < 200; i++)
		in[i] = v[i] = i % 3 == 0 ? ((i / 3) % 2 ? -0.0 : 0.0) : (double)(i % 7) - 3;
	stat_sort(v, 200);
	for (i = 0; i < 200; i++) {
		if (in[i] == 0)
			inz[ni++] = in[i];
		if (v[i] == 0)
			outz[no++] = v[i];
	}
	assert_int_equal(ni, no);
	/* The k-th zero of the output is the k-th zero of the input. */
	for (i = 0; i < ni; i++)
		assert_int_equal(signbit(inz[i]) != 0, signbit(outz[i]) != 0);
}

static void
test_stat_select_finds_the_kth_value(void **state)
{
	static const size_t sizes[] = { 1, 5, 17, 1000, 70000, 300000 };
	double *a, *b, got;
	size_t i, k;
	int ties;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (ties = 0; ties < 2; ties++) {
			a = random_values(sizes[i], (unsigned)(100 + i * 2 + ties), ties);
			b = malloc(sizes[i] * sizeof *b);
			memcpy(b, a, sizes[i] * sizeof *b);
			qsort(b, sizes[i], sizeof *b, cmp_double);
			for (k = 0; k < sizes[i]; k += sizes[i] / 7 + 1) {
				got = stat_select(a, sizes[i], k);
				assert_true(got == b[k]);
			}
			k = sizes[i] / 2;
			assert_true(stat_select(a, sizes[i], k) == b[k]);
			free(a);
			free(b);
		}
	}
}

static void
test_stat_select_on_sorted_and_constant_input(void **state)
{
	double v[100000];
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		v[i] = (double)i;
	assert_true(stat_select(v, 100000, 50000) == 50000);
	for (i = 0; i < 100000; i++)
		v[i] = (double)(100000 - i);
	assert_true(stat_select(v, 100000, 0) == 1);
	for (i = 0; i < 100000; i++)
		v[i] = 4.5;
	assert_true(stat_select(v, 100000, 77777) == 4.5);
}

static void
test_stat_summarize_gives_ministat_figures(void **state)
{
	double v[] = { 750, 50, 200, 150, 400, 400, 150 };
	struct stat_summary s;

	(void)state;
	assert_int_equal(stat_summarize(v, 7, &s), 0);
	assert_int_equal(s.n, 7);
	assert_true(s.min == 50 && s.max == 750);
	assert_true(s.median == 200);
	assert_true(s.mean == 300);
	assert_true(fabs(s.stddev - 238.04761) < 1e-5);
	assert_true(s.has_order);
	assert_true(v[0] == 50 && v[6] == 750);
}

static void
test_stat_summarize_takes_the_upper_median_of_even_sizes(void **state)
{
	double v[] = { 4, 1, 3, 2 };
	struct stat_summary s;

	(void)state;
	assert_int_equal(stat_summarize(v, 4, &s), 0);
	assert_true(s.median == 3);
}

static void
test_stat_summarize_rejects_empty_and_nonfinite(void **state)
{
	double v[] = { 1, NAN, 3 }, w[] = { 1, INFINITY, 3 };
	struct stat_summary s;

	(void)state;
	assert_int_equal(stat_summarize(v, 0, &s), -1);
	assert_int_equal(stat_summarize(v, 3, &s), -1);
	assert_int_equal(stat_summarize(w, 3, &s), -1);
}

static void
test_stat_summary_given_has_no_order(void **state)
{
	struct stat_summary s;

	(void)state;
	stat_summary_given(&s, 5, 1704710.4, 48677.407);
	assert_false(s.has_order);
	assert_true(isnan(s.median));
	assert_true(s.var == 48677.407 * 48677.407);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_sort_orders_like_qsort),
		cmocka_unit_test(test_stat_sort_keeps_signed_zeros_in_input_order),
		cmocka_unit_test(test_stat_select_finds_the_kth_value),
		cmocka_unit_test(test_stat_select_on_sorted_and_constant_input),
		cmocka_unit_test(test_stat_summarize_gives_ministat_figures),
		cmocka_unit_test(test_stat_summarize_takes_the_upper_median_of_even_sizes),
		cmocka_unit_test(test_stat_summarize_rejects_empty_and_nonfinite),
		cmocka_unit_test(test_stat_summary_given_has_no_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
