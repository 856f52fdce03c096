/* Helpers shared by all subcommands. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int
cmd_parse_num(const struct ntune_cmd *cmd, const char *opt, const char *s, double lo, double hi,
    double *out)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
		fprintf(stderr, "ntune %s: invalid %s '%s' (want %g..%g)\n", cmd->name, opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}
