/* ntune revert: restore the state before a journalled apply. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_revert;

static const struct option longopts[] = {
	{ "deadman", no_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	char *cause = NULL, done[APPLY_ID_MAX];
	char *arg;
	bool deadman = false;
	int rc;

	while (cmd_next(args, &arg) == 'd')
		deadman = true;	/* the timer started by systemd-run */
	if (deadman && args->argc != 1) {
		cmd_usage(&cmd_revert, 0);
		return 2;
	}
	if (deadman)
		rc = apply_deadman_wait(NULL, args->argv[0], &cause);
	else
		rc = apply_revert(NULL, args->argc > 0 ? args->argv[0] : NULL, done, sizeof done, &cause);
	if (rc == -1)
		return cmd_fail(&cmd_revert, &cause, 1);
	if (!deadman)
		printf("reverted %s\n", done);
	return 0;
}

const struct ntune_cmd cmd_revert = {
	.name = "revert",
	.summary = "restore the state before a journalled apply",
	.usage = "revert [ID]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
