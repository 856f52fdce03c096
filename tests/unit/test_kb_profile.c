#include <stdarg.h>
#include <stdbool.h>
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

/* The entries of a profile, one a line: "LINE NAME OP VALUE", then " # COMMENT" if it has one. */
static char *
entries_of(const struct kb_profile *p)
{
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < p->nentries; i++) {
		strbuf_addf(&sb, "%d %s%s%s", p->entries[i].line, p->entries[i].name,
		    kb_op_text(p->entries[i].op), p->entries[i].value);
		if (p->entries[i].comment != NULL)
			strbuf_addf(&sb, " # %s", p->entries[i].comment);
		strbuf_addf(&sb, "\n");
	}
	return strbuf_detach(&sb);
}

static const char sysctl_d[] = "; comment\n-net.ipv4.ip_forward = 1\r\n"
    "net/ipv4/conf/eth0.100/rp_filter=2\nnet.ipv4.tcp_rmem = 4096\t87380   16777216\n"
    "hw.ix.rxd: 2048\n";

/* Each form a profile comes in, and the entries read from it. */
static void
test_profile_parse_reads_each_form(void **state)
{
	static const struct {
		const char	*form, *text, *entries;
		bool		 xml;
	} forms[] = {
		{ "loader.conf quoting and comments",
		    "# header\n\nkern.ipc.maxsockbuf=\"16777216\" # big\n"
		    "a.b='x y'\nc.d=1 # trailing\ne.f=v#notacomment\n",
		    "3 kern.ipc.maxsockbuf=16777216 # big\n4 a.b=x y\n5 c.d=1 # trailing\n"
		    "6 e.f=v#notacomment\n", false },
		{ "tuned's raise and lower",
		    "net.core.somaxconn=>2048\nvm.swappiness=<10\nx.y = 3\n",
		    "1 net.core.somaxconn=>2048\n2 vm.swappiness=<10\n3 x.y=3\n", false },
		{ "sysctl.d", sysctl_d,
		    "2 net.ipv4.ip_forward=1 # comment\n3 net.ipv4.conf.eth0/100.rp_filter=2\n"
		    "4 net.ipv4.tcp_rmem=4096 87380 16777216\n5 hw.ix.rxd=2048\n", false },
		{ "OPNsense config.xml", "<?xml version=\"1.0\"?>\n<opnsense>\n"
		    "  <system><item>ignored</item></system>\n"
		    "  <sysctl version=\"1.0.2\">\n    <item uuid=\"x\">\n"
		    "      <tunable>net.isr.maxthreads</tunable>\n      <value>-1</value>\n"
		    "      <descr>all &amp; more</descr>\n    </item>\n"
		    "    <item><tunable>kern.x</tunable><value>default</value><descr/></item>\n"
		    "    <item><tunable>net.inet.rss.bits</tunable><value>3</value><descr/>"
		    "</item>\n"
		    "  </sysctl>\n</opnsense>\n",
		    "5 net.isr.maxthreads=-1 # all & more\n11 net.inet.rss.bits=3\n", true },
		{ "pasted <item> lists", "<item><tunable>dev.igc.0.fc</tunable><value>0</value>"
		    "<descr/></item>\n<item><tunable>net.isr.bindthreads</tunable><value>1</value>"
		    "</item>",
		    "1 dev.igc.0.fc=0\n2 net.isr.bindthreads=1\n", true },
	};
	struct kb_profile *p;
	char *got;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(forms); i++) {
		p = parse(forms[i].text);
		got = entries_of(p);
		if (strcmp(got, forms[i].entries) != 0)
			fail_msg("%s: read\n%s, want\n%s", forms[i].form, got, forms[i].entries);
		if (p->xml != forms[i].xml)
			fail_msg("%s: xml is %d", forms[i].form, p->xml);
		free(got);
		kb_profile_free(p);
	}
}

static void
test_profile_parse_reads_the_release_of_a_freebsd_tag(void **state)
{
	struct kb_profile *p;

	(void)state;
	p = parse("# $FreeBSD: releng/10.4/etc/sysctl.conf 112200 2003-03-13 18:43:50Z mux $\n"
	    "# $FreeBSD: releng/12.1/etc/sysctl.conf 1 $\nkern.ipc.somaxconn=1024\n");
	assert_non_null(p->release);
	assert_string_equal(p->release, "10.4");	/* the first tag */
	kb_profile_free(p);
	p = parse("#\t$FreeBSD: stable/11/etc/sysctl.conf 1 $\nkern.ipc.somaxconn=1024\n");
	assert_string_equal(p->release, "11");
	kb_profile_free(p);
	p = parse("# tuned for FreeBSD 10.4\n# $FreeBSD$\n# $FreeBSD: head/etc/sysctl.conf 1 $\n"
	    "kern.ipc.somaxconn=1024 # $FreeBSD: releng/9.3/x $\n");
	assert_null(p->release);	/* prose, an empty tag, head, a value's comment */
	kb_profile_free(p);
}

static void
test_profile_get_finds_an_entry_by_name(void **state)
{
	struct kb_profile *p = parse(sysctl_d);

	(void)state;
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
test_profile_load_names_missing_file(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_null(kb_profile_load("/nonexistent/profile.conf", &cause));
	assert_non_null(strstr(cause, "/nonexistent/profile.conf"));
	free(cause);
}

/* tuned.conf includes, read from a table of files instead of the file system. */
struct file {
	const char *path, *text;
};

static int
read_table(void *arg, const char *path, char **text, size_t *len)
{
	const struct file *f;

	for (f = arg; f->path != NULL; f++) {
		if (strcmp(f->path, path) == 0) {
			*text = xstrdup(f->text);
			*len = strlen(f->text);
			return 0;
		}
	}
	return -1;
}

static struct kb_profile *
parse_tuned(const struct file *files, bool all, char **cause)
{
	struct kb_profile_reader rd = { read_table, (void *)files, "/r" };

	return kb_profile_parse_from(files[0].path, files[0].text, strlen(files[0].text), &rd, all,
	    cause);
}

static const char *
note_at(const struct kb_profile *p, const char *file, int line, const char *part)
{
	size_t i;

	for (i = 0; i < p->nnotes; i++) {
		if (p->notes[i].line == line && strstr(p->notes[i].message, part) != NULL &&
		    (file == NULL ? p->notes[i].file == NULL : p->notes[i].file != NULL &&
		    strcmp(p->notes[i].file, file) == 0))
			return p->notes[i].message;
	}
	return NULL;
}

static void
test_profile_tuned_replace_and_drop_remove_the_included_settings(void **state)
{
	static const struct file files[] = {
		{ "/p/child/tuned.conf", "[main]\ninclude=parent\n[sysctl]\ndrop=net.ipv4.tcp_sack\n"
		    "net.ipv4.tcp_ecn=2\n[sysctl.more]\ntype=sysctl\nreplace=true\n"
		    "net.ipv4.tcp_dsack=0\n" },
		{ "/p/parent/tuned.conf", "[sysctl]\nnet.ipv4.tcp_sack=1\nnet.ipv4.tcp_ecn=1\n"
		    "net.ipv4.tcp_fack=1\n[sysctl.more]\ntype=sysctl\nnet.ipv4.tcp_frto=2\n" },
		{ NULL, NULL },
	};
	struct kb_profile *p = parse_tuned(files, false, NULL);

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nentries, 3);
	assert_null(kb_profile_get(p, "net.ipv4.tcp_sack"));
	assert_null(kb_profile_get(p, "net.ipv4.tcp_frto"));
	assert_string_equal(kb_profile_get(p, "net.ipv4.tcp_ecn")->value, "2");
	assert_string_equal(kb_profile_get(p, "net.ipv4.tcp_ecn")->file, "/p/child/tuned.conf");
	assert_string_equal(kb_profile_get(p, "net.ipv4.tcp_fack")->file, "/p/parent/tuned.conf");
	assert_non_null(note_at(p, NULL, 4, "drop= removes 'net.ipv4.tcp_sack=1' of /p/parent/tuned.conf:2"));
	assert_non_null(note_at(p, NULL, 5, "overrides 'net.ipv4.tcp_ecn=1' of /p/parent/tuned.conf:3"));
	assert_non_null(note_at(p, NULL, 8, "replace=true: the 1 settings of [sysctl.more]"));
	kb_profile_free(p);
}

static void
test_profile_tuned_etc_profile_of_the_same_name_includes_the_system_one(void **state)
{
	/* A user's /etc/tuned/NAME including NAME: TuneD skips the file it is reading and
	 * finds /usr/lib/tuned/NAME (locator.py:36-38). */
	static const struct file files[] = {
		{ "/r/etc/tuned/network-throughput/tuned.conf",
		    "[main]\ninclude=network-throughput\n[sysctl]\nnet.core.somaxconn=8192\n" },
		{ "/r/usr/lib/tuned/network-throughput/tuned.conf",
		    "[sysctl]\nnet.core.somaxconn=>2048\nnet.ipv4.tcp_rmem=4096 87380 16777216\n" },
		{ NULL, NULL },
	};
	struct kb_profile *p = parse_tuned(files, false, NULL);

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nentries, 2);
	assert_string_equal(kb_profile_get(p, "net.core.somaxconn")->value, "8192");
	assert_string_equal(kb_profile_get(p, "net.ipv4.tcp_rmem")->file,
	    "/r/usr/lib/tuned/network-throughput/tuned.conf");
	kb_profile_free(p);
}

static void
test_profile_tuned_unreadable_line_in_an_include_names_that_file(void **state)
{
	static const struct file files[] = {
		{ "/p/a/tuned.conf", "[main]\ninclude=-b\n[sysctl]\nnet.ipv4.tcp_sack=1\n" },
		{ "/p/b/tuned.conf", "[sysctl]\nnet.ipv4.tcp_ecn 1\n" },
		{ NULL, NULL },
	};
	char *cause = NULL;

	(void)state;
	assert_null(parse_tuned(files, false, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, "/p/b/tuned.conf:2: "));
	free(cause);
}

static void
test_profile_tuned_disabled_unit_and_text_include_are_said(void **state)
{
	static const struct file files[] = {
		{ "/p/a/tuned.conf", "[main]\ninclude=-nowhere\n[sysctl]\nenabled=false\n"
		    "net.ipv4.tcp_sack=1\n" },
		{ NULL, NULL },
	};
	struct kb_profile *p = parse_tuned(files, false, NULL);

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->nentries, 0);
	assert_non_null(note_at(p, NULL, 3, "is disabled"));
	assert_non_null(note_at(p, NULL, 2, "TuneD skips a '-' include it cannot find"));
	kb_profile_free(p);
	p = parse(files[0].text);
	assert_non_null(note_at(p, NULL, 2, "the included profile is not read"));
	kb_profile_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_parse_loads_seed_000_block_as_is),
		cmocka_unit_test(test_profile_parse_reads_each_form),
		cmocka_unit_test(test_profile_get_finds_an_entry_by_name),
		cmocka_unit_test(test_profile_parse_reads_the_release_of_a_freebsd_tag),
		cmocka_unit_test(test_profile_parse_rejects_bad_lines_with_file_and_line),
		cmocka_unit_test(test_profile_parse_rejects_broken_xml_items),
		cmocka_unit_test(test_profile_load_names_missing_file),
		cmocka_unit_test(test_profile_tuned_replace_and_drop_remove_the_included_settings),
		cmocka_unit_test(test_profile_tuned_etc_profile_of_the_same_name_includes_the_system_one),
		cmocka_unit_test(test_profile_tuned_unreadable_line_in_an_include_names_that_file),
		cmocka_unit_test(test_profile_tuned_disabled_unit_and_text_include_are_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
