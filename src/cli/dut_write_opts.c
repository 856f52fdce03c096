/* The one apply engine's target: a DUT (--dut ssh://...), or this machine without --dut. */
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
	const char *root = a->o.root;
	bool usage;

	if (a->opts.url == NULL) {
		if (agentless_local(&a->o, &a->dut.host, a->os, NULL, a->netns, &cause) == -1)
			return cmd_fail(cmd, &cause, 2);
		if (root != NULL)
			a->o.root = root;
		return 0;
	}
	if (strcmp(a->opts.url, "local") == 0)
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
	if (a->opts.url != NULL)
		dut_close(&a->dut);
}

/* What the programs said here, each line without the "ntune-agentless: " a DUT's line has. */
void
cmd_print_said(const char *said)
{
	const char *p = said, *nl;
	size_t len = strlen("ntune-agentless: ");

	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if ((size_t)(nl - p) >= len && strncmp(p, "ntune-agentless: ", len) == 0)
			p += len;
		printf("%.*s\n", (int)(nl - p), p);
	}
}

int
cmd_agentless_entry(const struct ntune_cmd *cmd, struct cmd_args *args, bool confirm)
{
	struct cmd_agentless a;
	const char *id = args->argc == 1 ? args->argv[0] : NULL;
	char *said = NULL, *cause = NULL, *arg;
	int rc, ch;

	memset(&a, 0, sizeof a);
	while ((ch = cmd_next(args, &arg)) != -1)
		if (!cmd_agentless_option(&a, ch, arg) && ch == 'r')
			a.o.root = arg;
	if (a.opts.url == NULL && (a.o.root != NULL || dut_opts_ssh_given(&a.opts)))
		return cmd_error(cmd, 2, "--root, --dut-root, --ssh-config and --ssh-accept-new go with "
		    "--dut");
	if ((rc = cmd_agentless_open(cmd, &a)) != 0)
		return rc;
	rc = confirm ? agentless_confirm(&a.o, id, &said, &cause) :
	    agentless_revert(&a.o, id, &said, &cause);
	cmd_agentless_close(&a);
	if (rc == -1)
		return cmd_fail(cmd, &cause, 1);
	if (a.opts.url != NULL)
		printf("%s: %s\n", a.dut.host.url, said);
	else
		cmd_print_said(said);
	free(said);
	return 0;
}
