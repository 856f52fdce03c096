/* The --dut options bench, tune, lab rfc2544 and doctor's load share (bench_dut_opts.c). */
#ifndef NTUNE_CMD_REMOTE_OPTS_H
#define NTUNE_CMD_REMOTE_OPTS_H

#include <stdbool.h>

#include "dut/dut.h"

struct bench_ctx;
struct bench_lab;
struct bench_remote;
struct ntune_cmd;

enum {
	CMD_OPT_GEN = 256, CMD_OPT_SINK, CMD_OPT_DUT_IN, CMD_OPT_DUT_OUT, CMD_OPT_GEN_IF,
	CMD_OPT_SINK_IF, CMD_OPT_DST, CMD_OPT_NTUNE, CMD_OPT_PLAN,
	CMD_OPT_GEN_ARGS, CMD_OPT_SINK_ARGS, CMD_OPT_REBOOT, CMD_OPT_REBOOT_CMD,
	CMD_OPT_REBOOT_TIMEOUT, CMD_OPT_REBOOT_SETTLE, CMD_OPT_DUT_CONFIRM,
};

/* The getopt_long entries of the router options (dut/dut.h) and the options above. */
#define CMD_REMOTE_LONGOPTS \
	DUT_LONGOPTS, \
	{ "gen", required_argument, NULL, CMD_OPT_GEN }, \
	{ "sink", required_argument, NULL, CMD_OPT_SINK }, \
	{ "dut-in", required_argument, NULL, CMD_OPT_DUT_IN }, \
	{ "dut-out", required_argument, NULL, CMD_OPT_DUT_OUT }, \
	{ "gen-if", required_argument, NULL, CMD_OPT_GEN_IF }, \
	{ "sink-if", required_argument, NULL, CMD_OPT_SINK_IF }, \
	{ "dst", required_argument, NULL, CMD_OPT_DST }, \
	{ "ntune", required_argument, NULL, CMD_OPT_NTUNE }, \
	{ "plan", no_argument, NULL, CMD_OPT_PLAN }, \
	{ "gen-args", required_argument, NULL, CMD_OPT_GEN_ARGS }, \
	{ "sink-args", required_argument, NULL, CMD_OPT_SINK_ARGS }, \
	{ "reboot", no_argument, NULL, CMD_OPT_REBOOT }, \
	{ "reboot-cmd", required_argument, NULL, CMD_OPT_REBOOT_CMD }, \
	{ "reboot-timeout", required_argument, NULL, CMD_OPT_REBOOT_TIMEOUT }, \
	{ "reboot-settle", required_argument, NULL, CMD_OPT_REBOOT_SETTLE }, \
	{ "dut-confirm", required_argument, NULL, CMD_OPT_DUT_CONFIRM }

/* --dut and friends: what they say, before anything is reached. */
struct cmd_remote_opts {
	const char *dut, *gen, *sink;
	bool	plan;
};

/* The defaults: the lab's interface names and addresses, ntune on the PATH, 600 s reboots. */
void	cmd_remote_init(struct bench_remote *);
/*
 * 1 if ch was a remote option (a router option of dut/dut.h among them: --dut into
 * o, the ssh options and --dut-root into b), 0 if not, -1 after printing why its
 * value is invalid.
 */
int	cmd_remote_option(const struct ntune_cmd *, int ch, const char *arg, struct cmd_remote_opts *,
	    struct bench_remote *);
/* Checks what --dut and friends name; fills the hosts. -1 after printing why. */
int	cmd_remote_check(const struct ntune_cmd *, const struct cmd_remote_opts *, struct bench_remote *,
	    const struct bench_lab *, const struct bench_ctx *);

#endif
