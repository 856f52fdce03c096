/* ntune apply: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune apply: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_apply = {
	"apply",
	"apply a profile all-or-nothing, journalled, with optional auto-revert",
	"apply PROFILE [--dry-run] [--confirm SECS] [--no-persist] [--root DIR]",
	0,
	run,
};
