/* ntune history: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune history: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_history = {
	"history",
	"list journalled applies",
	"history [--json]",
	0,
	run,
};
