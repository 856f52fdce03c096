#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bench/bench_run.h"

/* Two CPUs, 100 ticks each over the run: CPU 0 30 of them in softirq, CPU 1 10. */
static const struct os_cpu_times cpu_a[2] = {
	{ .user = 1000, .system = 500, .softirq = 200, .idle = 8000 },
	{ .user = 900, .system = 400, .softirq = 100, .idle = 8100 },
};
static const struct os_cpu_times cpu_b[2] = {
	{ .user = 1040, .system = 510, .softirq = 230, .idle = 8020 },
	{ .user = 920, .system = 410, .softirq = 110, .idle = 8160 },
};

static void
snap(struct bench_napi_snap *s, double at)
{
	memset(s, 0, sizeof *s);
	s->ok = true;
	s->at = at;
}

static void
thread(struct bench_napi_snap *s, int pid, uint64_t start, uint64_t ticks)
{
	s->t[s->n].pid = pid;
	s->t[s->n].start = start;
	s->t[s->n].ticks = ticks;
	s->n++;
}

/* Not threaded: the DUT's CPU time is the softirq share of every CPU, 0.30 + 0.10. */
static void
test_bench_run_dut_cpu_without_napi_threads_is_the_softirq_share(void **state)
{
	struct bench_napi_snap s0, s1;
	struct bench_run r;

	(void)state;
	memset(&r, 0, sizeof r);
	snap(&s0, 10);
	snap(&s1, 11);
	bench_run_dut_cpu(&r, cpu_a, 2, cpu_b, 2, &s0, &s1, 100);
	assert_string_equal(r.dut_cpu_from, BENCH_DUT_CPU_LAB);
	assert_float_equal(r.dut_softirq, 0.40, 1e-9);
	assert_float_equal(r.dut_napi, 0, 0);
	assert_float_equal(r.dut_cpu, 0.40, 1e-9);
	assert_int_equal(r.dut_napi_threads, 0);
}

/* A NAPI thread that ran 150 of 100 Hz ticks over 2 s adds 0.75 CPU-s/s to the softirq part. */
static void
test_bench_run_dut_cpu_adds_the_napi_threads_time_over_the_run(void **state)
{
	struct bench_napi_snap s0, s1;
	struct bench_run r;

	(void)state;
	memset(&r, 0, sizeof r);
	snap(&s0, 10);
	snap(&s1, 12);
	thread(&s0, 4958, 777, 1000);
	thread(&s1, 4958, 777, 1150);
	bench_run_dut_cpu(&r, cpu_a, 2, cpu_b, 2, &s0, &s1, 100);
	assert_float_equal(r.dut_napi, 0.75, 1e-9);
	assert_float_equal(r.dut_cpu, 0.40 + 0.75, 1e-9);
	assert_int_equal(r.dut_napi_threads, 1);
	assert_int_equal(r.dut_napi_unmeasured, 0);
}

/*
 * A thread gone by the end counts nothing and is reported unmeasured; one that
 * appeared during the run counts all its time; a PID reused by a later thread
 * (another start time) is two threads, not a difference.
 */
static void
test_bench_run_dut_cpu_counts_threads_that_come_and_go_sanely(void **state)
{
	struct bench_napi_snap s0, s1;
	struct bench_run r;

	(void)state;
	memset(&r, 0, sizeof r);
	snap(&s0, 0);
	snap(&s1, 1);
	thread(&s0, 100, 5, 5000);	/* gone */
	thread(&s0, 200, 6, 7000);	/* its PID now belongs to a thread started later */
	thread(&s1, 200, 900, 20);
	thread(&s1, 300, 901, 30);	/* new */
	bench_run_dut_cpu(&r, cpu_a, 2, cpu_b, 2, &s0, &s1, 100);
	assert_float_equal(r.dut_napi, 0.50, 1e-9);
	assert_int_equal(r.dut_napi_threads, 2);
	assert_int_equal(r.dut_napi_unmeasured, 2);
}

/* Without CPU times or with threads that could not be listed, nothing is measured, and why. */
static void
test_bench_run_dut_cpu_unmeasured_says_why(void **state)
{
	struct bench_napi_snap s0, s1;
	struct bench_run r;

	(void)state;
	memset(&r, 0, sizeof r);
	snap(&s0, 0);
	snap(&s1, 1);
	bench_run_dut_cpu(&r, cpu_a, 0, cpu_b, 2, &s0, &s1, 100);
	assert_null(r.dut_cpu_from);
	assert_non_null(strstr(r.dut_cpu_why, "/proc/stat"));
	s1.ok = false;
	strcpy(s1.why, "this kernel has no netdev netlink family");
	bench_run_dut_cpu(&r, cpu_a, 2, cpu_b, 2, &s0, &s1, 100);
	assert_null(r.dut_cpu_from);
	assert_non_null(strstr(r.dut_cpu_why, "cannot list the DUT's NAPI threads: this kernel"));
	assert_float_equal(bench_run_efficiency(&r), -1, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_run_dut_cpu_without_napi_threads_is_the_softirq_share),
		cmocka_unit_test(test_bench_run_dut_cpu_adds_the_napi_threads_time_over_the_run),
		cmocka_unit_test(test_bench_run_dut_cpu_counts_threads_that_come_and_go_sanely),
		cmocka_unit_test(test_bench_run_dut_cpu_unmeasured_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
