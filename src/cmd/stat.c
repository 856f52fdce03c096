/* ntune stat: placeholder until issue 3 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune stat: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_stat = {
	"stat",
	"ministat-compatible statistics, plus Welch, Mann-Whitney, --summary, --json",
	"stat [-Anps] [-C column] [-c confidence] [-d delimiter] [-w width]\n     [--welch] [--mann-whitney] [--summary N:MEAN:STDDEV]... [--json] [file ...]",
	0,
	run,
};
