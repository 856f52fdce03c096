/* ntune report: a self-contained HTML report of a results directory. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "util/util.h"

static int
run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_data d;
	char *out = NULL, *path, *html, *cause = NULL;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			cmd_usage(&cmd_report, 1);
			return 0;
		default:
			cmd_usage(&cmd_report, 0);
			return 2;
		}
	}
	if (argc - optind != 1) {
		cmd_usage(&cmd_report, 0);
		return 2;
	}
	if (report_load(argv[optind], &d, &cause) == -1) {
		fprintf(stderr, "ntune: %s\n", cause);
		free(cause);
		return 2;
	}
	html = report_html(&d);
	if (out != NULL && strcmp(out, "-") == 0) {
		fputs(html, stdout);
		rc = fflush(stdout) == 0 ? 0 : 1;
	} else {
		if (out != NULL)
			path = xstrdup(out);
		else
			xasprintf(&path, "%s/report.html", argv[optind]);
		rc = util_write_file_atomic(path, html, strlen(html), 0644, &cause);
		if (rc == -1) {
			fprintf(stderr, "ntune: %s\n", cause);
			free(cause);
			rc = 1;
		} else
			printf("%s\n", path);
		free(path);
	}
	free(html);
	report_data_free(&d);
	return rc;
}

const struct ntune_cmd cmd_report = {
	"report",
	"self-contained HTML report of a bench/tune results directory",
	"report DIR [-o report.html]",
	0,
	run,
};
