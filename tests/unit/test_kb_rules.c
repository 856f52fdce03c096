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
#include "testutil.h"

static struct kb_rules *
parse(const char *text)
{
	struct kb_rules *rs;
	char *cause = NULL;

	if (kb_rules_parse("t.advice", text, strlen(text), &rs, &cause) == -1)
		fail_msg("%s", cause);
	return rs;
}

static char *
parse_error(const char *text)
{
	struct kb_rules *rs;
	char *cause = NULL;

	assert_int_equal(kb_rules_parse("t.advice", text, strlen(text), &rs, &cause), -1);
	assert_non_null(cause);
	return cause;
}

static struct kb_rule_ctx
ctx(const struct kb_system *s, const char *os, enum kb_role role, enum kb_goal goal)
{
	struct kb_rule_ctx c;

	memset(&c, 0, sizeof c);
	c.sys = s;
	c.os = os;
	c.role = role;
	c.goal = goal;
	c.log2ncpu = 3;
	c.cpumask = "ff";
	return c;
}

/* A machine of ncpu CPUs on ncores cores (smt: hyperthreads on), nothing else known. */
static struct kb_system
machine(int ncpu, int ncores, int smt)
{
	struct kb_system s;

	memset(&s, 0, sizeof s);
	s.ncpu = ncpu;
	s.ncores = ncores;
	s.smt = smt;
	return s;
}

static void
test_rules_parse_reads_the_shipped_files(void **state)
{
	static const char *const files[] = { "system.advice", "nic.advice", "late.advice" };
	struct kb_rules *rs;
	char *path, *cause = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(files); i++) {
		xasprintf(&path, "%s/knobs/advice/%s", util_share_dir(), files[i]);
		if (kb_rules_load(path, &rs, &cause) == -1)
			fail_msg("%s", cause);
		assert_true(rs->n > 0);
		kb_rules_free(rs);
		free(path);
	}
}

static void
test_rules_eval_conditions_and_placeholders(void **state)
{
	struct kb_rules *rs = parse("knob: net.isr.maxthreads\nos: freebsd opnsense\n"
	    "when: ncpu > 1 and role router|firewall\nvalue: {ncpu}\ncertainty: usually helps\n"
	    "reason: one thread per CPU ({ncpu} CPUs,\n  {ncores} cores, mask {cpumask}, {role})\n"
	    "source: netisr(9)\n");
	struct kb_system s = machine(8, 4, 1);
	struct kb_rule_ctx c;
	char *name, *value, *reason;

	(void)state;
	assert_int_equal(rs->n, 1);
	assert_int_equal(rs->r[0].certainty, KB_USUALLY);
	assert_int_equal(rs->r[0].line, 1);
	c = ctx(&s, "opnsense", KB_ROLE_FIREWALL, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason, NULL), 1);
	assert_string_equal(name, "net.isr.maxthreads");
	assert_string_equal(value, "8");
	assert_string_equal(reason, "one thread per CPU (8 CPUs, 4 cores, mask ff, firewall)");
	free(name);
	free(value);
	free(reason);
	c = ctx(&s, "linux", KB_ROLE_ROUTER, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason, NULL), 0);
	c = ctx(&s, "freebsd", KB_ROLE_HOST, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason, NULL), 0);
	s.ncpu = 1;
	c = ctx(&s, "freebsd", KB_ROLE_ROUTER, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason, NULL), 0);
	kb_rules_free(rs);
}

static void
test_rules_eval_smt_rss_and_goal_terms(void **state)
{
	struct kb_rules *rs = parse("knob: a\nwhen: smt\nvalue: 1\ncertainty: safe\nreason: r\n"
	    "source: s\n\nknob: b\nwhen: rss and goal latency|throughput\nvalue: 1\n"
	    "certainty: measure it\nreason: r\nsource: s\n\nknob: c\nwhen: ncores >= 4\nvalue: 1\n"
	    "certainty: safe\nreason: r\nsource: s\n");
	struct kb_system s = machine(4, 4, 0);	/* and no RSS in the kernel */
	struct kb_rule_ctx c;
	char *n, *v, *r;

	(void)state;
	c = ctx(&s, "freebsd", KB_ROLE_ROUTER, KB_GOAL_LATENCY);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, NULL), 0);
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, NULL), 0);
	assert_int_equal(kb_rule_eval(&rs->r[2], &c, &n, &v, &r, NULL), 1);
	free(n);
	free(v);
	free(r);
	c = ctx(&s, "opnsense", KB_ROLE_ROUTER, KB_GOAL_LATENCY);
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, NULL), 1);
	free(n);
	free(v);
	free(r);
	c.goal = KB_GOAL_FORWARDING;
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, NULL), 0);
	kb_rules_free(rs);
}

static void
test_rules_parse_rejects_bad_rules_with_file_and_line(void **state)
{
	static const struct testutil_case bad[] = {
		{ "knob: a\nvalue: 1\ncertainty: sure\n", "t.advice:3: bad certainty 'sure'" },
		{ "\nknob: a\nvalue: 1\ncertainty: safe\nreason: r\n",
		    "t.advice:2: rule has no 'source'" },
		{ "knob: a\nwhen: ncpu >> 1\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "t.advice:1: bad condition 'ncpu >> 1'" },
		{ "knob: a\nwhen: role king\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "bad condition 'role king'" },
		{ "knob: a\nvalue: {memory}\ncertainty: safe\nreason: r\nsource: s\n",
		    "unknown {placeholder}" },
		{ "knob: a\nknob: b\n", "t.advice:2: key 'knob' given twice" },
		{ "bogus: 1\n", "t.advice:1: unknown key 'bogus'" },
		{ "  cont\n", "continuation line without a key" },
	};

	(void)state;
	testutil_each_contains(parse_error, bad, nitems(bad));
}

static void
test_rules_eval_per_nic_terms_expressions_and_placeholders(void **state)
{
	struct kb_rules *rs = parse("knob: dev.{driver}.{unit}.iflib.override_nrxqs\nfor: nic\n"
	    "when: iflib and not loopback and queues < queues_wanted and driver ix|ax\n"
	    "value: {queues_wanted}\ncertainty: usually helps\n"
	    "reason: {nic} {queues}/{max_queues} {rx_ring * 2 + 1}\nsource: {driver_source}\n\n"
	    "knob: net.core.netdev_max_backlog\nwhen: maxspeed * 1000 / 672 / ncpu > 1000\n"
	    "value: {maxspeed * 1000 / 672 / ncpu}\ncertainty: safe\nreason: r\nsource: s\n");
	struct kb_driver drv;
	struct kb_system s = machine(8, 0, 0);
	struct kb_nic nic;
	struct kb_rule_ctx c;
	char *n, *v, *r, *src;

	(void)state;
	memset(&nic, 0, sizeof nic);
	snprintf(nic.name, sizeof nic.name, "ix3");
	nic.queues = 2;
	nic.max_queues = 6;
	nic.rx_ring = 1024;
	memset(&drv, 0, sizeof drv);
	drv.name = (char *)"ix";
	drv.iflib = 1;
	drv.source = (char *)"ixgbe(4)";
	assert_true(rs->r[0].per_nic);
	c = ctx(&s, "freebsd", KB_ROLE_ROUTER, KB_GOAL_FORWARDING);
	/* a per-NIC rule needs a NIC, a system rule none */
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 0);
	c.nic = &nic;
	c.drv = &drv;
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 1);
	assert_string_equal(n, "dev.ix.3.iflib.override_nrxqs");
	assert_string_equal(v, "6");
	assert_string_equal(r, "ix3 2/6 2049");
	assert_string_equal(src, "ixgbe(4)");
	free(n);
	free(v);
	free(r);
	free(src);
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, &src), 0);
	/* not an iflib driver; a loopback; a driver not listed; no unit number */
	drv.iflib = 0;
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 0);
	drv.iflib = 1;
	snprintf(nic.name, sizeof nic.name, "lo0");
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 0);
	snprintf(nic.name, sizeof nic.name, "em0");
	drv.name = (char *)"em";
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 0);
	snprintf(nic.name, sizeof nic.name, "wan");
	drv.name = (char *)"ix";
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r, &src), 0);
	/* 25 Gbit/s over 4 CPUs: 25000 * 1000 / 672 / 4 = 9300 */
	c.nic = NULL;
	c.drv = NULL;
	s.ncpu = 4;
	c.maxspeed = 25000;
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, &src), 1);
	assert_string_equal(v, "9300");
	free(n);
	free(v);
	free(r);
	free(src);
	c.maxspeed = 1000;
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r, &src), 0);
	kb_rules_free(rs);
}

static void
test_rules_parse_rejects_nic_terms_outside_per_nic_rules(void **state)
{
	static const struct testutil_case bad[] = {
		{ "knob: a\nwhen: queues > 1\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "t.advice:1: bad condition 'queues > 1' (NIC terms need 'for: nic')" },
		{ "knob: if.{nic}.x\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "NIC placeholders need 'for: nic'" },
		{ "knob: a\nfor: nics\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "t.advice:2: bad 'for: nics'" },
		{ "knob: a\nfor: nic\nwhen: queues >\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "bad condition 'queues >'" },
		{ "knob: a\nfor: nic\nvalue: 1\ncertainty: not advised\nreason: r\nsource: s\n",
		    "t.advice:1: a 'not advised' rule has no value" },
		{ "knob: a\nnic-state: lro\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n",
		    "nic-state is lro or tso, in a 'for: nic' rule" },
	};

	(void)state;
	testutil_each_contains(parse_error, bad, nitems(bad));
}

static void
test_drivers_parse_and_find_the_driver_of_a_nic(void **state)
{
	static const char text[] = "# drivers\ndriver: em\nos: freebsd\ninterfaces: em igb\n"
	    "iflib: yes\nmax-rxd: 4096\nsource: em(4)\nsource: if_em.h\n\n"
	    "driver: igb\nos: freebsd\ninterfaces: igb em\nsource: igb(4)\n";
	struct kb_drivers *ds;
	struct kb_nic nic;
	const struct kb_driver *d;
	char *cause = NULL;

	(void)state;
	assert_int_equal(kb_drivers_parse("t.drivers", text, strlen(text), &ds, &cause), 0);
	assert_int_equal(ds->n, 2);
	memset(&nic, 0, sizeof nic);
	snprintf(nic.name, sizeof nic.name, "igb1");
	d = kb_driver_for_nic(ds, "freebsd", &nic);
	assert_non_null(d);
	assert_string_equal(d->name, "em");	/* the first stanza naming igb */
	assert_int_equal(d->iflib, 1);
	assert_int_equal(d->max_rxd, 4096);
	assert_int_equal(d->max_txd, -1);
	assert_int_equal(d->lro, -1);
	assert_string_equal(d->source, "em(4); if_em.h");
	assert_null(kb_driver_for_nic(ds, "linux", &nic));
	snprintf(nic.name, sizeof nic.name, "ix0");
	assert_null(kb_driver_for_nic(ds, "freebsd", &nic));
	assert_non_null(kb_driver_named(ds, "freebsd", "igb"));
	kb_drivers_free(ds);
	assert_int_equal(kb_drivers_parse("t.drivers", "driver: x\nos: freebsd\niflib: maybe\n", 34,
	    &ds, &cause), -1);
	assert_non_null(strstr(cause, "t.drivers:3: 'iflib' is yes or no, not 'maybe'"));
	free(cause);
	cause = NULL;
	assert_int_equal(kb_drivers_parse("t.drivers", "\ndriver: x\nos: freebsd\n", 23, &ds,
	    &cause), -1);
	assert_non_null(strstr(cause, "t.drivers:2: driver stanza has no 'interfaces'"));
	free(cause);
}

static void
test_prefixes_parse_and_match_names_per_os(void **state)
{
	static const char text[] = "os: linux\nprefixes: net.core. if.\n  cpu.\n\nos: freebsd\n"
	    "prefixes: kern.\n";
	struct kb_prefixes *ps;
	char *cause = NULL;

	(void)state;
	assert_int_equal(kb_prefixes_parse("t.prefixes", text, strlen(text), &ps, &cause), 0);
	assert_int_equal(ps->n, 4);
	assert_true(kb_prefix_is(ps, "cpu.governor", "linux"));
	assert_true(kb_prefix_is(ps, "kern.hz", "freebsd"));
	assert_false(kb_prefix_is(ps, "kern.hz", "linux"));
	assert_false(kb_prefix_is(ps, "vm.x", "freebsd"));
	kb_prefixes_free(ps);
	assert_int_equal(kb_prefixes_parse("t.prefixes", "\nos: solaris\nprefixes: a.\n", 26, &ps,
	    &cause), -1);
	assert_non_null(strstr(cause, "t.prefixes:2: a stanza needs 'os: freebsd|linux' and 'prefixes'"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_parse_reads_the_shipped_files),
		cmocka_unit_test(test_rules_eval_conditions_and_placeholders),
		cmocka_unit_test(test_rules_eval_smt_rss_and_goal_terms),
		cmocka_unit_test(test_rules_parse_rejects_bad_rules_with_file_and_line),
		cmocka_unit_test(test_rules_eval_per_nic_terms_expressions_and_placeholders),
		cmocka_unit_test(test_rules_parse_rejects_nic_terms_outside_per_nic_rules),
		cmocka_unit_test(test_drivers_parse_and_find_the_driver_of_a_nic),
		cmocka_unit_test(test_prefixes_parse_and_match_names_per_os),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
