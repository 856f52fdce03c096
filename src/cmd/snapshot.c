/*
 * ntune snapshot: everything inspect sees, plus the raw counters and every
 * sysctl under net., vm. (Linux) or net., kern., hw., dev., vm., machdep.
 * (FreeBSD), as one JSON document that `ntune inspect --from` reads anywhere.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/osdoc.h"
#include "os/os_json.h"
#include "util/util.h"

static int
run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, **from = NULL;
	size_t nfrom = 0, i;
	struct os_ctx *ctx;
	char *cause = NULL, *text;
	json_t *doc, *e;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:f:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			from = xreallocarray(from, nfrom + 1, sizeof *from);
			from[nfrom++] = optarg;
			break;
		case 'h':
			cmd_usage(&cmd_snapshot, 1);
			free(from);
			return 0;
		default:
			cmd_usage(&cmd_snapshot, 0);
			free(from);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ntune snapshot: unexpected argument '%s'\n", argv[optind]);
		cmd_usage(&cmd_snapshot, 0);
		free(from);
		return 2;
	}
	/* NTUNE_ROOT: read a captured /proc + /sys tree instead of the live one */
	ctx = nfrom > 0 ? os_open_files(from, nfrom, &cause) :
	    os_open_live(getenv("NTUNE_ROOT"), &cause);
	free(from);
	if (ctx == NULL) {
		fprintf(stderr, "ntune snapshot: %s\n", cause);
		free(cause);
		return 2;
	}
	doc = cmd_os_document(ctx, OS_COLLECT_SNAPSHOT);
	os_close(ctx);
	text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	rc = 0;
	if (out == NULL || strcmp(out, "-") == 0) {
		fputs(text, stdout);
		putchar('\n');
		if (fflush(stdout) != 0) {
			fprintf(stderr, "ntune snapshot: cannot write to stdout\n");
			rc = 2;
		}
	} else {
		size_t len = strlen(text);

		text[len] = '\n';
		if (util_write_file_atomic(out, text, len + 1, 0644, &cause) != 0) {
			fprintf(stderr, "ntune snapshot: %s\n", cause);
			free(cause);
			rc = 2;
		}
		text[len] = '\0';
	}
	free(text);
	json_array_foreach(json_object_get(doc, "errors"), i, e)
		fprintf(stderr, "ntune snapshot: %s\n", json_string_value(e));
	if (rc == 0 && json_array_size(json_object_get(doc, "errors")) > 0)
		rc = 1;
	json_decref(doc);
	return rc;
}

const struct ntune_cmd cmd_snapshot = {
	"snapshot",
	"save everything inspect sees, plus all network sysctls, as JSON",
	"snapshot [-o FILE] [--from FILE]...",
	0,
	run,
};
