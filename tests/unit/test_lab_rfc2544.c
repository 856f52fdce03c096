#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "bench/runner.h"
#include "lab/rfc2544.h"
#include "lab/traffic_cli.h"

/*
 * A runner whose trial is a DUT that forwards at most FAKE_CAP pps without
 * loss and offers FAKE_MAX pps at full speed, recording every call; apply,
 * measure and the rest stay NULL: rfc2544_run must need only the trial.
 */
#define FAKE_MAX	1000000.0
#define FAKE_CAP	600000.0
#define FAKE_CALLS	32

struct fake {
	int	ncalls;
	int	size[FAKE_CALLS];
	double	rate[FAKE_CALLS];
	char	phase[FAKE_CALLS][16];
	const struct rfc2544_config *config[FAKE_CALLS];
	int	fail_at;	/* 1-based call that fails, 0: none */
};

static int
fake_trial(void *arg, const struct rfc2544_config *c, int size, double rate, const char *phase,
    struct rfc2544_trial *t, char **cause)
{
	struct fake *f = arg;
	double offered = rate > 0 ? rate : FAKE_MAX;
	double received = offered < FAKE_CAP ? offered : FAKE_CAP;
	json_t *gen, *sink;
	int i = f->ncalls++;

	if (i < FAKE_CALLS) {
		f->size[i] = size;
		f->rate[i] = rate;
		snprintf(f->phase[i], sizeof f->phase[i], "%s", phase);
		f->config[i] = c;
	}
	if (f->fail_at == i + 1) {
		*cause = strdup("the generator host went away");
		return -1;
	}
	rfc2544_trial_init(t, size, rate, phase);
	gen = json_pack("{s:I, s:f, s:f}", TRAFFIC_KEY_PACKETS, (json_int_t)(offered * c->duration),
	    TRAFFIC_KEY_PPS, offered, TRAFFIC_KEY_DURATION, c->duration);
	sink = json_pack("{s:I, s:f}", TRAFFIC_KEY_PACKETS, (json_int_t)(received * c->duration),
	    TRAFFIC_KEY_PPS, received);
	rfc2544_trial_fill(c, t, gen, sink);
	json_decref(gen);
	json_decref(sink);
	return 0;
}

static void
config(struct rfc2544_config *c, struct bench_runner *run, struct fake *f)
{
	memset(f, 0, sizeof *f);
	memset(run, 0, sizeof *run);
	run->arg = f;
	run->trial = fake_trial;
	rfc2544_config_init(c);
	c->sizes[0] = 64;
	c->nsizes = 1;
	c->loads[0] = 100;
	c->loads[1] = 50;
	c->loads[2] = 25;
	c->nloads = 3;
	c->steps = 3;
	c->trials = 1;
	c->duration = 1;
	c->runner = run;
}

static void
test_rfc2544_run_measures_every_trial_through_the_runner(void **state)
{
	static const char *const phase[] = { "max", "search", "search", "search", "latency", "loss",
	    "loss", "loss" };
	static const double rate[] = { 0, 500000, 750000, 625000, 500000, 0, 500000, 250000 };
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct bench_runner run;
	struct fake f;
	char *cause = NULL;
	int i;

	(void)state;
	config(&c, &run, &f);
	assert_int_equal(rfc2544_run(&c, &r, &cause), 0);
	/* Full speed, a binary search of three steps, the latency trial, loss until two clean loads. */
	assert_int_equal(f.ncalls, 8);
	assert_int_equal(r.ntrials, 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(f.size[i], 64);
		assert_string_equal(f.phase[i], phase[i]);
		assert_true(f.rate[i] == rate[i]);
		assert_ptr_equal(f.config[i], &c);
		assert_string_equal(r.trials[i].phase, phase[i]);
	}
	/* What the runner's trials said is the result. */
	assert_true(r.complete);
	assert_int_equal(r.nsizes, 1);
	assert_true(r.sizes[0].max_pps == FAKE_MAX);
	assert_true(r.sizes[0].throughput_pps == 500000);
	assert_true(r.sizes[0].loss_pct[0] > 39.99 && r.sizes[0].loss_pct[0] < 40.01);
	assert_true(r.sizes[0].loss_pct[1] == 0 && r.sizes[0].loss_pct[2] == 0);
	rfc2544_result_free(&r);
}

static void
test_rfc2544_run_stops_at_the_runners_failed_trial(void **state)
{
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct bench_runner run;
	struct fake f;
	char *cause = NULL;

	(void)state;
	config(&c, &run, &f);
	f.fail_at = 3;
	assert_int_equal(rfc2544_run(&c, &r, &cause), -1);
	assert_string_equal(cause, "the generator host went away");
	assert_int_equal(f.ncalls, 3);
	assert_int_equal(r.ntrials, 2);
	assert_false(r.complete);
	free(cause);
	rfc2544_result_free(&r);
}

static void
test_rfc2544_run_without_a_runner_is_an_error(void **state)
{
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct bench_runner run;
	struct fake f;
	char *cause = NULL;

	(void)state;
	config(&c, &run, &f);
	c.runner = NULL;
	assert_int_equal(rfc2544_run(&c, &r, &cause), -1);
	assert_non_null(strstr(cause, "no runner"));
	free(cause);
	cause = NULL;
	c.runner = &run;
	run.trial = NULL;
	assert_int_equal(rfc2544_run(&c, &r, &cause), -1);
	assert_int_equal(f.ncalls, 0);
	free(cause);
	rfc2544_result_free(&r);
}

static void
test_rfc2544_run_interrupted_asks_the_runner_for_nothing(void **state)
{
	static volatile sig_atomic_t stop = SIGINT;
	struct rfc2544_config c;
	struct rfc2544_result r;
	struct bench_runner run;
	struct fake f;
	char *cause = NULL;

	(void)state;
	config(&c, &run, &f);
	c.stop = &stop;
	assert_int_equal(rfc2544_run(&c, &r, &cause), -1);
	assert_string_equal(cause, "interrupted");
	assert_int_equal(f.ncalls, 0);
	free(cause);
	rfc2544_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc2544_run_measures_every_trial_through_the_runner),
		cmocka_unit_test(test_rfc2544_run_stops_at_the_runners_failed_trial),
		cmocka_unit_test(test_rfc2544_run_without_a_runner_is_an_error),
		cmocka_unit_test(test_rfc2544_run_interrupted_asks_the_runner_for_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
