/* Fuzzes the results-directory reader: runs.jsonl lines as `ntune report` parses them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_data d = { 0 };
	char *cause = NULL, *html;

	if (report_parse_runs("fuzz", (const char *)data, size, &d.runs, &d.nruns, &cause) == -1) {
		free(cause);
		return 0;
	}
	snprintf(d.meta.kind, sizeof d.meta.kind, "bench");
	html = report_html(&d);
	free(html);
	report_runs_free(d.runs, d.nruns);
	return 0;
}
