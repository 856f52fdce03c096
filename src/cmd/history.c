/* ntune history: the journalled applies, oldest first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "apply/apply.h"
#include "cmd/cmd.h"

extern const struct ntune_cmd cmd_history;

static int
run(int argc, char **argv)
{
	struct apply_entry *e;
	size_t n, i;
	char *cause = NULL, *id = NULL;
	bool json = false;
	json_t *arr, *o, *doc;
	int a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--json") == 0)
			json = true;
		else if (argv[a][0] != '-' && id == NULL)
			id = argv[a];
		else {
			cmd_usage(&cmd_history, 0);
			return 2;
		}
	}
	if (id != NULL) {
		/* One entry in full: the journal document itself. */
		if ((doc = apply_journal_read(NULL, id, &cause)) == NULL) {
			fprintf(stderr, "ntune history: %s\n", cause);
			free(cause);
			return 2;
		}
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(doc);
		return 0;
	}
	if (apply_history(NULL, &e, &n, &cause) == -1) {
		fprintf(stderr, "ntune history: %s\n", cause);
		free(cause);
		return 2;
	}
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
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
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
	"history",
	"list journalled applies",
	"history [--json] [ID]",
	0,
	run,
};
