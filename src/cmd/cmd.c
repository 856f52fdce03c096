/* Helpers shared by all subcommands. */
#include <stdarg.h>
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
		/* A new line starts another form; an indented one continues the previous. */
		if (*p == '\n' && p[1] != '\0')
			fputs(p[1] == ' ' ? "             " : "       ntune ", f);
	}
	if (p == cmd->usage || p[-1] != '\n')
		fputc('\n', f);
	if (to_stdout)
		fprintf(f, "\n%s\n", cmd->summary);
}

int
cmd_usage_error(const struct ntune_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ntune %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cmd_usage(cmd, 0);
	return 2;
}
