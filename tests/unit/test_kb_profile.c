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

static struct kb_profile *
parse(const char *text)
{
	char *cause = NULL;
	struct kb_profile *p = kb_profile_parse("t.conf", text, strlen(text), &cause);

	if (p == NULL)
		fail_msg("parse: %s", cause);
	return p;
}

static char *
parse_error(const char *text)
{
	char *cause = NULL;
	struct kb_profile *p = kb_profile_parse("t.conf", text, strlen(text), &cause);

	assert_null(p);
	assert_non_null(cause);
	return cause;
}

static void
test_profile_parse_loads_seed_000_block_as_is(void **state)
{
	struct kb_profile *p;
	char *cause = NULL, *path;

	(void)state;
	xasprintf(&path, "%s/profiles/seed-000-opnsense-dec750.conf", util_share_dir());
	if ((p = kb_profile_load(path, &cause)) == NULL)
		fail_msg("%s", cause);
	assert_int_equal(p->nentries, 13);
	assert_string_equal(p->entries[0].name, "hw.ibrs_disable");
	assert_string_equal(p->entries[3].name, "net.inet.rss.bits");
	assert_string_equal(p->entries[3].value, "3");
	assert_string_equal(p->entries[12].name, "net.isr.maxthreads");
	assert_string_equal(p->entries[12].value, "-1");
	assert_int_equal(p->entries[12].op, KB_OP_SET);
	kb_profile_free(p);
	free(path);
}

static void
test_profile_parse_accepts_loader_quoting_and_comments(void **state)
{
	struct kb_profile *p = parse("# header\n\nkern.ipc.maxsockbuf=\"16777216\" # big\n"
	    "a.b='x y'\nc.d=1 # trailing\ne.f=v#notacomment\n");

	(void)state;
	assert_int_equal(p->nentries, 4);
	assert_string_equal(p->entries[0].value, "16777216");
	assert_int_equal(p->entries[0].line, 3);
	assert_string_equal(p->entries[0].comment, "big");
	assert_string_equal(p->entries[1].value, "x y");
	assert_string_equal(p->entries[2].value, "1");
	assert_string_equal(p->entries[2].comment, "trailing");
	assert_string_equal(p->entries[3].value, "v#notacomment");
	kb_profile_free(p);
}

static void
test_profile_parse_reads_tuned_raise_and_lower(void **state)
{
	struct kb_profile *p = parse("net.core.somaxconn=>2048\nvm.swappiness=<10\nx.y = 3\n");

	(void)state;
	assert_int_equal(p->entries[0].op, KB_OP_RAISE);
	assert_string_equal(p->entries[0].value, "2048");
	assert_int_equal(p->entries[1].op, KB_OP_LOWER);
	assert_string_equal(p->entries[1].value, "10");
	assert_int_equal(p->entries[2].op, KB_OP_SET);
	assert_string_equal(kb_op_text(KB_OP_RAISE), "=>");
	kb_profile_free(p);
}

static void
test_profile_parse_reads_sysctl_d_forms(void **state)
{
	struct kb_profile *p = parse("; comment\n-net.ipv4.ip_forward = 1\r\n"
	    "net/ipv4/conf/eth0.100/rp_filter=2\nnet.ipv4.tcp_rmem = 4096\t87380   16777216\n"
	    "hw.ix.rxd: 2048\n");

	(void)state;
	assert_int_equal(p->nentries, 4);
	assert_string_equal(p->entries[0].name, "net.ipv4.ip_forward");
	assert_string_equal(p->entries[0].value, "1");
	assert_string_equal(p->entries[1].name, "net.ipv4.conf.eth0/100.rp_filter");
	assert_string_equal(p->entries[2].value, "4096 87380 16777216");
	assert_string_equal(p->entries[3].name, "hw.ix.rxd");
	assert_string_equal(p->entries[3].value, "2048");
	assert_non_null(kb_profile_get(p, "hw.ix.rxd"));
	assert_null(kb_profile_get(p, "hw.ix.txd"));
	kb_profile_free(p);
}

static void
test_profile_parse_rejects_bad_lines_with_file_and_line(void **state)
{
	static const struct testutil_case exact[] = {
		{ "a=1\nfoo=\"bar\n", "t.conf:2: unterminated quote in value of 'foo'" },
		{ "a=\n", "t.conf:1: no value for 'a'" },
		{ "a b=1\n", "t.conf:1: expected '=' after 'a'" },
		{ "a$b=1\n", "t.conf:1: bad character '$' in name" },
	};
	static const struct testutil_case bad[] = {
		{ "justaname\n", "t.conf:1: expected name=value" },
		{ "=1\n", "t.conf:1: expected name=value" },
		{ "a=\"x\" y\n", "text after the quoted value" },
	};

	(void)state;
	testutil_each_equal(parse_error, exact, nitems(exact));
	testutil_each_contains(parse_error, bad, nitems(bad));
}

static void
test_profile_parse_reads_opnsense_config_xml(void **state)
{
	const char *xml = "<?xml version=\"1.0\"?>\n<opnsense>\n  <system><item>ignored</item></system>\n"
	    "  <sysctl version=\"1.0.2\">\n    <item uuid=\"x\">\n"
	    "      <tunable>net.isr.maxthreads</tunable>\n      <value>-1</value>\n"
	    "      <descr>all &amp; more</descr>\n    </item>\n"
	    "    <item><tunable>kern.x</tunable><value>default</value><descr/></item>\n"
	    "    <item><tunable>net.inet.rss.bits</tunable><value>3</value><descr/></item>\n"
	    "  </sysctl>\n</opnsense>\n";
	struct kb_profile *p = parse(xml);

	(void)state;
	assert_true(p->xml);
	assert_int_equal(p->nentries, 2);
	assert_string_equal(p->entries[0].name, "net.isr.maxthreads");
	assert_string_equal(p->entries[0].value, "-1");
	assert_string_equal(p->entries[0].comment, "all & more");
	assert_int_equal(p->entries[0].line, 5);
	assert_string_equal(p->entries[1].name, "net.inet.rss.bits");
	kb_profile_free(p);
}

static void
test_profile_parse_rejects_broken_xml_items(void **state)
{
	static const struct testutil_case bad[] = {
		{ "<sysctl>\n<item><tunable>a</tunable>\n</sysctl>\n",
		    "t.conf:2: <item> without </item>" },
		{ "<sysctl><item><tunable></tunable><value>1</value></item></sysctl>",
		    "empty <tunable>" },
	};

	(void)state;
	testutil_each_contains(parse_error, bad, nitems(bad));
}

static void
test_profile_parse_reads_pasted_item_lists(void **state)
{
	struct kb_profile *p = parse("<item><tunable>dev.igc.0.fc</tunable><value>0</value>"
	    "<descr/></item>\n<item><tunable>net.isr.bindthreads</tunable><value>1</value></item>");

	(void)state;
	assert_int_equal(p->nentries, 2);
	assert_string_equal(p->entries[1].name, "net.isr.bindthreads");
	kb_profile_free(p);
}

static void
test_profile_load_names_missing_file(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_null(kb_profile_load("/nonexistent/profile.conf", &cause));
	assert_non_null(strstr(cause, "/nonexistent/profile.conf"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_parse_loads_seed_000_block_as_is),
		cmocka_unit_test(test_profile_parse_accepts_loader_quoting_and_comments),
		cmocka_unit_test(test_profile_parse_reads_tuned_raise_and_lower),
		cmocka_unit_test(test_profile_parse_reads_sysctl_d_forms),
		cmocka_unit_test(test_profile_parse_rejects_bad_lines_with_file_and_line),
		cmocka_unit_test(test_profile_parse_reads_opnsense_config_xml),
		cmocka_unit_test(test_profile_parse_rejects_broken_xml_items),
		cmocka_unit_test(test_profile_parse_reads_pasted_item_lists),
		cmocka_unit_test(test_profile_load_names_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
