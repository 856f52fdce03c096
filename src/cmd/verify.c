/* ntune verify: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune verify: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_verify = {
	"verify",
	"does the running system match a profile?",
	"verify PROFILE [--json]",
	0,
	run,
};
