/* ntune: the command table and finding a command; cmd_dispatch (cli/cli.c) does the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/util.h"

static const struct ntune_cmd *const commands[] = {
	&cmd_stat, &cmd_inspect, &cmd_snapshot, &cmd_top,
	&cmd_explain, &cmd_check, &cmd_advise, &cmd_apply, &cmd_confirm, &cmd_revert,
	&cmd_history, &cmd_diff, &cmd_verify, &cmd_export, &cmd_diagnose, &cmd_doctor,
	&cmd_lab, &cmd_gen, &cmd_sink, &cmd_bench, &cmd_tune, &cmd_report,
	&cmd_knob,
};

/* `ntune help` in the router owner's order: answer the question, prove a change, keep it. */
static const struct help_group {
	const char *title;
	const struct ntune_cmd *cmds[9];
} help_groups[] = {
	{ "answer: what limits this router, and what to change",
	  { &cmd_doctor, &cmd_diagnose, &cmd_inspect, &cmd_top, &cmd_snapshot, &cmd_explain,
	    &cmd_check, &cmd_advise } },
	{ "prove: measure a change before keeping it",
	  { &cmd_bench, &cmd_tune, &cmd_report } },
	{ "change: apply all or nothing, keep or take back",
	  { &cmd_apply, &cmd_confirm, &cmd_revert, &cmd_history, &cmd_diff, &cmd_verify,
	    &cmd_export } },
	{ "lab: a router in network namespaces, its load and its counter",
	  { &cmd_lab, &cmd_gen, &cmd_sink } },
	{ "statistics", { &cmd_stat } },
};

static void
usage(FILE *f)
{
	size_t g, i;

	fprintf(f, "usage: ntune [--version] [--help] COMMAND [ARGS]\n");
	for (g = 0; g < nitems(help_groups); g++) {
		fprintf(f, "\n%s:\n", help_groups[g].title);
		for (i = 0; i < nitems(help_groups[g].cmds) && help_groups[g].cmds[i]; i++) {
			const struct ntune_cmd *c = help_groups[g].cmds[i];

			if (!(c->flags & NTUNE_CMD_HIDDEN))
				fprintf(f, "   %-10s %s\n", c->name, c->summary);
		}
	}
	fprintf(f, "\n   %-10s %s\n", "help", "show this list, or `ntune help COMMAND` for one command");
	fprintf(f, "\nSee ntune(8) for details; `ntune COMMAND --help` for a command's options.\n");
}

/* Like tmux's cmd_find(): an exact name or a unique prefix. */
static const struct ntune_cmd *
find(const char *name)
{
	const struct ntune_cmd *found = NULL;
	const char *names[nitems(commands)], *near;
	size_t i, len = strlen(name), matches = 0;

	for (i = 0; i < nitems(commands); i++) {
		names[i] = commands[i]->name;
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	}
	for (i = 0; i < nitems(commands); i++) {
		if (len > 0 && strncmp(commands[i]->name, name, len) == 0) {
			found = commands[i];
			matches++;
		}
	}
	if (matches == 1)
		return found;
	if (matches > 1) {
		const char *sep = " ";

		fprintf(stderr, "ntune: ambiguous command '%s':", name);
		for (i = 0; i < nitems(commands); i++) {
			if (strncmp(commands[i]->name, name, len) == 0) {
				fprintf(stderr, "%s%s", sep, commands[i]->name);
				sep = ", ";
			}
		}
		fputc('\n', stderr);
		return NULL;
	}
	if ((near = util_did_you_mean(name, names, nitems(commands))) != NULL)
		fprintf(stderr, "ntune: unknown command '%s' (did you mean '%s'?)\n", name, near);
	else
		fprintf(stderr, "ntune: unknown command '%s'\n", name);
	usage(stderr);
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct ntune_cmd *cmd;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("ntune %s\n", NTUNE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2) {
			if ((cmd = find(argv[2])) == NULL)
				return 2;
			cmd_usage(cmd, 1);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "ntune: unknown option '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	if ((cmd = find(argv[1])) == NULL)
		return 2;
	return cmd_dispatch(cmd, argc - 1, argv + 1);
}
