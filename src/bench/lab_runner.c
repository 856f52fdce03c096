/*
 * The namespace lab as a bench_runner: a profile applied in the lab's DUT
 * namespace by the one apply engine run here (agentless_local; not persisted,
 * journal in c->state_dir), restored from its journal entry, a run measured by
 * bench_lab_measure, an RFC 2544 trial by bench_lab_rfc2544_trial.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/dut_apply.h"
#include "bench/lab_bench.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "kb/kb.h"
#include "remote/remote.h"
#include "util/util.h"

static int
lab_apply(void *arg, const struct bench_profile *p, char *journal, size_t len, char **cause)
{
	struct bench_ctx *c = arg;
	struct remote_host h;
	struct agentless_opts o;
	struct agentless_result res;
	char *why = NULL;
	int rc = 0;

	journal[0] = '\0';
	if (p->prof == NULL || p->prof->nentries == 0)
		return 0;
	memset(&res, 0, sizeof res);
	if (agentless_local(&o, &h, NULL, c->state_dir, c->lab->dut_ns, &why) == 0)
		o.persist = false;
	/* A failed apply has restored what it wrote (or set nothing). */
	if (o.dut == NULL || agentless_apply(c->kb, p->prof, &o, &res, &why) == -1) {
		util_cause(cause, "cannot apply '%s': %s", p->label, why);
		free(why);
		rc = -1;
	} else
		snprintf(journal, len, "%s", res.id);
	agentless_result_free(&res);
	return rc;
}

static int
lab_restore(void *arg, const char *journal, char **cause)
{
	struct bench_ctx *c = arg;
	struct remote_host h;
	struct agentless_opts o;
	char *said = NULL, *why = NULL;

	if (agentless_local(&o, &h, NULL, c->state_dir, c->lab->dut_ns, &why) == -1 ||
	    agentless_revert(&o, journal, &said, &why) == -1) {
		util_cause(cause, "cannot restore the settings of journal entry %s: %s "
		    "(run `ntune revert %s`)", journal, why, journal);
		free(why);
		return -1;
	}
	free(said);
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
