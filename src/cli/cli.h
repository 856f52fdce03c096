/* The subcommand interface: each src/cmd/<name>.c exports one struct ntune_cmd. */
#ifndef NTUNE_CMD_H
#define NTUNE_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "os/platform.h"

#define NTUNE_CMD_HIDDEN	0x2	/* not listed by `ntune help` */
#define NTUNE_CMD_LINUX_ONLY	0x4	/* a stand-in where the command cannot exist: cmd_dispatch says so, exit 2 */
#define NTUNE_CMD_OWN_ARGS	0x8	/* run parses argv itself (stat: ministat's messages); only --help is handled */

struct option;
struct ntune_cmd;

/* What cmd_dispatch parsed for run: the options in order, then the operands. */
struct cmd_args {
	const struct ntune_cmd *cmd;
	struct cmd_opt {
		int	 ch;
		char	*arg;		/* NULL for an option without a value */
	}	*opts;
	size_t	 nopts, next;
	int	 argc;			/* the operands (argv[0] is the first, not the command name) */
	char	**argv;
	int	 nwords;		/* the command line as typed, words[0] the command's name */
	char	**words;
};

/*
 * One subcommand, as data (tmux's cmd_entry): cmd_dispatch parses the options by
 * .optstring/.longopts, refuses an unknown option, a missing value or an operand
 * count outside [.min_args, .max_args] (usage, exit 2), answers -h/--help, and
 * checks .flags before calling run. A command with .subs has no run: its first
 * operand names one of them ("lab up"), dispatched the same way.
 *
 * Messages: everything a command prints to stderr starts "ntune NAME: " (NAME is
 * the full name, "lab rfc2544"); only main, before a command is found, says "ntune: ".
 */
struct ntune_cmd {
	const char *name;
	const char *summary;	/* one line, shown by `ntune help` */
	const char *usage;	/* shown by `ntune NAME --help` and on misuse; lines after the first are indented */
	const char *notes;	/* NULL, or more lines `ntune NAME --help` shows after the summary */
	const char *optstring;	/* getopt_long's; "+..." stops at the first operand */
	const struct option *longopts;
	int	    min_args;	/* operands after the options */
	int	    max_args;	/* -1: any number */
	int	    flags;
	/* Returns the exit status (0 ok, 1 found problems, 2 usage/input error). */
	int	  (*run)(struct cmd_args *);
	const struct ntune_cmd *const *subs;	/* NULL-terminated */
};

extern const struct ntune_cmd cmd_stat, cmd_inspect, cmd_snapshot, cmd_top, cmd_explain,
    cmd_check, cmd_advise, cmd_apply, cmd_confirm, cmd_revert, cmd_history, cmd_diff,
    cmd_verify, cmd_export, cmd_diagnose, cmd_doctor, cmd_lab, cmd_gen, cmd_sink, cmd_bench, cmd_tune, cmd_report,
    cmd_knob;
/* Subcommands of lab in their own files. */
extern const struct ntune_cmd cmd_lab_rfc2544;

/* Runs cmd with argv (argv[0] its name): the checks of struct ntune_cmd, then run. */
int	cmd_dispatch(const struct ntune_cmd *cmd, int argc, char **argv);
/* The next option run should handle and its value in *arg; -1 after the last one. */
int	cmd_next(struct cmd_args *, char **arg);
/* Prints "ntune NAME: cause" (or "failed" without one), frees and clears *cause; returns status. */
int	cmd_fail(const struct ntune_cmd *cmd, char **cause, int status);
/* Prints "ntune NAME: message"; returns status. */
int	cmd_error(const struct ntune_cmd *cmd, int status, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Prints "usage: ntune <usage>" for cmd to stderr (or stdout when to_stdout). */
void	cmd_usage(const struct ntune_cmd *cmd, int to_stdout);
struct kb;
struct kb_profile;
/* Loads profile path and the knowledge base; prints "ntune NAME: cause" and returns 2 on failure, else 0. */
int	cmd_load_profile(const struct ntune_cmd *, const char *path, struct kb_profile **, struct kb **);
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
/* Parses a decimal integer in [lo, hi] into *out; -1 (nothing printed) if s is not one. */
int	cmd_parse_int(const char *s, int lo, int hi, int *out);
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
/* Their rows in bench's and tune's struct option tables. */
#define CMD_MEASURE_LONGOPTS \
	{ "runs", required_argument, NULL, 'n' }, \
	{ "max-runs", required_argument, NULL, 'm' }, \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "warmup", required_argument, NULL, 'w' }, \
	{ "size", required_argument, NULL, 'S' }, \
	{ "flows", required_argument, NULL, 'F' }, \
	{ "threads", required_argument, NULL, 'T' }, \
	{ "seed", required_argument, NULL, 's' }, \
	{ "rate", required_argument, NULL, 'R' }
/* Puts the shared options into the lab and the context (and the settings both use). */
void	cmd_measure_setup(const struct cmd_measure *, struct bench_lab *, struct bench_ctx *);
/*
 * Parses what to compare, option opt: "pps", bits (bit/s) or "latency"; prints
 * "ntune NAME: OPT is pps, BITS or latency, not 'ARG'" and returns -1 if it is none.
 */
int	cmd_parse_metric(const struct ntune_cmd *, const char *opt, const char *bits, const char *arg,
	    struct bench_lab *, struct bench_ctx *);
/* --- a DUT over ssh (dut.c; the options are remote_opts.h's) ------------------------ */

struct bench_remote;
struct bench_profile;

/* Reaches the hosts (bench_remote_open) and says who the DUT is on stderr; -1 after printing why. */
int	cmd_dut_open(const struct ntune_cmd *, struct bench_remote *);
/* "DUT URL: uname; no ntune there (or its ntune version, there, not used): agentless; boot ID" on stderr. */
void	cmd_dut_said(const struct ntune_cmd *, const struct bench_remote *);
/*
 * After a bench or tune stopped on an error: "settings restored; partial results kept
 * in DIR ..." when nothing of ours is left applied, else which journal entry is not
 * restored (c's, or the reboot mode's entry of b; b NULL in the lab).
 */
struct bench_ctx;
void	cmd_said_restored(const struct ntune_cmd *, const struct bench_ctx *, const struct bench_remote *,
	    const char *dir);
/* Every knob of the profile must be known for os and its value valid; -1 after printing each problem. */
int	cmd_check_profile(const struct ntune_cmd *, const struct kb *, const struct kb_profile *, int ncpu,
	    const char *os);

/* How many knobs of the n profiles take effect only at boot (loader.conf); *first (if not NULL) the first. */
size_t	cmd_boot_knobs(const struct kb *, const struct bench_profile *, size_t n, const char **first);

/* The default results directory: ntune-WHAT-YYYYmmdd-HHMMSS (local time). */
void	cmd_results_dir(char *buf, size_t len, const char *what);

#endif
