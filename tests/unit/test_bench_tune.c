#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/bench.h"

static void
verdict(struct bench_verdict *v, const double *b, double alpha)
{
	static const double a[] = { 100, 102, 98, 101, 99 };

	assert_int_equal(bench_verdict_compute("best", a, 5, "try", b, 5, 0.95, alpha, v, NULL), 0);
}

static void
test_bench_tune_keep_only_a_decided_gain(void **state)
{
	const double better[] = { 120, 122, 118, 121, 119 }, worse[] = { 80, 82, 78, 81, 79 };
	const double same[] = { 101, 99, 100, 102, 98 };
	struct bench_verdict v;

	(void)state;
	verdict(&v, better, 0.01);
	assert_true(bench_tune_keep(BENCH_DECIDED, &v));
	/* The same data, but the bench hit max-runs with something undecided: not kept. */
	assert_false(bench_tune_keep(BENCH_MAX_RUNS, &v));
	/* A proven loss is never kept. */
	verdict(&v, worse, 0.01);
	assert_true(v.decided);
	assert_false(bench_tune_keep(BENCH_DECIDED, &v));
	/* No difference proven: not kept. */
	verdict(&v, same, 0.01);
	assert_false(bench_tune_keep(BENCH_MAX_RUNS, &v));
	assert_false(bench_tune_keep(BENCH_DECIDED, &v));
}

/* For latency lower is better: a proven rise is never kept. */
static void
test_bench_tune_keep_lower_latency_only(void **state)
{
	const double lower[] = { 80, 82, 78, 81, 79 }, higher[] = { 120, 122, 118, 121, 119 };
	struct bench_verdict v;

	(void)state;
	verdict(&v, lower, 0.01);
	strcpy(v.unit, "latency");
	assert_true(bench_tune_keep(BENCH_DECIDED, &v));
	verdict(&v, higher, 0.01);
	strcpy(v.unit, "latency");
	assert_false(bench_tune_keep(BENCH_DECIDED, &v));
}

static void
test_bench_tune_summary_reports_no_gain_without_kept_changes(void **state)
{
	struct bench_tune t;
	json_t *j;

	(void)state;
	memset(&t, 0, sizeof t);
	t.stopped = "done";
	j = bench_tune_summary(&t);
	assert_true(json_real_value(json_object_get(j, "gain_pct")) == 0);
	assert_false(json_is_true(json_object_get(j, "gain_proven")));
	assert_int_equal(json_array_size(json_object_get(j, "steps")), 0);
	assert_string_equal(json_string_value(json_object_get(j, "stopped")), "done");
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_tune_keep_only_a_decided_gain),
		cmocka_unit_test(test_bench_tune_keep_lower_latency_only),
		cmocka_unit_test(test_bench_tune_summary_reports_no_gain_without_kept_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
