/* ntune confirm: keep a change applied with --confirm (stops its dead-man timer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_confirm;

static int
run(struct cmd_args *args)
{
	char *cause = NULL, done[APPLY_ID_MAX];

	if (apply_confirm(NULL, args->argc == 1 ? args->argv[0] : NULL, done, sizeof done,
	    &cause) == -1)
		return cmd_fail(&cmd_confirm, &cause, 1);
	printf("confirmed %s\n", done);
	return 0;
}

const struct ntune_cmd cmd_confirm = {
	.name = "confirm",
	.summary = "keep a change applied with --confirm",
	.usage = "confirm [ID]",
	.max_args = 1,
	.run = run,
};
