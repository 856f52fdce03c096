/* Helpers shared by all subcommands. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/lab_bench.h"
#include "bench/runner.h"
#include "cli/cli.h"
#include "kb/kb.h"
#include "os/ifset.h"
#include "util/util.h"

#define CMD_OPT_HELP	0x10000	/* --help, added to every command's long options */

/* Prints the forms of usage, the first after "usage: ntune", the others under it. */
static void
print_forms(FILE *f, const char *usage, bool first)
{
	const char *p;

	fputs(first ? "usage: ntune " : "       ntune ", f);
	for (p = usage; *p != '\0'; p++) {
		fputc(*p, f);
		/* A new line starts another form; an indented one continues the previous. */
		if (*p == '\n' && p[1] != '\0')
			fputs(p[1] == ' ' ? "             " : "       ntune ", f);
	}
	if (p == usage || p[-1] != '\n')
		fputc('\n', f);
}

void
cmd_usage(const struct ntune_cmd *cmd, int to_stdout)
{
	FILE *f = to_stdout ? stdout : stderr;
	const struct ntune_cmd *const *s;

	if (cmd->subs == NULL)
		print_forms(f, cmd->usage, true);
	for (s = cmd->subs; s != NULL && *s != NULL; s++)
		print_forms(f, (*s)->usage, s == cmd->subs);
	if (to_stdout)
		fprintf(f, "\n%s\n", cmd->summary);
	if (to_stdout && cmd->notes != NULL)
		fprintf(f, "\n%s", cmd->notes);
}

/* The name a subcommand is given by: the last word of "lab up". */
static const char *
last_word(const char *name)
{
	const char *p = strrchr(name, ' ');

	return p != NULL ? p + 1 : name;
}

static int
dispatch_sub(const struct ntune_cmd *cmd, int argc, char **argv)
{
	const struct ntune_cmd *const *s;
	char list[256] = "";

	if (argc < 2) {
		cmd_usage(cmd, 0);
		return 2;
	}
	for (s = cmd->subs; *s != NULL; s++) {
		if (strcmp(last_word((*s)->name), argv[1]) == 0)
			return cmd_dispatch(*s, argc - 1, argv + 1);
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", s == cmd->subs ?
		    "" : ", ", last_word((*s)->name));
	}
	return cmd_usage_error(cmd, "unknown subcommand '%s' (%s)", argv[1], list);
}

/* Says which option getopt_long refused: the word for a long option, else -c. */
static int
bad_option(const struct ntune_cmd *cmd, char **argv, bool missing)
{
	const char *w = argv[optind - 1];
	char shortopt[3] = { '-', (char)optopt, '\0' };
	int len = 2;

	if (strncmp(w, "--", 2) == 0)
		len = (int)strcspn(w, "=");
	else
		w = shortopt;
	return cmd_usage_error(cmd, missing ? "option '%.*s' needs a value" : "unknown option '%.*s'",
	    len, w);
}

/* Parses argv by the command's spec into a; 0 to run, 1 after --help, 2 after a usage error. */
static int
parse(const struct ntune_cmd *cmd, int argc, char **argv, struct cmd_args *a)
{
	const char *spec = cmd->optstring != NULL ? cmd->optstring : "";
	struct option *lo;
	char *optstr;
	size_t n = 0;
	int ch, rc = 0;

	while (cmd->longopts != NULL && cmd->longopts[n].name != NULL)
		n++;
	lo = xcalloc(n + 2, sizeof *lo);
	if (n > 0)
		memcpy(lo, cmd->longopts, n * sizeof *lo);
	lo[n] = (struct option){ "help", no_argument, NULL, CMD_OPT_HELP };
	/* ':' first: a missing value is told apart from an unknown option. */
	xasprintf(&optstr, "%s:%sh", *spec == '+' ? "+" : "", *spec == '+' ? spec + 1 : spec);
	opterr = 0;
	optind = 0;
	while (rc == 0 && (ch = getopt_long(argc, argv, optstr, lo, NULL)) != -1) {
		if (ch == 'h' || ch == CMD_OPT_HELP) {
			cmd_usage(cmd, 1);
			rc = 1;
		} else if (ch == '?')
			rc = bad_option(cmd, argv, false);
		else if (ch == ':')
			rc = bad_option(cmd, argv, true);
		else {
			a->opts = xreallocarray(a->opts, a->nopts + 1, sizeof *a->opts);
			a->opts[a->nopts].ch = ch;
			a->opts[a->nopts++].arg = optarg;
		}
	}
	free(optstr);
	free(lo);
	if (rc != 0)
		return rc;
	a->argc = argc - optind;
	a->argv = argv + optind;
	if (a->argc > cmd->max_args && cmd->max_args >= 0)
		return cmd_usage_error(cmd, "unexpected argument '%s'", a->argv[cmd->max_args]);
	if (a->argc < cmd->min_args)
		return cmd_usage_error(cmd, "needs %s%d argument%s, not %d", cmd->max_args ==
		    cmd->min_args ? "" : "at least ", cmd->min_args, cmd->min_args == 1 ? "" : "s",
		    a->argc);
	return 0;
}

/*
 * The if.* vocabulary (share/knobs/if.settings, os/ifset.h): a broken file stops
 * every command (2, "file:line: ..."); a missing one only what names an if.* setting.
 */
static int
ifsets_check(const struct ntune_cmd *cmd)
{
	char *cause = NULL;
	bool missing;

	if (os_ifsets_table(&missing, &cause) != NULL || missing) {
		free(cause);
		return 0;
	}
	return cmd_fail(cmd, &cause, 2);
}

int
cmd_dispatch(const struct ntune_cmd *cmd, int argc, char **argv)
{
	struct cmd_args a = { .cmd = cmd };
	int rc;

	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		cmd_usage(cmd, 1);
		return 0;
	}
	if (cmd->flags & NTUNE_CMD_LINUX_ONLY)
		return cmd_error(cmd, 2, "`ntune %s` is Linux-only (network namespaces, veth, "
		    "AF_PACKET); on FreeBSD measure between machines with --dut ssh://[user@]host",
		    cmd->name);
	if (cmd->subs != NULL)
		return dispatch_sub(cmd, argc, argv);
	/* getopt_long permutes argv: keep the command line as typed. */
	a.nwords = argc;
	a.words = xcalloc((size_t)argc + 1, sizeof *a.words);
	memcpy(a.words, argv, (size_t)argc * sizeof *a.words);
	if (cmd->flags & NTUNE_CMD_OWN_ARGS) {
		a.argc = argc - 1;
		a.argv = argv + 1;
		rc = 0;
	} else
		rc = parse(cmd, argc, argv, &a);
	if (rc == 0)
		rc = ifsets_check(cmd);
	if (rc == 0)
		rc = cmd->run(&a);
	else if (rc == 1)
		rc = 0;		/* --help */
	free(a.opts);
	free(a.words);
	return rc;
}

int
cmd_next(struct cmd_args *a, char **arg)
{
	if (a->next >= a->nopts)
		return -1;
	*arg = a->opts[a->next].arg;
	return a->opts[a->next++].ch;
}

int
cmd_fail(const struct ntune_cmd *cmd, char **cause, int status)
{
	fprintf(stderr, "ntune %s: %s\n", cmd->name, *cause != NULL ? *cause : "failed");
	free(*cause);
	*cause = NULL;
	return status;
}

static void
say(const struct ntune_cmd *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "ntune %s: ", cmd->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int
cmd_error(const struct ntune_cmd *cmd, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, fmt, ap);
	va_end(ap);
	return status;
}

int
cmd_usage_error(const struct ntune_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, fmt, ap);
	va_end(ap);
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
		return cmd_error(cmd, -1, "invalid %s '%s' (want %g..%g)", opt, s, lo, hi);
	}
	*out = v;
	return 0;
}

int
cmd_load_profile(const struct ntune_cmd *cmd, const char *path, struct kb_profile **p,
    struct kb **kb)
{
	char *cause = NULL;

	if ((*p = kb_profile_load(path, &cause)) == NULL)
		return cmd_fail(cmd, &cause, 2);
	if (kb_load(NULL, kb, &cause) == -1) {
		kb_profile_free(*p);
		*p = NULL;
		return cmd_fail(cmd, &cause, 2);
	}
	return 0;
}

int
cmd_parse_os(const struct ntune_cmd *cmd, const char *arg, enum os_platform *out)
{
	if ((*out = os_platform_parse(arg)) != OS_PLATFORM_UNKNOWN)
		return 0;
	return cmd_error(cmd, -1, "bad --os '%s' (%s)", arg, os_platform_list());
}

int
cmd_add_from(const struct ntune_cmd *cmd, const char **from, size_t *n, size_t max, const char *arg)
{
	if (*n == max) {
		return cmd_error(cmd, -1, "too many --from files");
	}
	from[(*n)++] = arg;
	return 0;
}

int
cmd_parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = (int)v;
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
	bench_lab_runner(c);	/* --dut replaces it with the DUT's */
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
	else if (strcmp(arg, "efficiency") == 0)
		c->efficiency = true;
	else {
		return cmd_error(cmd, -1, "%s is pps, %s, latency or efficiency, not '%s'", opt, bits,
		    arg);
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
