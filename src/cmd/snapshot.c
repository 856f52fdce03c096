/* ntune snapshot: placeholder until issue 4 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune snapshot: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_snapshot = {
	"snapshot",
	"save everything inspect sees, plus all network sysctls, as JSON",
	"snapshot [-o FILE]",
	0,
	run,
};
