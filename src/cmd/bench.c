/* ntune bench: placeholder until issue 7 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune bench: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_bench = {
	"bench",
	"interleaved, randomized A/B of profiles under load, with a verdict",
	"bench PROFILE_A PROFILE_B... [--load gen|iperf3|CMD] [--runs N] [--duration S]\n      [--warmup S] [--max-runs N] [-o DIR] [--json]",
	0,
	run,
};
