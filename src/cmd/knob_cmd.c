/*
 * ntune knob get|set [--netns NS] NAME [VALUE]: one read or write of a knob through the access
 * layer (src/apply/access.c, the src/os backends), for the programs of the one apply engine
 * (src/apply/remote_script.c) where sh cannot do it itself: if.* (ethtool, ifconfig, sysfs),
 * cpu.governor, and the knobs of a network namespace; `knob same NAME A B`: are A and B one
 * value as apply compares them (kb_value_equal), for the read-back of such a knob. Internal:
 * not listed by `ntune help`.
 * (Not knob.c: src/kb/ has that name, and a file name is one in src/.)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cli/cli.h"
#include "kb/kb.h"
#include "util/util.h"

extern const struct ntune_cmd cmd_knob;

static const struct option longopts[] = {
	{ "netns", required_argument, NULL, 'N' },
	{ NULL, 0, NULL, 0 },
};

/* knob same NAME A B: 0 when A and B are one value of NAME as apply compares them, else 1. */
static int
same(const struct kb *kb, const char *name, const char *a, const char *b)
{
	const struct kb_knob *k = kb_find(kb, name, apply_detect_os());

	return kb_value_equal(k, a, b) ? 0 : 1;
}

static int
run(struct cmd_args *args)
{
	struct apply_access *acc;
	struct kb *kb = NULL;
	const char *netns = NULL, *op = args->argv[0], *name = args->argv[1];
	char *arg, *value = NULL, *cause = NULL;
	bool set = strcmp(op, "set") == 0, same_op = strcmp(op, "same") == 0;
	int ch, rc;

	while ((ch = cmd_next(args, &arg)) != -1)
		if (ch == 'N')
			netns = arg;
	if ((!set && !same_op && strcmp(op, "get") != 0) || args->argc != (set ? 3 : same_op ? 4 : 2))
		return cmd_usage_error(&cmd_knob, "get NAME, set NAME VALUE or same NAME VALUE VALUE");
	/*
	 * The knowledge base says which knobs are the namespace's (apply_in_netns), as for apply,
	 * and how values compare; without a namespace get and set need none (one start is ~30 ms).
	 */
	if ((netns != NULL || same_op) && kb_load(NULL, &kb, &cause) == -1) {
		free(cause);
		cause = NULL;
	}
	if (same_op) {
		rc = same(kb, name, args->argv[2], args->argv[3]);
		kb_free(kb);
		return rc;
	}
	if ((acc = apply_access_open(netns, &cause)) == NULL)
		rc = -1;
	else if (set)
		rc = apply_access_set(acc, kb, name, args->argv[2], &cause);
	else if ((rc = apply_access_get(acc, kb, name, &value, &cause)) == 0)
		printf("%s\n", value);
	free(value);
	/* The refusal names the knob: the program's caller reads its first line as the reason. */
	if (rc != 0 && set && cause != NULL) {
		arg = cause;
		cause = NULL;
		util_cause(&cause, "%s=%s: %s", name, args->argv[2], arg);
		free(arg);
	}
	apply_access_close(acc);
	kb_free(kb);
	return rc == 0 ? 0 : cmd_fail(&cmd_knob, &cause, 1);
}

const struct ntune_cmd cmd_knob = {
	.name = "knob",
	.summary = "internal: one read or write of a knob, for the apply engine's programs",
	.usage = "knob get|set [--netns NAME] KNOB [VALUE] | same KNOB VALUE VALUE",
	.optstring = "",
	.longopts = longopts,
	.min_args = 2,
	.max_args = 4,
	.flags = NTUNE_CMD_HIDDEN,
	.run = run,
};
