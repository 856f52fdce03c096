/*
 * ntune confirm: keep a change applied with --confirm (stops its dead-man timer)
 * or with --trial-boot (after the reboot: writes the tried loader tunables).
 */
#include <getopt.h>

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
	return cmd_agentless_entry(&cmd_confirm, args, true);
}

const struct ntune_cmd cmd_confirm = {
	.name = "confirm",
	.summary = "keep a change applied with --confirm or --trial-boot",
	.usage = "confirm [ID] [--dut ssh://[user@]host[:port] [--root|--dut-root DIR] [--ssh-config FILE] [--ssh-accept-new]]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
