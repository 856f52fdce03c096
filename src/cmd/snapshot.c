/*
 * ntune snapshot: everything inspect sees, plus the raw counters and every
 * sysctl under net., vm. (Linux) or net., kern., hw., dev., vm., machdep.
 * (FreeBSD), as one JSON document that `ntune inspect --from` reads anywhere.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/osdoc.h"
#include "dut/dut.h"
#include "os/collect.h"
#include "remote/capture.h"
#include "util/util.h"
#include "util/util_json.h"

/* A boot file's path and text, for `ntune check --from` to compare a profile with. */
static void
add_boot_file(void *arg, const char *path, const char *at)
{
	char *text;
	size_t len;

	if (util_read_file(at, &text, &len, NULL) == 0) {
		/* Boot files are small text; a huge or binary one is not a boot file. */
		if (len <= 1024 * 1024 && strlen(text) == len)
			json_array_append_new(arg, json_pack("{s:s, s:s}", "path", path, "text", text));
		free(text);
	}
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "from", required_argument, NULL, 'f' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* A captured boot file's path and text (the DUT's, read agentless). */
static void
add_captured_file(void *arg, const char *path, const char *text)
{
	json_array_append_new(arg, json_pack("{s:s, s:s}", "path", path, "text", text));
}

static int
run(struct cmd_args *args)
{
	const char *out = NULL, **from = NULL, *root;
	size_t nfrom = 0;
	struct os_ctx *ctx;
	char *cause = NULL, *text;
	json_t *doc, *files;
	struct dut_opts dut = { NULL, NULL, NULL, false };
	struct capture_set cap;
	char *arg;
	int ch, rc;

	while ((ch = cmd_next(args, &arg)) != -1) {
		if (dut_option(&dut, ch, arg))
			continue;
		switch (ch) {
		case 'o':
			out = arg;
			break;
		case 'f':
			from = xreallocarray(from, nfrom + 1, sizeof *from);
			from[nfrom++] = arg;
			break;
		}
	}
	if ((rc = cmd_os_target(&cmd_snapshot, args, &dut)) != 0) {
		free(from);
		return rc;
	}
	ctx = cmd_os_open_at(&cmd_snapshot, &dut, from, nfrom,
	    &cap);
	free(from);
	if (ctx == NULL) {
		capture_set_free(&cap);
		return 2;
	}
	/* the boot files are read under the same captured tree */
	root = os_target_root();
	if ((doc = cmd_os_document(&cmd_snapshot, ctx, OS_COLLECT_SNAPSHOT)) == NULL) {
		os_close(ctx);
		return 2;
	}
	if (cap.n > 0) {
		/* an agentless read: the DUT's boot files as the capture has them */
		files = json_array();
		capture_boot_files(&cap, add_captured_file, files);
		json_object_set_new(doc, "boot_files", files);
	} else if (nfrom == 0) {
		files = json_array();
		os_boot_files(strcmp(os_backend_name(ctx), "linux") == 0 ? OS_PLATFORM_LINUX :
		    OS_PLATFORM_FREEBSD, root, add_boot_file, files);
		json_object_set_new(doc, "boot_files", files);
	}
	os_close(ctx);
	capture_set_free(&cap);
	text = util_json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	rc = 0;
	if (out == NULL || strcmp(out, "-") == 0) {
		fputs(text, stdout);
		putchar('\n');
		if (fflush(stdout) != 0) {
			cmd_error(&cmd_snapshot, 0, "cannot write to stdout");
			rc = 2;
		}
	} else {
		size_t len = strlen(text);

		text[len] = '\n';
		if (util_write_file_atomic(out, text, len + 1, 0644, &cause) != 0) {
			cmd_error(&cmd_snapshot, 0, "%s", cause);
			free(cause);
			rc = 2;
		}
		text[len] = '\0';
	}
	free(text);
	if (cmd_os_errors(&cmd_snapshot, doc) > 0 && rc == 0)
		rc = 1;
	json_decref(doc);
	return rc;
}

const struct ntune_cmd cmd_snapshot = {
	.name = "snapshot",
	.summary = "save everything inspect sees, plus all network sysctls, as JSON",
	.usage = "snapshot [-o FILE] [--from FILE|CAPTURE]...\n"
	    "snapshot [-o FILE] [--dut] ssh://[user@]host[:port] [--ssh-config FILE] [--ssh-accept-new]\n"
	    "     [--dut-root DIR]",
	.notes = "An ssh:// target is read agentless (see inspect): the same ntune-inspect JSON as\n"
	    "a snapshot taken there, its boot files included.\n",
	.optstring = "o:f:",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
