/*
 * ntune verify: does the running system (or a DUT, --dut) match a profile or what a journal
 * entry applied? Every differing knob, wanted vs actual.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "apply/apply.h"
#include "cli/dut_write_opts.h"
#include "cli/cli.h"
#include "kb/kb.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_verify;

/* Does actual satisfy the entry (=, => at least, =< at most)? */
static bool
satisfied(const struct kb_knob *k, const struct kb_entry *e, const char *actual)
{
	long long want, have;

	if (e->op == KB_OP_SET)
		return kb_value_equal(k, actual, e->value);
	if (kb_parse_number(e->value, &want) == -1 || kb_parse_number(actual, &have) == -1)
		return false;
	return e->op == KB_OP_RAISE ? have >= want : have <= want;
}

static const struct option longopts[] = {
	{ "netns", required_argument, NULL, 'N' },
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* verify --dut: every knob of p read there at once (agentless_read); NULL where it has none. */
static char **
dut_values(struct cmd_agentless *a, const struct kb_profile *p, char **cause)
{
	char **names = xcalloc(p->nentries + 1, sizeof *names), **v = NULL;
	size_t i;

	for (i = 0; i < p->nentries; i++)
		names[i] = p->entries[i].name;
	if (agentless_read(&a->o, names, p->nentries, true, &v, cause) == -1)
		v = NULL;
	free(names);
	return v;
}

/* The knob's value here or (dv not NULL) as read there: -1 + why when there is none. */
static int
actual_of(struct apply_access *acc, const struct kb *kb, char **dv, size_t i, const char *name,
    char **actual, char **why)
{
	if (dv == NULL)
		return apply_access_get(acc, kb, name, actual, why);
	if (dv[i] == NULL) {
		*why = xstrdup("not there");
		return -1;
	}
	*actual = xstrdup(dv[i]);
	return 0;
}

static int
run(struct cmd_args *args)
{
	const char *netns = NULL;
	const struct kb_entry *e;
	struct apply_access *acc = NULL;
	struct cmd_agentless a;
	struct kb_profile *p = NULL;
	struct kb *kb = NULL;
	char *cause = NULL, *actual, *why, **dv = NULL;
	bool json = false, ok;
	size_t i, differ = 0, checked = 0;
	json_t *doc = NULL, *arr = NULL, *o;
	char *arg;
	int ch, rc;

	memset(&a, 0, sizeof a);
	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(&a, ch, arg))
			continue;
		switch (ch) {
		case 'N':
			netns = arg;
			break;
		case 'j':
			json = true;
			break;
		case 'r':
			a.o.root = arg;
			break;
		}
	}
	if (a.opts.url == NULL && (a.o.root != NULL || dut_opts_ssh_given(&a.opts)))
		return cmd_error(&cmd_verify, 2, "--root, --ssh-config and --ssh-accept-new go with --dut");
	if (a.opts.url != NULL && netns != NULL)
		return cmd_error(&cmd_verify, 2, "--dut goes without --netns");
	if ((rc = cmd_agentless_open(&cmd_verify, &a)) != 0)
		return rc;
	if ((p = apply_profile_or_entry(args->argv[0], &a.o, &cause)) == NULL ||
	    kb_load(NULL, &kb, &cause) == -1 || (a.opts.url != NULL ? (dv = dut_values(&a, p, &cause)) == NULL :
	    (acc = apply_access_open(netns, &cause)) == NULL)) {
		kb_profile_free(p);
		kb_free(kb);
		cmd_agentless_close(&a);
		return cmd_fail(&cmd_verify, &cause, 2);
	}
	if (json)
		arr = json_array();
	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (kb_profile_get(p, e->name) != e)
			continue;	/* a later line overrides it */
		checked++;
		actual = why = NULL;
		if (actual_of(acc, kb, dv, i, e->name, &actual, &why) == -1)
			ok = false;
		else
			ok = satisfied(kb_find(kb, e->name, NULL), e, actual);
		if (!ok)
			differ++;
		if (json) {
			o = json_object();
			json_object_set_new(o, "name", json_string(e->name));
			json_object_set_new(o, "line", json_integer(e->line));
			json_object_set_new(o, "op", json_string(kb_op_text(e->op)));
			json_object_set_new(o, "wanted", json_string(e->value));
			json_object_set_new(o, "actual", actual ? json_string(actual) : json_null());
			json_object_set_new(o, "error", why ? json_string(why) : json_null());
			json_object_set_new(o, "match", json_boolean(ok));
			json_array_append_new(arr, o);
		} else if (!ok) {
			printf("%s:%d: %s: wanted %s%s, actual %s%s%s\n", e->file, e->line, e->name,
			    e->op == KB_OP_SET ? "" : e->op == KB_OP_RAISE ? "at least " : "at most ",
			    e->value, actual ? actual : "unreadable", why ? ": " : "", why ? why : "");
		}
		free(actual);
		free(why);
	}
	if (json) {
		doc = json_object();
		json_object_set_new(doc, "profile", json_string(p->path));
		json_object_set_new(doc, "netns", netns ? json_string(netns) : json_null());
		if (a.opts.url != NULL)
			json_object_set_new(doc, "dut", json_string(a.dut.host.url));
		json_object_set_new(doc, "checked", json_integer((json_int_t)checked));
		json_object_set_new(doc, "differ", json_integer((json_int_t)differ));
		json_object_set_new(doc, "knobs", arr);
		util_json_print(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(doc);
	} else
		fprintf(stderr, "%s: %zu of %zu settings %s\n", p->path, differ, checked,
		    differ == 0 ? "differ: the system matches" : "differ");
	apply_access_close(acc);
	if (dv != NULL)
		util_strv_free(dv, p->nentries);
	cmd_agentless_close(&a);
	kb_profile_free(p);
	kb_free(kb);
	return differ > 0 ? 1 : 0;
}

const struct ntune_cmd cmd_verify = {
	.name = "verify",
	.summary = "does the running system match a profile?",
	.usage = "verify PROFILE|ID [--netns NAME] [--json]\n"
	    "      PROFILE|ID --dut ssh://[user@]host[:port] [--root|--dut-root DIR] [--ssh-config FILE]\n"
	    "      [--ssh-accept-new] [--json]",
	.optstring = "N:j",
	.longopts = longopts,
	.min_args = 1,
	.max_args = 1,
	.run = run,
};
