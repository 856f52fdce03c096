/* ntune report: a self-contained HTML report of a results directory. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "util/util.h"

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	struct report_data d;
	const char *out = NULL;
	char *arg;
	char *path, *html, *cause = NULL;
	int rc;

	while (cmd_next(args, &arg) == 'o')
		out = arg;
	if (report_load(args->argv[0], &d, &cause) == -1)
		return cmd_fail(&cmd_report, &cause, 2);
	html = report_html(&d);
	if (out != NULL && strcmp(out, "-") == 0) {
		fputs(html, stdout);
		rc = fflush(stdout) == 0 ? 0 : 1;
	} else {
		if (out != NULL)
			path = xstrdup(out);
		else
			xasprintf(&path, "%s/report.html", args->argv[0]);
		rc = util_write_file_atomic(path, html, strlen(html), 0644, &cause);
		if (rc == -1)
			rc = cmd_fail(&cmd_report, &cause, 1);
		else
			printf("%s\n", path);
		free(path);
	}
	free(html);
	report_data_free(&d);
	return rc;
}

const struct ntune_cmd cmd_report = {
	.name = "report",
	.summary = "self-contained HTML report of a bench/tune results directory",
	.usage = "report DIR [-o report.html]",
	.optstring = "o:",
	.longopts = longopts,
	.min_args = 1,
	.max_args = 1,
	.run = run,
};
