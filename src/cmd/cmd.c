/* Helpers shared by all subcommands. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "kb/kb.h"

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

int
cmd_load_profile(const char *path, struct kb_profile **p, struct kb **kb)
{
	char *cause = NULL;

	if ((*p = kb_profile_load(path, &cause)) == NULL) {
		fprintf(stderr, "ntune: %s\n", cause);
		free(cause);
		return 2;
	}
	if (kb_load(NULL, kb, &cause) == -1) {
		fprintf(stderr, "ntune: %s\n", cause);
		free(cause);
		kb_profile_free(*p);
		*p = NULL;
		return 2;
	}
	return 0;
}
