#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/report.h"

static void
test_report_quantile_interpolates(void **state)
{
	const double v[] = { 1, 2, 3, 4 };

	(void)state;
	assert_true(report_quantile(v, 4, 0) == 1);
	assert_true(report_quantile(v, 4, 1) == 4);
	assert_true(report_quantile(v, 4, 0.5) == 2.5);
	assert_true(report_quantile(v, 4, 0.25) == 1.75);
	assert_true(report_quantile(v, 1, 0.75) == 1);
}

static void
test_report_parse_runs_names_the_bad_line(void **state)
{
	const char text[] = "{\"label\":\"a\",\"pps\":1}\n\n{\"label\":\"b\",\"pps\":\n";
	char *cause = NULL;
	struct bench_run *runs;
	size_t n;

	(void)state;
	assert_int_equal(report_parse_runs("r.jsonl", text, strlen(text), &runs, &n, &cause), -1);
	assert_null(runs);
	assert_int_equal(n, 0);
	assert_non_null(strstr(cause, "r.jsonl:3:"));
	free(cause);
}

/* A line the writer would not write is refused, naming the line and the key. */
static void
test_report_parse_runs_rejects_wrong_types(void **state)
{
	static const struct { const char *line, *want; } bad[] = {
		{ "[1,2]\n", "x:1: not a JSON object" },
		{ "{\"pps\":1}\n", "x:1: key 'label': missing" },
		{ "{\"label\":\"a\",\"pkts\":1}\n", "x:1: key 'pps': missing" },
		{ "{\"label\":\"a\",\"pps\":\"1\"}\n", "x:1: key 'pps': is not a number" },
		{ "{\"label\":\"a\",\"pps\":1,\"per_second\":3}\n", "x:1: key 'per_second': is not an array" },
		{ "{\"label\":\"a\",\"pps\":1,\"cpu_busy\":[1,\"x\"]}\n", "key 'cpu_busy': item 2 is not a number" },
		{ "{\"label\":\"a\",\"pps\":1,\"irq_rates\":[]}\n", "x:1: key 'irq_rates': is not an object" },
		{ "{\"label\":\"a\",\"pps\":1,\"drops\":-3}\n", "x:1: key 'drops': is not a count" },
		{ "{\"label\":\"a\",\"pps\":1,\"dut\":{\"boot_id\":7}}\n", "key 'dut.boot_id': is not a string" },
		{ "{\"label\":\"a\",\"label\":\"b\",\"pps\":1}\n", "x:1: duplicate object key" },
	};
	struct bench_run *runs;
	char *cause;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(report_parse_runs("x", bad[i].line, strlen(bad[i].line), &runs, &n,
		    &cause), -1);
		if (cause == NULL || strstr(cause, bad[i].want) == NULL)
			fail_msg("%s: got '%s', want '%s'", bad[i].line, cause, bad[i].want);
		free(cause);
	}
}

/* A bench report of the runs in text (JSON lines) that stopped for the given reason. */
static void
report_of(struct report_data *d, const char *text, const char *stopped)
{
	char *cause = NULL;

	memset(d, 0, sizeof *d);
	snprintf(d->meta.kind, sizeof d->meta.kind, "bench");
	d->meta.complete = true;
	snprintf(d->meta.stopped, sizeof d->meta.stopped, "%s", stopped);
	if (report_parse_runs("t", text, strlen(text), &d->runs, &d->nruns, &cause) == -1)
		fail_msg("report_parse_runs: %s", cause);
}

/* Its page, checked to hold each of wants and none of unwanted (NULL-terminated lists). */
static void
expect_page(const struct report_data *d, const char *const *wants, const char *const *unwanted)
{
	char *html = report_html(d);

	assert_non_null(html);
	for (; *wants != NULL; wants++) {
		if (strstr(html, *wants) == NULL)
			fail_msg("the page has no '%s'", *wants);
	}
	for (; unwanted != NULL && *unwanted != NULL; unwanted++) {
		if (strstr(html, *unwanted) != NULL)
			fail_msg("the page has '%s'", *unwanted);
	}
	free(html);
}

static void
test_report_html_draws_one_box_per_profile(void **state)
{
	const char text[] =
	    "{\"run\":1,\"block\":0,\"label\":\"a\",\"warmup\":true,\"pps\":5,\"per_second\":[5],\"cpu_busy\":[10,20]}\n"
	    "{\"run\":2,\"block\":1,\"label\":\"a\",\"warmup\":false,\"pps\":100,\"per_second\":[99,101],\"cpu_busy\":[50,60]}\n"
	    "{\"run\":3,\"block\":1,\"label\":\"b<i>\",\"warmup\":false,\"pps\":200,\"per_second\":[200,200],\"cpu_busy\":[90,5]}\n"
	    "{\"run\":4,\"block\":2,\"label\":\"a\",\"warmup\":false,\"pps\":110,\"per_second\":[110],\"cpu_busy\":[55,65]}\n";
	static const char *const wants[] = {
		">a (2)<",		/* the warm-up is not counted */
		">b&lt;i&gt; (1)<", "CPU 1 5% busy",
		"stroke-dasharray",	/* the warm-up's line */
		NULL,
	};
	static const char *const unwanted[] = { "<i>)", "<script", NULL };
	struct report_data d;

	(void)state;
	report_of(&d, text, "max-runs");
	expect_page(&d, wants, unwanted);
	report_runs_free(d.runs, d.nruns);
}

/* A decided loss reads as worse (red, "worse:"), a decided gain as better; lower latency is better. */
static void
test_report_html_decided_worse_is_not_shown_as_a_gain(void **state)
{
	const char text[] =
	    "{\"run\":1,\"block\":1,\"label\":\"a\",\"warmup\":false,\"pps\":100,\"per_second\":[100]}\n"
	    "{\"run\":2,\"block\":1,\"label\":\"b\",\"warmup\":false,\"pps\":90,\"per_second\":[90]}\n";
	static const char *const wants[] = {
		"<li class=\"decided worse\">b forwards fewer",
		"<li class=\"decided better\">c forwards more",
		"<li class=\"decided better\">d lower latency", "li.worse{color:#b71c1c}", NULL,
	};
	/* As the report reads verdict.json: every number a real. */
	static const char verdict[] = "{\"confidence\": 95, \"min_runs\": 2, \"max_runs\": 4, "
	    "\"looks\": 1, \"alpha_look\": 0.05, \"comparisons\": ["
	    "{\"a\": \"a\", \"b\": \"b\", \"metric\": \"pps\", \"decided\": true, \"direction\": -1, "
	    "\"text\": \"b forwards fewer\"}, "
	    "{\"a\": \"a\", \"b\": \"c\", \"metric\": \"pps\", \"decided\": true, \"direction\": 1, "
	    "\"text\": \"c forwards more\"}, "
	    "{\"a\": \"a\", \"b\": \"d\", \"metric\": \"latency_p99_us\", \"decided\": true, "
	    "\"direction\": -1, \"text\": \"d lower latency\"}]}";
	struct report_data d;
	json_t *doc;
	char *cause = NULL;

	(void)state;
	report_of(&d, text, "decided");
	doc = json_loads(verdict, JSON_DECODE_INT_AS_REAL, NULL);
	assert_non_null(doc);
	d.verdict = calloc(1, sizeof *d.verdict);
	if (bench_verdict_file_read(doc, "verdict.json", d.verdict, &cause) == -1)
		fail_msg("%s", cause);
	json_decref(doc);
	expect_page(&d, wants, NULL);
	report_runs_free(d.runs, d.nruns);
	bench_verdict_file_free(d.verdict);
	free(d.verdict);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_quantile_interpolates),
		cmocka_unit_test(test_report_parse_runs_names_the_bad_line),
		cmocka_unit_test(test_report_parse_runs_rejects_wrong_types),
		cmocka_unit_test(test_report_html_draws_one_box_per_profile),
		cmocka_unit_test(test_report_html_decided_worse_is_not_shown_as_a_gain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
