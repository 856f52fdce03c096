/* ntune revert: restore the state before a journalled apply. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cli/dut_write_opts.h"
#include "cli/cli.h"

extern const struct ntune_cmd cmd_revert;

static const struct option longopts[] = {
	{ "deadman", no_argument, NULL, 'd' },
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	char *cause = NULL, done[APPLY_ID_MAX];
	char *arg;
	bool deadman = false;
	int rc;

	struct cmd_agentless a;
	int ch;

	memset(&a, 0, sizeof a);
	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(&a, ch, arg))
			continue;
		if (ch == 'r')
			a.o.root = arg;
		else if (ch == 'd')
			deadman = true;	/* the timer started by systemd-run */
	}
	if (a.opts.url != NULL && !deadman)
		return cmd_agentless_entry(&cmd_revert, &a, args->argc == 1 ? args->argv[0] : NULL, false);
	if (a.o.root != NULL || dut_opts_ssh_given(&a.opts))
		return cmd_error(&cmd_revert, 2, "--root, --dut-root, --ssh-config and --ssh-accept-new "
		    "go with --dut");
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
	.usage = "revert [ID] [--dut ssh://[user@]host[:port] [--root|--dut-root DIR] [--ssh-config FILE] [--ssh-accept-new]]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
