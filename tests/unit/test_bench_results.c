#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench/label.h"
#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "lab/rfc2544.h"
#include "report/report.h"
#include "util/util.h"

static void
test_bench_label_from_path_is_a_unique_file_name(void **state)
{
	char used[3][BENCH_LABEL_MAX], out[BENCH_LABEL_MAX];

	(void)state;
	bench_label_from_path("/etc/ntune/rps on.conf", out, sizeof out, used, 0);
	assert_string_equal(out, "rps_on");
	strcpy(used[0], "rps_on");
	bench_label_from_path("other/rps on.conf", out, sizeof out, used, 1);
	assert_string_equal(out, "rps_on-2");
	bench_label_from_path(".hidden", out, sizeof out, used, 0);
	assert_string_equal(out, "profile");
	assert_true(bench_label_valid("a-b_c.1"));
	assert_false(bench_label_valid("../x"));
	assert_false(bench_label_valid(".x"));
}

/* What the writer writes, the report's reader reads back. */
static void
test_bench_results_round_trip_through_the_report_reader(void **state)
{
	char dir[] = "/tmp/ntune-unit-results.XXXXXX", *cause = NULL;
	char *argv[] = { "bench", "a", "b", "--load", "gen --flows 2", "it's" };
	double ps[2] = { 10, 12 }, busy[2] = { 50, 25 };
	struct bench_run r;
	struct report_data d;
	char *values;
	size_t len;
	char path[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(bench_results_create(dir, "bench", 6, argv, &cause), 0);
	assert_int_equal(bench_results_create(dir, "bench", 6, argv, &cause), -1);
	assert_non_null(strstr(cause, "holds results already"));
	free(cause);
	cause = NULL;
	assert_int_equal(bench_results_profile(dir, "a", "x=1\n", &cause), 0);
	memset(&r, 0, sizeof r);
	r.run = 1;
	r.block = 1;
	r.ok = true;
	strcpy(r.label, "a");
	r.pps = 11;
	r.per_second = ps;
	r.nsec = 2;
	r.cpu_busy = busy;
	r.ncpu = 2;
	assert_int_equal(bench_results_add_run(dir, &r, &cause), 0);
	r.run = 2;
	r.pps = 13;
	assert_int_equal(bench_results_add_run(dir, &r, &cause), 0);
	r.run = 3;
	r.warmup = true;	/* a warm-up is kept in runs.jsonl but not in values/ */
	r.pps = 99;
	assert_int_equal(bench_results_add_run(dir, &r, &cause), 0);
	assert_int_equal(bench_results_finish(dir, false, "interrupted", "signal 2", &cause), 0);
	snprintf(path, sizeof path, "%s/values/a.txt", dir);
	assert_int_equal(util_read_file(path, &values, &len, &cause), 0);
	assert_string_equal(values, "11\n13\n");
	free(values);
	assert_int_equal(report_load(dir, &d, &cause), 0);
	assert_int_equal(d.nruns, 3);
	assert_true(d.runs[0].pps == 11 && d.runs[1].pps == 13 && d.runs[2].warmup);
	assert_int_equal(d.runs[1].run, 2);
	assert_int_equal(d.runs[0].ncpu, 2);
	assert_false(d.meta.complete);
	assert_string_equal(d.meta.kind, "bench");
	assert_string_equal(d.meta.stopped, "interrupted");
	assert_string_equal(d.meta.note, "signal 2");
	assert_int_equal(strlen(d.meta.finished), 20);
	assert_string_equal(d.meta.command, "ntune bench a b --load 'gen --flows 2' 'it'\\''s'");
	assert_int_equal(d.nprofiles, 1);
	assert_string_equal(d.profiles[0].text, "x=1\n");
	report_data_free(&d);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* runs.jsonl keeps each real whole and short: 87.8 and 1/3 with all its digits. */
static void
test_bench_results_runs_keep_reals_whole_and_short(void **state)
{
	char dir[] = "/tmp/ntune-unit-results.XXXXXX", *cause = NULL;
	char *argv[] = { "bench", "a" };
	double ps[2] = { 87.8, 1.0 / 3.0 }, busy[1] = { 43.9 };
	struct bench_run r;
	char path[300], *text;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(bench_results_create(dir, "bench", 2, argv, &cause), 0);
	memset(&r, 0, sizeof r);
	r.run = 1;
	r.block = 1;
	r.ok = true;
	strcpy(r.label, "a");
	r.pps = 87.8;
	r.per_second = ps;
	r.nsec = 2;
	r.cpu_busy = busy;
	r.ncpu = 1;
	assert_int_equal(bench_results_add_run(dir, &r, &cause), 0);
	snprintf(path, sizeof path, "%s/runs.jsonl", dir);
	assert_int_equal(util_read_file(path, &text, &len, &cause), 0);
	assert_non_null(strstr(text, "[87.8,0.3333333333333333]"));
	assert_non_null(strstr(text, "43.9"));
	assert_null(strstr(text, "87.79999"));
	free(text);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/*
 * --metric efficiency: 300000 pps for which the DUT spent 1.5 CPU-seconds a
 * second is 200000 per DUT CPU-second, whatever every CPU's busy time was.
 */
static void
test_bench_run_efficiency_is_packets_per_dut_cpu_second(void **state)
{
	double busy[2] = { 100, 100 };
	struct bench_run r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.pps = 300000;
	r.cpu_busy = busy;
	r.ncpu = 2;
	assert_float_equal(bench_run_efficiency(&r), -1, 0);	/* not measured */
	r.dut_cpu_from = BENCH_DUT_CPU_LAB;
	r.dut_cpu = 1.5;
	assert_float_equal(bench_run_efficiency(&r), 200000, 1e-6);
	assert_float_equal(bench_run_all_cpu(&r), 2.0, 1e-12);
	r.dut_cpu = 0;
	assert_float_equal(bench_run_efficiency(&r), -1, 0);
}

/* The run's value follows the metric; an efficiency without the DUT's CPU time fails the run. */
static void
test_bench_run_value_follows_the_metric(void **state)
{
	double busy[2] = { 25, 25 };
	struct bench_ctx c;
	struct bench_run r;

	(void)state;
	memset(&c, 0, sizeof c);
	memset(&r, 0, sizeof r);
	r.ok = true;
	r.pps = 1000;
	r.bps = 8e6;
	r.lat_p99 = 42;
	r.cpu_busy = busy;
	r.ncpu = 2;
	r.dut_cpu_from = BENCH_DUT_CPU_LAB;
	r.dut_cpu = 0.25;
	assert_float_equal(bench_run_value(&c, &r), 1000, 0);
	c.efficiency = true;
	assert_float_equal(bench_run_value(&c, &r), 4000, 1e-9);
	c.bits = true;
	assert_float_equal(bench_run_value(&c, &r), 8e6, 0);
	c.bits = false;
	c.latency = true;
	assert_float_equal(bench_run_value(&c, &r), 42, 0);
	c.latency = false;
	r.dut_cpu = 0;
	assert_float_equal(bench_run_value(&c, &r), 0, 0);
	assert_false(r.ok);
	assert_non_null(strstr(r.error, "no DUT CPU time measured: 0 CPU-seconds (softirq and the "
	    "NAPI threads of dut0 and dut1)"));
	r.ok = true;
	r.dut_cpu_from = NULL;
	snprintf(r.dut_cpu_why, sizeof r.dut_cpu_why, "cannot list the DUT's NAPI threads: x");
	assert_float_equal(bench_run_value(&c, &r), 0, 0);
	assert_false(r.ok);
	assert_non_null(strstr(r.error, "no DUT CPU time measured (cannot list the DUT's NAPI threads: x)"));
}

/* runs.jsonl carries the DUT's CPU time and its parts, and every CPU's as all_cpu. */
static void
test_bench_run_json_keeps_dut_cpu_and_all_cpu(void **state)
{
	double busy[2] = { 100, 50 };
	struct bench_run r;
	json_t *o;

	(void)state;
	memset(&r, 0, sizeof r);
	r.cpu_busy = busy;
	r.ncpu = 2;
	o = bench_run_json(&r);
	assert_true(json_is_null(json_object_get(o, "dut_cpu")));
	assert_float_equal(json_number_value(json_object_get(o, "all_cpu")), 1.5, 1e-12);
	json_decref(o);
	r.dut_cpu_from = BENCH_DUT_CPU_LAB;
	r.dut_cpu = 0.9;
	r.dut_softirq = 0.4;
	r.dut_napi = 0.5;
	r.dut_napi_threads = 1;
	o = bench_run_json(&r);
	assert_float_equal(json_number_value(json_object_get(o, "dut_cpu")), 0.9, 1e-12);
	assert_float_equal(json_number_value(json_object_get(o, "dut_cpu_softirq")), 0.4, 1e-12);
	assert_float_equal(json_number_value(json_object_get(o, "dut_cpu_napi")), 0.5, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(o, "dut_napi_threads")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "dut_cpu_from")), "softirq+napi");
	json_decref(o);
}

/* A trial of lab rfc2544 is written through the run rows the report reads its line with. */
static void
test_rfc2544_trial_lines_read_back_through_the_run_table(void **state)
{
	char dir[] = "/tmp/ntune-unit-trials.XXXXXX", path[300], *cause = NULL;
	double ps[2] = { 812000.5, 1.0 / 3.0 };
	struct rfc2544_config c = { 0 };
	struct rfc2544_result r = { 0 };
	struct rfc2544_trial t[2] = { { 0 } };
	struct report_data d;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < 2; i++) {
		t[i] = (struct rfc2544_trial){ .size = 64, .phase = "search", .rate = 50,
		    .sent = 1000, .received = 900 + 100 * i, .offered_pps = 500,
		    .received_pps = 450 + 50 * (double)i, .duration_s = 2, .per_second = ps,
		    .nper_second = 2 - i, .lat = { -1, -1, -1, -1, -1, -1 } };
		strcpy(t[i].started, "2026-12-05T19:00:00Z");
	}
	t[1].lat[1] = 10;	/* avg: a latency was measured */
	t[1].lat[5] = 12.5;
	r.trials = t;
	r.ntrials = 2;
	assert_int_equal(rfc2544_write_dir(dir, &c, &r, "ntune lab rfc2544", "2026-12-05T19:00:00Z",
	    "done", &cause), 0);
	if (report_load(dir, &d, &cause) == -1)
		fail_msg("%s", cause);
	assert_string_equal(d.meta.kind, "rfc2544");
	assert_int_equal(d.nruns, 2);
	assert_string_equal(d.runs[0].label, "64B");
	assert_true(d.runs[0].pps == 450 && d.runs[0].bps == 450 * 64 * 8);
	assert_true(d.runs[0].drops == 100 && d.runs[1].drops == 0);
	assert_int_equal(d.runs[0].nsec, 2);
	assert_true(d.runs[0].per_second[0] == 812000.5 && d.runs[0].duration_s == 2);
	assert_string_equal(d.runs[1].started, "2026-12-05T19:00:00Z");
	assert_int_equal(d.runs[1].run, 1);
	assert_true(d.runs[1].ok && !d.runs[1].warmup);
	assert_true(d.runs[1].lat_p99 == 12.5);
	report_data_free(&d);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_label_from_path_is_a_unique_file_name),
		cmocka_unit_test(test_bench_results_round_trip_through_the_report_reader),
		cmocka_unit_test(test_rfc2544_trial_lines_read_back_through_the_run_table),
		cmocka_unit_test(test_bench_results_runs_keep_reals_whole_and_short),
		cmocka_unit_test(test_bench_run_efficiency_is_packets_per_dut_cpu_second),
		cmocka_unit_test(test_bench_run_json_keeps_dut_cpu_and_all_cpu),
		cmocka_unit_test(test_bench_run_value_follows_the_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
