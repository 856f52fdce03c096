/* ntune confirm: keep a change applied with --confirm (stops its dead-man timer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_confirm;

static int
run(int argc, char **argv)
{
	char *cause = NULL, done[APPLY_ID_MAX];

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		cmd_usage(&cmd_confirm, 0);
		return 2;
	}
	if (apply_confirm(NULL, argc == 2 ? argv[1] : NULL, done, sizeof done, &cause) == -1) {
		fprintf(stderr, "ntune confirm: %s\n", cause);
		free(cause);
		return 1;
	}
	printf("confirmed %s\n", done);
	return 0;
}

const struct ntune_cmd cmd_confirm = {
	"confirm",
	"keep a change applied with --confirm",
	"confirm [ID]",
	0,
	run,
};
