/* ntune gen: placeholder until issue 6 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune gen: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_gen = {
	"gen",
	"UDP packet generator (RFC 2544 frames, multi-flow, timestamps)",
	"gen [--iface IF] [--dst ADDR] [--dst-mac MAC] [--src ADDR] [--size BYTES] [--flows N]\n    [--rate PPS] [--duration S | --count N] [--threads N] [--iface-any] [--json]",
	0,
	run,
};
