/*
 * ntune confirm: keep a change applied with --confirm (stops its dead-man timer)
 * or with --trial-boot (after the reboot: writes the tried loader tunables).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cli/dut_write_opts.h"
#include "cli/cli.h"

extern const struct ntune_cmd cmd_confirm;

static const struct option longopts[] = {
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	char *cause = NULL, *kept = NULL, done[APPLY_ID_MAX];
	bool waiting;
	struct cmd_agentless a;
	char *arg;
	int ch;

	memset(&a, 0, sizeof a);
	while ((ch = cmd_next(args, &arg)) != -1)
		if (!cmd_agentless_option(&a, ch, arg) && ch == 'r')
			a.o.root = arg;
	if (a.opts.url != NULL)
		return cmd_agentless_entry(&cmd_confirm, &a, args->argc == 1 ? args->argv[0] : NULL, true);
	if (a.o.root != NULL || dut_opts_ssh_given(&a.opts))
		return cmd_error(&cmd_confirm, 2, "--root, --dut-root, --ssh-config and --ssh-accept-new "
		    "go with --dut");
	if (apply_confirm(NULL, args->argc == 1 ? args->argv[0] : NULL, done, sizeof done, &kept,
	    &waiting, &cause) == -1)
		return cmd_fail(&cmd_confirm, &cause, 1);
	printf("confirmed %s\n", done);
	if (kept != NULL)
		printf("kept the one-boot trial in %s\n", kept);
	if (waiting)
		printf("the one-boot trial is still waiting: reboot, then `ntune confirm %s` again\n",
		    done);
	free(kept);
	return 0;
}

const struct ntune_cmd cmd_confirm = {
	.name = "confirm",
	.summary = "keep a change applied with --confirm or --trial-boot",
	.usage = "confirm [ID] [--dut ssh://[user@]host[:port] [--root|--dut-root DIR] [--ssh-config FILE] [--ssh-accept-new]]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
