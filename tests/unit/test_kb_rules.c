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

static void
test_rules_parse_reads_the_shipped_files(void **state)
{
	static const char *const files[] = { "system.advice", "late.advice" };
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
	struct kb_system s;
	struct kb_rule_ctx c;
	char *name, *value, *reason;

	(void)state;
	memset(&s, 0, sizeof s);
	s.ncpu = 8;
	s.ncores = 4;
	s.smt = 1;
	assert_int_equal(rs->n, 1);
	assert_int_equal(rs->r[0].certainty, KB_USUALLY);
	assert_int_equal(rs->r[0].line, 1);
	c = ctx(&s, "opnsense", KB_ROLE_FIREWALL, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason), 1);
	assert_string_equal(name, "net.isr.maxthreads");
	assert_string_equal(value, "8");
	assert_string_equal(reason, "one thread per CPU (8 CPUs, 4 cores, mask ff, firewall)");
	free(name);
	free(value);
	free(reason);
	c = ctx(&s, "linux", KB_ROLE_ROUTER, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason), 0);
	c = ctx(&s, "freebsd", KB_ROLE_HOST, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason), 0);
	s.ncpu = 1;
	c = ctx(&s, "freebsd", KB_ROLE_ROUTER, KB_GOAL_FORWARDING);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &name, &value, &reason), 0);
	kb_rules_free(rs);
}

static void
test_rules_eval_smt_rss_and_goal_terms(void **state)
{
	struct kb_rules *rs = parse("knob: a\nwhen: smt\nvalue: 1\ncertainty: safe\nreason: r\n"
	    "source: s\n\nknob: b\nwhen: rss and goal latency|throughput\nvalue: 1\n"
	    "certainty: measure it\nreason: r\nsource: s\n\nknob: c\nwhen: ncores >= 4\nvalue: 1\n"
	    "certainty: safe\nreason: r\nsource: s\n");
	struct kb_system s;
	struct kb_rule_ctx c;
	char *n, *v, *r;

	(void)state;
	memset(&s, 0, sizeof s);
	s.ncpu = 4;
	s.ncores = 4;
	s.smt = 0;
	s.rss_kernel = 0;
	c = ctx(&s, "freebsd", KB_ROLE_ROUTER, KB_GOAL_LATENCY);
	assert_int_equal(kb_rule_eval(&rs->r[0], &c, &n, &v, &r), 0);
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r), 0);
	assert_int_equal(kb_rule_eval(&rs->r[2], &c, &n, &v, &r), 1);
	free(n);
	free(v);
	free(r);
	c = ctx(&s, "opnsense", KB_ROLE_ROUTER, KB_GOAL_LATENCY);
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r), 1);
	free(n);
	free(v);
	free(r);
	c.goal = KB_GOAL_FORWARDING;
	assert_int_equal(kb_rule_eval(&rs->r[1], &c, &n, &v, &r), 0);
	kb_rules_free(rs);
}

static void
test_rules_parse_rejects_bad_rules_with_file_and_line(void **state)
{
	char *e;

	(void)state;
	e = parse_error("knob: a\nvalue: 1\ncertainty: sure\n");
	assert_non_null(strstr(e, "t.advice:3: bad certainty 'sure'"));
	free(e);
	e = parse_error("\nknob: a\nvalue: 1\ncertainty: safe\nreason: r\n");
	assert_non_null(strstr(e, "t.advice:2: rule has no 'source'"));
	free(e);
	e = parse_error("knob: a\nwhen: ncpu >> 1\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n");
	assert_non_null(strstr(e, "t.advice:1: bad condition 'ncpu >> 1'"));
	free(e);
	e = parse_error("knob: a\nwhen: role king\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n");
	assert_non_null(strstr(e, "bad condition 'role king'"));
	free(e);
	e = parse_error("knob: a\nvalue: {memory}\ncertainty: safe\nreason: r\nsource: s\n");
	assert_non_null(strstr(e, "unknown {placeholder}"));
	free(e);
	e = parse_error("knob: a\nknob: b\n");
	assert_non_null(strstr(e, "t.advice:2: key 'knob' given twice"));
	free(e);
	e = parse_error("bogus: 1\n");
	assert_non_null(strstr(e, "t.advice:1: unknown key 'bogus'"));
	free(e);
	e = parse_error("  cont\n");
	assert_non_null(strstr(e, "continuation line without a key"));
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_parse_reads_the_shipped_files),
		cmocka_unit_test(test_rules_eval_conditions_and_placeholders),
		cmocka_unit_test(test_rules_eval_smt_rss_and_goal_terms),
		cmocka_unit_test(test_rules_parse_rejects_bad_rules_with_file_and_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
