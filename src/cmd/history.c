/* ntune history: the journalled applies, oldest first. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "apply/apply.h"
#include "cli/dut_write_opts.h"
#include "cli/cli.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_history;

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, 'r' },
	{ "plan", no_argument, NULL, 'p' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static void
print_json(const struct apply_entry *e, size_t n)
{
	json_t *arr = json_array(), *o;
	size_t i;

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
		json_object_set_new(o, "reverted_by", e[i].reverted_by && *e[i].reverted_by != '\0' ?
		    json_string(e[i].reverted_by) : json_null());
		json_object_set_new(o, "deadline", e[i].deadline ? json_integer(e[i].deadline) :
		    json_null());
		json_array_append_new(arr, o);
	}
	util_json_print(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(arr);
}

/* The table, with what a partial entry (of v) left changed. */
static void
print_text(const struct apply_entry *e, size_t n, const struct agentless_entry *v)
{
	size_t i, j;

	printf("%-27s  %-20s  %-9s  %7s  %s\n", "ID", "CREATED", "STATE", "CHANGES", "PROFILE");
	for (i = 0; i < n; i++) {
		printf("%-27s  %-20s  %-9s  %7d  %s", e[i].id, e[i].created ? e[i].created : "",
		    e[i].state ? e[i].state : "?", e[i].nchanges, e[i].profile ? e[i].profile : "");
		if (e[i].netns)
			printf(" (netns %s)", e[i].netns);
		if (e[i].confirm_pending)
			printf(" [reverts in %llds unless confirmed]",
			    (long long)(e[i].deadline - time(NULL)));
		else if (e[i].confirmed)
			printf(" [confirmed]");
		if (e[i].reverted_by != NULL && *e[i].reverted_by != '\0' &&
		    strcmp(e[i].reverted_by, "user") != 0)
			printf(" [reverted by the %s]", e[i].reverted_by);
		for (j = 0; v != NULL && j < v[i].nleft; j++)
			printf("%s%s%s", j == 0 ? " [left: " : " ", v[i].left[j], j + 1 == v[i].nleft ? "]" : "");
		printf("\n");
	}
}

static void
print_doc(json_t *doc)
{
	util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(doc);
}

/* The journal this machine's entries (a, without --dut) are in, for "no journalled applies". */
static char *
journal_dir(const struct cmd_agentless *a)
{
	struct rscript s;

	memset(&s, 0, sizeof s);
	s.os = a->o.os;
	s.root = a->o.root;
	s.state = a->o.state_dir;
	return rscript_state_dir(&s);
}

/* history [--dut]: the journal (the DUT's, or this machine's) read by the program --plan prints. */
static int
run_engine(struct cmd_agentless *a, const char *id, bool json, bool plan)
{
	struct rscript s;
	struct agentless_entry *v;
	struct apply_entry *e;
	char *cause = NULL, *t;
	size_t n, i;
	int rc;

	if ((rc = cmd_agentless_open(&cmd_history, a)) != 0)
		return rc;
	memset(&s, 0, sizeof s);
	s.os = a->o.os;
	s.id = id;
	s.root = a->o.root;
	s.state = a->o.state_dir;
	if (plan && (t = rscript_history(&s)) != NULL) {
		fputs(t, stdout);
		free(t);
	} else if (agentless_history(&a->o, id, &v, &n, &cause) == -1)
		rc = cmd_fail(&cmd_history, &cause, 2);
	else {
		e = xcalloc(n + 1, sizeof *e);
		for (i = 0; i < n; i++)
			e[i] = v[i].e;
		if (id != NULL && n == 1)
			print_doc(agentless_entry_json(&v[0], a->opts.url != NULL ? a->dut.host.url : NULL));
		else if (json)
			print_json(e, n);
		else if (n == 0 && a->opts.url == NULL) {
			t = journal_dir(a);
			printf("no journalled applies in %s\n", t);
			free(t);
		} else if (n == 0)
			printf("no journalled applies in %s on %s\n", a->o.os == OS_PLATFORM_FREEBSD ?
			    RSCRIPT_STATE_FREEBSD : RSCRIPT_STATE_LINUX, a->dut.host.url);
		else
			print_text(e, n, v);
		free(e);
		agentless_entries_free(v, n);
	}
	cmd_agentless_close(a);
	return rc;
}

static int
run(struct cmd_args *args)
{
	struct cmd_agentless a;
	const char *id = args->argc > 0 ? args->argv[0] : NULL;
	char *arg;
	bool json = false, plan = false;
	int ch;

	memset(&a, 0, sizeof a);
	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(&a, ch, arg))
			continue;
		if (ch == 'j')
			json = true;
		else if (ch == 'r')
			a.o.root = arg;
		else if (ch == 'p')
			plan = true;
	}
	if (a.opts.url == NULL && (a.o.root != NULL || dut_opts_ssh_given(&a.opts)))
		return cmd_error(&cmd_history, 2, "--root, --ssh-config and --ssh-accept-new go with --dut");
	return run_engine(&a, id, json, plan);
}

const struct ntune_cmd cmd_history = {
	.name = "history",
	.summary = "list journalled applies",
	.usage = "history [--json] [--plan] [ID] [--dut ssh://[user@]host[:port] [--root|--dut-root DIR]\n"
	    "      [--ssh-config FILE] [--ssh-accept-new]]",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
