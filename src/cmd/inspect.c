/* ntune inspect: placeholder until issue 4 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune inspect: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_inspect = {
	"inspect",
	"report CPUs, SMT, NUMA, NICs, queues, IRQs and network tunables",
	"inspect [--json] [--from FILE]...",
	0,
	run,
};
