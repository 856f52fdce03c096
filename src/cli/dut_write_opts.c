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
	return dut_option(&a->opts, ch, arg);
}

int
cmd_agentless_open(const struct ntune_cmd *cmd, struct cmd_agentless *a)
{
	char *cause = NULL;
	bool usage;

	if (a->opts.url != NULL && strcmp(a->opts.url, "local") == 0)
		return cmd_error(cmd, 2, "--dut local: run it here without --dut");
	if (dut_open(&a->dut, &a->opts, true, &usage, &cause) == -1)
		return cmd_fail(cmd, &cause, usage ? 2 : 1);
	a->o.dut = &a->dut.host;
	a->o.os = a->dut.facts.os;
	if (a->opts.root != NULL)
		a->o.root = a->opts.root;
	return 0;
}

void
cmd_agentless_close(struct cmd_agentless *a)
{
	dut_close(&a->dut);
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
	printf("%s: %s\n", a->dut.host.url, said);
	free(said);
	return 0;
}
