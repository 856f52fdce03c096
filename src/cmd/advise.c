/* ntune advise: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune advise: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_advise = {
	"advise",
	"propose a profile for this machine, every line with its reason",
	"advise [--from SNAPSHOT] [--goal forwarding|throughput|latency] [--role router|firewall|host] [--json]",
	0,
	run,
};
