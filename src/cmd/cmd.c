/* Helpers shared by all subcommands. */
#include <stdio.h>

#include "cmd/cmd.h"

void
cmd_usage(const struct ntune_cmd *cmd, int to_stdout)
{
	FILE *f = to_stdout ? stdout : stderr;
	const char *p;

	fprintf(f, "usage: ntune ");
	for (p = cmd->usage; *p != '\0'; p++) {
		fputc(*p, f);
		if (*p == '\n' && p[1] != '\0')
			fputs("       ntune ", f);
	}
	if (p == cmd->usage || p[-1] != '\n')
		fputc('\n', f);
	if (to_stdout)
		fprintf(f, "\n%s\n", cmd->summary);
}
