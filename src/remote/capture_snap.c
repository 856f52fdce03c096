/*
 * The quick capture behind a bench's per-run snapshot of an agentless DUT
 * (capture_run_snapshot): the capture script without its top sample, so that
 * reading the idle DUT costs one ssh command and no waiting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/capture.h"
#include "remote/remote.h"
#include "util/util.h"

/* ssh's connection, sysctl -a and the rest; no load sample. */
#define SNAP_TIMEOUT	120

char *
capture_script_snapshot(void)
{
	char *body = capture_script(1), *script;

	/* The script leaves top out when NTUNE_CAPTURE_TOP is no; a line before it sets that. */
	xasprintf(&script, "NTUNE_CAPTURE_TOP=no\n%s", body);
	free(body);
	return script;
}

int
capture_run_snapshot(const struct remote_host *h, const char *root, struct capture_set *set,
    char **cause)
{
	char *script, *args[3] = { "1", NULL, NULL };
	int rc;

	memset(set, 0, sizeof *set);
	if (root != NULL && *root != '\0')
		args[1] = (char *)root;
	script = capture_script_snapshot();
	rc = capture_run_script(h, script, args, SNAP_TIMEOUT, set, cause);
	free(script);
	return rc;
}
