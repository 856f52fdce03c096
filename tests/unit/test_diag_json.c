/*
 * src/diag/diag_json.c: the diagnosis (DIR/diagnosis.json, `ntune diagnose --json`) written and
 * read through one typed table; the report reads a results directory's diagnosis.json that way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "diag/diag.h"
#include "report/report.h"
#include "util/util.h"
#include "util/util_json.h"
#include "testutil.h"

/* A diagnosis as `ntune diagnose --json` writes it: a finding with evidence, a fact, notes. */
static const char written[] =
    "{\"schema\":\"ntune-diagnosis\",\"version\":1,\"os\":\"freebsd\",\"netns\":\"\","
    "\"since_boot\":false,\"interval_s\":10.0,\"findings\":[{\"kind\":\"one-queue\","
    "\"entity\":\"ax0\",\"certainty\":\"likely\",\"summary\":\"queue 0 of ax0 takes 97%\","
    "\"evidence\":[{\"metric\":\"nic.ax0.rxq_top_share\",\"value\":97.0}],\"knobs\":[{\"name\":"
    "\"net.inet.rss.enabled\",\"host\":false}],\"source\":\"sys/net/rss_config.c\",\"rule\":"
    "\"freebsd.rules:12\"}],\"headroom\":null,\"headroom_facts\":[{\"kind\":\"netisr-one\","
    "\"entity\":\"\",\"certainty\":\"possible\",\"summary\":\"one netisr thread\",\"evidence\":[],"
    "\"knobs\":[],\"source\":\"sys/net/netisr.c\",\"rule\":\"freebsd.rules:40\"}],\"notes\":"
    "[\"no top -HS\"],\"metrics\":{\"cpu.busy_max\":99.5}}";

static char *
put(const char *dir, const char *name, const char *text)
{
	char *path, *cause = NULL;

	xasprintf(&path, "%s/%s/%s", testutil_tmpdir, dir, name);
	if (util_write_file_atomic(path, text, strlen(text), 0644, &cause) == -1)
		fail_msg("%s", cause);
	return path;
}

static void
test_diag_json_writes_back_byte_for_byte_what_it_read(void **state)
{
	struct diag_result *d;
	json_t *o = json_loads(written, 0, NULL), *back;
	char *cause = NULL, *s;

	(void)state;
	if (diag_from_json(o, &d, &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(d->findings[0].certainty, DIAG_LIKELY);
	assert_true(d->findings[0].evidence[0].value == 97);
	assert_int_equal(d->nfacts, 1);
	assert_int_equal(d->facts[0].certainty, DIAG_POSSIBLE);
	back = diag_to_json(d);
	s = util_json_dumps(back, JSON_COMPACT);
	assert_string_equal(s, written);
	free(s);
	json_decref(back);
	json_decref(o);
	diag_result_free(d);
}

/* A hand-written diagnosis (tune --diagnosis) may leave out entity, evidence, source, rule... */
static void
test_diag_json_takes_a_short_hand_written_one(void **state)
{
	struct diag_result *d;
	json_t *o = json_loads("{\"schema\":\"ntune-diagnosis\",\"version\":1,\"findings\":[{"
	    "\"kind\":\"qdisc-drops\",\"summary\":\"drops\",\"knobs\":[{\"name\":\"if.dut1.qdisc\"}]}]}",
	    0, NULL);
	char *cause = NULL;

	(void)state;
	if (diag_from_json(o, &d, &cause) == -1)
		fail_msg("%s", cause);
	assert_string_equal(d->findings[0].entity, "");
	assert_int_equal(d->findings[0].certainty, DIAG_POSSIBLE);
	assert_int_equal(d->findings[0].nevidence, 0);
	assert_string_equal(d->os, "");
	assert_true(d->interval_s == 0);
	assert_non_null(d->metrics);
	json_decref(o);
	diag_result_free(d);
}

/* A key missing or mistyped: refused, naming the file and the key. */
static void
test_diag_load_names_the_file_and_key(void **state)
{
	static const struct testutil_case cases[] = {
		{ "\"certainty\":\"likely\"", "key 'findings[0].certainty': is not one of the names it takes" },
		{ "\"kind\":\"one-queue\",", "key 'findings[0].kind': missing" },
		{ "\"value\":97.0", "key 'findings[0].evidence[0].value': is not a number" },
		{ "\"knobs\":[]", "key 'headroom_facts[0].knobs': is not an array" },
		{ "\"since_boot\":false", "key 'since_boot': is not true or false" },
		{ "[\"no top -HS\"]", "key 'notes[0]': is not a string" },
	};
	static const char *const repl[] = { "\"certainty\":\"sure\"", "", "\"value\":\"97\"",
	    "\"knobs\":{}", "\"since_boot\":0", "[1]" };
	struct diag_result *d;
	char *text, *path, *cause, *want;
	const char *at;
	size_t i;

	(void)state;
	xasprintf(&path, "%s/d", testutil_tmpdir);
	free(util_mkdir(path, &cause) == 0 ? NULL : cause);
	free(path);
	for (i = 0; i < nitems(cases); i++) {
		at = strstr(written, cases[i].in);
		assert_non_null(at);
		xasprintf(&text, "%.*s%s%s", (int)(at - written), written, repl[i],
		    at + strlen(cases[i].in));
		path = put("d", "diagnosis.json", text);
		cause = NULL;
		if (diag_load(path, &d, &cause) == 0)
			fail_msg("%s: read", cases[i].in);
		xasprintf(&want, "%s: %s", path, cases[i].want);
		if (strcmp(cause, want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].in, cause, want);
		free(want);
		free(cause);
		free(path);
		free(text);
	}
}

/* A file of the bench fixture synthetic-ab into TMP/r/. */
static void
copy_fixture(const char *name)
{
	char *from, *text, *cause = NULL;
	size_t len;

	xasprintf(&from, "%s/bench/synthetic-ab/%s", FIXTURES, name);
	if (util_read_file(from, &text, &len, &cause) == -1)
		fail_msg("%s", cause);
	free(put("r", name, text));
	free(text);
	free(from);
}

/* The report reads DIR/diagnosis.json through the table: its finding, or nothing when broken. */
static void
test_report_reads_the_diagnosis_through_the_table(void **state)
{
	struct report_data d;
	char *dir, *cause = NULL, *p, *html;

	(void)state;
	xasprintf(&dir, "%s/r", testutil_tmpdir);
	if (util_mkdir(dir, &cause) == -1)
		fail_msg("%s", cause);
	copy_fixture("meta.json");
	copy_fixture("runs.jsonl");
	free(put("r", "diagnosis.json", written));
	if (report_load(dir, &d, &cause) == -1)
		fail_msg("%s", cause);
	assert_non_null(d.diagnosis);
	assert_string_equal(d.diagnosis->findings[0].knobs[0].name, "net.inet.rss.enabled");
	html = report_html(&d);
	assert_non_null(strstr(html, "<li><b>one-queue on ax0</b> (likely): queue 0 of ax0 takes "
	    "97%; knobs: <code>net.inet.rss.enabled</code></li>"));
	free(html);
	report_data_free(&d);
	p = put("r", "diagnosis.json", "{\"schema\":\"ntune-diagnosis\",\"version\":1,\"findings\":"
	    "[{\"kind\":1}]}");
	free(p);
	if (report_load(dir, &d, &cause) == -1)
		fail_msg("%s", cause);
	assert_null(d.diagnosis);
	report_data_free(&d);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_json_writes_back_byte_for_byte_what_it_read),
		cmocka_unit_test(test_diag_json_takes_a_short_hand_written_one),
		cmocka_unit_test(test_diag_load_names_the_file_and_key),
		cmocka_unit_test(test_report_reads_the_diagnosis_through_the_table),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
