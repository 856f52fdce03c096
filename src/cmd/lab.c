/* ntune lab: placeholder until issue 6 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune lab: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_lab = {
	"lab",
	"build a gen -> dut -> sink router lab in network namespaces",
	"lab up [--mode route|nat|bridge] [--queues N] [--prefix NAME] [--mtu N]\nlab down|status [--prefix NAME]\nlab exec [--prefix NAME] ROLE -- CMD [ARGS]\nlab rfc2544 [--sizes LIST] [--duration S] [--loss-tolerance FRACTION] [--trials N] [-o DIR]",
	0,
	run,
};
