/* Helpers shared by all subcommands. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
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

int
cmd_parse_os(const struct ntune_cmd *cmd, const char *arg, enum os_platform *out)
{
	if ((*out = os_platform_parse(arg)) != OS_PLATFORM_UNKNOWN)
		return 0;
	fprintf(stderr, "ntune %s: bad --os '%s' (%s)\n", cmd->name, arg, os_platform_list());
	return -1;
}

int
cmd_add_from(const struct ntune_cmd *cmd, const char **from, size_t *n, size_t max, const char *arg)
{
	if (*n == max) {
		fprintf(stderr, "ntune %s: too many --from files\n", cmd->name);
		return -1;
	}
	from[(*n)++] = arg;
	return 0;
}

int
cmd_pick(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	}
	return -1;
}

int
cmd_measure_option(const struct ntune_cmd *cmd, int ch, const char *arg, struct cmd_measure *m,
    struct bench_lab *lab, struct bench_ctx *c)
{
	double d;

	switch (ch) {
	case 'n':
		return cmd_parse_num(cmd, "--runs", arg, 2, 1000, &m->runs) == -1 ? -1 : 1;
	case 'm':
		return cmd_parse_num(cmd, "--max-runs", arg, 2, 1000, &m->max_runs) == -1 ? -1 : 1;
	case 'd':
		return cmd_parse_num(cmd, "--duration", arg, 0.2, 3600, &m->duration) == -1 ? -1 : 1;
	case 'w':
		return cmd_parse_num(cmd, "--warmup", arg, 0, 3600, &m->warmup) == -1 ? -1 : 1;
	case 'S':
		return cmd_parse_num(cmd, "--size", arg, 64, 9000, &m->size) == -1 ? -1 : 1;
	case 'F':
		return cmd_parse_num(cmd, "--flows", arg, 1, 65535, &m->flows) == -1 ? -1 : 1;
	case 'T':
		return cmd_parse_num(cmd, "--threads", arg, 1, 256, &m->threads) == -1 ? -1 : 1;
	case 's':
		if (cmd_parse_num(cmd, "--seed", arg, 0, 9007199254740992.0, &d) == -1)
			return -1;
		c->seed = (uint64_t)d;
		return 1;
	case 'R':
		if (cmd_parse_num(cmd, "--rate", arg, 1, 1e9, &d) == -1)
			return -1;
		lab->rate = d;
		return 1;
	}
	return 0;
}

void
cmd_measure_setup(const struct cmd_measure *m, struct bench_lab *lab, struct bench_ctx *c)
{
	lab->self = "/proc/self/exe";
	lab->size = (int)m->size;
	lab->flows = (int)m->flows;
	lab->threads = (int)m->threads;
	lab->settle = 0.5;
	c->seq.min_runs = (int)m->runs;
	c->seq.max_runs = (int)m->max_runs;
	c->duration = m->duration;
	c->warmup = m->warmup;
}

int
cmd_parse_metric(const struct ntune_cmd *cmd, const char *opt, const char *bits, const char *arg,
    struct bench_lab *lab, struct bench_ctx *c)
{
	if (strcmp(arg, "pps") == 0)
		c->bits = false;
	else if (strcmp(arg, bits) == 0)
		c->bits = true;
	else if (strcmp(arg, "latency") == 0)
		c->latency = lab->latency = true;
	else {
		fprintf(stderr, "ntune %s: %s is pps, %s or latency, not '%s'\n", cmd->name, opt, bits,
		    arg);
		return -1;
	}
	return 0;
}

void
cmd_results_dir(char *buf, size_t len, const char *what)
{
	time_t t = time(NULL);
	struct tm tm;
	char stamp[32];

	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "ntune-%s-%s", what, stamp);
}
