/* ntune export: placeholder until issue 5 lands; the table entry is final. */
#include <stdio.h>

#include "cmd/cmd.h"

static int
run(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ntune export: not implemented yet\n");
	return 2;
}

const struct ntune_cmd cmd_export = {
	"export",
	"write a profile for loader.conf, sysctl.conf, OPNsense, pfSense, ansible...",
	"export PROFILE --format loader|sysctl|opnsense|pfsense|sysctl.d|sh|ansible",
	0,
	run,
};
