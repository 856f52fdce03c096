/* ntune top: placeholder until issue 4 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune top: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_top = {
	"top",
	"per-CPU load, per-interface pps/bit/s/drops and per-queue IRQ rates",
	"top [-b] [-d SECS] [-n COUNT] [-i IFACE]... [--json]",
	0,
	run,
};
