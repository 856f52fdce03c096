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
	char *e;

	(void)state;
	e = parse_error("\nfinding: x\nwhen: a >= 1\ncertainty: likely\nsummary: s\nknob: k\n");
	assert_non_null(strstr(e, "t.rules:2: rule needs when, certainty, summary, knob and source"));
	free(e);
	e = parse_error("finding: x\nwhen: a >= one\ncertainty: likely\nsummary: s\nknob: k\n"
	    "source: s\n");
	assert_non_null(strstr(e, "t.rules:1: rule has a bad 'when'"));
	free(e);
	e = parse_error("finding: x\nwhen: if.{if}.rx_pps >= 1\ncertainty: likely\nsummary: s\n"
	    "knob: k\nsource: s\n");
	assert_non_null(strstr(e, "placeholder its 'each' does not give"));
	free(e);
	e = parse_error("finding: x\ncertainty: sure\n");
	assert_non_null(strstr(e, "t.rules:2: bad certainty 'sure'"));
	free(e);
}

/*
 * Counters of a Linux DUT: CPU 0 in softirq processing 1.5 M packets/s, CPU 1 idle
 * processing 5/s, dut0 receiving 1.5 M packets/s on one queue, the backlog dropping.
 */
static void
sample(struct os_counters *a, struct os_counters *b, uint64_t dropped)
{
	os_counters_set(a, "cpu.0.softirq", 0, false);
	os_counters_set(a, "cpu.0.idle", 0, false);
	os_counters_set(a, "cpu.1.softirq", 0, false);
	os_counters_set(a, "cpu.1.idle", 0, false);
	os_counters_set(a, "softnet.cpu0.dropped", 1000, false);
	os_counters_set(a, "softnet.cpu0.processed", 0, false);
	os_counters_set(a, "softnet.cpu1.processed", 1000, false);
	os_counters_set(b, "softnet.cpu0.processed", 3000000, false);
	os_counters_set(b, "softnet.cpu1.processed", 1010, false);
	os_counters_set(a, "if.dut0.ipackets", 0, false);
	os_counters_set(a, "if.dut0.idrops", 0, false);
	os_counters_set(b, "cpu.0.softirq", 180, false);
	os_counters_set(b, "cpu.0.idle", 20, false);
	os_counters_set(b, "cpu.1.softirq", 2, false);
	os_counters_set(b, "cpu.1.idle", 198, false);
	os_counters_set(b, "softnet.cpu0.dropped", 1000 + dropped, false);
	os_counters_set(b, "if.dut0.ipackets", 3000000, false);
	os_counters_set(b, "if.dut0.idrops", dropped, false);
	os_counters_set(b, "if.dut0.rps", 0, true);
	os_counters_set(b, "if.dut0.rxqueues", 1, true);
}

static struct diag_result *
evaluate(uint64_t dropped, const char *netns)
{
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;
	char *cause = NULL;

	sample(&a, &b, dropped);
	if (diag_evaluate(rs, &a, &b, 2.0, "linux", netns, &d, &cause) != 0)
		fail_msg("%s", cause);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
	return d;
}

static void
test_diag_evaluate_names_backlog_drops_first_then_rps(void **state)
{
	struct diag_result *d = evaluate(600, "lab-dut");

	(void)state;
	assert_int_equal(d->nfindings, 2);
	assert_string_equal(d->findings[0].kind, "backlog-drops");
	assert_string_equal(d->findings[0].knobs[0].name, "net.core.netdev_max_backlog");
	assert_true(d->findings[0].knobs[0].host);
	assert_non_null(strstr(d->findings[0].summary, "(300/s on dut0; 300/s host-wide"));
	assert_string_equal(d->findings[1].kind, "work-not-spread");
	assert_string_equal(d->findings[1].entity, "dut0");
	assert_string_equal(d->findings[1].knobs[0].name, "if.dut0.rps_cpus");
	assert_int_equal(d->findings[1].certainty, DIAG_LIKELY);
	assert_non_null(strstr(d->findings[1].summary, "CPU 0 processes 1500000 packets/s in "
	    "softirq (100%; it is 90% busy), the other CPUs 5/s"));
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
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;

	(void)state;
	sample(&a, &b, 600);
	os_counters_set(&b, "if.dut0.idrops", 0, false);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "lab-dut", &d, NULL), 0);
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "work-not-spread");
	diag_result_free(d);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	assert_string_equal(d->findings[0].kind, "backlog-drops");
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
}

static void
test_diag_evaluate_maps_driver_miss_counters_to_ring_overrun(void **state)
{
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;

	(void)state;
	os_counters_set(&a, "nic.eth0.rx_missed_errors", 100, false);
	os_counters_set(&b, "nic.eth0.rx_missed_errors", 2100, false);
	os_counters_set(&a, "if.eth0.ipackets", 0, false);
	os_counters_set(&b, "if.eth0.ipackets", 198000, false);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "ring-overrun");
	assert_string_equal(d->findings[0].knobs[0].name, "if.eth0.ring.rx");
	assert_non_null(strstr(d->findings[0].summary, "eth0 misses 1000 packets/s on its receive "
	    "ring (1% of what arrives)"));
	diag_result_free(d);
	/* per-queue names: virtio_net and veth's rx_queue_N_drops, summed over the queues */
	os_counters_set(&a, "nic.eth0.rx_queue_0_drops", 0, false);
	os_counters_set(&b, "nic.eth0.rx_queue_0_drops", 300, false);
	os_counters_set(&a, "nic.eth0.rx_queue_1_drops", 0, false);
	os_counters_set(&b, "nic.eth0.rx_queue_1_drops", 100, false);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	assert_non_null(strstr(d->findings[0].summary, "eth0 misses 1200 packets/s"));
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
}

/* Another namespace's traffic on CPU 1: where dut0's packets go cannot be told. */
static void
test_diag_evaluate_one_cpu_is_not_claimed_when_other_cpus_process_as_much(void **state)
{
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;

	(void)state;
	sample(&a, &b, 0);
	os_counters_set(&b, "softnet.cpu1.processed", 3001000, false);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "lab-dut", &d, NULL), 0);
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "work-not-spread");
	assert_int_equal(d->findings[0].certainty, DIAG_POSSIBLE);
	assert_non_null(strstr(d->findings[0].summary, "cannot be told from inside the namespace"));
	diag_result_free(d);
	/* on the host the counters are ours: no claim either way, no finding */
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	assert_int_equal(d->nfindings, 0);
	diag_result_free(d);
	/* RPS on: the work is spread, nothing to say */
	os_counters_set(&b, "softnet.cpu1.processed", 1010, false);
	os_counters_set(&b, "if.dut0.rps", 1, true);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "lab-dut", &d, NULL), 0);
	assert_int_equal(d->nfindings, 0);
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
}

/* dut0's NAPI thread (its CPU time and CPU) says where the work runs, whatever softnet_stat says. */
static void
test_diag_evaluate_one_cpu_from_the_napi_thread_time(void **state)
{
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;

	(void)state;
	sample(&a, &b, 0);
	os_counters_set(&b, "softnet.cpu1.processed", 3001000, false);
	os_counters_set(&a, "napi.dut0.8193.usecs", 0, false);
	os_counters_set(&b, "napi.dut0.8193.usecs", 1400000, false);
	os_counters_set(&b, "napi.dut0.8193.cpu", 1, true);
	os_counters_set(&b, "if.dut0.napi_threads", 1, true);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "lab-dut", &d, NULL), 0);
	assert_int_equal(d->nfindings, 1);
	assert_int_equal(d->findings[0].certainty, DIAG_LIKELY);
	assert_string_equal(d->findings[0].knobs[0].name, "if.dut0.napi_thread_cpus");
	assert_non_null(strstr(d->findings[0].summary, "dut0's NAPI thread works on CPU 1 only (70% "
	    "of that CPU)"));
	assert_int_equal((int)json_number_value(json_object_get(d->metrics, "if.dut0.napi_cpus")), 1);
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
}

/* VLAN names have dots: "eth0.10" is one interface in metrics, findings and knobs. */
static void
test_diag_evaluate_keeps_vlan_names_with_dots_whole(void **state)
{
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;
	char **ents;
	size_t n, i;

	(void)state;
	os_counters_set(&a, "qdisc.eth0.10.overlimits", 0, false);
	os_counters_set(&b, "qdisc.eth0.10.overlimits", 2000, false);
	os_counters_set(&b, "qdisc.eth0.10.shaper", 1, true);
	os_counters_set(&a, "if.eth0.10.opackets", 0, false);
	os_counters_set(&b, "if.eth0.10.opackets", 4000, false);
	os_counters_set(&a, "if.eth0.ipackets", 0, false);
	os_counters_set(&b, "if.eth0.ipackets", 10, false);
	os_counters_set(&b, "queue.eth0.10.rx0.irq", 40, true);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	n = diag_entities(d->metrics, "if", &ents);
	assert_int_equal(n, 2);
	assert_string_equal(ents[0], "eth0");
	assert_string_equal(ents[1], "eth0.10");
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	assert_int_equal(d->nfindings, 1);
	assert_string_equal(d->findings[0].kind, "shaper-limit");
	assert_string_equal(d->findings[0].entity, "eth0.10");
	assert_string_equal(d->findings[0].knobs[0].name, "if.eth0.10.qdisc");
	assert_non_null(strstr(d->findings[0].summary, "a shaping qdisc on eth0.10 holds the rate: "
	    "1000 overlimits/s"));
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
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
	struct diag_result *d = evaluate(600, ""), *e;
	json_t *j = diag_to_json(d), *k;
	char *cause = NULL;

	(void)state;
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
		struct diag_result *x = NULL;

		assert_int_equal(diag_from_json(k, &x, &cause), -1);
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
	struct diag_rules *rs = shipped();
	struct os_counters a = { NULL, 0, NULL, 0 }, b = { NULL, 0, NULL, 0 };
	struct diag_result *d;

	(void)state;
	os_counters_set(&a, "cpu.0.idle", 0, false);
	os_counters_set(&a, "cpu.0.system", 0, false);
	os_counters_set(&b, "cpu.0.idle", 190, false);
	os_counters_set(&b, "cpu.0.system", 10, false);
	assert_int_equal(diag_evaluate(rs, &a, &b, 2.0, "linux", "", &d, NULL), 0);
	assert_int_equal(d->nfindings, 0);
	assert_non_null(strstr(d->headroom, "nothing saturated: the busiest CPU (0) is 5% busy"));
	diag_result_free(d);
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_rules_every_shipped_knob_is_in_the_knowledge_base),
		cmocka_unit_test(test_diag_rules_parse_rejects_bad_rules_with_file_and_line),
		cmocka_unit_test(test_diag_evaluate_names_backlog_drops_first_then_rps),
		cmocka_unit_test(test_diag_evaluate_in_a_namespace_ignores_host_drops_it_did_not_count),
		cmocka_unit_test(test_diag_evaluate_maps_driver_miss_counters_to_ring_overrun),
		cmocka_unit_test(test_diag_evaluate_one_cpu_is_not_claimed_when_other_cpus_process_as_much),
		cmocka_unit_test(test_diag_evaluate_one_cpu_from_the_napi_thread_time),
		cmocka_unit_test(test_diag_evaluate_keeps_vlan_names_with_dots_whole),
		cmocka_unit_test(test_os_proc_stat_napi_reads_cpu_time_and_cpu_of_napi_threads_only),
		cmocka_unit_test(test_diag_json_round_trip_keeps_findings_knobs_and_evidence),
		cmocka_unit_test(test_diag_evaluate_without_drops_or_load_reports_headroom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
