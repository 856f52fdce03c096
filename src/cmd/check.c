/* ntune check: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune check: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_check = {
	"check",
	"lint a tunables profile against the knowledge base and the machine",
	"check PROFILE [--os freebsd|linux] [--from SNAPSHOT] [--json]",
	0,
	run,
};
