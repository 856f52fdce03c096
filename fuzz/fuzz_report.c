/* Fuzzes the report over hostile meta.json / verdict.json / summary.json / hosts.json documents. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char runs[] =
	    "{\"run\":1,\"block\":1,\"label\":\"a\",\"pps\":10,\"per_second\":[10],\"cpu_busy\":[50],"
	    "\"irq_rates\":{\"x\":1}}\n"
	    "{\"run\":2,\"block\":1,\"label\":\"b\",\"pps\":20,\"per_second\":[20],\"cpu_busy\":[60],"
	    "\"latency_us\":{\"p99\":5}}\n";
	struct bench_verdict_file verdict;
	struct bench_summary summary;
	struct bench_hosts hosts;
	struct report_data d = { 0 };
	json_error_t jerr;
	json_t *doc;
	char *html;
	int i;

	doc = json_loadb((const char *)data, size, 0, &jerr);
	if (doc == NULL)
		return 0;
	if (report_parse_runs("runs", runs, sizeof runs - 1, &d.runs, &d.nruns, NULL) == -1)
		abort();
	/* The same document as each of the four files in turn, read as the report reads them. */
	for (i = 0; i < 4 && json_is_object(doc); i++) {
		memset(&d.meta, 0, sizeof d.meta);
		snprintf(d.meta.kind, sizeof d.meta.kind, "tune");
		d.verdict = i == 1 ? &verdict : NULL;
		d.summary = i == 2 ? &summary : NULL;
		d.hosts = i == 3 ? &hosts : NULL;
		if ((i == 0 && bench_meta_read(doc, "meta.json", &d.meta, NULL) == -1) ||
		    (i == 1 && bench_verdict_file_read(doc, "verdict.json", &verdict, NULL) == -1) ||
		    (i == 2 && bench_summary_read(doc, "summary.json", &summary, NULL) == -1) ||
		    (i == 3 && bench_hosts_read(doc, "hosts.json", &hosts, NULL) == -1))
			continue;
		html = report_html(&d);
		free(html);
		bench_meta_free(&d.meta);
		if (d.verdict != NULL)
			bench_verdict_file_free(d.verdict);
		if (d.summary != NULL)
			bench_summary_free(d.summary);
		if (d.hosts != NULL)
			bench_hosts_free(d.hosts);
	}
	json_decref(doc);
	report_runs_free(d.runs, d.nruns);
	return 0;
}
