/* apply/confirm/revert --dut ssh://...: the DUT reached agentless (cli/dut_write_opts.c). */
#ifndef NTUNE_CMD_AGENTLESS_H
#define NTUNE_CMD_AGENTLESS_H

#include <stdbool.h>

#include "apply/dut_apply.h"
#include "remote/remote.h"

struct ntune_cmd;

#define CMD_AGENTLESS_LONGOPTS \
	{ "dut", required_argument, NULL, 'D' }, \
	{ "ssh-config", required_argument, NULL, 'S' }, \
	{ "ssh-accept-new", no_argument, NULL, 'A' }

struct cmd_agentless {
	const char *url, *ssh_config;
	bool	accept_new;
	struct remote_ssh ssh;
	struct remote_host host;
	struct agentless_opts o;
};

/* 1 if ch was one of the options above (stored), 0 if not. */
int	cmd_agentless_option(struct cmd_agentless *, int ch, const char *arg);
/* Reaches the DUT and learns its OS (o.dut, o.os): 0, or the exit status after printing why. */
int	cmd_agentless_open(const struct ntune_cmd *, struct cmd_agentless *);
void	cmd_agentless_close(struct cmd_agentless *);
/* confirm/revert --dut: runs the entry script, prints the DUT's line; the exit status. */
int	cmd_agentless_entry(const struct ntune_cmd *, struct cmd_agentless *, const char *id,
	    bool confirm);

#endif
