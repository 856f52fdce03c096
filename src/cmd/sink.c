/* ntune sink: placeholder until issue 6 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune sink: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_sink = {
	"sink",
	"count received packets: loss, reorder, duplicates, latency",
	"sink [--iface IF] [--duration S] [--values FILE] [--json]",
	0,
	run,
};
