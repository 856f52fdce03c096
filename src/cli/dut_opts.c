/* --dut and friends: the options every command that measures a DUT over ssh shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/dut_bench.h"
#include "bench/runner.h"
#include "cli/cli.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "os/platform.h"
#include "util/util.h"

static void
progress(void *arg, const char *msg)
{
	cmd_error(arg, 0, "%s", msg);
}

int
cmd_dut_open(const struct ntune_cmd *cmd, struct bench_remote *b)
{
	char *cause = NULL;

	b->progress = progress;
	b->progress_arg = (void *)cmd;
	if (bench_remote_open(b, &cause) == -1)
		return cmd_fail(cmd, &cause, -1);
	cmd_dut_said(cmd, b);
	return 0;
}

void
cmd_dut_said(const struct ntune_cmd *cmd, const struct bench_remote *b)
{
	bool none = strcmp(b->dut_facts.version, "none") == 0;

	/* Always agentless: an ntune installed on the DUT is named, not used. */
	cmd_error(cmd, 0, "DUT %s: %s; %s%s: agentless; boot %s", b->dut.url, b->dut_facts.uname,
	    none ? "no ntune there" : b->dut_facts.version, none ? "" : " there, not used", b->boot_id);
}

void
cmd_said_restored(const struct ntune_cmd *cmd, const struct bench_ctx *c, const struct bench_remote *b,
    const char *dir)
{
	const char *j = c->journal[0] != '\0' ? c->journal : b != NULL && b->cur_journal[0] != '\0' ?
	    b->cur_journal : NULL;

	if (j == NULL)
		cmd_error(cmd, 1, "settings restored; partial results kept in %s (marked incomplete)", dir);
	else
		cmd_error(cmd, 1, "settings NOT restored: journal entry %s%s%s is still applied (see above); "
		    "partial results kept in %s (marked incomplete)", j, b != NULL ? " on " : "",
		    b != NULL ? b->dut.url : "", dir);
}

int
cmd_check_profile(const struct ntune_cmd *cmd, const struct kb *kb, const struct kb_profile *p, int ncpu,
    const char *os)
{
	const struct kb_entry *e;
	const struct kb_knob *k;
	const char *near;
	char *why;
	size_t i;
	int bad = 0;

	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if ((k = kb_find(kb, e->name, os)) == NULL) {
			near = kb_suggest(kb, e->name, os);
			if (near != NULL)
				cmd_error(cmd, 2, "%s:%d: unknown knob '%s' (did you mean %s?)", p->path,
				    e->line, e->name, near);
			else
				cmd_error(cmd, 2, "%s:%d: unknown knob '%s' for %s", p->path, e->line,
				    e->name, os);
			bad = 1;
			continue;
		}
		if ((why = kb_value_problem(k, e->value, ncpu)) != NULL) {
			cmd_error(cmd, 2, "%s:%d: %s: %s", p->path, e->line, e->name, why);
			free(why);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

size_t
cmd_boot_knobs(const struct kb *kb, const struct bench_profile *p, size_t n, const char **first)
{
	const struct kb_knob *k;
	size_t i, j, count = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < p[i].prof->nentries; j++) {
			k = kb_find(kb, p[i].prof->entries[j].name, NULL);
			if (k != NULL && k->placement == KB_PLACE_LOADER && count++ == 0 && first != NULL)
				*first = k->name;
		}
	}
	return count;
}
