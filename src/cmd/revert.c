/* ntune revert: restore the state before a journalled apply. */
#include <getopt.h>

#include "cli/dut_write_opts.h"
#include "cli/cli.h"

extern const struct ntune_cmd cmd_revert;

static const struct option longopts[] = {
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	return cmd_agentless_entry(&cmd_revert, args, false);
}

const struct ntune_cmd cmd_revert = {
	.name = "revert",
	.summary = "restore the state before a journalled apply",
	.usage = "revert [ID] [--dut ssh://[user@]host[:port] [--root|--dut-root DIR] [--ssh-config FILE] [--ssh-accept-new]]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
