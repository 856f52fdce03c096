#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diag/diag.h"
#include "diag/diag_impl.h"
#include "os/os_impl.h"
#include "share_kb.h"
#include "util/util.h"
#include "testutil.h"

static struct diag_rules *
shipped(void)
{
	struct diag_rules *rs;
	char *cause = NULL;

	if (diag_rules_load(NULL, &rs, &cause) != 0)
		fail_msg("%s", cause);
	return rs;
}

static void
test_diag_rules_every_shipped_knob_is_in_the_knowledge_base(void **state)
{
	struct diag_rules *rs = shipped();
	struct kb *kb = share_kb();
	char **names;
	size_t n, i;

	(void)state;
	assert_true(rs->n >= 15);
	n = diag_rules_knobs(rs, "ix0", &names);
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		if (kb_find(kb, names[i], NULL) == NULL)
			fail_msg("a rule names '%s', which the knowledge base does not know", names[i]);
		free(names[i]);
	}
	free(names);
	kb_free(kb);
	diag_rules_free(rs);
}

static char *
parse_error(const char *text)
{
	struct diag_rules *rs = diag_rules_new();
	char *cause = NULL;

	assert_int_equal(diag_rules_parse(rs, "t.rules", text, strlen(text), &cause), -1);
	assert_non_null(cause);
	diag_rules_free(rs);
	return cause;
}

static void
test_diag_rules_parse_rejects_bad_rules_with_file_and_line(void **state)
{
	static const struct testutil_case bad[] = {
		{ "\nfinding: x\nwhen: a >= 1\ncertainty: likely\nsummary: s\nknob: k\n",
		    "t.rules:2: rule needs when, certainty, summary, knob and source" },
		{ "finding: x\nwhen: a >= one\ncertainty: likely\nsummary: s\nknob: k\nsource: s\n",
		    "t.rules:1: rule has a bad 'when'" },
		{ "finding: x\nwhen: if.{if}.rx_pps >= 1\ncertainty: likely\nsummary: s\n"
		    "knob: k\nsource: s\n",
		    "placeholder its 'each' does not give" },
		{ "finding: x\ncertainty: sure\n", "t.rules:2: bad certainty 'sure'" },
		{ "finding: x\nwhen: a >= 1\ncost: b >= 1\ncertainty: likely\nsummary: s\nknob: k\n"
		    "source: s\n", "t.rules:1: rule has 'cost' without 'headroom'" },
		{ "finding: x\nwhen: a >= 1\ncost: b >= 1 or\nheadroom: h\ncertainty: likely\n"
		    "summary: s\nknob: k\nsource: s\n", "t.rules:1: rule has a bad 'cost'" },
	};

	(void)state;
	testutil_each_contains(parse_error, bad, nitems(bad));
}

/* Two samples of counters and the shipped rules: the fixture of each diag_evaluate test. */
struct samples {
	struct diag_rules	*rs;
	struct os_counters	 a, b;
};

static int
samples_new(void **state)
{
	struct samples *x = xcalloc(1, sizeof *x);

	x->rs = shipped();
	*state = x;
	return 0;
}

static int
samples_free(void **state)
{
	struct samples *x = *state;

	os_counters_free(&x->a);
	os_counters_free(&x->b);
	diag_rules_free(x->rs);
	free(x);
	return 0;
}

/* A counter that reads va in the first sample and vb in the second. */
static void
counter(struct samples *x, const char *name, uint64_t va, uint64_t vb)
{
	os_counters_set(&x->a, name, va, false);
	os_counters_set(&x->b, name, vb, false);
}

/*
 * Counters of a Linux DUT: CPU 0 in softirq processing 1.5 M packets/s, CPU 1 idle
 * processing 5/s, dut0 receiving 1.5 M packets/s on one queue, the backlog dropping.
 */
static void
sample(struct samples *x, uint64_t dropped)
{
	counter(x, "cpu.0.softirq", 0, 180);
	counter(x, "cpu.0.idle", 0, 20);
	counter(x, "cpu.1.softirq", 0, 2);
	counter(x, "cpu.1.idle", 0, 198);
	counter(x, "softnet.cpu0.dropped", 1000, 1000 + dropped);
	counter(x, "softnet.cpu0.processed", 0, 3000000);
	counter(x, "softnet.cpu1.processed", 1000, 1010);
	counter(x, "if.dut0.ipackets", 0, 3000000);
	counter(x, "if.dut0.idrops", 0, dropped);
	os_counters_set(&x->b, "if.dut0.rps", 0, true);
	os_counters_set(&x->b, "if.dut0.rxqueues", 1, true);
}

/* The diagnosis of the two samples, 2 s apart on Linux, in netns ("" for the host). */
static struct diag_result *
evaluate(struct samples *x, const char *netns)
{
	struct diag_result *d;
	char *cause = NULL;

	if (diag_evaluate(x->rs, &x->a, &x->b, 2.0, "linux", netns, &d, &cause) != 0)
		fail_msg("%s", cause);
	return d;
}

/* Finding i of d: of kind, naming knob first, its summary holding summary (NULL: not checked). */
static void
expect_finding(const struct diag_result *d, size_t i, const char *kind, const char *knob,
    const char *summary)
{
	const struct diag_finding *f;

	if (i >= d->nfindings)
		fail_msg("%zu findings, no finding %zu", d->nfindings, i);
	f = &d->findings[i];
	if (kind != NULL)
		assert_string_equal(f->kind, kind);
	if (knob != NULL)
		assert_string_equal(f->knobs[0].name, knob);
	if (summary != NULL && strstr(f->summary, summary) == NULL)
		fail_msg("finding %zu says '%s', not '%s'", i, f->summary, summary);
}

static void
test_diag_evaluate_names_backlog_drops_first_then_rps(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 600);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 2);
	expect_finding(d, 0, "backlog-drops", "net.core.netdev_max_backlog",
	    "(300/s on dut0; 300/s host-wide");
	assert_true(d->findings[0].knobs[0].host);
	expect_finding(d, 1, "work-not-spread", "if.dut0.rps_cpus",
	    "CPU 0 processes 1500000 packets/s in softirq (100%; it is 90% busy), the other "
	    "CPUs 5/s");
	assert_string_equal(d->findings[1].entity, "dut0");
	assert_int_equal(d->findings[1].certainty, DIAG_LIKELY);
	assert_int_equal(diag_knob_rank(d, "net.core.netdev_max_backlog"), 0);
	assert_int_equal(diag_knob_rank(d, "if.dut0.rps_cpus"), 1);
	assert_int_equal(diag_knob_rank(d, "if.dut1.rps_cpus"), -1);
	assert_null(d->headroom);
	assert_non_null(strstr(d->notes[0], "inside network namespace 'lab-dut'"));
	diag_result_free(d);
}

static void
test_diag_evaluate_in_a_namespace_ignores_host_drops_it_did_not_count(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 600);
	os_counters_set(&x->b, "if.dut0.idrops", 0, false);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "work-not-spread");
	diag_result_free(d);
	d = evaluate(x, "");
	assert_string_equal(d->findings[0].kind, "backlog-drops");
	diag_result_free(d);
}

static void
test_diag_evaluate_maps_driver_miss_counters_to_ring_overrun(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	counter(x, "nic.eth0.rx_missed_errors", 100, 2100);
	counter(x, "if.eth0.ipackets", 0, 198000);
	d = evaluate(x, "");
	assert_int_equal(d->nfindings, 1);
	expect_finding(d, 0, "ring-overrun", "if.eth0.ring.rx",
	    "eth0 misses 1000 packets/s on its receive ring (1% of what arrives)");
	diag_result_free(d);
	/* per-queue names: virtio_net and veth's rx_queue_N_drops, summed over the queues */
	counter(x, "nic.eth0.rx_queue_0_drops", 0, 300);
	counter(x, "nic.eth0.rx_queue_1_drops", 0, 100);
	d = evaluate(x, "");
	expect_finding(d, 0, NULL, NULL, "eth0 misses 1200 packets/s");
	diag_result_free(d);
}

/* Another namespace's traffic on CPU 1: where dut0's packets go cannot be told. */
static void
test_diag_evaluate_one_cpu_is_not_claimed_when_other_cpus_process_as_much(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 0);
	os_counters_set(&x->b, "softnet.cpu1.processed", 3001000, false);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 1);
	expect_finding(d, 0, "work-not-spread", NULL, "cannot be told from inside the namespace");
	assert_int_equal(d->findings[0].certainty, DIAG_POSSIBLE);
	diag_result_free(d);
	/* on the host the counters are ours: no claim either way, no finding */
	d = evaluate(x, "");
	assert_int_equal(d->nfindings, 0);
	diag_result_free(d);
	/* RPS on: the work is spread, nothing to say */
	os_counters_set(&x->b, "softnet.cpu1.processed", 1010, false);
	os_counters_set(&x->b, "if.dut0.rps", 1, true);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 0);
	diag_result_free(d);
}

/* dut0's NAPI thread (its CPU time and CPU) says where the work runs, whatever softnet_stat says. */
static void
test_diag_evaluate_one_cpu_from_the_napi_thread_time(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 0);
	os_counters_set(&x->b, "softnet.cpu1.processed", 3001000, false);
	counter(x, "napi.dut0.8193.usecs", 0, 1400000);
	os_counters_set(&x->b, "napi.dut0.8193.cpu", 1, true);
	os_counters_set(&x->b, "if.dut0.napi_threads", 1, true);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 1);
	expect_finding(d, 0, NULL, "if.dut0.napi_thread_cpus",
	    "dut0's NAPI thread works on CPU 1 only (70% of that CPU)");
	assert_int_equal(d->findings[0].certainty, DIAG_LIKELY);
	assert_int_equal((int)json_number_value(json_object_get(d->metrics, "if.dut0.napi_cpus")), 1);
	diag_result_free(d);
}

/*
 * A veth without a NAPI thread receives on the sending CPU: the NAPI thread's CPU is named first,
 * RPS last, whatever softnet_stat says; not when RPS or a NAPI thread is on, nor for another driver.
 */
static void
test_diag_evaluate_a_veth_names_the_napi_thread_before_rps(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 0);
	os_counters_set(&x->b, "softnet.cpu1.processed", 3001000, false);
	os_counters_set(&x->b, "if.dut0.veth", 1, true);
	os_counters_set(&x->b, "if.dut0.napi_threads", 0, true);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 1);
	expect_finding(d, 0, "work-not-spread", "if.dut0.napi_thread_cpus",
	    "dut0 is a veth, which receives on the CPU that transmits to it, and receives 1500000 "
	    "pkt/s with RPS off and no NAPI thread");
	assert_int_equal(d->findings[0].certainty, DIAG_LIKELY);
	assert_int_equal(d->findings[0].nknobs, 4);
	assert_string_equal(d->findings[0].knobs[3].name, "if.dut0.rps_cpus");
	diag_result_free(d);
	/* another driver: the rules that read where packets are processed */
	os_counters_set(&x->b, "if.dut0.veth", 0, true);
	d = evaluate(x, "lab-dut");
	expect_finding(d, 0, "work-not-spread", "if.dut0.rps_cpus", "cannot be told");
	diag_result_free(d);
	/* a veth with RPS on: nothing to say */
	os_counters_set(&x->b, "if.dut0.veth", 1, true);
	os_counters_set(&x->b, "if.dut0.rps", 2, true);
	os_counters_set(&x->b, "softnet.cpu1.processed", 1010, false);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 0);
	diag_result_free(d);
}

/* VLAN names have dots: "eth0.10" is one interface in metrics, findings and knobs. */
static void
test_diag_evaluate_keeps_vlan_names_with_dots_whole(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;
	char **ents;
	size_t n, i;

	counter(x, "qdisc.eth0.10.overlimits", 0, 2000);
	os_counters_set(&x->b, "qdisc.eth0.10.shaper", 1, true);
	counter(x, "if.eth0.10.opackets", 0, 4000);
	counter(x, "if.eth0.ipackets", 0, 10);
	os_counters_set(&x->b, "queue.eth0.10.rx0.irq", 40, true);
	d = evaluate(x, "");
	n = diag_entities(d->metrics, "if", &ents);
	assert_int_equal(n, 2);
	assert_string_equal(ents[0], "eth0");
	assert_string_equal(ents[1], "eth0.10");
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	assert_int_equal(d->nfindings, 1);
	expect_finding(d, 0, "shaper-limit", "if.eth0.10.qdisc",
	    "a shaping qdisc on eth0.10 holds the rate: 1000 overlimits/s");
	assert_string_equal(d->findings[0].entity, "eth0.10");
	diag_result_free(d);
}

/* The start time (field 22) tells a NAPI thread from a later one with the same PID. */
static void
test_os_proc_stat_napi_start_reads_cpu_time_and_start_time(void **state)
{
	unsigned long long ticks = 0, start = 0;

	(void)state;
	assert_int_equal(os_proc_stat_napi_start("4958 (napi/dut0-8193) S 2 0 0 0 -1 2129984 0 0 0 0 "
	    "12 830 0 0 20 0 1 0 123456 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 "
	    "1 0 0\n", &ticks, &start), 1);
	assert_int_equal(ticks, 842);
	assert_int_equal(start, 123456);
	assert_int_equal(os_proc_stat_napi_start("12 (ksoftirqd/1) S 2 0 0 0 -1 0 0 0 0 0 3 4 0 0 20 "
	    "0 1 0 9 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0", &ticks, &start), 0);
}

static void
test_os_proc_stat_napi_reads_cpu_time_and_cpu_of_napi_threads_only(void **state)
{
	static const char line[] = "4958 (napi/dut0-8193) S 2 0 0 0 -1 2129984 0 0 0 0 12 830 0 "
	    "0 20 0 1 0 123456 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 0\n";
	unsigned long long ticks = 0;
	int cpu = -1;

	(void)state;
	assert_int_equal(os_proc_stat_napi(line, &ticks, &cpu), 1);
	assert_int_equal(ticks, 842);
	assert_int_equal(cpu, 1);
	/* a ")" in the name: fields are counted after the last one */
	assert_int_equal(os_proc_stat_napi("1 (napi/a) b-1) S 2 0 0 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 "
	    "9 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0", &ticks, &cpu), 1);
	assert_int_equal(ticks, 7);
	assert_int_equal(cpu, 0);
	assert_int_equal(os_proc_stat_napi("12 (ksoftirqd/1) S 2 0 0 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 "
	    "9 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0", &ticks, &cpu), 0);
	assert_int_equal(os_proc_stat_napi("4958 (napi/dut0-8193) S 2 0 0 0 -1 2129984 0 0 0 0 12",
	    &ticks, &cpu), 0);
	assert_int_equal(os_proc_stat_napi("4958 (napi/x-1) S 2 0 0 0 -1 0 0 0 0 0 1x 2 0 0 20 0 1 0 "
	    "9 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0", &ticks, &cpu), 0);
}

static void
test_diag_json_round_trip_keeps_findings_knobs_and_evidence(void **state)
{
	struct samples *x = *state;
	struct diag_result *d, *e;
	json_t *j, *k;
	char *cause = NULL;

	sample(x, 600);
	d = evaluate(x, "");
	j = diag_to_json(d);
	if (diag_from_json(j, &e, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(e->nfindings, d->nfindings);
	assert_string_equal(e->findings[1].knobs[0].name, "if.dut0.rps_cpus");
	assert_int_equal(e->findings[0].certainty, DIAG_CERTAIN);
	assert_int_equal(e->findings[1].nevidence, d->findings[1].nevidence);
	assert_int_equal(diag_knob_rank(e, "if.dut0.rps_cpus"), 1);
	k = json_deep_copy(j);
	json_object_set_new(k, "version", json_integer(2));
	{
		struct diag_result *none = NULL;

		assert_int_equal(diag_from_json(k, &none, &cause), -1);
	}
	assert_non_null(strstr(cause, "unsupported diagnosis version"));
	free(cause);
	json_decref(k);
	json_decref(j);
	diag_result_free(e);
	diag_result_free(d);
}

static void
test_diag_evaluate_without_drops_or_load_reports_headroom(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	counter(x, "cpu.0.idle", 0, 190);
	counter(x, "cpu.0.system", 0, 10);
	d = evaluate(x, "");
	assert_int_equal(d->nfindings, 0);
	assert_non_null(strstr(d->headroom, "nothing saturated: the busiest CPU (0) is 5% busy"));
	diag_result_free(d);
}

/*
 * A veth at 20 kpps on a CPU full of a process (user time, no softirq), nothing dropped: the
 * work would not spread, but no cost is paid: a headroom fact, no finding. The same CPU busy
 * in softirq: the finding.
 */
static void
test_diag_evaluate_not_spread_without_saturation_or_loss_is_headroom(void **state)
{
	struct samples *x = *state;
	struct diag_result *d;

	sample(x, 0);
	counter(x, "cpu.0.softirq", 0, 0);
	counter(x, "cpu.0.user", 0, 200);
	counter(x, "cpu.0.idle", 0, 0);
	counter(x, "if.dut0.ipackets", 0, 40000);
	counter(x, "softnet.cpu0.processed", 0, 80000);
	os_counters_set(&x->b, "if.dut0.veth", 1, true);
	os_counters_set(&x->b, "if.dut0.napi_threads", 0, true);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfindings, 0);
	assert_int_equal(d->nfacts, 1);
	assert_string_equal(d->facts[0].kind, "work-not-spread");
	assert_string_equal(d->facts[0].entity, "dut0");
	if (strstr(d->facts[0].summary, "dut0 is a veth, which receives on the CPU that sends to it "
	    "(20000 pkt/s, RPS off, no NAPI thread); the CPU that processes most packets (CPU 0) is "
	    "100% busy, 0% of it in softirq, and nothing drops: not a bottleneck now") == NULL)
		fail_msg("fact: %s", d->facts[0].summary);
	assert_non_null(d->headroom);
	/* -i dut1: the fact about dut0 goes with dut0's findings */
	diag_keep_entities(d, (const char *const[]){ "dut1" }, 1);
	assert_int_equal(d->nfacts, 0);
	diag_result_free(d);
	/* the same CPU busy in softirq: the cost is paid */
	counter(x, "cpu.0.softirq", 0, 150);
	counter(x, "cpu.0.user", 0, 50);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfacts, 0);
	expect_finding(d, 0, "work-not-spread", "if.dut0.napi_thread_cpus", "dut0 is a veth");
	diag_result_free(d);
	/* idle, but dut0 counts drops: the cost is paid */
	counter(x, "cpu.0.softirq", 0, 0);
	counter(x, "if.dut0.idrops", 0, 12);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfacts, 0);
	expect_finding(d, 0, "work-not-spread", NULL, NULL);
	diag_result_free(d);
}

static void
test_diag_condition_or_binds_looser_than_and(void **state)
{
	json_t *m = json_pack("{sfsfsf}", "a", 1.0, "b", 0.0, "c", 5.0);

	(void)state;
	assert_int_equal(diag_condition("a >= 1 and b >= 1 or c == 5", m), 1);
	assert_int_equal(diag_condition("a >= 1 and b >= 1 or c == 4", m), 0);
	assert_int_equal(diag_condition("b >= 1 or a >= 1 and c == 5", m), 1);
	assert_int_equal(diag_condition("missing >= 0 or b >= 1", m), 0);
	assert_int_equal(diag_condition("a >= 1 or c five", m), -1);
	assert_int_equal(diag_condition("a >= 1 or", NULL), -1);
	json_decref(m);
}

/* The diagnosis as JSON keeps the headroom facts (doctor and bench read them back). */
static void
test_diag_json_round_trip_keeps_headroom_facts(void **state)
{
	struct samples *x = *state;
	struct diag_result *d, *d2;
	char *cause = NULL;
	json_t *j;

	sample(x, 0);
	counter(x, "cpu.0.softirq", 0, 0);
	counter(x, "cpu.0.user", 0, 200);
	os_counters_set(&x->b, "if.dut0.veth", 1, true);
	os_counters_set(&x->b, "if.dut0.napi_threads", 0, true);
	d = evaluate(x, "lab-dut");
	assert_int_equal(d->nfacts, 1);
	j = diag_to_json(d);
	assert_int_equal(diag_from_json(j, &d2, &cause), 0);
	assert_int_equal(d2->nfacts, 1);
	assert_string_equal(d2->facts[0].summary, d->facts[0].summary);
	assert_string_equal(d2->facts[0].rule, d->facts[0].rule);
	json_decref(j);
	diag_result_free(d);
	diag_result_free(d2);
}

/* diag_captures: text in memory in, findings out; a bad line is named with the capture's name. */
static void
test_diag_captures_reads_top_p_text_and_names_bad_lines(void **state)
{
	static const char top[] =
	    "CPU 0: 12.9% user,  0.0% nice, 17.3% system, 67.5% interrupt,  2.4% idle\n"
	    "CPU 1:  0.0% user,  0.0% nice, 56.1% system, 43.9% interrupt,  0.0% idle\n";
	struct diag_capture c[] = { { "top.txt", top, sizeof top - 1 },
	    { "bad.txt", "hw.ncpu: 2\nhello\n", 17 } };
	struct diag_result *d;
	char *cause = NULL;

	(void)state;
	assert_int_equal(diag_captures(NULL, 0, c, 1, 0, "opnsense", &d, &cause), 0);
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "cpu-bound");
	assert_null(d->headroom);
	assert_true(json_number_value(json_object_get(d->metrics, "cpu.busy_min")) > 97);
	diag_result_free(d);
	/* a line it cannot read is skipped and named once in a note */
	assert_int_equal(diag_captures(NULL, 0, c, 2, 0, "opnsense", &d, &cause), 0);
	assert_non_null(d->notes);
	assert_non_null(strstr(d->notes[0], "bad.txt:2 not a line of the outputs read: 'hello'"));
	diag_result_free(d);
}

/* The first finding's kind and certainty of one pasted text (FreeBSD), or "" with none. */
static void
first_finding(const char *text, const char *kind, enum diag_certainty cert, bool fact)
{
	struct diag_capture c[] = { { "p.txt", text, strlen(text) } };
	struct diag_result *d;
	char *cause = NULL;

	if (diag_captures(NULL, 0, c, 1, 0, "freebsd", &d, &cause) != 0)
		fail_msg("%s", cause);
	if (fact) {
		assert_int_equal(d->nfindings, 0);
		assert_true(d->nfacts >= 1);
		assert_string_equal(d->facts[0].kind, kind);
		assert_non_null(strstr(d->headroom, "the link is the limit"));
	} else {
		assert_true(d->nfindings >= 1);
		assert_string_equal(d->findings[0].kind, kind);
		assert_int_equal(d->findings[0].certainty, cert);
	}
	diag_result_free(d);
}

/* Issue 33 item 5: line rate without loss, a small loss, nearly every CPU busy, em's taskq. */
static void
test_diag_calibration_on_what_real_boxes_show(void **state)
{
	static const char ihw[] =
	    "            input        (Total)           output\n"
	    "   packets  errs idrops      bytes    packets  errs      bytes colls\n";
	static const char thread[] =
	    "  PID USERNAME    PRI NICE   SIZE    RES STATE    C   TIME    WCPU COMMAND\n"
	    "   12 root        -64    -     0B   640K WAIT     0   0:26  91.00% intr{irq28: igb0:que 0}\n";
	char text[2048];

	(void)state;
	/* 81k frames of 1514 bytes a second: a gigabit link full, nothing lost */
	snprintf(text, sizeof text, "%s       81k     0     0       118M        81k     0       118M     0\n%s",
	    ihw, thread);
	first_finding(text, "queue-thread-busy", DIAG_LIKELY, true);
	/* 0.004% lost: at most possible */
	snprintf(text, sizeof text, "%s    250000     10     0       118M     250000     0       118M     0\n",
	    ihw);
	first_finding(text, "receive-loss", DIAG_POSSIBLE, false);
	snprintf(text, sizeof text, "%s    250000   5000     0       118M     250000     0       118M     0\n",
	    ihw);
	first_finding(text, "receive-loss", DIAG_CERTAIN, false);
	/* 7 of 8 CPUs at 100%: CPU-bound, not "not spread" */
	snprintf(text, sizeof text, "%s", "");
	for (int cpu = 0; cpu < 8; cpu++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "CPU %d:  0.0%% user,  0.0%% "
		    "nice, %s system, %s interrupt, %s idle\n", cpu, cpu < 7 ? "40.0%" : " 0.0%",
		    cpu < 7 ? "60.0%" : " 0.0%", cpu < 7 ? " 0.0%" : "100.0%");
	first_finding(text, "cpu-bound", DIAG_LIKELY, false);
	/* one CPU, em1's queue task (before iflib) at 94% */
	first_finding("CPU 0:  0.0% user,  0.0% nice,  2.0% system, 95.0% interrupt,  3.0% idle\n"
	    "  PID USERNAME    PRI NICE   SIZE    RES STATE    TIME    WCPU COMMAND\n"
	    "    0 root        -68    -     0K   160K -        9:26  94.00% kernel{em1 taskq}\n",
	    "cpu-bound", DIAG_LIKELY, false);
}

/* {per_s}: a count over an interval is a rate ("/s"), one since boot a total (nothing). */
static void
test_diag_expand_metrics_per_s_follows_the_interval(void **state)
{
	json_t *m = json_pack("{s:f, s:f}", "interval", 2.0, "if.dut1.odrops", 7409.0);
	char *a, *b;

	(void)state;
	a = diag_expand_metrics("dropped {if.dut1.odrops} packets{per_s} on output", m);
	assert_string_equal(a, "dropped 7409 packets/s on output");
	json_object_set_new(m, "interval", json_real(0));
	b = diag_expand_metrics("dropped {if.dut1.odrops} packets{per_s} on output", m);
	assert_string_equal(b, "dropped 7409 packets on output");
	free(a);
	free(b);
	json_object_del(m, "interval");
	a = diag_expand_metrics("{per_s}|{nosuch}", m);
	assert_string_equal(a, "|?");
	free(a);
	json_decref(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_expand_metrics_per_s_follows_the_interval),
		cmocka_unit_test(test_diag_rules_every_shipped_knob_is_in_the_knowledge_base),
		cmocka_unit_test(test_diag_captures_reads_top_p_text_and_names_bad_lines),
		cmocka_unit_test(test_diag_calibration_on_what_real_boxes_show),
		cmocka_unit_test(test_diag_condition_or_binds_looser_than_and),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_not_spread_without_saturation_or_loss_is_headroom,
		    samples_new, samples_free),
		cmocka_unit_test_setup_teardown(test_diag_json_round_trip_keeps_headroom_facts,
		    samples_new, samples_free),
		cmocka_unit_test(test_diag_rules_parse_rejects_bad_rules_with_file_and_line),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_names_backlog_drops_first_then_rps, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_in_a_namespace_ignores_host_drops_it_did_not_count, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_maps_driver_miss_counters_to_ring_overrun, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_one_cpu_is_not_claimed_when_other_cpus_process_as_much, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_a_veth_names_the_napi_thread_before_rps,
		    samples_new, samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_one_cpu_from_the_napi_thread_time, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_keeps_vlan_names_with_dots_whole, samples_new,
		    samples_free),
		cmocka_unit_test(test_os_proc_stat_napi_reads_cpu_time_and_cpu_of_napi_threads_only),
		cmocka_unit_test(test_os_proc_stat_napi_start_reads_cpu_time_and_start_time),
		cmocka_unit_test_setup_teardown(test_diag_json_round_trip_keeps_findings_knobs_and_evidence, samples_new,
		    samples_free),
		cmocka_unit_test_setup_teardown(test_diag_evaluate_without_drops_or_load_reports_headroom, samples_new,
		    samples_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
