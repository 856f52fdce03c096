/* ntune diff: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune diff: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_diff = {
	"diff",
	"compare two profiles, snapshots or the current state",
	"diff A B",
	0,
	run,
};
