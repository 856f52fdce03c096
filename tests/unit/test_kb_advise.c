#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"
#include "util/util.h"
#include "testutil.h"

static struct kb_system
machine(const char *os, int ncpu, int ncores)
{
	struct kb_system s;

	memset(&s, 0, sizeof s);
	s.platform = os_platform_parse(os);
	s.ncpu = ncpu;
	s.ncores = ncores;
	s.smt = ncores < ncpu;
	s.rss_kernel = -1;
	return s;
}

struct advice {
	struct kb_advice *a;
	size_t n;
};

static struct advice
run_advise(const struct kb_system *s, enum kb_goal g, enum kb_role r)
{
	struct advice ad;
	char *cause = NULL;

	if (kb_advise(testutil_kb, s, g, r, &ad.a, &ad.n, &cause) == -1)
		fail_msg("kb_advise: %s", cause);
	return ad;
}

static const struct kb_advice *
find(const struct advice *ad, const char *name)
{
	size_t i;

	for (i = 0; i < ad->n; i++) {
		if (strcmp(ad->a[i].name, name) == 0)
			return &ad->a[i];
	}
	return NULL;
}

static void
expect(const struct advice *ad, const char *name, const char *value, enum kb_certainty c)
{
	const struct kb_advice *a = find(ad, name);

	if (a == NULL)
		fail_msg("no advice for '%s'", name);
	assert_string_equal(a->value, value);
	assert_int_equal(a->certainty, c);
	assert_true(strlen(a->reason) > 10);
	assert_true(strlen(a->source) > 3);
}

/* The advice, as a profile, passes the lint with no error. */
static void
passes_check(const struct advice *ad, const struct kb_system *s)
{
	struct strbuf sb;
	struct kb_profile *p;
	struct kb_diag *d;
	size_t i, n;
	int errors;

	strbuf_init(&sb);
	for (i = 0; i < ad->n; i++) {
		if (ad->a[i].certainty != KB_NOT_ADVISED)	/* a note, not a setting */
			strbuf_addf(&sb, "# %s\n%s=%s\n", ad->a[i].reason, ad->a[i].name,
			    ad->a[i].value);
	}
	p = kb_profile_parse("advice", sb.buf ? sb.buf : "", sb.len, NULL);
	assert_non_null(p);
	errors = kb_check(testutil_kb, p, s, KB_TARGET_ANY, &d, &n);
	for (i = 0; i < n; i++) {
		if (d[i].severity == KB_ERROR)
			print_message("%d: %s\n", d[i].line, d[i].message);
	}
	assert_int_equal(errors, 0);
	kb_diags_free(d, n);
	kb_profile_free(p);
	strbuf_free(&sb);
}

static void
done(struct advice *ad)
{
	kb_advice_free(ad->a, ad->n);
}

static void
test_advise_seed_000_machine_gets_the_kernels_rss_bits_4_and_smt_candidate(void **state)
{
	struct kb_system s = machine("opnsense", 8, 4);
	struct advice ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);

	(void)state;
	/* rss_init with RSS on: fls(8 - 1) + 1 = 4 (seed 000 set 3: 8 buckets for 8 CPUs). */
	expect(&ad, "net.inet.rss.bits", "4", KB_USUALLY);
	expect(&ad, "net.inet.rss.enabled", "1", KB_USUALLY);
	expect(&ad, "net.isr.maxthreads", "8", KB_USUALLY);
	expect(&ad, "net.isr.bindthreads", "1", KB_USUALLY);
	expect(&ad, "machdep.hyperthreading_intr_allowed", "1", KB_MEASURE);
	assert_non_null(strstr(find(&ad, "machdep.hyperthreading_intr_allowed")->reason, "-12.1%"));
	expect(&ad, "net.inet.ip.forwarding", "1", KB_SAFE);
	passes_check(&ad, &s);
	done(&ad);
}

static void
test_advise_values_follow_the_cpu_count(void **state)
{
	struct kb_system s = machine("opnsense", 16, 16);
	struct advice ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);

	(void)state;
	expect(&ad, "net.inet.rss.bits", "5", KB_USUALLY);
	expect(&ad, "net.isr.maxthreads", "16", KB_USUALLY);
	/* No SMT: nothing to allow. */
	assert_null(find(&ad, "machdep.hyperthreading_intr_allowed"));
	passes_check(&ad, &s);
	done(&ad);
	s = machine("opnsense", 2, 2);
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "net.inet.rss.bits", "2", KB_USUALLY);
	expect(&ad, "net.isr.maxthreads", "2", KB_USUALLY);
	passes_check(&ad, &s);
	done(&ad);
	/* 6 CPUs (seed 001): 4 bits = 16 buckets, not log2 = 2 (4 buckets for 6 CPUs). */
	s = machine("opnsense", 6, 6);
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "net.inet.rss.bits", "4", KB_USUALLY);
	done(&ad);
	/* 256 CPUs: the kernel caps at RSS_MAXBITS 7. */
	s = machine("opnsense", 256, 128);
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "net.inet.rss.bits", "7", KB_USUALLY);
	passes_check(&ad, &s);
	done(&ad);
	s = machine("freebsd", 1, 1);
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	assert_null(find(&ad, "net.isr.maxthreads"));
	assert_null(find(&ad, "net.inet.rss.bits"));
	done(&ad);
}

static void
test_advise_plain_freebsd_without_rss_kernel_skips_rss(void **state)
{
	struct kb_system s = machine("freebsd", 8, 4);
	struct advice ad;

	(void)state;
	s.rss_kernel = 0;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	assert_null(find(&ad, "net.inet.rss.bits"));
	assert_null(find(&ad, "net.inet.rss.enabled"));
	done(&ad);
	s.rss_kernel = 1;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "net.inet.rss.bits", "4", KB_USUALLY);
	assert_null(find(&ad, "net.inet.rss.enabled"));	/* OPNsense only */
	passes_check(&ad, &s);
	done(&ad);
}

/* A NIC of that name and driver ("" unknown), every other field 0: the test sets what it needs. */
static struct kb_nic
nic_named(const char *name, const char *driver)
{
	struct kb_nic n;

	memset(&n, 0, sizeof n);
	snprintf(n.name, sizeof n.name, "%s", name);
	snprintf(n.driver, sizeof n.driver, "%s", driver);
	return n;
}

static void
test_advise_iflib_nic_queues_rings_and_flow_control(void **state)
{
	struct kb_system s = machine("freebsd", 8, 8);
	struct kb_nic nic;
	struct advice ad;

	(void)state;
	nic = nic_named("ix1", "ix");
	nic.speed_mbps = 10000;
	nic.queues = 4;
	nic.max_queues = 64;
	nic.rx_ring = 1024;
	nic.max_rx_ring = 4096;
	nic.flow_control = -1;
	nic.adaptive_rx = -1;
	nic.lro = -1;
	s.nics = &nic;
	s.nnics = 1;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "dev.ix.1.iflib.override_nrxqs", "8", KB_USUALLY);
	expect(&ad, "dev.ix.1.iflib.override_ntxqs", "8", KB_USUALLY);
	expect(&ad, "dev.ix.1.iflib.override_nrxds", "4096", KB_MEASURE);
	expect(&ad, "dev.ix.1.fc", "0", KB_USUALLY);
	expect(&ad, "dev.ix.1.enable_aim", "1", KB_MEASURE);
	expect(&ad, "net.isr.defaultqlimit", "1024", KB_USUALLY);
	passes_check(&ad, &s);
	done(&ad);
	/* Hardware limit below the CPU count; host role: no flow-control advice. */
	nic.max_queues = 4;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_HOST);
	assert_null(find(&ad, "dev.ix.1.iflib.override_nrxqs"));
	assert_null(find(&ad, "dev.ix.1.fc"));
	assert_null(find(&ad, "net.inet.ip.forwarding"));
	done(&ad);
}

static void
test_advise_linux_single_queue_nic_gets_rps_over_all_cpus(void **state)
{
	struct kb_system s = machine("linux", 4, 4);
	struct kb_nic nic[2];
	struct advice ad;

	(void)state;
	nic[0] = nic_named("eth0", "");
	nic[0].speed_mbps = 1000;
	nic[0].queues = 1;
	nic[0].max_queues = 1;
	nic[0].rx_ring = 256;
	nic[0].max_rx_ring = 4096;
	nic[0].flow_control = 1;
	nic[0].adaptive_rx = -1;
	nic[0].lro = 1;
	nic[1] = nic_named("ens1f0", "");
	nic[1].speed_mbps = 25000;
	nic[1].queues = 2;
	nic[1].max_queues = 63;
	nic[1].rx_ring = -1;
	nic[1].max_rx_ring = -1;
	nic[1].flow_control = -1;
	nic[1].adaptive_rx = -1;
	nic[1].lro = 0;
	s.nics = nic;
	s.nnics = 2;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "net.ipv4.ip_forward", "1", KB_SAFE);
	expect(&ad, "if.eth0.rps_cpus", "f", KB_USUALLY);
	expect(&ad, "if.eth0.ring.rx", "4096", KB_MEASURE);
	expect(&ad, "if.eth0.offload.lro", "off", KB_SAFE);
	expect(&ad, "if.eth0.flow-control", "off", KB_USUALLY);
	expect(&ad, "if.ens1f0.channels.combined", "4", KB_USUALLY);
	assert_null(find(&ad, "if.ens1f0.rps_cpus"));
	/* 25 Gbit/s of 64-byte frames for 1 ms over 4 CPUs. */
	expect(&ad, "net.core.netdev_max_backlog", "9300", KB_USUALLY);
	expect(&ad, "if.ens1f0.irq_affinity", "spread", KB_MEASURE);
	passes_check(&ad, &s);
	done(&ad);
}

static void
test_advise_linux_mask_for_many_cpus_is_grouped(void **state)
{
	struct kb_system s = machine("linux", 40, 20);
	struct kb_nic nic;
	struct advice ad;

	(void)state;
	nic = nic_named("eth0", "");
	nic.speed_mbps = -1;
	nic.queues = 1;
	nic.max_queues = -1;
	nic.rx_ring = nic.max_rx_ring = -1;
	nic.flow_control = nic.adaptive_rx = nic.lro = -1;
	s.nics = &nic;
	s.nnics = 1;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "if.eth0.rps_cpus", "ff,ffffffff", KB_USUALLY);
	passes_check(&ad, &s);
	done(&ad);
}

static void
test_advise_goals_change_the_advice(void **state)
{
	struct kb_system s = machine("linux", 4, 4);
	struct advice ad;

	(void)state;
	ad = run_advise(&s, KB_GOAL_LATENCY, KB_ROLE_HOST);
	expect(&ad, "net.core.busy_poll", "50", KB_MEASURE);
	expect(&ad, "cpu.governor", "performance", KB_USUALLY);
	assert_null(find(&ad, "net.ipv4.ip_forward"));
	done(&ad);
	ad = run_advise(&s, KB_GOAL_THROUGHPUT, KB_ROLE_HOST);
	expect(&ad, "net.ipv4.tcp_rmem", "4096 131072 16777216", KB_USUALLY);
	passes_check(&ad, &s);
	done(&ad);
}

static void
test_advise_needs_the_cpu_count(void **state)
{
	struct kb_system s = machine("linux", 0, 0);
	struct kb_advice *a;
	size_t n;
	char *cause = NULL;

	(void)state;
	assert_int_equal(kb_advise(testutil_kb, &s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER, &a, &n, &cause), -1);
	assert_non_null(strstr(cause, "CPU count"));
	free(cause);
	assert_string_equal(kb_certainty_name(KB_MEASURE), "measure it");
}

static void
test_advise_linux_lro_cites_the_driver_and_the_kernel_rule(void **state)
{
	struct kb_system s = machine("linux", 4, 4);
	struct kb_nic nic[2];
	struct advice ad;
	const struct kb_advice *a;

	(void)state;
	nic[0] = nic_named("enp1s0f0", "ixgbe");
	nic[1] = nic_named("eth1", "unknown_drv");
	nic[0].lro = nic[1].lro = 1;
	nic[0].queues = nic[1].queues = nic[0].max_queues = nic[1].max_queues = -1;
	nic[0].rx_ring = nic[1].rx_ring = nic[0].max_rx_ring = nic[1].max_rx_ring = -1;
	nic[0].flow_control = nic[1].flow_control = nic[0].adaptive_rx = nic[1].adaptive_rx = -1;
	s.nics = nic;
	s.nnics = 2;
	ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
	expect(&ad, "if.enp1s0f0.offload.lro", "off", KB_SAFE);
	a = find(&ad, "if.enp1s0f0.offload.lro");
	assert_non_null(strstr(a->source, "ixgbe_main.c:11099"));
	assert_non_null(strstr(a->source, "net/ipv4/devinet.c:2378"));
	assert_non_null(strstr(a->reason, "its driver offers hardware LRO"));
	expect(&ad, "if.eth1.offload.lro", "off", KB_SAFE);
	a = find(&ad, "if.eth1.offload.lro");
	assert_null(strstr(a->source, "ixgbe"));
	done(&ad);
}

/*
 * The descriptor ring advice at its limits: a NIC that does not say its maximum gets its
 * driver's (share/knobs/drivers: ix max-rxd 4096, ixgbe.h MAX_RXD), and a ring already at
 * its maximum gets no advice.
 */
static void
test_advise_ring_from_the_driver_limit_and_none_at_the_maximum(void **state)
{
	static const struct {
		int	 rx_ring, max_rx_ring;
		const char *want;	/* override_nrxds advised, NULL none */
	} rings[] = {
		{ 2048, -1, "4096" },	/* the NIC does not say its maximum: the driver's */
		{ 4096, 4096, NULL },	/* at its maximum */
		{ 4095, 4096, "4096" },	/* one below */
	};
	struct kb_system s = machine("freebsd", 8, 8);
	struct kb_nic nic = nic_named("ix0", "ix");
	struct advice ad;
	size_t i;

	(void)state;
	nic.flow_control = nic.adaptive_rx = nic.lro = -1;
	s.nics = &nic;
	s.nnics = 1;
	for (i = 0; i < nitems(rings); i++) {
		nic.rx_ring = rings[i].rx_ring;
		nic.max_rx_ring = rings[i].max_rx_ring;
		ad = run_advise(&s, KB_GOAL_FORWARDING, KB_ROLE_ROUTER);
		if (rings[i].want != NULL)
			expect(&ad, "dev.ix.0.iflib.override_nrxds", rings[i].want, KB_MEASURE);
		else
			assert_null(find(&ad, "dev.ix.0.iflib.override_nrxds"));
		done(&ad);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advise_seed_000_machine_gets_the_kernels_rss_bits_4_and_smt_candidate),
		cmocka_unit_test(test_advise_ring_from_the_driver_limit_and_none_at_the_maximum),
		cmocka_unit_test(test_advise_values_follow_the_cpu_count),
		cmocka_unit_test(test_advise_plain_freebsd_without_rss_kernel_skips_rss),
		cmocka_unit_test(test_advise_iflib_nic_queues_rings_and_flow_control),
		cmocka_unit_test(test_advise_linux_single_queue_nic_gets_rps_over_all_cpus),
		cmocka_unit_test(test_advise_linux_lro_cites_the_driver_and_the_kernel_rule),
		cmocka_unit_test(test_advise_linux_mask_for_many_cpus_is_grouped),
		cmocka_unit_test(test_advise_goals_change_the_advice),
		cmocka_unit_test(test_advise_needs_the_cpu_count),
	};

	return cmocka_run_group_tests(tests, testutil_kb_setup, testutil_kb_teardown);
}
