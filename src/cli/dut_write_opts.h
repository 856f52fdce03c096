/* apply/confirm/revert --dut ssh://...: the DUT reached agentless (cli/dut_write_opts.c). */
#ifndef NTUNE_CMD_AGENTLESS_H
#define NTUNE_CMD_AGENTLESS_H

#include <stdbool.h>

#include "apply/dut_apply.h"
#include "dut/dut.h"

struct ntune_cmd;

/* The router options (dut/dut.h), the DUT once reached, the apply engine's view of it. */
struct cmd_agentless {
	struct dut_opts opts;
	struct dut dut;
	struct agentless_opts o;
};

/* 1 if ch was a router option (stored), 0 if not. */
int	cmd_agentless_option(struct cmd_agentless *, int ch, const char *arg);
/* Reaches the DUT, learns its OS (o.dut, o.os, o.root): 0, or the exit status after saying why. */
int	cmd_agentless_open(const struct ntune_cmd *, struct cmd_agentless *);
void	cmd_agentless_close(struct cmd_agentless *);
/* confirm/revert --dut: runs the entry script, prints the DUT's line; the exit status. */
int	cmd_agentless_entry(const struct ntune_cmd *, struct cmd_agentless *, const char *id,
	    bool confirm);

#endif
