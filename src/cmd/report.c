/* ntune report: placeholder until issue 7 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune report: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_report = {
	"report",
	"self-contained HTML report of a bench/tune results directory",
	"report DIR [-o report.html]",
	0,
	run,
};
