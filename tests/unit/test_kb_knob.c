#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

#include "share_kb.h"

static char *
load_error(const char *text)
{
	struct kb *kb = kb_new();
	char *cause = NULL;
	int rc;

	rc = kb_load_text(kb, "t.knob", text, strlen(text), &cause);
	kb_free(kb);
	if (rc == 0) {
		free(cause);
		return NULL;
	}
	assert_non_null(cause);
	return cause;
}

static void
test_kb_load_every_stanza_parses_and_names_a_source(void **state)
{
	struct kb *kb = share_kb();
	const struct kb_knob *k;
	size_t i, nfree = 0, nlinux = 0;

	(void)state;
	assert_true(kb_count(kb) >= 80);
	for (i = 0; i < kb_count(kb); i++) {
		k = kb_knob(kb, i);
		assert_non_null(k->name);
		assert_true(k->nsources > 0);
		assert_true(strlen(k->sources[0]) > 3);
		assert_non_null(k->effect);
		assert_int_not_equal(k->placement, KB_PLACE_UNKNOWN);
		if (strcmp(k->os, "linux") == 0) {
			nlinux++;
			/* Linux knobs say whether they live per network namespace. */
			assert_int_not_equal(k->scope, KB_SCOPE_UNSET);
		} else
			nfree++;
	}
	assert_true(nfree >= 40);
	assert_true(nlinux >= 40);
	kb_free(kb);
}

static void
test_kb_load_knows_every_knob_of_both_seeds(void **state)
{
	static const char *const seeds[] = {
		"hw.ibrs_disable", "kern.ipc.maxsockbuf", "machdep.hyperthreading_intr_allowed",
		"net.inet.rss.bits", "net.inet.rss.enabled", "net.inet.tcp.recvbuf_max",
		"net.inet.tcp.sendbuf_inc", "net.inet.tcp.sendbuf_max",
		"net.inet.tcp.soreceive_stream", "net.isr.bindthreads", "net.isr.defaultqlimit",
		"net.isr.dispatch", "net.isr.maxthreads",
		"hw.ix.tx_process_limit", "hw.ix.rx_process_limit", "hw.ix.rxd", "hw.ix.txd",
		"net.inet.tcp.tso", "kern.sched.slice", "hw.ix.enable_aim", "dev.ix.0.fc",
		"hw.ix.num_queues", "kern.random.sys.harvest.ethernet",
		"kern.random.sys.harvest.point_to_point", "kern.random.sys.harvest.interrupt",
	};
	struct kb *kb = share_kb();
	size_t i;

	(void)state;
	for (i = 0; i < nitems(seeds); i++) {
		if (kb_find(kb, seeds[i], "opnsense") == NULL)
			fail_msg("seed knob '%s' is not in the knowledge base", seeds[i]);
	}
	kb_free(kb);
}

/* Every FreeBSD fact carries where it was read, or says that it was not. */
static void
test_kb_load_every_freebsd_knob_is_verified_or_marked(void **state)
{
	struct kb *kb = share_kb();
	const struct kb_knob *k;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < kb_count(kb); i++) {
		k = kb_knob(kb, i);
		if (strcmp(k->os, "freebsd") != 0)
			continue;
		n++;
		if (k->verified == NULL && k->unverified == NULL)
			fail_msg("%s:%d: '%s' has neither 'verified:' nor 'unverified:'", k->file,
			    k->line, k->name);
	}
	assert_true(n >= 130);
	kb_free(kb);
}

static void
test_kb_load_refuses_verified_and_unverified_together(void **state)
{
	static const char text[] = "name: a.b\nos: freebsd\nplacement: sysctl\n"
	    "effect: e\nsource: s\nverified: x.c SYSCTL_INT\nunverified: not read\n";
	struct kb *kb = kb_new();
	char *cause = NULL;

	(void)state;
	assert_int_equal(kb_load_text(kb, "t.knob", text, strlen(text), &cause), -1);
	assert_non_null(strstr(cause, "both 'verified' and 'unverified'"));
	free(cause);
	kb_free(kb);
}

static void
test_kb_find_matches_unit_and_interface_patterns(void **state)
{
	struct kb *kb = share_kb();
	const struct kb_knob *k;

	(void)state;
	assert_non_null(k = kb_find(kb, "dev.ix.12.fc", "freebsd"));
	assert_string_equal(k->name, "dev.ix.%d.fc");
	assert_null(kb_find(kb, "dev.ix.x.fc", "freebsd"));
	assert_non_null(k = kb_find(kb, "if.eth0.100.rps_cpus", "linux"));
	assert_string_equal(k->name, "if.%s.rps_cpus");
	/* The most specific pattern wins. */
	assert_non_null(k = kb_find(kb, "if.eth0.rx-3.rps_cpus", "linux"));
	assert_string_equal(k->name, "if.%s.rx-%d.rps_cpus");
	assert_non_null(k = kb_find(kb, "dev.ixl.0.iflib.override_nrxqs", "freebsd"));
	assert_string_equal(k->name, "dev.%s.%d.iflib.override_nrxqs");
	/* OS filters. */
	assert_null(kb_find(kb, "net.isr.maxthreads", "linux"));
	assert_null(kb_find(kb, "net.inet.rss.enabled", "freebsd"));
	assert_non_null(kb_find(kb, "net.inet.rss.enabled", "opnsense"));
	kb_free(kb);
}

static void
test_kb_name_match_handles_edges(void **state)
{
	(void)state;
	assert_true(kb_name_match("a.%d.b", "a.0.b"));
	assert_false(kb_name_match("a.%d.b", "a..b"));
	assert_false(kb_name_match("a.%d.b", "a.1.bc"));
	assert_true(kb_name_match("if.%s.mtu", "if.eth0.mtu"));
	assert_false(kb_name_match("if.%s.mtu", "if..mtu"));
	assert_false(kb_name_match("if.%s.mtu", "if.mtu"));
	assert_true(kb_name_match("exact", "exact"));
}

static void
test_kb_suggest_finds_typos(void **state)
{
	struct kb *kb = share_kb();

	(void)state;
	assert_string_equal(kb_suggest(kb, "net.isr.maxthread", "freebsd"), "net.isr.maxthreads");
	assert_null(kb_suggest(kb, "completely.unrelated.name.here", "freebsd"));
	kb_free(kb);
}

static void
test_kb_load_text_rejects_bad_stanzas_with_file_and_line(void **state)
{
	/* a knob file's text, and what its error must say */
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "name: a.b\nos: freebsd\nplacement: sysctl\neffect: x\n",
		    "t.knob:1: knob 'a.b' has no 'source'" },
		{ "name: a.b\nbogus: 1\n", "t.knob:2: unknown key 'bogus'" },
		{ "name: a.b\nos: plan9\n", "t.knob:2: bad os 'plan9'" },
		{ "name: a\nos: linux\nplacement: sysctl\ntype: int\nrange: 5\neffect: x\nsource: y\n",
		    "bad range '5'" },
		{ "name: a\nos: linux\nplacement: sysctl\ntype: enum\neffect: x\nsource: y\n",
		    "has no 'values'" },
		{ "name: a\nos: linux\nplacement: sysctl\ntype: int\nrange: 0..3\n"
		    "default: 9\neffect: x\nsource: y\n", "default: 9 is out of range" },
		{ "name: a\nos: linux\nplacement: sysctl\neffect: x\nsource: y\n\n"
		    "name: a\nos: linux\nplacement: sysctl\neffect: x\nsource: y\n",
		    "t.knob:7: knob 'a' already defined at t.knob:1" },
		{ "name: a\nname: b\n", "t.knob:2: key 'name' given twice" },
		{ "name: a\nos: freebsd\nplacement: sysctl\neffect: x\nsource: y\n"
		    "forwarding: useless\n", "t.knob:1: knob 'a': 'forwarding' is 'none: WHY'" },
		{ "  continued\n", "continuation line without a key" },
		{ "just text\n", "t.knob:1: expected 'key: value'" },
		{ "name: a\nos: freebsd\nplacement: loader\ntype: int\nrange: 0..7\neffect: x\n"
		    "source: y\nboot-value: 0 rssbits\n",
		    "boot-value '0 rssbits': want 'VALUE -> EXPR' or 'VALUE -> EXPR when CONDITION'" },
		{ "name: a\nos: freebsd\nplacement: loader\ntype: int\nrange: 0..7\neffect: x\n"
		    "source: y\nboot-value: 9 -> 1\n", "boot-value '9 -> 1': 9 is out of range" },
		{ "name: a\nos: freebsd\nplacement: loader\ntype: int\neffect: x\n"
		    "source: y\nboot-value: 0 -> ncpus\n", "bad expression 'ncpus'" },
		{ "name: a\nos: freebsd\nplacement: loader\ntype: int\neffect: x\n"
		    "source: y\nboot-value: 0 -> ncpu when ncpu >> 1\n", "bad condition 'ncpu >> 1'" },
	};
	size_t i;
	char *e;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		e = load_error(cases[i].text);
		if (e == NULL || strstr(e, cases[i].want) == NULL)
			fail_msg("case %zu: got '%s', want '%s'", i + 1, e != NULL ? e : "no error",
			    cases[i].want);
		free(e);
	}
}

/* boot-value lines: the value the kernel sets at boot in place of the one given, per system. */
static void
test_kb_boot_value_computes_what_the_kernel_sets(void **state)
{
	const char *text = "name: n.bits\nos: freebsd\nplacement: loader\ntype: int\n"
	    "range: 0..7\ndefault: 0\neffect: x\nsource: y\n"
	    "boot-value: 0 -> rssbits when ncpu > 1\nboot-value: 5 -> ncores * 2\n";
	struct kb *kb = kb_new();
	const struct kb_knob *k;
	struct kb_system sys;
	struct kb_rule_ctx c;
	long long v;
	char why[64];

	(void)state;
	assert_int_equal(kb_load_text(kb, "t", text, strlen(text), NULL), 0);
	assert_non_null(k = kb_knob(kb, 0));
	memset(&sys, 0, sizeof sys);
	memset(&c, 0, sizeof c);
	sys.ncpu = 6;
	sys.ncores = 3;
	c.sys = &sys;
	c.os = "opnsense";
	c.rssbits = kb_rss_bits(6);
	assert_int_equal(kb_boot_value(k, "0", &c, &v, why, sizeof why), 1);
	assert_int_equal(v, 4);
	assert_string_equal(why, "for 6 CPUs");
	assert_int_equal(kb_boot_value(k, "5", &c, &v, why, sizeof why), 1);
	assert_int_equal(v, 6);
	assert_string_equal(why, "for 3 cores");
	assert_int_equal(kb_boot_value(k, "3", &c, &v, why, sizeof why), 0);
	sys.ncpu = 1;
	c.rssbits = kb_rss_bits(1);
	assert_int_equal(kb_boot_value(k, "0", &c, &v, why, sizeof why), 0);	/* one CPU keeps 0 */
	kb_free(kb);
}

static void
test_kb_load_text_joins_continuation_lines(void **state)
{
	const char *text = "# c\nname: a\nos: linux\nplacement: sysctl\neffect: one\n  two\n"
	    "source: s1\nsource: s2\n  more\n";
	struct kb *kb = kb_new();
	const struct kb_knob *k;

	(void)state;
	assert_int_equal(kb_load_text(kb, "t", text, strlen(text), NULL), 0);
	assert_non_null(k = kb_knob(kb, 0));
	assert_string_equal(k->effect, "one two");
	assert_int_equal(k->nsources, 2);
	assert_string_equal(k->sources[1], "s2 more");
	assert_int_equal(k->line, 2);
	kb_free(kb);
}

static void
test_kb_value_problem_checks_types_and_ranges(void **state)
{
	/* a value, the CPU count, and whether the knob accepts it */
	static const struct {
		const char *name, *os, *value;
		int ncpu;
		bool ok;
	} cases[] = {
		{ "net.isr.maxthreads", "freebsd", "-2", 0, false },
		{ "net.isr.maxthreads", "freebsd", "4k", 0, false },
		{ "net.inet.rss.bits", "opnsense", "3", 8, true },
		{ "net.inet.rss.bits", "opnsense", "4", 8, true },
		{ "net.inet.rss.bits", "opnsense", "5", 8, true },	/* the kernel takes 0..7 */
		{ "net.inet.rss.bits", "opnsense", "8", 8, false },
		{ "kern.ipc.maxsockbuf", "freebsd", "16M", 0, true },
		{ "kern.ipc.maxsockbuf", "freebsd", "lots", 0, false },
		{ "hw.ibrs_disable", "freebsd", "1", 0, true },
		{ "hw.ibrs_disable", "freebsd", "2", 0, false },
		{ "if.eth0.rps_cpus", "linux", "ff,ffffffff", 0, true },
		{ "if.eth0.rps_cpus", "linux", "0-3", 0, false },
		{ "if.eth0.irq_affinity", "linux", "0-3,6", 0, true },
		{ "if.eth0.irq_affinity", "linux", "spread", 0, true },
		{ "if.eth0.irq_affinity", "linux", "3-", 0, false },
		{ "net.ipv4.tcp_rmem", "linux", "4096 131072 16777216", 0, true },
		{ "net.ipv4.tcp_rmem", "linux", "4096 x", 0, false },
	};
	struct kb *kb = share_kb();
	const struct kb_knob *k;
	char *why;
	size_t i;

	(void)state;
	k = kb_find(kb, "net.isr.dispatch", "freebsd");
	assert_null(kb_value_problem(k, "deferred", 0));
	assert_non_null(why = kb_value_problem(k, "defered", 0));
	assert_non_null(strstr(why, "not one of: direct, hybrid, deferred"));
	free(why);
	k = kb_find(kb, "net.isr.maxthreads", "freebsd");
	assert_null(kb_value_problem(k, "-1", 0));
	assert_null(kb_value_problem(k, "64", 0));	/* CPU count unknown */
	assert_non_null(why = kb_value_problem(k, "64", 8));
	assert_non_null(strstr(why, "with 8 CPUs"));
	free(why);
	for (i = 0; i < nitems(cases); i++) {
		if ((k = kb_find(kb, cases[i].name, cases[i].os)) == NULL)
			fail_msg("no knob '%s' for %s", cases[i].name, cases[i].os);
		why = kb_value_problem(k, cases[i].value, cases[i].ncpu);
		if ((why == NULL) != cases[i].ok)
			fail_msg("%s=%s with %d CPUs: %s", cases[i].name, cases[i].value, cases[i].ncpu,
			    why != NULL ? why : "accepted");
		free(why);
	}
	kb_free(kb);
}

static void
test_kb_value_equal_is_type_aware(void **state)
{
	struct kb *kb = share_kb();

	(void)state;
	assert_true(kb_value_equal(kb_find(kb, "hw.ibrs_disable", "freebsd"), "1", "on"));
	assert_true(kb_value_equal(kb_find(kb, "kern.ipc.maxsockbuf", "freebsd"), "16M", "16777216"));
	assert_true(kb_value_equal(kb_find(kb, "if.e.rps_cpus", "linux"), "00000003", "3"));
	assert_true(kb_value_equal(kb_find(kb, "net.ipv4.tcp_rmem", "linux"), "4096\t1  2", "4096 1 2"));
	assert_false(kb_value_equal(kb_find(kb, "net.isr.dispatch", "freebsd"), "direct", "deferred"));
	assert_false(kb_value_equal(NULL, "a", "b"));
	kb_free(kb);
}

static void
test_kb_parse_number_accepts_suffixes(void **state)
{
	long long v;

	(void)state;
	assert_int_equal(kb_parse_number("16M", &v), 0);
	assert_int_equal(v, 16777216);
	assert_int_equal(kb_parse_number("-1", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(kb_parse_number("0x10", &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(kb_parse_number("1.5", &v), -1);
	assert_int_equal(kb_parse_number("", &v), -1);
	assert_int_equal(kb_parse_number("99999999999999999999", &v), -1);
	assert_int_equal(kb_parse_number("9000000000000000000G", &v), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kb_load_every_stanza_parses_and_names_a_source),
		cmocka_unit_test(test_kb_load_knows_every_knob_of_both_seeds),
		cmocka_unit_test(test_kb_load_every_freebsd_knob_is_verified_or_marked),
		cmocka_unit_test(test_kb_load_refuses_verified_and_unverified_together),
		cmocka_unit_test(test_kb_boot_value_computes_what_the_kernel_sets),
		cmocka_unit_test(test_kb_find_matches_unit_and_interface_patterns),
		cmocka_unit_test(test_kb_name_match_handles_edges),
		cmocka_unit_test(test_kb_suggest_finds_typos),
		cmocka_unit_test(test_kb_load_text_rejects_bad_stanzas_with_file_and_line),
		cmocka_unit_test(test_kb_load_text_joins_continuation_lines),
		cmocka_unit_test(test_kb_value_problem_checks_types_and_ranges),
		cmocka_unit_test(test_kb_value_equal_is_type_aware),
		cmocka_unit_test(test_kb_parse_number_accepts_suffixes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
