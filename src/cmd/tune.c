/* ntune tune: placeholder until issue 7 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune tune: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_tune = {
	"tune",
	"auto-tuner: try knobs, keep only changes proven better",
	"tune [--lab | --host ssh://...] [--goal pps|throughput|latency] [--budget MINUTES] [-o DIR] [--keep]",
	0,
	run,
};
