/*
 * The tuner on a DUT reached over ssh: its candidates (the candidate file of
 * the DUT's OS, with the DUT's interface names), what its knobs are set to,
 * read in one go, and the plan (--plan: steps, reboots, DUT time).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "apply/dut_apply.h"
#include "bench/cand.h"
#include "bench/lab_bench.h"
#include "bench/dut_bench_impl.h"
#include "bench/runner.h"
#include "bench/tune.h"
#include "bench/tune_remote.h"
#include "diag/diag.h"
#include "doctor/doctor.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "os/platform.h"
#include "remote/capture.h"
#include "util/util.h"
#include "util/util_json.h"

/* FreeBSD's device tree of an interface: ix0 -> dev.ix.0; "" when the name has no unit. */
static void
dev_tree(const char *ifname, char *buf, size_t len)
{
	char drv[32];
	int unit = util_ifname_unit(ifname, drv, sizeof drv);

	if (unit < 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "dev.%s.%d", drv, unit);
}

int
bench_remote_gens(const struct bench_remote *b, const char *path, struct bench_gens *g,
    char **cause)
{
	char *def = NULL, tree[64];
	int rc;

	if (path == NULL)
		def = bench_gens_default(b->os);
	rc = bench_gens_load(path != NULL ? path : def, g, cause);
	free(def);
	if (rc == -1)
		return -1;
	g->os = b->os;
	g->boot = b->reboot_auto;
	/* dev.dut0.X in the file is the device tree of --dut-in (FreeBSD: dev.ix.0.X). */
	if (os_platform_family(os_platform_parse(b->os)) == OS_PLATFORM_FREEBSD) {
		dev_tree(b->dut_in, tree, sizeof tree);
		if (tree[0] != '\0')
			bench_gens_rename(g, "dev." LAB_DUT_IN_IF, tree);
		dev_tree(b->dut_out, tree, sizeof tree);
		if (tree[0] != '\0')
			bench_gens_rename(g, "dev." LAB_DUT_OUT_IF, tree);
	}
	bench_gens_rename(g, LAB_DUT_IN_IF, b->dut_in);
	bench_gens_rename(g, LAB_DUT_OUT_IF, b->dut_out);
	return 0;
}

json_t *
bench_remote_tune_plan(const struct bench_remote *b, const struct bench_ctx *c,
    struct bench_tune *t)
{
	struct bench_candidate *cand = NULL;
	size_t n = 0, i, fit = 0;
	double per_run = c->lab->settle + c->duration + 6, secs, sum = 0;
	int runs = c->seq.max_runs, reboots, nreboots = 0;
	bool boot, restore = false, stopped = false, in;
	json_t *steps = json_array(), *notes = json_array();

	bench_tune_candidates_from(c->kb, t->gens, t->get, t->get_arg, t->ncpu, t->host_knobs,
	    &cand, &n, &t->notes, &t->nnotes);
	/* the order of --diagnosis FILE's findings; the tune's own diagnosis is not made here */
	bench_tune_order(cand, n, t->diag);
	for (i = 0; i < n; i++) {
		boot = bench_tune_boot_change(c, t, &cand[i]);
		secs = bench_tune_step_cost(c, t, boot, per_run, runs, &reboots);
		/* One reboot restores the original settings at the end: counted with the first boot step. */
		if (boot && restore) {
			secs -= *t->reboot_s;
			reboots--;
		}
		/* As the tuner goes: a boot-time step that does not fit is skipped, any other stops it. */
		in = !stopped && sum + secs <= t->budget_s;
		if (in) {
			sum += secs;
			nreboots += reboots;
			fit++;
			restore = restore || boot;
		} else if (!boot)
			stopped = true;
		json_array_append_new(steps, json_pack("{s:i, s:s, s:s, s:s, s:s, s:b, s:i, s:i, s:f, "
		    "s:b}", "step", (int)i + 1, "change", cand[i].label, "was", cand[i].was, "why",
		    cand[i].why, "order", cand[i].order, "boot", boot, "runs_each", runs, "reboots",
		    reboots, "secs", secs, "in_budget", in));
	}
	for (i = 0; i < t->nnotes; i++)
		json_array_append_new(notes, json_string(t->notes[i]));
	free(cand);
	return json_pack("{s:i, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:i, s:i, s:f}",
	    "schema", 1, "dut", b->dut.url, "os", b->os, "budget_s", t->budget_s, "run_s", per_run,
	    "reboot_s", *t->reboot_s, "reboot_timeout_s", b->reboot_timeout, "reboot_settle_s",
	    b->reboot_settle, "steps", steps, "left_out", notes, "steps_in_budget", (int)fit,
	    "reboots_in_budget", nreboots, "dut_s", sum);
}

/*
 * Why agentless mode cannot set knob name on the DUT (apply/dut_apply.h: sysctl knobs and
 * loader tunables only; the knowledge base's placement, or an if.* name), NULL when it can.
 */
static const char *
unsettable(const struct bench_remote *b, const char *name)
{
	const struct kb_knob *k = b->kb != NULL ? kb_find(b->kb, name, b->os) : NULL;
	enum kb_placement pl = k != NULL ? k->placement : strncmp(name, "if.", 3) == 0 ?
	    KB_PLACE_IFCONFIG : KB_PLACE_SYSCTL;

	switch (pl) {
	case KB_PLACE_UNKNOWN:
	case KB_PLACE_LOADER:
	case KB_PLACE_SYSCTL:
	case KB_PLACE_BOTH:
		return NULL;
	default:
		return kb_placement_name(pl);
	}
}

int
bench_remote_knobs(struct bench_remote *b, char *const *names, size_t n, json_t **values,
    char **cause)
{
	struct agentless_opts o;
	char **v, **asked = xcalloc(n + 1, sizeof *asked), *why;
	const char *pl;
	size_t i, nasked = 0, j = 0;

	/* Only the knobs agentless mode can set are asked there; the others are an error each. */
	for (i = 0; i < n; i++)
		if (unsettable(b, names[i]) == NULL)
			asked[nasked++] = names[i];
	bench_remote_agentless(b, &o);
	if (agentless_read(&o, asked, nasked, true, &v, cause) == -1) {
		free(asked);
		return -1;
	}
	*values = json_object();
	for (i = 0; i < n; i++) {
		if ((pl = unsettable(b, names[i])) != NULL) {
			xasprintf(&why, "its placement is %s; the DUT is reached agentless: sysctl "
			    "knobs and loader tunables only", pl);
			json_object_set_new(*values, names[i], json_pack("{s:n, s:s}", "actual", "error",
			    why));
			free(why);
		} else {
			json_object_set_new(*values, names[i], v[j] != NULL ?
			    json_pack("{s:s, s:n}", "actual", v[j], "error") :
			    json_pack("{s:n, s:s}", "actual", "error", "the DUT does not have it"));
			j++;
		}
	}
	util_strv_free(v, nasked);
	free(asked);
	return 0;
}

int
bench_remote_knob_get(void *arg, const char *name, char **value, char **why)
{
	json_t *k = json_object_get(arg, name), *v;

	if (k != NULL && json_is_string(v = json_object_get(k, "actual"))) {
		*value = xstrdup(json_string_value(v));
		return 0;
	}
	*why = xstrdup(k != NULL && json_is_string(v = json_object_get(k, "error")) ?
	    json_string_value(v) : "the DUT does not report it");
	return -1;
}

/* What the reading under the load needs: the DUT, the samples' interval, the capture. */
struct dut_reading {
	struct bench_remote *b;
	double	secs;
	struct capture_set set;
};

/* The capture script on the DUT (its two samples secs apart), as `ntune doctor ssh://` reads it. */
static int
read_dut(void *arg, char **cause)
{
	struct dut_reading *r = arg;

	/* --dut-root prefixes a FreeBSD DUT's files; a Linux one's /proc and /sys are at / */
	return capture_run_root(&r->b->dut, r->secs, r->b->dut_facts.os == OS_PLATFORM_FREEBSD ?
	    r->b->dut_root : NULL, &r->set, cause);
}

/* doctor_run's diagnosis of the capture, written to path as `ntune diagnose --json` writes it. */
static int
diagnosis_of(struct dut_reading *r, const char *path, struct diag_result **d, char **cause)
{
	struct doctor_opts o = { .source = r->b->dut.url, .dut = r->b->dut.url,
	    .duration = r->secs, .kb = r->b->kb };
	struct doctor_doc doc;
	char *dump, *text;
	int rc = -1;

	memset(&doc, 0, sizeof doc);
	if (doctor_run(&r->set, &o, &doc, cause) == -1)
		return -1;
	if (doc.interval_s <= 0) {
		util_cause(cause, "%s: the capture has no two samples under the load", r->b->dut.url);
		goto out;
	}
	if (diag_from_json(doc.diagnosis, d, cause) == -1)
		goto out;
	dump = util_json_dumps(doc.diagnosis, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	xasprintf(&text, "%s\n", dump);
	free(dump);
	rc = util_write_file_atomic(path, text, strlen(text), 0644, cause);
	free(text);
	if (rc == -1) {
		diag_result_free(*d);
		*d = NULL;
	}
out:
	doctor_doc_free(&doc);
	return rc;
}

int
bench_remote_tune_diagnose(struct bench_remote *b, double secs, const char *path,
    struct diag_result **d, char **cause)
{
	struct dut_reading r;
	struct bench_load_figures f;
	int rc;

	*d = NULL;
	memset(&r, 0, sizeof r);
	r.b = b;
	r.secs = ceil(secs);
	if (r.secs < 1)
		r.secs = 1;
	if (!capture_secs_valid(r.secs)) {
		util_cause(cause, "samples %.0f s apart: at most %d s", r.secs, CAPTURE_SECS_MAX);
		return -1;
	}
	BENCH_SAY(b, "baseline (the settings in force, diagnosed): the load through %s -> %s, "
	    "%.0f s settle, then the DUT's counters sampled %.0f s apart", b->dut_in, b->dut_out,
	    b->lab->settle, r.secs);
	/* sends at most as long as the capture may take (capture_run's margin), as doctor's does */
	rc = bench_remote_load_during(b, b->lab->settle, b->lab->settle + r.secs + 120, read_dut,
	    &r, &f, cause);
	if (rc == 0 && f.error[0] != '\0') {
		util_cause(cause, "the load under the samples failed: %s", f.error);
		rc = -1;
	}
	if (rc == 0) {
		BENCH_SAY(b, "baseline (diagnosed): offered %.0f pps, %.0f pps reached the sink",
		    f.gen_pps, f.pps);
		rc = diagnosis_of(&r, path, d, cause);
	}
	capture_set_free(&r.set);
	return rc;
}
