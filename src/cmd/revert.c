/* ntune revert: restore the state before a journalled apply. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_revert;

static int
run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "deadman", no_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	char *cause = NULL, done[APPLY_ID_MAX];
	bool deadman = false;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			deadman = true;	/* the timer started by systemd-run */
			break;
		default:
			cmd_usage(&cmd_revert, 0);
			return 2;
		}
	}
	if (argc - optind > 1 || (deadman && argc - optind != 1)) {
		cmd_usage(&cmd_revert, 0);
		return 2;
	}
	if (deadman)
		rc = apply_deadman_wait(NULL, argv[optind], &cause);
	else
		rc = apply_revert(NULL, argc > optind ? argv[optind] : NULL, done, sizeof done, &cause);
	if (rc == -1) {
		fprintf(stderr, "ntune revert: %s\n", cause);
		free(cause);
		return 1;
	}
	if (!deadman)
		printf("reverted %s\n", done);
	return 0;
}

const struct ntune_cmd cmd_revert = {
	"revert",
	"restore the state before a journalled apply",
	"revert [ID]",
	0,
	run,
};
