/*
 * ntune confirm: keep a change applied with --confirm (stops its dead-man timer)
 * or with --trial-boot (after the reboot: writes the tried loader tunables).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_confirm;

static int
run(struct cmd_args *args)
{
	char *cause = NULL, *kept = NULL, done[APPLY_ID_MAX];
	bool waiting;

	if (apply_confirm(NULL, args->argc == 1 ? args->argv[0] : NULL, done, sizeof done, &kept,
	    &waiting, &cause) == -1)
		return cmd_fail(&cmd_confirm, &cause, 1);
	printf("confirmed %s\n", done);
	if (kept != NULL)
		printf("kept the one-boot trial in %s\n", kept);
	if (waiting)
		printf("the one-boot trial is still waiting: reboot, then `ntune confirm %s` again\n",
		    done);
	free(kept);
	return 0;
}

const struct ntune_cmd cmd_confirm = {
	.name = "confirm",
	.summary = "keep a change applied with --confirm or --trial-boot",
	.usage = "confirm [ID]",
	.max_args = 1,
	.run = run,
};
