/* apply/confirm/revert --dut ssh://...: a DUT without ntune (apply/dut_apply.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dut_write_opts.h"
#include "cli/cli.h"
#include "util/util.h"

int
cmd_agentless_option(struct cmd_agentless *a, int ch, const char *arg)
{
	switch (ch) {
	case 'D':
		a->url = arg;
		return 1;
	case 'S':
		a->ssh_config = arg;
		return 1;
	case 'A':
		a->accept_new = true;
		return 1;
	}
	return 0;
}

int
cmd_agentless_open(const struct ntune_cmd *cmd, struct cmd_agentless *a)
{
	char *cause = NULL;

	a->ssh.config = a->ssh_config;
	a->ssh.accept_new = a->accept_new;
	if (remote_parse(a->url, &a->host, &cause) == -1)
		return cmd_fail(cmd, &cause, 2);
	if (a->host.local)
		return cmd_error(cmd, 2, "--dut local: run it here without --dut");
	if (remote_ssh_init(&a->ssh, &cause) == -1)
		return cmd_fail(cmd, &cause, 1);
	a->host.ssh = &a->ssh;
	a->o.dut = &a->host;
	if (agentless_os(&a->host, &a->o.os, &cause) == -1) {
		cmd_agentless_close(a);
		return cmd_fail(cmd, &cause, 1);
	}
	return 0;
}

void
cmd_agentless_close(struct cmd_agentless *a)
{
	if (a->ssh.ctl_dir[0] == '\0')
		return;
	remote_host_disconnect(&a->host);
	remote_ssh_done(&a->ssh);
}

int
cmd_agentless_entry(const struct ntune_cmd *cmd, struct cmd_agentless *a, const char *id,
    bool confirm)
{
	char *said = NULL, *cause = NULL;
	int rc;

	if ((rc = cmd_agentless_open(cmd, a)) != 0)
		return rc;
	rc = confirm ? agentless_confirm(&a->o, id, &said, &cause) :
	    agentless_revert(&a->o, id, &said, &cause);
	cmd_agentless_close(a);
	if (rc == -1)
		return cmd_fail(cmd, &cause, 1);
	printf("%s: %s\n", a->host.url, said);
	free(said);
	return 0;
}
