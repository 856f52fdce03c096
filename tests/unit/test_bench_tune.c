#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/bench.h"
#include "kb/kb.h"
#include "util/util.h"
#include "share_kb.h"

static struct kb *kb;

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

static void
candidates(const char *const *values, struct bench_candidate **c, size_t *n, char ***notes,
    size_t *nnotes)
{
	struct bench_gens gens;
	char *cause = NULL;

	dut = values;
	*notes = NULL;
	*nnotes = 0;
	if (bench_gens_load(NULL, &gens, &cause) == -1)
		fail_msg("bench_gens_load: %s", cause);
	bench_tune_candidates_from(kb, &gens, fake_get, NULL, 2, false, c, n, notes, nnotes);
	bench_gens_free(&gens);
}

static void
free_notes(char **notes, size_t n)
{
	while (n > 0)
		free(notes[--n]);
	free(notes);
}

static const struct bench_candidate *
find(const struct bench_candidate *c, size_t n, const char *label)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(c[i].label, label) == 0)
			return &c[i];
	return NULL;
}

static bool
noted(char **notes, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(notes[i], what) != NULL)
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
	struct bench_candidate *c;
	const struct bench_candidate *b;
	char **notes;
	size_t n, nnotes;

	(void)state;
	candidates(values, &c, &n, &notes, &nnotes);
	assert_true(n > 8);
	assert_string_equal(c[0].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(c[0].n, 4);
	assert_string_equal(c[0].set[0].current, "off");
	assert_string_equal(c[0].set[2].current, "0");
	assert_string_equal(c[0].set[3].current, "0-1");
	assert_string_equal(c[0].was, "if.dut0.offload.gro=off, if.dut0.offload.rx-gro-list=off, "
	    "if.dut0.napi_threaded=0, if.dut0.napi_thread_cpus=0-1");
	assert_string_equal(c[1].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=0");
	assert_string_equal(c[2].label, "if.dut0.offload.gro=on + "
	    "if.dut0.offload.rx-udp-gro-forwarding=on + if.dut0.napi_threaded=1 + "
	    "if.dut0.napi_thread_cpus=1");
	assert_string_equal(c[4].label, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"
	    " + if.dut0.napi_threaded=1");
	assert_string_equal(c[5].label, "if.dut0.rps_cpus=2");
	assert_string_equal(c[5].was, "0");
	assert_non_null(b = find(c, n, "if.dut0.offload.gro=on + if.dut0.napi_threaded=1"));
	assert_non_null(find(c, n, "if.dut0.offload.gro=on + if.dut0.offload.rx-gro-list=on"));
	assert_non_null(find(c, n, "if.dut0.napi_threaded=1"));
	/* Every value of RPS, but one try of each knob before the second value of any. */
	assert_non_null(find(c, n, "if.dut0.rps_cpus=3"));
	assert_true(find(c, n, "if.dut0.rps_cpus=1") > b);
	/* Host-global knobs are left out with a note, unreadable ones too. */
	assert_true(noted(notes, nnotes, "net.core.netdev_budget is host-global"));
	assert_true(noted(notes, nnotes, "if.dut1.xps_cpus is not available in the DUT"));
	/* Every knob of share/tune/linux.cand is in the knowledge base. */
	assert_false(noted(notes, nnotes, "is not in the knowledge base"));
	free(c);
	free_notes(notes, nnotes);
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
	struct bench_candidate *c;
	char **notes;
	size_t n, nnotes;

	(void)state;
	candidates(gro_on, &c, &n, &notes, &nnotes);
	/* Only the thread and its pin are left of the first bundle. */
	assert_string_equal(c[0].label, "if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(c[0].n, 2);
	assert_string_equal(c[2].label, "if.dut0.offload.rx-udp-gro-forwarding=on + "
	    "if.dut0.napi_threaded=1 + if.dut0.napi_thread_cpus=1");
	assert_int_equal(c[2].n, 3);
	/* The unpinned bundle is then the single knob. */
	assert_non_null(find(c, n, "if.dut0.napi_threaded=1"));
	assert_true(noted(notes, nnotes, "fraglist GRO on dut0 left out: already in force"));
	assert_non_null(find(c, n, "if.dut0.offload.rx-udp-gro-forwarding=on"));
	assert_non_null(find(c, n, "if.dut0.offload.gro=off"));
	free(c);
	free_notes(notes, nnotes);
}

/* A known trap (strict rp_filter) is the first candidate where it is set, and nowhere else. */
static void
test_bench_tune_trap_only_where_set(void **state)
{
	static const char *const strict[] = { "net.ipv4.conf.dut0.rp_filter=1", NULL };
	static const char *const off[] = { "net.ipv4.conf.dut0.rp_filter=0", NULL };
	struct bench_candidate *c;
	char **notes;
	size_t n, nnotes;

	(void)state;
	candidates(strict, &c, &n, &notes, &nnotes);
	assert_true(n >= 1);
	assert_string_equal(c[0].label, "net.ipv4.conf.dut0.rp_filter=2");
	assert_string_equal(c[0].was, "1");
	free(c);
	free_notes(notes, nnotes);
	candidates(off, &c, &n, &notes, &nnotes);
	assert_null(find(c, n, "net.ipv4.conf.dut0.rp_filter=2"));
	assert_true(noted(notes, nnotes, "rp_filter left out: it is '0', not the trap '1'"));
	free(c);
	free_notes(notes, nnotes);
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

static int
setup(void **state)
{
	(void)state;
	kb = share_kb();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	kb_free(kb);
	return 0;
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
		cmocka_unit_test(test_bench_tune_keep_lower_latency_only),
		cmocka_unit_test(test_bench_tune_summary_reports_no_gain_without_kept_changes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
