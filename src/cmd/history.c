/* ntune history: the journalled applies, oldest first. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "apply/apply.h"
#include "cli/cli.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_history;

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	struct apply_entry *e;
	size_t n, i;
	char *cause = NULL;
	const char *id = args->argc > 0 ? args->argv[0] : NULL;
	char *arg;
	bool json = false;
	json_t *arr, *o, *doc;

	while (cmd_next(args, &arg) == 'j')
		json = true;
	if (id != NULL) {
		/* One entry in full: the journal document itself. */
		if ((doc = apply_journal_read(NULL, id, &cause)) == NULL)
			return cmd_fail(&cmd_history, &cause, 2);
		util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(doc);
		return 0;
	}
	if (apply_history(NULL, &e, &n, &cause) == -1)
		return cmd_fail(&cmd_history, &cause, 2);
	if (json) {
		arr = json_array();
		for (i = 0; i < n; i++) {
			o = json_object();
			json_object_set_new(o, "id", json_string(e[i].id));
			json_object_set_new(o, "created", json_string(e[i].created ? e[i].created : ""));
			json_object_set_new(o, "state", json_string(e[i].state ? e[i].state : ""));
			json_object_set_new(o, "profile", json_string(e[i].profile ? e[i].profile : ""));
			json_object_set_new(o, "netns", e[i].netns ? json_string(e[i].netns) : json_null());
			json_object_set_new(o, "changes", json_integer(e[i].nchanges));
			json_object_set_new(o, "confirm_pending", json_boolean(e[i].confirm_pending));
			json_object_set_new(o, "confirmed", json_boolean(e[i].confirmed));
			json_object_set_new(o, "reverted_by", e[i].reverted_by ?
			    json_string(e[i].reverted_by) : json_null());
			json_object_set_new(o, "deadline", e[i].deadline ? json_integer(e[i].deadline) :
			    json_null());
			json_array_append_new(arr, o);
		}
		util_json_print(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(arr);
	} else if (n == 0) {
		printf("no journalled applies in %s/journal\n", apply_state_dir(NULL));
	} else {
		printf("%-24s  %-20s  %-9s  %7s  %s\n", "ID", "CREATED", "STATE", "CHANGES", "PROFILE");
		for (i = 0; i < n; i++) {
			printf("%-24s  %-20s  %-9s  %7d  %s", e[i].id, e[i].created ? e[i].created : "",
			    e[i].state ? e[i].state : "?", e[i].nchanges, e[i].profile ? e[i].profile : "");
			if (e[i].netns)
				printf(" (netns %s)", e[i].netns);
			if (e[i].confirm_pending)
				printf(" [reverts in %llds unless confirmed]",
				    (long long)(e[i].deadline - time(NULL)));
			else if (e[i].confirmed)
				printf(" [confirmed]");
			if (e[i].reverted_by != NULL && strcmp(e[i].reverted_by, "user") != 0)
				printf(" [reverted by the %s]", e[i].reverted_by);
			printf("\n");
		}
	}
	apply_history_free(e, n);
	return 0;
}

const struct ntune_cmd cmd_history = {
	.name = "history",
	.summary = "list journalled applies",
	.usage = "history [--json] [ID]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
