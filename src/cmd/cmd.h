/* The subcommand interface: each src/cmd/<name>.c exports one struct ntune_cmd. */
#ifndef NTUNE_CMD_H
#define NTUNE_CMD_H

#include <stddef.h>

#include "os/platform.h"

#define NTUNE_CMD_ROOT		0x1	/* always needs root (CAP_NET_ADMIN); main checks it */
#define NTUNE_CMD_HIDDEN	0x2	/* not listed by `ntune help` */

struct ntune_cmd {
	const char *name;
	const char *summary;	/* one line, shown by `ntune help` */
	const char *usage;	/* shown by `ntune NAME --help` and on misuse; lines after the first are indented */
	int	    flags;
	/* argv[0] is the command name; returns the exit status (0 ok, 1 found problems, 2 usage/input error). */
	int	  (*run)(int argc, char **argv);
};

extern const struct ntune_cmd cmd_stat, cmd_inspect, cmd_snapshot, cmd_top, cmd_explain,
    cmd_check, cmd_advise, cmd_apply, cmd_confirm, cmd_revert, cmd_history, cmd_diff,
    cmd_verify, cmd_export, cmd_diagnose, cmd_lab, cmd_gen, cmd_sink, cmd_bench, cmd_tune, cmd_report;

/* Prints "usage: ntune <usage>" for cmd to stderr (or stdout when to_stdout). */
void	cmd_usage(const struct ntune_cmd *cmd, int to_stdout);
struct kb;
struct kb_profile;
/* Loads profile path and the knowledge base; prints "ntune: cause" and returns 2 on failure, else 0. */
int	cmd_load_profile(const char *path, struct kb_profile **, struct kb **);
/* Parses a number in [lo, hi] for option opt; prints "ntune NAME: invalid ..." and returns -1 if not. */
int	cmd_parse_num(const struct ntune_cmd *cmd, const char *opt, const char *s, double lo, double hi,
	    double *out);
/* Prints "ntune NAME: message" and the usage to stderr; returns 2 (the usage exit status). */
int	cmd_usage_error(const struct ntune_cmd *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Checks an --os argument (freebsd, opnsense, pfsense, linux); prints "ntune NAME: bad --os ..." and returns -1 if not one. */
int	cmd_parse_os(const struct ntune_cmd *, const char *arg, enum os_platform *);
/* Adds a --from file to from[max]; prints "ntune NAME: too many --from files" and returns -1 when full. */
int	cmd_add_from(const struct ntune_cmd *, const char **from, size_t *n, size_t max, const char *arg);
/* The index of s in names[n], or -1. */
int	cmd_pick(const char *s, const char *const *names, size_t n);

struct bench_lab;
struct bench_ctx;
/* How bench and tune measure: the options they share (each sets its own defaults first). */
struct cmd_measure {
	double	runs, max_runs, duration, warmup, size, flows, threads;
};
/*
 * Handles option ch if it is one bench and tune share (--runs, --max-runs, --duration,
 * --warmup, --size, --flows, --threads, --seed, --rate): 1 if it was, 0 if it is not
 * one of them, -1 after printing why its value is invalid.
 */
int	cmd_measure_option(const struct ntune_cmd *, int ch, const char *arg, struct cmd_measure *,
	    struct bench_lab *, struct bench_ctx *);
/* Puts the shared options into the lab and the context (and the settings both use). */
void	cmd_measure_setup(const struct cmd_measure *, struct bench_lab *, struct bench_ctx *);
/*
 * Parses what to compare, option opt: "pps", bits (bit/s) or "latency"; prints
 * "ntune NAME: OPT is pps, BITS or latency, not 'ARG'" and returns -1 if it is none.
 */
int	cmd_parse_metric(const struct ntune_cmd *, const char *opt, const char *bits, const char *arg,
	    struct bench_lab *, struct bench_ctx *);
/* The default results directory: ntune-WHAT-YYYYmmdd-HHMMSS (local time). */
void	cmd_results_dir(char *buf, size_t len, const char *what);

#endif
