/*
 * The namespace lab as a bench_runner: a profile applied in the lab's DUT
 * namespace with the local apply (not persisted, journal in c->state_dir),
 * restored from its journal entry, a run measured by bench_lab_measure, an
 * RFC 2544 trial by bench_lab_rfc2544_trial.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "bench/lab_bench.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "kb/kb.h"
#include "util/util.h"

static int
lab_apply(void *arg, const struct bench_profile *p, char *journal, size_t len, char **cause)
{
	struct bench_ctx *c = arg;
	struct apply_opts o;
	struct apply_result res;
	char *why = NULL;

	journal[0] = '\0';
	if (p->prof == NULL || p->prof->nentries == 0)
		return 0;
	memset(&o, 0, sizeof o);
	o.state_dir = c->state_dir;
	o.netns = c->lab->dut_ns;
	o.persist = false;
	memset(&res, 0, sizeof res);
	if (apply_profile(c->kb, p->prof, &o, &res, &why) == -1) {
		/* A failed apply has restored what it wrote; its partial result is ours to free. */
		apply_result_free(&res);
		util_cause(cause, "cannot apply '%s': %s", p->label, why);
		free(why);
		return -1;
	}
	snprintf(journal, len, "%s", res.id);
	apply_result_free(&res);
	return 0;
}

static int
lab_restore(void *arg, const char *journal, char **cause)
{
	struct bench_ctx *c = arg;
	char done[APPLY_ID_MAX], *why = NULL;

	if (apply_revert(c->state_dir, journal, done, sizeof done, &why) == -1) {
		util_cause(cause, "cannot restore the settings of journal entry %s: %s "
		    "(run `ntune revert %s`)", journal, why, journal);
		free(why);
		return -1;
	}
	return 0;
}

static int
lab_measure(void *arg, double duration, struct bench_run *r, char **cause)
{
	struct bench_ctx *c = arg;

	return bench_lab_measure(c->lab, duration, r, cause);
}

static double
lab_idle_busy(void *arg, double secs)
{
	struct bench_ctx *c = arg;

	return bench_lab_idle_busy(c->lab, secs);
}

void
bench_lab_runner(struct bench_ctx *c)
{
	memset(&c->lab_runner, 0, sizeof c->lab_runner);
	c->lab_runner.arg = c;
	c->lab_runner.in_lab = true;
	c->lab_runner.apply = lab_apply;
	c->lab_runner.restore = lab_restore;
	c->lab_runner.measure = lab_measure;
	c->lab_runner.idle_busy = lab_idle_busy;
	c->lab_runner.trial = bench_lab_rfc2544_trial;
	c->runner = &c->lab_runner;
}
