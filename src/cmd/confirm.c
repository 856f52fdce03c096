/* ntune confirm: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune confirm: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_confirm = {
	"confirm",
	"keep a change applied with --confirm",
	"confirm [ID]",
	0,
	run,
};
