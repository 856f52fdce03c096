#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/cand.h"
#include "bench/lab_bench.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "bench/sequential.h"
#include "bench/tune.h"
#include "bench/verdict.h"
#include "diag/diag.h"
#include "kb/kb.h"
#include "stat/stat.h"
#include "testutil.h"
#include "util/util.h"

/* A DUT as the fake getter sees it: name=value pairs; anything else is unreadable. */
static const char *const *dut;

static int
fake_get(void *arg, const char *name, char **value, char **why)
{
	size_t n = strlen(name), i;

	(void)arg;
	for (i = 0; dut[i] != NULL; i++) {
		if (strncmp(dut[i], name, n) == 0 && dut[i][n] == '=') {
			*value = xstrdup(dut[i] + n + 1);
			return 0;
		}
	}
	*why = xstrdup("no such setting");
	return -1;
}

/* The tuner's candidates for a DUT with the given values, and its notes on what it left out. */
struct cands {
	struct bench_candidate	*c;
	size_t			 n;
	char			**notes;
	size_t			 nnotes;
};

static struct cands
candidates(const char *const *values)
{
	struct bench_gens gens;
	struct cands cs;
	char *cause = NULL;

	dut = values;
	memset(&cs, 0, sizeof cs);
	if (bench_gens_load(NULL, &gens, &cause) == -1)
		fail_msg("bench_gens_load: %s", cause);
	bench_tune_candidates_from(testutil_kb, &gens, fake_get, NULL, 2, false, &cs.c, &cs.n,
	    &cs.notes, &cs.nnotes);
	bench_gens_free(&gens);
	return cs;
}

static void
candidates_free(struct cands *cs)
{
	while (cs->nnotes > 0)
		free(cs->notes[--cs->nnotes]);
	free(cs->notes);
	free(cs->c);
}

static const struct bench_candidate *
find(const struct cands *cs, const char *label)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (strcmp(cs->c[i].label, label) == 0)
			return &cs->c[i];
	return NULL;
}

static bool
noted(const struct cands *cs, const char *what)
{
	size_t i;

	for (i = 0; i < cs->nnotes; i++)
		if (strstr(cs->notes[i], what) != NULL)
			return true;
	return false;
}

/*
 * GRO, its fraglist mode and the NAPI thread pinned to a CPU come as one step,
 * one per CPU from the highest, tried first; the unpinned bundle after them.
 */
static void
test_bench_tune_bundles_come_whole_pinned_and_first(void **state)
{
	static const char *const values[] = {
		"if.dut0.offload.gro=off", "if.dut0.offload.rx-udp-gro-forwarding=off",
		"if.dut0.offload.rx-gro-list=off", "if.dut0.napi_threaded=0", "if.dut0.rps_cpus=0",
		"if.dut0.napi_thread_cpus=0-1", NULL,
	};
	const struct bench_candidate *b;
	struct cands cs;

	(void)state;
	cs = candidates(values);
	assert_true(cs.n > 8);
	assert_string_equal(cs.c[0].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(cs.c[0].n, 4);
	assert_string_equal(cs.c[0].set[0].current, "off");
	assert_string_equal(cs.c[0].set[2].current, "0");
	assert_string_equal(cs.c[0].set[3].current, "0-1");
	assert_string_equal(cs.c[0].was,
	    "if.dut0.offload.gro=off, if.dut0.offload.rx-gro-list=off, "
	    "if.dut0.napi_threaded=0, if.dut0.napi_thread_cpus=0-1");
	assert_string_equal(cs.c[1].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=0");
	assert_string_equal(cs.c[2].label, "if.dut0.offload.gro=on + "
	    "if.dut0.offload.rx-udp-gro-forwarding=on + if.dut0.napi_threaded=1 + "
	    "if.dut0.napi_thread_cpus=1");
	assert_string_equal(cs.c[4].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1");
	assert_string_equal(cs.c[5].label, "if.dut0.rps_cpus=2");
	assert_string_equal(cs.c[5].was, "0");
	assert_non_null(b = find(&cs, "if.dut0.offload.gro=on + if.dut0.napi_threaded=1"));
	assert_non_null(find(&cs, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"));
	assert_non_null(find(&cs, "if.dut0.napi_threaded=1"));
	/* Every value of RPS, but one try of each knob before the second value of any. */
	assert_non_null(find(&cs, "if.dut0.rps_cpus=3"));
	assert_true(find(&cs, "if.dut0.rps_cpus=1") > b);
	/* Host-global knobs are left out with a note, unreadable ones too. */
	assert_true(noted(&cs, "net.core.netdev_budget is host-global"));
	assert_true(noted(&cs, "if.dut1.xps_cpus is not available in the DUT"));
	/* Every knob of share/tune/linux.cand is in the knowledge base. */
	assert_false(noted(&cs, "is not in the knowledge base"));
	candidates_free(&cs);
}

/* The parts of a bundle that are in force already drop out; a bundle fully in force goes. */
static void
test_bench_tune_bundle_drops_what_is_in_force(void **state)
{
	static const char *const gro_on[] = {
		"if.dut0.offload.gro=on", "if.dut0.offload.rx-udp-gro-forwarding=off",
		"if.dut0.offload.rx-gro-list=on", "if.dut0.napi_threaded=0",
		"if.dut0.napi_thread_cpus=0-1", NULL,
	};
	struct cands cs;

	(void)state;
	cs = candidates(gro_on);
	/* Only the thread and its pin are left of the first bundle. */
	assert_string_equal(cs.c[0].label, "if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(cs.c[0].n, 2);
	assert_string_equal(cs.c[2].label, "if.dut0.offload.rx-udp-gro-forwarding=on + "
	    "if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(cs.c[2].n, 3);
	/* The unpinned bundle is then the single knob. */
	assert_non_null(find(&cs, "if.dut0.napi_threaded=1"));
	assert_true(noted(&cs, "fraglist GRO on dut0 left out: already in force"));
	assert_non_null(find(&cs, "if.dut0.offload.rx-udp-gro-forwarding=on"));
	assert_non_null(find(&cs, "if.dut0.offload.gro=off"));
	candidates_free(&cs);
}

/* A known trap (strict rp_filter) is the first candidate where it is set, and nowhere else. */
static void
test_bench_tune_trap_only_where_set(void **state)
{
	static const char *const strict[] = { "net.ipv4.conf.dut0.rp_filter=1", NULL };
	static const char *const off[] = { "net.ipv4.conf.dut0.rp_filter=0", NULL };
	struct cands cs;

	(void)state;
	cs = candidates(strict);
	assert_true(cs.n >= 1);
	assert_string_equal(cs.c[0].label, "net.ipv4.conf.dut0.rp_filter=2");
	assert_string_equal(cs.c[0].was, "1");
	candidates_free(&cs);
	cs = candidates(off);
	assert_null(find(&cs, "net.ipv4.conf.dut0.rp_filter=2"));
	assert_true(noted(&cs, "rp_filter left out: it is '0', not the trap '1'"));
	candidates_free(&cs);
}

static struct bench_candidate
cand(const char *a, const char *av, const char *b, const char *bv)
{
	struct bench_candidate c;

	memset(&c, 0, sizeof c);
	snprintf(c.set[0].name, sizeof c.set[0].name, "%s", a);
	snprintf(c.set[0].value, sizeof c.set[0].value, "%s", av);
	c.n = 1;
	if (b != NULL) {
		snprintf(c.set[1].name, sizeof c.set[1].name, "%s", b);
		snprintf(c.set[1].value, sizeof c.set[1].value, "%s", bv);
		c.n = 2;
	}
	snprintf(c.label, sizeof c.label, "%s=%s%s%s%s%s", a, av, b ? " + " : "", b ? b : "",
	    b ? "=" : "", b ? bv : "");
	return c;
}

/*
 * The best profile: kept steps in order, a knob given again keeps its place
 * when the value is the same and moves last with a new value; rejected steps
 * are not in it, the candidate goes on top.
 */
static void
test_bench_tune_profile_orders_and_overrides(void **state)
{
	struct bench_tune_step steps[4];
	struct bench_tune t;
	struct bench_candidate extra;
	char *p;

	(void)state;
	memset(&t, 0, sizeof t);
	memset(steps, 0, sizeof steps);
	steps[0].c = cand("if.dut0.offload.gro", "on", "if.dut0.offload.rx-udp-gro-forwarding", "on");
	steps[0].kept = true;
	steps[1].c = cand("if.dut0.rps_cpus", "2", NULL, NULL);
	steps[2].c = cand("if.dut0.offload.gro", "on", "if.dut0.napi_threaded", "1");
	steps[2].kept = true;
	steps[3].c = cand("if.dut0.offload.rx-udp-gro-forwarding", "off", NULL, NULL);
	steps[3].kept = true;
	t.steps = steps;
	t.nsteps = 4;
	t.nkept = 3;
	p = bench_tune_profile(&t, NULL);
	assert_string_equal(p, "if.dut0.offload.gro=on\nif.dut0.napi_threaded=1\n"
	    "if.dut0.offload.rx-udp-gro-forwarding=off\n");
	free(p);
	extra = cand("if.dut0.rps_cpus", "1", "if.dut0.offload.gro", "off");
	p = bench_tune_profile(&t, &extra);
	assert_string_equal(p, "if.dut0.napi_threaded=1\nif.dut0.offload.rx-udp-gro-forwarding=off\n"
	    "if.dut0.rps_cpus=1\nif.dut0.offload.gro=off\n");
	free(p);
	t.nsteps = 0;
	p = bench_tune_profile(&t, NULL);
	assert_string_equal(p, "");
	free(p);
	/* best.conf is that profile with the reasons; it parses as a profile. */
	t.nsteps = 4;
	p = bench_tune_best_conf(&t, "lab1");
	assert_non_null(strstr(p, "# step 1: if.dut0.offload.gro=on + if.dut0.offload.rx-udp-gro-forwarding=on"));
	assert_null(strstr(p, "# step 2"));
	assert_non_null(strstr(p, "\nif.dut0.offload.gro=on\nif.dut0.napi_threaded=1\n"));
	free(p);
}

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

/*
 * The drop check (bench A: the best profile, B: the best without a kept step): the step
 * stays only when the profile without it is decided worse, and worse depends on the goal:
 * fewer packets for a rate, a higher p99 for --goal latency.
 */
static void
test_bench_tune_drop_check_keeps_a_step_only_when_without_it_is_worse(void **state)
{
	const double less[] = { 80, 82, 78, 81, 79 }, more[] = { 120, 122, 118, 121, 119 };
	const double same[] = { 101, 99, 100, 102, 98 };
	struct bench_verdict v;

	(void)state;
	/* pps: without the step it forwards fewer packets: still needed */
	verdict(&v, less, 0.01);
	assert_true(bench_tune_still_needed(BENCH_DECIDED, &v));
	assert_false(bench_tune_still_needed(BENCH_MAX_RUNS, &v));
	verdict(&v, more, 0.01);
	assert_false(bench_tune_still_needed(BENCH_DECIDED, &v));
	verdict(&v, same, 0.01);
	assert_false(bench_tune_still_needed(BENCH_DECIDED, &v));
	/* latency: without the step the p99 is higher: still needed; lower: dropped */
	verdict(&v, more, 0.01);
	strcpy(v.unit, "latency");
	assert_true(bench_tune_still_needed(BENCH_DECIDED, &v));
	assert_false(bench_tune_still_needed(BENCH_MAX_RUNS, &v));
	verdict(&v, less, 0.01);
	strcpy(v.unit, "latency");
	assert_false(bench_tune_still_needed(BENCH_DECIDED, &v));
	verdict(&v, same, 0.01);
	strcpy(v.unit, "latency");
	assert_false(bench_tune_still_needed(BENCH_DECIDED, &v));
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

/* A diagnosis with findings naming these knobs (NULL ends a finding's list, "" ends all). */
static struct diag_result *
diagnosis(const char *const *knobs)
{
	struct diag_result *d = NULL;
	json_t *o, *fs, *ks = NULL;
	char *cause = NULL, kind[32];
	size_t i, nf = 0;

	fs = json_array();
	for (i = 0; knobs[i] == NULL || knobs[i][0] != '\0'; i++) {
		if (ks == NULL) {
			ks = json_array();
			snprintf(kind, sizeof kind, "finding-%zu", ++nf);
			json_array_append_new(fs, json_pack("{s:s, s:s, s:s, s:s, s:o}", "kind", kind,
			    "entity", "dut0", "certainty", "certain", "summary", "seen", "knobs", ks));
		}
		if (knobs[i] == NULL)
			ks = NULL;
		else
			json_array_append_new(ks, json_pack("{s:s}", "name", knobs[i]));
	}
	o = json_pack("{s:s, s:i, s:o}", "schema", DIAG_SCHEMA, "version", DIAG_VERSION,
	    "findings", fs);
	if (diag_from_json(o, &d, &cause) == -1)
		fail_msg("diag_from_json: %s", cause);
	json_decref(o);
	return d;
}

static size_t
position(const struct bench_candidate *c, size_t n, const char *label)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(c[i].label, label) == 0)
			return i;
	fail_msg("no candidate '%s'", label);
	return n;
}

static const char *const plain_dut[] = {
	"if.dut0.offload.gro=off", "if.dut0.offload.rx-udp-gro-forwarding=off",
	"if.dut0.offload.rx-gro-list=off", "if.dut0.napi_threaded=0", "if.dut0.rps_cpus=0",
	"if.dut0.napi_thread_cpus=0-1", "if.dut1.qdisc=tbf", "if.dut1.rps_cpus=0", NULL,
};

/*
 * The knobs the baseline's diagnosis names come first, in finding order, one try
 * of each knob before its other values; the rest keep the list's order and say so.
 */
static void
test_bench_tune_order_puts_diagnosed_knobs_first(void **state)
{
	static const char *const knobs[] = {
		"if.dut1.qdisc", NULL, "if.dut0.rps_cpus", "if.dut0.rps_flow_cnt", NULL, "",
	};
	struct diag_result *d = diagnosis(knobs);
	struct bench_candidate *listed;
	struct cands cs;
	size_t i, k;

	(void)state;
	cs = candidates(plain_dut);
	listed = xreallocarray(NULL, cs.n, sizeof *listed);
	memcpy(listed, cs.c, cs.n * sizeof *cs.c);
	bench_tune_order(cs.c, cs.n, d);
	/* The first qdisc in the list, then the first RPS mask, then the list. */
	assert_string_equal(cs.c[0].set[0].name, "if.dut1.qdisc");
	assert_string_equal(cs.c[0].label, listed[position(listed, cs.n, cs.c[0].label)].label);
	assert_int_equal(cs.c[0].finding, 0);
	assert_string_equal(cs.c[0].order, "the diagnosis found finding-1 on dut0 (certain) "
	    "and names if.dut1.qdisc");
	assert_string_equal(cs.c[1].label, "if.dut0.rps_cpus=2");
	assert_int_equal(cs.c[1].finding, 1);
	assert_non_null(strstr(cs.c[1].order,
	    "finding-2 on dut0 (certain) and names if.dut0.rps_cpus"));
	/* The other qdiscs and masks stay where the list had them. */
	assert_int_equal(cs.c[2].finding, -1);
	assert_string_equal(cs.c[2].label, listed[0].label);
	assert_non_null(strstr(cs.c[2].order, "no finding of the diagnosis names its knobs"));
	assert_true(position(cs.c, cs.n, "if.dut0.rps_cpus=1") >
	    position(cs.c, cs.n, listed[0].label));
	assert_non_null(strstr(cs.c[position(cs.c, cs.n, "if.dut0.rps_cpus=1")].order,
	    "another value of a knob the diagnosis names"));
	/* Nothing lost or doubled; the unnamed keep their relative order. */
	for (i = 0, k = 2; i < cs.n; i++) {
		position(cs.c, cs.n, listed[i].label);
		if (strcmp(listed[i].label, cs.c[0].label) == 0 ||
		    strcmp(listed[i].label, cs.c[1].label) == 0)
			continue;
		assert_string_equal(cs.c[k++].label, listed[i].label);
	}
	candidates_free(&cs);
	/* A known trap found set goes before what the diagnosis names (the setting is the evidence). */
	{
		static const char *const trapped[] = {
			"net.ipv4.conf.dut0.rp_filter=1", "if.dut0.rps_cpus=0", "if.dut1.qdisc=tbf", NULL,
		};

		cs = candidates(trapped);
		bench_tune_order(cs.c, cs.n, d);
		assert_string_equal(cs.c[0].label, "net.ipv4.conf.dut0.rp_filter=2");
		assert_true(cs.c[0].trap);
		assert_non_null(strstr(cs.c[0].order, "a known trap is set in the DUT (line "));
		assert_string_equal(cs.c[1].set[0].name, "if.dut1.qdisc");
		assert_string_equal(cs.c[2].label, "if.dut0.rps_cpus=2");
		candidates_free(&cs);
	}
	cs = candidates(plain_dut);
	/* No diagnosis: the list's order, said so with the line. */
	memcpy(cs.c, listed, cs.n * sizeof *cs.c);
	bench_tune_order(cs.c, cs.n, NULL);
	assert_string_equal(cs.c[0].label, listed[0].label);
	assert_non_null(strstr(cs.c[0].order, "the candidate list's order (line "));
	assert_true(cs.c[0].line > 0);
	diag_result_free(d);
	free(listed);
	candidates_free(&cs);
}

/* More spread, or a smaller effect, needs more runs; never beyond the cap, never below min. */
static void
test_bench_tune_plan_runs_follows_the_spread(void **state)
{
	struct bench_seq seq = { .min_runs = 3, .max_runs = 6, .confidence = 0.95, .ncomparisons = 1 };
	int quiet, noisy, small;

	(void)state;
	quiet = bench_tune_plan_runs(&seq, 0.02, 0.20, 30);
	noisy = bench_tune_plan_runs(&seq, 0.10, 0.20, 30);
	small = bench_tune_plan_runs(&seq, 0.10, 0.10, 30);
	assert_int_equal(quiet, 3);
	assert_true(noisy > quiet && noisy < 30);
	assert_true(small > noisy);
	assert_int_equal(bench_tune_plan_runs(&seq, 0.50, 0.05, 12), 12);
	/* Unknown spread: the cap. */
	assert_int_equal(bench_tune_plan_runs(&seq, 0, 0.20, 9), 9);
	/* The plan holds at its own corrected level: 2 ((t + z) cv / effect)^2 <= n. */
	seq.max_runs = noisy;
	{
		double a = bench_seq_alpha(&seq), t = stat_t_quantile(1 - a / 2, 2.0 * noisy - 2);
		double z = stat_normal_quantile(0.8), need = 2 * ((t + z) * 0.5) * ((t + z) * 0.5);

		assert_true(need <= noisy);
		seq.max_runs = noisy - 1;
		a = bench_seq_alpha(&seq);
		t = stat_t_quantile(1 - a / 2, 2.0 * (noisy - 1) - 2);
		need = 2 * ((t + z) * 0.5) * ((t + z) * 0.5);
		assert_true(need > noisy - 1);
	}
}

static void
step(struct bench_tune *t, const char *name, const char *value, bool tried, bool kept,
    enum bench_stop stop, double pct)
{
	struct bench_change ch;
	struct bench_tune_step *s;

	t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
	s = &t->steps[t->nsteps++];
	memset(s, 0, sizeof *s);
	memset(&ch, 0, sizeof ch);
	snprintf(ch.name, sizeof ch.name, "%s", name);
	snprintf(ch.value, sizeof ch.value, "%s", value);
	snprintf(ch.current, sizeof ch.current, "0");
	s->c.set[0] = ch;
	s->c.n = 1;
	snprintf(s->c.label, sizeof s->c.label, "%s=%s", name, value);
	snprintf(s->c.why, sizeof s->c.why, "why %s", name);
	s->tried = tried;
	s->kept = kept;
	s->stop = stop;
	s->pct = pct;
	s->pct_hw = 9;
	s->runs = tried ? 6 : 0;
	if (kept)
		t->nkept++;
}

/*
 * Pairs come from the singles tried and not kept that pointed the right way,
 * best first, at most top of them; never one proven worse, kept, or two values
 * of one knob.
 */
static void
test_bench_tune_pairs_of_the_best_undecided_singles(void **state)
{
	struct bench_tune t;
	struct bench_candidate *p = NULL;
	size_t n = 0;

	(void)state;
	memset(&t, 0, sizeof t);
	step(&t, "a", "1", true, false, BENCH_MAX_RUNS, 4);	/* 1: undecided +4% */
	step(&t, "b", "1", true, false, BENCH_DECIDED, -10);	/* 2: proven worse */
	step(&t, "c", "1", true, true, BENCH_DECIDED, 30);	/* 3: kept */
	step(&t, "d", "1", true, false, BENCH_MAX_RUNS, 9);	/* 4: undecided +9% */
	step(&t, "e", "1", true, false, BENCH_MAX_RUNS, -3);	/* 5: pointing down */
	step(&t, "a", "2", true, false, BENCH_MAX_RUNS, 6);	/* 6: another value of a */
	step(&t, "f", "1", true, false, BENCH_MAX_RUNS, 1);	/* 7: the fourth best */
	assert_int_equal(bench_tune_pairs(&t, 3, &p, &n), 2);
	assert_string_equal(p[0].label, "d=1 + a=2");
	assert_string_equal(p[1].label, "d=1 + a=1");
	assert_int_equal(p[0].n, 2);
	assert_string_equal(p[0].was, "d=0, a=0");
	assert_string_equal(p[0].order, "a pair of the best singles not kept: step 4 (+9.0% ± 9.0% "
	    "alone) and step 6 (+6.0% ± 9.0% alone)");
	assert_non_null(strstr(p[0].why, "together: why d; why a"));
	free(p);
	/* For latency lower is better: only the steps that lowered it pair. */
	p = NULL;
	n = 0;
	t.latency = true;
	assert_int_equal(bench_tune_pairs(&t, 3, &p, &n), 0);
	step(&t, "g", "1", true, false, BENCH_MAX_RUNS, -8);
	assert_int_equal(bench_tune_pairs(&t, 3, &p, &n), 1);
	assert_string_equal(p[0].label, "g=1 + e=1");
	free(p);
	p = NULL;
	n = 0;
	assert_int_equal(bench_tune_pairs(&t, 0, &p, &n), 0);
	bench_tune_free(&t);
	/* A single that is part of a bundle adds nothing to it: no pair. */
	memset(&t, 0, sizeof t);
	step(&t, "d", "1", true, false, BENCH_MAX_RUNS, 5);
	t.steps[0].c.set[1] = t.steps[0].c.set[0];
	snprintf(t.steps[0].c.set[1].name, sizeof t.steps[0].c.set[1].name, "h");
	t.steps[0].c.n = 2;
	snprintf(t.steps[0].c.label, sizeof t.steps[0].c.label, "d=1 + h=1");
	step(&t, "d", "1", true, false, BENCH_MAX_RUNS, 4);
	assert_int_equal(bench_tune_pairs(&t, 3, &p, &n), 0);
	step(&t, "k", "1", true, false, BENCH_MAX_RUNS, 3);
	assert_int_equal(bench_tune_pairs(&t, 3, &p, &n), 2);
	assert_string_equal(p[0].label, "d=1 + h=1 + k=1");
	assert_string_equal(p[1].label, "d=1 + k=1");
	free(p);
	bench_tune_free(&t);
}

/*
 * A DUT the fake runner measures: its rate follows the profile applied. RPS to
 * CPU 1 gains 65% alone; the GRO + fraglist bundle with its NAPI thread on CPU
 * 1 gains 180% with or without it (RPS then adds nothing); each run is off by
 * up to 1% (a fixed pseudo-random sequence).
 */
static char fake_applied[4096];
static int fake_runs;

static int
fake_apply(void *arg, const struct bench_profile *p, char *journal, size_t len, char **cause)
{
	(void)arg;
	(void)cause;
	snprintf(fake_applied, sizeof fake_applied, "%s", p->text);
	snprintf(journal, len, "%s", p->text[0] != '\0' ? "fake" : "");
	return 0;
}

static int
fake_restore(void *arg, const char *journal, char **cause)
{
	(void)arg;
	(void)journal;
	(void)cause;
	fake_applied[0] = '\0';
	return 0;
}

static int
fake_measure(void *arg, double duration, struct bench_run *r, char **cause)
{
	double pps = 100000;

	(void)arg;
	(void)duration;
	(void)cause;
	if (strstr(fake_applied, "if.dut0.offload.rx-gro-list=on") != NULL &&
	    strstr(fake_applied, "if.dut0.napi_thread_cpus=1\n") != NULL)
		pps *= 2.8;
	else if (strstr(fake_applied, "if.dut0.rps_cpus=2\n") != NULL)
		pps *= 1.65;
	r->pps = pps * (0.99 + 0.02 * (double)((unsigned)fake_runs++ * 2654435761u % 1000) / 1000);
	r->ok = true;
	return 0;
}

static double
fake_idle(void *arg, double secs)
{
	(void)arg;
	(void)secs;
	return 0;
}

/*
 * A change kept early that a later one makes useless is dropped: the diagnosis
 * puts RPS first (kept, +65%), the bundle is kept after it (+70% more), and the
 * drop check finds the best profile without RPS no worse, so best.conf holds the
 * bundle alone, the same set as a tune that tried the bundle first. The bundle
 * itself is still needed.
 */
static void
test_bench_tune_drops_a_kept_change_a_later_one_made_useless(void **state)
{
	static const char *const rps[] = { "if.dut0.rps_cpus", NULL, "" };
	struct bench_runner run = { .apply = fake_apply, .restore = fake_restore,
	    .measure = fake_measure, .idle_busy = fake_idle };
	struct bench_lab lab;
	struct bench_gens gens;
	struct bench_ctx c;
	struct bench_tune t;
	const struct bench_tune_step *first = NULL, *bundle = NULL, *check = NULL;
	char *cause = NULL, *best;
	size_t i;

	(void)state;
	memset(&lab, 0, sizeof lab);
	memset(&c, 0, sizeof c);
	memset(&t, 0, sizeof t);
	c.lab = &lab;
	c.runner = &run;
	c.kb = testutil_kb;
	c.seq.min_runs = 3;
	c.seq.max_runs = 10;
	c.seq.confidence = 0.95;
	c.seed = 1;
	dut = plain_dut;
	if (bench_gens_load(NULL, &gens, &cause) == -1)
		fail_msg("bench_gens_load: %s", cause);
	t.gens = &gens;
	t.get = fake_get;
	t.ncpu = 2;
	t.budget_s = 3600;
	t.min_effect = 0.2;
	t.diag = diagnosis(rps);
	t.final_apart = true;
	if (bench_tune_run(&c, &t, &cause) == -1)
		fail_msg("bench_tune_run: %s", cause);
	for (i = 0; i < t.nsteps; i++) {
		const struct bench_tune_step *s = &t.steps[i];

		if (i == 0)
			first = s;
		if (s->drop_of == 0 && bundle == NULL && strcmp(s->c.label, "if.dut0.offload.gro=on + "
		    "if.dut0.offload.rx-gro-list=on + if.dut0.napi_threaded=1 + "
		    "if.dut0.napi_thread_cpus=1") == 0)
			bundle = s;
		if (s->drop_of == 1 && check == NULL)
			check = s;
	}
	assert_non_null(first);
	assert_string_equal(first->c.label, "if.dut0.rps_cpus=2");
	assert_true(first->tried);
	assert_false(first->kept);
	assert_non_null(bundle);
	assert_true(bundle->kept);
	assert_non_null(check);
	assert_true(check->removed);
	assert_int_equal(first->dropped_at, (size_t)(check - t.steps) + 1);
	assert_non_null(strstr(first->note, "not decided worse"));
	best = bench_tune_profile(&t, NULL);
	assert_string_equal(best, "if.dut0.offload.gro=on\nif.dut0.offload.rx-gro-list=on\n"
	    "if.dut0.napi_threaded=1\nif.dut0.napi_thread_cpus=1\n");
	assert_int_equal(t.nkept, 1);
	free(best);
	bench_tune_free(&t);
	bench_gens_free(&gens);
}

/* The knobs a candidate file reads, bundles' parts too, once each; dut0 renamed as a word only. */
static void
test_bench_gens_knobs_and_rename(void **state)
{
	static const char text[] = "name: if.dut0.rps_cpus\nkind: masks\nwhy: a\n\n"
	    "name: b\nkind: bundle\narg: if.dut0.offload.gro=on  net.ipv4.conf.dut0.rp_filter=2 "
	    "if.dut0.rps_cpus=1\nwhy: b\n\n"
	    "name: if.dut00.qdisc\nkind: set\narg: dut0\nwhy: c\n";
	struct bench_gens g;
	char **names, *cause = NULL;
	size_t n, i;

	(void)state;
	assert_int_equal(bench_gens_parse("k.cand", text, strlen(text), &g, &cause), 0);
	bench_gens_rename(&g, "dut0", "ix0");
	n = bench_gens_knobs(&g, &names);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "if.ix0.rps_cpus");
	assert_string_equal(names[1], "if.ix0.offload.gro");
	assert_string_equal(names[2], "net.ipv4.conf.ix0.rp_filter");
	/* Not a whole word: left alone; a value that is the word: renamed. */
	assert_string_equal(names[3], "if.dut00.qdisc");
	assert_string_equal(g.v[2].arg, "ix0");
	assert_string_equal(g.v[1].arg, "if.ix0.offload.gro=on  net.ipv4.conf.ix0.rp_filter=2 "
	    "if.ix0.rps_cpus=1");
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	bench_gens_free(&g);
}

/* A FreeBSD ix DUT as share/tune/freebsd.cand sees it (the file's dut0 is ix0, dev.dut0 dev.ix.0). */
static const char *const fbsd_ix[] = {
	"net.isr.maxthreads=1", "net.isr.bindthreads=0", "net.isr.dispatch=direct",
	"machdep.hyperthreading_intr_allowed=0", "dev.ix.0.iflib.rx_budget=0", "dev.ix.0.fc=3",
	"kern.random.harvest.mask=511", "net.inet.ip.intr_queue_maxlen=256",
	"if.ix0.offload.lro=on", "if.ix1.offload.tso=on", "net.isr.defaultqlimit=256", NULL,
};

static struct cands
fbsd_candidates(bool boot)
{
	struct bench_gens gens;
	struct cands cs;
	char *path = bench_gens_default("opnsense"), *cause = NULL;

	dut = fbsd_ix;
	memset(&cs, 0, sizeof cs);
	assert_non_null(strstr(path, "/tune/freebsd.cand"));
	if (bench_gens_load(path, &gens, &cause) == -1)
		fail_msg("bench_gens_load: %s", cause);
	free(path);
	gens.os = "freebsd";
	gens.boot = boot;
	bench_gens_rename(&gens, "dev.dut0", "dev.ix.0");
	bench_gens_rename(&gens, "dut0", "ix0");
	bench_gens_rename(&gens, "dut1", "ix1");
	bench_tune_candidates_from(testutil_kb, &gens, fake_get, NULL, 4, true, &cs.c, &cs.n,
	    &cs.notes, &cs.nnotes);
	bench_gens_free(&gens);
	return cs;
}

/*
 * FreeBSD's candidates are FreeBSD knobs of the knowledge base; the boot-time ones
 * (netisr threads, hyper-thread interrupts) only when the runner can reboot.
 */
static void
test_bench_tune_freebsd_candidates_boot_only_with_reboots(void **state)
{
	struct cands cs;

	(void)state;
	cs = fbsd_candidates(false);
	assert_false(noted(&cs, "is not in the knowledge base"));
	assert_true(noted(&cs, "net.isr.maxthreads takes effect at boot only"));
	assert_null(find(&cs, "machdep.hyperthreading_intr_allowed=1"));
	assert_non_null(find(&cs, "net.isr.dispatch=deferred"));
	assert_non_null(find(&cs, "dev.ix.0.iflib.rx_budget=65535"));
	assert_non_null(find(&cs, "dev.ix.0.fc=0"));
	assert_non_null(find(&cs, "kern.random.harvest.mask=351"));
	assert_non_null(find(&cs, "if.ix0.offload.lro=off"));
	candidates_free(&cs);
	cs = fbsd_candidates(true);
	assert_false(noted(&cs, "takes effect at boot only"));
	assert_string_equal(cs.c[0].label, "net.isr.maxthreads=-1 + net.isr.bindthreads=1");
	assert_non_null(find(&cs, "machdep.hyperthreading_intr_allowed=1"));
	assert_non_null(find(&cs, "net.isr.defaultqlimit=2048"));
	candidates_free(&cs);
}

/* A bad candidate file is refused with its file, line and what is wrong. */
static void
test_bench_gens_parse_names_file_and_line(void **state)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "name: a\nkind: set\nwhy: w\n", "c.cand:1: a: kind set needs arg" },
		{ "\nname: a\nkind: sometimes\narg: 1\nwhy: w\n", "c.cand:2: unknown kind 'sometimes'" },
		{ "name: a\nkind: fix\narg: 1\nwhy: w\n", "needs arg: FROM:TO" },
		{ "name: a\nkind: bundle\narg: x y\nwhy: w\n", "needs arg: name=value words" },
		{ "name: a\nkind: times\narg: 2 x\nwhy: w\n", "factors are whole numbers" },
		{ "name: a\nkind: flip\n", "c.cand:1: a candidate needs name, kind and why" },
		{ "name: a\nname: b\n", "c.cand:2: key 'name' given twice" },
		{ "name: a\ncolour: red\n", "c.cand:2: unknown key 'colour'" },
		{ "# nothing\n", "c.cand: no candidate" },
	};
	static const char good[] = "name: x\nkind: flip\nwhy: a\n  b\n\n"
	    "name: y\nkind: fix\narg: 1:2\nwhy: c\n";
	struct bench_gens g;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		assert_int_equal(bench_gens_parse("c.cand", bad[i].text, strlen(bad[i].text), &g,
		    &cause), -1);
		assert_non_null(cause);
		if (strstr(cause, bad[i].msg) == NULL)
			fail_msg("'%s': got '%s'", bad[i].text, cause);
		free(cause);
	}
	cause = NULL;
	assert_int_equal(bench_gens_parse("c.cand", good, strlen(good), &g, &cause), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.v[0].why, "a b");
	assert_int_equal(g.v[1].kind, BENCH_GEN_FIX);
	assert_int_equal(g.v[1].line, 6);
	bench_gens_free(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_tune_bundles_come_whole_pinned_and_first),
		cmocka_unit_test(test_bench_tune_bundle_drops_what_is_in_force),
		cmocka_unit_test(test_bench_tune_trap_only_where_set),
		cmocka_unit_test(test_bench_gens_parse_names_file_and_line),
		cmocka_unit_test(test_bench_tune_profile_orders_and_overrides),
		cmocka_unit_test(test_bench_tune_keep_only_a_decided_gain),
		cmocka_unit_test(test_bench_tune_drop_check_keeps_a_step_only_when_without_it_is_worse),
		cmocka_unit_test(test_bench_tune_keep_lower_latency_only),
		cmocka_unit_test(test_bench_tune_summary_reports_no_gain_without_kept_changes),
		cmocka_unit_test(test_bench_tune_order_puts_diagnosed_knobs_first),
		cmocka_unit_test(test_bench_gens_knobs_and_rename),
		cmocka_unit_test(test_bench_tune_freebsd_candidates_boot_only_with_reboots),
		cmocka_unit_test(test_bench_tune_plan_runs_follows_the_spread),
		cmocka_unit_test(test_bench_tune_pairs_of_the_best_undecided_singles),
		cmocka_unit_test(test_bench_tune_drops_a_kept_change_a_later_one_made_useless),
	};

	return cmocka_run_group_tests(tests, testutil_kb_setup, testutil_kb_teardown);
}
