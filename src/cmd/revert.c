/* ntune revert: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune revert: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_revert = {
	"revert",
	"restore the state before a journalled apply",
	"revert [ID]",
	0,
	run,
};
