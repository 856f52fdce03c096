/* The target of apply, confirm, revert, history, diff, verify, export: --dut or here. */
#ifndef NTUNE_CMD_AGENTLESS_H
#define NTUNE_CMD_AGENTLESS_H

#include <stdbool.h>

#include "apply/dut_apply.h"
#include "dut/dut.h"

struct ntune_cmd;

/*
 * The router options (dut/dut.h), the DUT once reached, the apply engine's view of it.
 * Without --dut (opts.url NULL) the target is this machine (agentless_local): os and netns
 * are apply's --os and --netns (NULL: this machine, its namespace).
 */
struct cmd_agentless {
	struct dut_opts opts;
	struct dut dut;
	struct agentless_opts o;
	const char *os, *netns;
};

/* 1 if ch was a router option (stored), 0 if not. */
int	cmd_agentless_option(struct cmd_agentless *, int ch, const char *arg);
/*
 * Reaches the DUT, learns its OS (o.dut, o.os, o.root), or without --dut takes this
 * machine (o.root as given): 0, or the exit status after saying why.
 */
int	cmd_agentless_open(const struct ntune_cmd *, struct cmd_agentless *);
void	cmd_agentless_close(struct cmd_agentless *);
/* The lines the engine printed here, without the DUT's "ntune-agentless: " prefix. */
void	cmd_print_said(const char *said);
/*
 * confirm/revert [ID] [--dut ...] [--root DIR]: runs the entry program (on this machine
 * without --dut), prints its line (with --dut, the DUT's); the exit status.
 */
struct cmd_args;
int	cmd_agentless_entry(const struct ntune_cmd *, struct cmd_args *, bool confirm);

#endif
