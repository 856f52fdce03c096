/* ntune explain: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune explain: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_explain = {
	"explain",
	"describe a tunable: placement, type, default, effect, sources",
	"explain [--json] KNOB\nexplain --list [--os freebsd|linux] [--json]",
	0,
	run,
};
