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
	struct remote_result r;
	char *script, *args[3] = { "1", NULL, NULL };
	int rc;

	memset(set, 0, sizeof *set);
	if (root != NULL && *root != '\0')
		args[1] = (char *)root;
	script = capture_script_snapshot();
	rc = remote_sh(h, script, args, SNAP_TIMEOUT, &r, cause);
	free(script);
	if (rc == -1)
		return -1;
	if (r.timed_out || r.status == 255 || (r.status != 0 && strstr(r.out, ":: ntune-capture ") == NULL)) {
		util_cause(cause, "cannot read '%s': %s", h->url, r.timed_out ? "no answer in time" :
		    remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	rc = capture_parse(r.out, strlen(r.out), h->url, set, cause);
	remote_result_free(&r);
	return rc;
}
