/* The results directory: meta.json, profiles/, runs.jsonl, values/, verdict.json. */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/label.h"
#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "bench/sequential.h"
#include "util/jtable.h"
#include "util/util.h"
#include "util/util_json.h"

/* meta.json's fields, in the file's key order: the last two are written once the run ends. */
static const struct jfield meta_fields[] = {
	JNUM(struct bench_meta, NULL, "schema", J_IDX, schema),
	JSTR(struct bench_meta, NULL, "kind", kind),
	JSTR(struct bench_meta, NULL, "ntune_version", ntune_version),
	JNUM(struct bench_meta, NULL, "command", J_PSTR, command),
	JSTR(struct bench_meta, NULL, "started", started),
	JNUM(struct bench_meta, NULL, "complete", J_BOOL, complete),
	JSTR(struct bench_meta, NULL, "stopped", stopped),
	JSTRF(struct bench_meta, NULL, "finished", finished, JF_OMIT0 | JF_OPT),
	JNUMF(struct bench_meta, NULL, "note", J_PSTR, note, JF_OMIT0 | JF_OPT),
};

json_t *
bench_meta_json(const struct bench_meta *m)
{
	json_t *o = json_object();

	jtable_to_json(o, m, meta_fields, nitems(meta_fields));
	return o;
}

int
bench_meta_read(json_t *doc, const char *file, struct bench_meta *m, char **cause)
{
	memset(m, 0, sizeof *m);
	return jtable_read(doc, m, meta_fields, nitems(meta_fields), file, cause);
}

void
bench_meta_free(struct bench_meta *m)
{
	jtable_free(m, meta_fields, nitems(meta_fields));
}

void
bench_run_free(struct bench_run *r)
{
	free(r->per_second);
	free(r->cpu_busy);
	free(r->irq_names);
	free(r->irq_rates);
	if (r->extra != NULL)
		json_decref(r->extra);
	r->extra = NULL;
	r->per_second = r->cpu_busy = r->irq_rates = NULL;
	r->irq_names = NULL;
	r->nsec = r->ncpu = r->nirq = 0;
}

/* dut_cpu and its parts (bench/bench_run.h), or dut_cpu null and why. */
static void
dut_cpu_json(json_t *o, const struct bench_run *r)
{
	if (r->dut_cpu_from == NULL) {
		json_object_set_new(o, "dut_cpu", json_null());
		if (r->dut_cpu_why[0] != '\0')
			json_object_set_new(o, "dut_cpu_error", json_string(r->dut_cpu_why));
		return;
	}
	json_object_set_new(o, "dut_cpu", json_real(r->dut_cpu));
	json_object_set_new(o, "dut_cpu_from", json_string(r->dut_cpu_from));
	if (strcmp(r->dut_cpu_from, BENCH_DUT_CPU_LAB) != 0)
		return;
	json_object_set_new(o, "dut_cpu_softirq", json_real(r->dut_softirq));
	json_object_set_new(o, "dut_cpu_napi", json_real(r->dut_napi));
	json_object_set_new(o, "dut_napi_threads", json_integer(r->dut_napi_threads));
	json_object_set_new(o, "dut_napi_unmeasured", json_integer(r->dut_napi_unmeasured));
}

/* A comparison in verdict.json, in its key order: head, welch and mann_whitney, tail. */
#define CMP_NUM(key, member) \
	JNUMF(struct bench_comparison, NULL, key, J_DBL, member, JF_NULLNAN | JF_OPT)
/* One of the tables a record of an array is read through, one after another. */
struct record_part {
	const struct jfield *f;
	size_t	 n;
};

/*
 * The array a (the file's key) into *recs (calloc'd, a zeroed record after the last) and *n:
 * each element read through every part. An element that fails is freed (every part) and ends
 * the read (-1 + cause naming file, key[N] and its key); the ones before it stay counted.
 */
static int
records_read(json_t *a, const char *file, const char *key, size_t size,
    const struct record_part *parts, size_t nparts, void **recs, size_t *n, char **cause)
{
	char *where, *rec;
	json_t *o;
	size_t i, k;
	int rc = 0;

	if (a == NULL)
		return 0;
	if (!json_is_array(a)) {
		util_cause(cause, "%s: key '%s': is not an array", file, key);
		return -1;
	}
	*recs = xcalloc(json_array_size(a) + 1, size);
	json_array_foreach(a, i, o) {
		rec = (char *)*recs + i * size;
		xasprintf(&where, "%s: %s[%zu]", file, key, i + 1);
		for (k = 0; k < nparts && rc == 0; k++)
			rc = jtable_read(o, rec, parts[k].f, parts[k].n, where, cause);
		free(where);
		if (rc == -1) {
			for (k = 0; k < nparts; k++)
				jtable_free(rec, parts[k].f, parts[k].n);
			break;
		}
		(*n)++;
	}
	return rc;
}

static const struct jfield cmp_head_fields[] = {
	JSTR(struct bench_comparison, NULL, "a", a),
	JSTR(struct bench_comparison, NULL, "b", b),
	JNUMF(struct bench_comparison, NULL, "n_a", J_U64, n_a, JF_OPT),
	JNUMF(struct bench_comparison, NULL, "n_b", J_U64, n_b, JF_OPT),
	CMP_NUM("mean_a", mean_a),
	CMP_NUM("mean_b", mean_b),
	CMP_NUM("stddev_a", stddev_a),
	CMP_NUM("stddev_b", stddev_b),
	JNUMF(struct bench_comparison, NULL, "confidence", J_DBL, confidence, JF_OPT),
	JSTRF(struct bench_comparison, NULL, "metric", metric, JF_OPT),
};

static const struct jfield cmp_tail_fields[] = {
	CMP_NUM("ratio", ratio),
	CMP_NUM("ratio_lo", ratio_lo),
	CMP_NUM("ratio_hi", ratio_hi),
	CMP_NUM("alpha_decide", alpha_decide),
	JNUM(struct bench_comparison, NULL, "decided", J_BOOL, decided),
	JNUMF(struct bench_comparison, NULL, "direction", J_IDX, direction, JF_OPT),
	JNUM(struct bench_comparison, NULL, "text", J_PSTR, text),
};

/*
 * verdict.json around its comparisons: head, a bench's keys, comparisons, then
 * tail. A reader needs only the comparisons' a, b, decided and text (files of
 * older versions and hand-written ones for advise --measured have no more).
 */
static const struct jfield verdict_head_fields[] = {
	JNUMF(struct bench_verdict_file, NULL, "confidence", J_DBL, confidence, JF_OPT),
	JNUMF(struct bench_verdict_file, NULL, "min_runs", J_IDX, min_runs, JF_OPT),
	JNUMF(struct bench_verdict_file, NULL, "max_runs", J_IDX, max_runs, JF_OPT),
	JNUMF(struct bench_verdict_file, NULL, "looks", J_IDX, looks, JF_OPT),
	JNUMF(struct bench_verdict_file, NULL, "alpha_look", J_DBL, alpha_look, JF_OPT),
	JSTRF(struct bench_verdict_file, NULL, "stopped", stopped, JF_OPT),
};

static const struct jfield verdict_bench_fields[] = {
	JNUMF(struct bench_verdict_file, NULL, "seed", J_U64, seed, JF_OPT),
	JNUMF(struct bench_verdict_file, NULL, "runs_each", J_IDX, runs_each, JF_OPT),
};

static const struct jfield verdict_correction_fields[] = {
	JNUMF(struct bench_verdict_file, NULL, "correction", J_PSTR, correction, JF_OPT),
};

static const struct jfield verdict_tail_fields[] = {
	JNUMF(struct bench_verdict_file, NULL, "cpu_busy_before", J_DBL, cpu_busy_before,
	    JF_NULLNEG | JF_OPT),
};

json_t *
bench_comparison_json(struct bench_comparison *c)
{
	json_t *o = json_object();

	jtable_to_json(o, c, cmp_head_fields, nitems(cmp_head_fields));
	json_object_set_new(o, "welch", c->welch != NULL ? c->welch : json_null());
	json_object_set_new(o, "mann_whitney", c->mann_whitney != NULL ? c->mann_whitney :
	    json_null());
	c->welch = c->mann_whitney = NULL;
	jtable_to_json(o, c, cmp_tail_fields, nitems(cmp_tail_fields));
	return o;
}

void
bench_verdict_file_init(struct bench_verdict_file *v, const struct bench_ctx *c, const char *stopped)
{
	memset(v, 0, sizeof *v);
	v->confidence = c->seq.confidence * 100;
	v->min_runs = c->seq.min_runs;
	v->max_runs = c->seq.max_runs;
	v->looks = bench_seq_looks(&c->seq);
	v->alpha_look = bench_seq_alpha(&c->seq);
	snprintf(v->stopped, sizeof v->stopped, "%s", stopped);
	v->cpu_busy_before = c->busy_before;
}

json_t *
bench_verdict_file_json(const struct bench_verdict_file *v, json_t *comparisons)
{
	json_t *o = json_object();

	jtable_to_json(o, v, verdict_head_fields, nitems(verdict_head_fields));
	if (v->bench)
		jtable_to_json(o, v, verdict_bench_fields, nitems(verdict_bench_fields));
	json_object_set_new(o, "comparisons", comparisons);
	if (v->bench)
		jtable_to_json(o, v, verdict_correction_fields, nitems(verdict_correction_fields));
	jtable_to_json(o, v, verdict_tail_fields, nitems(verdict_tail_fields));
	return o;
}

static int
comparisons_read(json_t *a, const char *file, struct bench_verdict_file *v, char **cause)
{
	static const struct record_part parts[] = {
		{ cmp_head_fields, nitems(cmp_head_fields) },
		{ cmp_tail_fields, nitems(cmp_tail_fields) },
	};
	void *recs = NULL;
	int rc;

	rc = records_read(a, file, "comparisons", sizeof *v->cmp, parts, nitems(parts), &recs,
	    &v->ncmp, cause);
	v->cmp = recs;
	return rc;
}

int
bench_verdict_file_read(json_t *doc, const char *file, struct bench_verdict_file *v, char **cause)
{
	memset(v, 0, sizeof *v);
	if (jtable_read(doc, v, verdict_head_fields, nitems(verdict_head_fields), file, cause) == -1 ||
	    jtable_read(doc, v, verdict_bench_fields, nitems(verdict_bench_fields), file, cause) == -1 ||
	    jtable_read(doc, v, verdict_correction_fields, nitems(verdict_correction_fields), file,
	    cause) == -1 ||
	    jtable_read(doc, v, verdict_tail_fields, nitems(verdict_tail_fields), file, cause) == -1 ||
	    comparisons_read(json_object_get(doc, "comparisons"), file, v, cause) == -1) {
		bench_verdict_file_free(v);
		return -1;
	}
	return 0;
}

void
bench_verdict_file_free(struct bench_verdict_file *v)
{
	size_t i;

	for (i = 0; i < v->ncmp; i++)
		jtable_free(&v->cmp[i], cmp_tail_fields, nitems(cmp_tail_fields));
	free(v->cmp);
	jtable_free(v, verdict_correction_fields, nitems(verdict_correction_fields));
	memset(v, 0, sizeof *v);
}

/* A host of hosts.json. */
static const struct jfield host_fields[] = {
	JSTR(struct bench_host, NULL, "url", url),
	JSTR(struct bench_host, NULL, "os", os),
	JSTR(struct bench_host, NULL, "platform", platform),
	JSTR(struct bench_host, NULL, "uname", uname),
	JSTR(struct bench_host, NULL, "ntune_version", ntune_version),
	JSTR(struct bench_host, NULL, "boot_id", boot_id),
};

/* A boot: head, recovery_s and came_back once waited for, error when it did not come back. */
static const struct jfield boot_head_fields[] = {
	JSTR(struct bench_boot, NULL, "boot_id", boot_id),
	JNUM(struct bench_boot, NULL, "why", J_PSTR, why),
	JNUM(struct bench_boot, NULL, "before_run", J_IDX, before_run),
};

static const struct jfield boot_waited_fields[] = {
	JNUMF(struct bench_boot, NULL, "recovery_s", J_DBL, recovery_s, JF_OPT),
	JNUMF(struct bench_boot, NULL, "came_back", J_BOOL, came_back, JF_OPT),
};

static const struct jfield boot_error_fields[] = {
	JNUMF(struct bench_boot, NULL, "error", J_PSTR, error, JF_OMIT0 | JF_OPT),
};

static const struct jfield hosts_head_fields[] = {
	JNUM(struct bench_hosts, NULL, "schema", J_IDX, schema),
};

static const struct jfield hosts_path_fields[] = {
	JNUM(struct bench_hosts, "path", "dut_in", J_PSTR, dut_in),
	JNUM(struct bench_hosts, "path", "dut_out", J_PSTR, dut_out),
	JNUM(struct bench_hosts, "path", "gen_if", J_PSTR, gen_if),
	JNUM(struct bench_hosts, "path", "sink_if", J_PSTR, sink_if),
	JNUM(struct bench_hosts, "path", "dst", J_PSTR, dst),
};

json_t *
bench_host_json(const struct bench_host *h)
{
	json_t *o = json_object();

	jtable_to_json(o, h, host_fields, nitems(host_fields));
	return o;
}

json_t *
bench_boot_json(const struct bench_boot *b)
{
	json_t *o = json_object();

	jtable_to_json(o, b, boot_head_fields, nitems(boot_head_fields));
	if (b->recovery_s >= 0)
		jtable_to_json(o, b, boot_waited_fields, nitems(boot_waited_fields));
	jtable_to_json(o, b, boot_error_fields, nitems(boot_error_fields));
	return o;
}

json_t *
bench_hosts_json(const struct bench_hosts *h, json_t *boots)
{
	json_t *o = json_object();

	jtable_to_json(o, h, hosts_head_fields, nitems(hosts_head_fields));
	json_object_set_new(o, "dut", bench_host_json(&h->dut));
	json_object_set_new(o, "gen", bench_host_json(&h->gen));
	json_object_set_new(o, "sink", bench_host_json(&h->sink));
	json_object_set_new(o, "boots", boots);
	jtable_to_json(o, h, hosts_path_fields, nitems(hosts_path_fields));
	return o;
}

/* The boots array of hosts.json into h->boots. */
static int
boots_read(json_t *a, const char *file, struct bench_hosts *h, char **cause)
{
	static const struct record_part parts[] = {
		{ boot_head_fields, nitems(boot_head_fields) },
		{ boot_waited_fields, nitems(boot_waited_fields) },
		{ boot_error_fields, nitems(boot_error_fields) },
	};
	void *recs = NULL;
	int rc;

	rc = records_read(a, file, "boots", sizeof *h->boots, parts, nitems(parts), &recs,
	    &h->nboots, cause);
	h->boots = recs;
	return rc;
}

int
bench_hosts_read(json_t *doc, const char *file, struct bench_hosts *h, char **cause)
{
	static const char *const roles[] = { "dut", "gen", "sink" };
	struct bench_host *host[] = { &h->dut, &h->gen, &h->sink };
	char *where;
	size_t i;
	int rc = 0;

	memset(h, 0, sizeof *h);
	if (jtable_read(doc, h, hosts_head_fields, nitems(hosts_head_fields), file, cause) == -1)
		return -1;
	for (i = 0; i < nitems(roles) && rc == 0; i++) {
		if (json_object_get(doc, roles[i]) == NULL)
			continue;
		xasprintf(&where, "%s: %s", file, roles[i]);
		rc = jtable_read(json_object_get(doc, roles[i]), host[i], host_fields,
		    nitems(host_fields), where, cause);
		host[i]->present = rc == 0;
		free(where);
	}
	if (rc == -1 || boots_read(json_object_get(doc, "boots"), file, h, cause) == -1 ||
	    jtable_read(doc, h, hosts_path_fields, nitems(hosts_path_fields), file, cause) == -1) {
		bench_hosts_free(h);
		return -1;
	}
	return 0;
}

void
bench_hosts_free(struct bench_hosts *h)
{
	size_t i;

	for (i = 0; i < h->nboots; i++) {
		jtable_free(&h->boots[i], boot_head_fields, nitems(boot_head_fields));
		jtable_free(&h->boots[i], boot_error_fields, nitems(boot_error_fields));
	}
	free(h->boots);
	jtable_free(h, hosts_path_fields, nitems(hosts_path_fields));
	memset(h, 0, sizeof *h);
}

/* summary.json: a change of a step, a step in segments (in key order), the file's own rows. */
static const struct jfield change_fields[] = {
	JNUM(struct bench_summary_change, NULL, "name", J_PSTR, name),
	JNUM(struct bench_summary_change, NULL, "value", J_PSTR, value),
	JNUMF(struct bench_summary_change, NULL, "was", J_PSTR, was, JF_OPT),
};

#define STEP(key, kind, member, flags) JNUMF(struct bench_summary_step, NULL, key, kind, member, flags)
static const struct jfield step_change_fields[] = {
	STEP("change", J_PSTR, change, 0),
};

static const struct jfield step_how_fields[] = {
	STEP("was", J_PSTR, was, JF_OPT),
	STEP("tried", J_BOOL, tried, JF_OPT | JF_TRUE),
	STEP("why", J_PSTR, why, JF_OPT),
	STEP("order", J_PSTR, order, JF_OPT),
	STEP("finding", J_PSTR, finding, JF_OPT | JF_NULLSTR),
	STEP("pair", J_BOOL, pair, JF_OPT),
	STEP("drop_of", J_INT, drop_of, JF_OPT),
};

static const struct jfield step_removed_fields[] = {	/* a drop check's */
	STEP("removed", J_BOOL, removed, JF_OPT),
};

static const struct jfield step_dropped_fields[] = {
	STEP("dropped_at", J_INT, dropped_at, JF_OPT),
	STEP("extended", J_BOOL, extended, JF_OPT),
};

static const struct jfield step_tried_fields[] = {	/* a tried step's */
	STEP("max_runs", J_IDX, max_runs, JF_OPT),
};

static const struct jfield step_verdict_fields[] = {
	STEP("spread", J_DBL, spread, JF_OPT | JF_OMIT0),
	STEP("verdict", J_PSTR, verdict, 0),
	STEP("kept", J_BOOL, kept, 0),
	STEP("stopped", J_PSTR, stopped, 0),
};

static const struct jfield step_means_fields[] = {	/* a step with runs' */
	STEP("mean_best", J_DBL, mean_best, JF_OPT),
	STEP("mean_try", J_DBL, mean_try, JF_OPT),
	STEP("pct", J_DBL, pct, JF_OPT),
	STEP("pct_hw", J_DBL, pct_hw, JF_OPT),
	STEP("p", J_DBL, p, JF_OPT | JF_NULLNAN),
	STEP("runs", J_IDX, runs, JF_OPT),
};

static const struct jfield step_note_fields[] = {
	STEP("note", J_PSTR, note, JF_OPT | JF_OMIT0),
};

#define SUM(key, kind, member, flags) JNUMF(struct bench_summary, NULL, key, kind, member, flags)
static const struct jfield summary_head_fields[] = {
	SUM("baseline", J_PSTR, baseline, JF_OPT),
	SUM("best", J_PSTR, best, JF_OPT),
	JSTRF(struct bench_summary, NULL, "metric", metric, JF_OPT),
	SUM("baseline_pps", J_DBL, baseline_pps, JF_OPT | JF_NULLNAN),
	SUM("best_pps", J_DBL, best_pps, JF_OPT | JF_NULLNAN),
	SUM("gain_pct", J_DBL, gain_pct, JF_OPT),
	SUM("gain_pct_hw", J_DBL, gain_pct_hw, JF_OPT | JF_NULLNAN),
	SUM("gain_ratio", J_DBL, gain_ratio, JF_OPT),
	SUM("gain_proven", J_BOOL, gain_proven, JF_OPT),
	SUM("kept", J_IDX, kept, JF_OPT),
	SUM("final_lab", J_PSTR, final_lab, JF_OPT | JF_NULLSTR),
	SUM("stopped", J_PSTR, stopped, JF_OPT),
	SUM("verdict", J_PSTR, verdict, JF_OPT | JF_OMIT0),
};

static const struct jfield summary_order_fields[] = {
	SUM("order", J_PSTR, order, JF_OPT),
};

static const struct jfield summary_tail_fields[] = {
	SUM("spread", J_DBL, spread, JF_OPT | JF_NULLNAN),
	SUM("min_effect_pct", J_DBL, min_effect_pct, JF_OPT),
};

/* Every segment of a step, in key order, and when it is written. */
enum step_when { ALWAYS, DROP_CHECK, TRIED, MEASURED };
static const struct { const struct jfield *f; size_t n; enum step_when when; } step_parts[] = {
	{ step_how_fields, nitems(step_how_fields), ALWAYS },
	{ step_removed_fields, nitems(step_removed_fields), DROP_CHECK },
	{ step_dropped_fields, nitems(step_dropped_fields), ALWAYS },
	{ step_tried_fields, nitems(step_tried_fields), TRIED },
	{ step_verdict_fields, nitems(step_verdict_fields), ALWAYS },
	{ step_means_fields, nitems(step_means_fields), MEASURED },
	{ step_note_fields, nitems(step_note_fields), ALWAYS },
};

static json_t *
step_json(const struct bench_summary_step *st)
{
	json_t *o = json_object(), *set = json_array(), *c;
	size_t i;

	jtable_to_json(o, st, step_change_fields, nitems(step_change_fields));
	for (i = 0; i < st->nchanges; i++) {
		c = json_object();
		jtable_to_json(c, &st->changes[i], change_fields, nitems(change_fields));
		json_array_append_new(set, c);
	}
	json_object_set_new(o, "changes", set);
	for (i = 0; i < nitems(step_parts); i++) {
		if ((step_parts[i].when == DROP_CHECK && st->drop_of <= 0) ||
		    (step_parts[i].when == TRIED && !st->tried) ||
		    (step_parts[i].when == MEASURED && st->runs <= 0))
			continue;
		jtable_to_json(o, st, step_parts[i].f, step_parts[i].n);
	}
	return o;
}

json_t *
bench_summary_json(struct bench_summary *sum)
{
	json_t *o = json_object(), *a;
	size_t i;

	jtable_to_json(o, sum, summary_head_fields, nitems(summary_head_fields));
	a = json_array();
	for (i = 0; i < sum->nsteps; i++)
		json_array_append_new(a, step_json(&sum->steps[i]));
	json_object_set_new(o, "steps", a);
	jtable_to_json(o, sum, summary_order_fields, nitems(summary_order_fields));
	json_object_set_new(o, "diagnosis", sum->diagnosis != NULL ? sum->diagnosis : json_null());
	sum->diagnosis = NULL;
	jtable_to_json(o, sum, summary_tail_fields, nitems(summary_tail_fields));
	a = json_array();
	for (i = 0; i < sum->nleft_out; i++)
		json_array_append_new(a, json_string(sum->left_out[i]));
	json_object_set_new(o, "left_out", a);
	return o;
}

static void
step_free(struct bench_summary_step *st)
{
	size_t i;

	for (i = 0; i < st->nchanges; i++)
		jtable_free(&st->changes[i], change_fields, nitems(change_fields));
	free(st->changes);
	jtable_free(st, step_change_fields, nitems(step_change_fields));
	for (i = 0; i < nitems(step_parts); i++)
		jtable_free(st, step_parts[i].f, step_parts[i].n);
}

/* A step: every segment (absent ones read as their defaults), then its changes. */
static int
step_read(json_t *o, const char *where, struct bench_summary_step *st, char **cause)
{
	json_t *set = json_object_get(o, "changes"), *c;
	size_t i;
	int rc;

	rc = jtable_read(o, st, step_change_fields, nitems(step_change_fields), where, cause);
	for (i = 0; i < nitems(step_parts) && rc == 0; i++)
		rc = jtable_read(o, st, step_parts[i].f, step_parts[i].n, where, cause);
	if (rc == 0 && set != NULL && !json_is_array(set)) {
		util_cause(cause, "%s: key 'changes': is not an array", where);
		rc = -1;
	}
	if (rc == 0 && set != NULL) {
		st->changes = xcalloc(json_array_size(set) + 1, sizeof *st->changes);
		json_array_foreach(set, i, c) {
			if ((rc = jtable_read(c, &st->changes[i], change_fields, nitems(change_fields),
			    where, cause)) == -1)
				break;
			st->nchanges++;
		}
	}
	if (rc == -1)
		step_free(st);
	return rc;
}

int
bench_summary_read(json_t *doc, const char *file, struct bench_summary *sum, char **cause)
{
	json_t *steps = json_object_get(doc, "steps"), *o;
	char *where;
	size_t i;
	int rc;

	memset(sum, 0, sizeof *sum);
	rc = jtable_read(doc, sum, summary_head_fields, nitems(summary_head_fields), file, cause);
	if (rc == 0)
		rc = jtable_read(doc, sum, summary_order_fields, nitems(summary_order_fields), file,
		    cause);
	if (rc == 0)
		rc = jtable_read(doc, sum, summary_tail_fields, nitems(summary_tail_fields), file, cause);
	if (rc == 0 && !json_is_array(steps)) {
		util_cause(cause, "%s: key 'steps': %s", file, steps == NULL ? "missing" :
		    "is not an array");
		rc = -1;
	}
	if (rc == 0)
		sum->steps = xcalloc(json_array_size(steps) + 1, sizeof *sum->steps);
	for (i = 0; rc == 0 && i < json_array_size(steps); i++) {
		o = json_array_get(steps, i);
		xasprintf(&where, "%s: steps[%zu]", file, i + 1);
		if ((rc = step_read(o, where, &sum->steps[i], cause)) == 0)
			sum->nsteps++;
		free(where);
	}
	if (rc == -1)
		bench_summary_free(sum);
	return rc;
}

void
bench_summary_free(struct bench_summary *sum)
{
	size_t i;

	for (i = 0; i < sum->nsteps; i++)
		step_free(&sum->steps[i]);
	free(sum->steps);
	jtable_free(sum, summary_head_fields, nitems(summary_head_fields));
	jtable_free(sum, summary_order_fields, nitems(summary_order_fields));
	json_decref(sum->diagnosis);
	memset(sum, 0, sizeof *sum);
}

/*
 * A runs.jsonl line, in its key order: id, ok, error (a failed run), rate,
 * counts, drops, the arrays (per_second, cpu_busy, irq_rates), all_cpu and
 * dut_cpu (written only: dut_cpu_json), latency (when measured), tail, then
 * the extra keys. A trial of lab rfc2544 is id, rate, drops, per_second and
 * tail (bench_run_trial_json), then its own keys. The report reads either
 * through the same rows (bench_run_read).
 */
static const struct jfield run_id_fields[] = {
	JNUMF(struct bench_run, NULL, "run", J_IDX, run, JF_OPT),
	JNUMF(struct bench_run, NULL, "block", J_IDX, block, JF_OPT),
	JSTR(struct bench_run, NULL, "label", label),
	JNUMF(struct bench_run, NULL, "step", J_IDX, step, JF_OMIT0 | JF_OPT),
	JNUMF(struct bench_run, NULL, "warmup", J_BOOL, warmup, JF_OPT),
};

static const struct jfield run_ok_fields[] = {
	JNUMF(struct bench_run, NULL, "ok", J_BOOL, ok, JF_OPT | JF_TRUE),
};

static const struct jfield run_error_fields[] = {
	JSTRF(struct bench_run, NULL, "error", error, JF_OPT),
};

static const struct jfield run_rate_fields[] = {
	JNUM(struct bench_run, NULL, "pps", J_DBL, pps),
	JNUMF(struct bench_run, NULL, "bps", J_DBL, bps, JF_OPT),
};

static const struct jfield run_count_fields[] = {
	JNUMF(struct bench_run, NULL, "packets", J_U64, packets, JF_OPT),
	JNUMF(struct bench_run, NULL, "bytes", J_U64, bytes, JF_OPT),
	JNUMF(struct bench_run, NULL, "sent", J_U64, sent, JF_OPT),
};

static const struct jfield run_drops_fields[] = {
	JNUMF(struct bench_run, NULL, "drops", J_U64, drops, JF_OPT),
};

/* Absent in a line: NaN (bench_run.lat_p99 is 0 when the bench measured none). */
static const struct jfield run_latency_fields[] = {
	JNUMF(struct bench_run, "latency_us", "avg", J_DBL, lat_avg, JF_OPT),
	JNUMF(struct bench_run, "latency_us", "p99", J_DBL, lat_p99, JF_OPT),
};

static const struct jfield run_tail_fields[] = {
	JSTRF(struct bench_run, NULL, "started", started, JF_OPT),
	JNUMF(struct bench_run, NULL, "duration_s", J_DBL, duration_s, JF_OPT),
};

/* Read only: a remote DUT's counters come in the extra keys ("dut", bench_trial_json). */
static const struct jfield run_dut_fields[] = {
	JSTRF(struct bench_run, "dut", "boot_id", boot, JF_OPT),
};

static json_t *
reals_json(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

json_t *
bench_run_json(const struct bench_run *r)
{
	json_t *o, *irq;
	size_t i;

	o = json_object();
	jtable_to_json(o, r, run_id_fields, nitems(run_id_fields));
	jtable_to_json(o, r, run_ok_fields, nitems(run_ok_fields));
	if (!r->ok)
		jtable_to_json(o, r, run_error_fields, nitems(run_error_fields));
	jtable_to_json(o, r, run_rate_fields, nitems(run_rate_fields));
	jtable_to_json(o, r, run_count_fields, nitems(run_count_fields));
	jtable_to_json(o, r, run_drops_fields, nitems(run_drops_fields));
	json_object_set_new(o, "per_second", reals_json(r->per_second, r->nsec));
	json_object_set_new(o, "cpu_busy", reals_json(r->cpu_busy, r->ncpu));
	irq = json_object();
	for (i = 0; i < r->nirq; i++)
		json_object_set_new(irq, r->irq_names[i], json_real(r->irq_rates[i]));
	json_object_set_new(o, "irq_rates", irq);
	json_object_set_new(o, "all_cpu", json_real(bench_run_all_cpu(r)));
	dut_cpu_json(o, r);
	if (r->lat_p99 > 0)
		jtable_to_json(o, r, run_latency_fields, nitems(run_latency_fields));
	jtable_to_json(o, r, run_tail_fields, nitems(run_tail_fields));
	if (r->extra != NULL)
		json_object_update_missing(o, r->extra);
	return o;
}

json_t *
bench_run_trial_json(const struct bench_run *r)
{
	json_t *o = json_object();

	jtable_to_json(o, r, run_id_fields, nitems(run_id_fields));
	jtable_to_json(o, r, run_rate_fields, nitems(run_rate_fields));
	jtable_to_json(o, r, run_drops_fields, nitems(run_drops_fields));
	json_object_set_new(o, "per_second", reals_json(r->per_second, r->nsec));
	jtable_to_json(o, r, run_tail_fields, nitems(run_tail_fields));
	return o;
}

/* o's array key as n reals in *out (NULL when absent; one more slot, so an empty one is not NULL). */
static int
reals_read(json_t *o, const char *key, double **out, size_t *n, const char *where, char **cause)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	*out = NULL;
	*n = 0;
	if (a == NULL)
		return 0;
	if (!json_is_array(a)) {
		util_cause(cause, "%s: key '%s': is not an array", where, key);
		return -1;
	}
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, v) {
		if (!json_is_number(v)) {
			util_cause(cause, "%s: key '%s': item %zu is not a number", where, key, i + 1);
			return -1;
		}
		(*out)[(*n)++] = json_number_value(v);
	}
	return 0;
}

static int
irq_rates_read(json_t *o, struct bench_run *r, const char *where, char **cause)
{
	json_t *m = json_object_get(o, "irq_rates"), *v;
	const char *name;

	if (m == NULL)
		return 0;
	if (!json_is_object(m)) {
		util_cause(cause, "%s: key 'irq_rates': is not an object", where);
		return -1;
	}
	r->irq_names = xcalloc(json_object_size(m) + 1, sizeof *r->irq_names);
	r->irq_rates = xcalloc(json_object_size(m) + 1, sizeof *r->irq_rates);
	json_object_foreach(m, name, v) {
		if (!json_is_number(v)) {
			util_cause(cause, "%s: key 'irq_rates.%s': is not a number", where, name);
			return -1;
		}
		snprintf(r->irq_names[r->nirq], sizeof *r->irq_names, "%s", name);
		r->irq_rates[r->nirq++] = json_number_value(v);
	}
	return 0;
}

int
bench_run_read(json_t *o, const char *where, struct bench_run *r, char **cause)
{
	static const struct { const struct jfield *f; size_t n; } parts[] = {
		{ run_id_fields, nitems(run_id_fields) },
		{ run_ok_fields, nitems(run_ok_fields) },
		{ run_error_fields, nitems(run_error_fields) },
		{ run_rate_fields, nitems(run_rate_fields) },
		{ run_count_fields, nitems(run_count_fields) },
		{ run_drops_fields, nitems(run_drops_fields) },
		{ run_latency_fields, nitems(run_latency_fields) },
		{ run_tail_fields, nitems(run_tail_fields) },
		{ run_dut_fields, nitems(run_dut_fields) },
	};
	size_t i;

	memset(r, 0, sizeof *r);
	for (i = 0; i < nitems(parts); i++) {
		if (jtable_read(o, r, parts[i].f, parts[i].n, where, cause) == -1)
			return -1;
	}
	if (r->label[0] == '\0') {
		util_cause(cause, "%s: key 'label': is empty", where);
		return -1;
	}
	if (reals_read(o, "per_second", &r->per_second, &r->nsec, where, cause) == -1 ||
	    reals_read(o, "cpu_busy", &r->cpu_busy, &r->ncpu, where, cause) == -1 ||
	    irq_rates_read(o, r, where, cause) == -1) {
		bench_run_free(r);
		return -1;
	}
	return 0;
}

int
bench_label_valid(const char *s)
{
	size_t i;

	if (s[0] == '\0' || s[0] == '.' || strlen(s) >= BENCH_LABEL_MAX)
		return 0;
	for (i = 0; s[i] != '\0'; i++) {
		if (!isalnum((unsigned char)s[i]) && strchr("._-", s[i]) == NULL)
			return 0;
	}
	return 1;
}

void
bench_label_from_path(const char *path, char *out, size_t len, char used[][BENCH_LABEL_MAX],
    size_t nused)
{
	char base[BENCH_LABEL_MAX], try[BENCH_LABEL_MAX + 8];
	const char *p;
	size_t i, n = 0, k;
	int clash, suffix;

	p = strrchr(path, '/');
	p = p == NULL ? path : p + 1;
	for (i = 0; p[i] != '\0' && n < sizeof base - 1; i++) {
		if (strcmp(p + i, ".conf") == 0)
			break;
		base[n++] = isalnum((unsigned char)p[i]) || strchr("._-", p[i]) ? p[i] : '_';
	}
	base[n] = '\0';
	if (n == 0 || base[0] == '.')
		snprintf(base, sizeof base, "profile");
	snprintf(try, sizeof try, "%s", base);
	for (suffix = 2;; suffix++) {
		clash = 0;
		for (k = 0; k < nused; k++) {
			if (strcmp(used[k], try) == 0)
				clash = 1;
		}
		if (!clash)
			break;
		snprintf(try, sizeof try, "%.50s-%d", base, suffix);
	}
	snprintf(out, len, "%.*s", BENCH_LABEL_MAX - 1, try);
}

double
bench_run_all_cpu(const struct bench_run *r)
{
	double cpus = 0;
	size_t i;

	for (i = 0; i < r->ncpu; i++)
		cpus += r->cpu_busy[i] / 100.0;
	return cpus;
}

double
bench_run_efficiency(const struct bench_run *r)
{
	return r->dut_cpu_from != NULL && r->dut_cpu > 0 ? r->pps / r->dut_cpu : -1;
}

double
bench_run_value(const struct bench_ctx *c, struct bench_run *r)
{
	double e;

	if (c->latency)
		return r->lat_p99;
	if (c->bits)
		return r->bps;
	if (!c->efficiency)
		return r->pps;
	if ((e = bench_run_efficiency(r)) < 0) {
		if (r->ok && r->dut_cpu_from == NULL)
			bench_run_fail(r, "no DUT CPU time measured (%s): no packets per DUT CPU-second",
			    r->dut_cpu_why[0] != '\0' ? r->dut_cpu_why : "nothing read");
		else if (r->ok)
			bench_run_fail(r, "no DUT CPU time measured: 0 CPU-seconds (%s) over the run, "
			    "no packets per DUT CPU-second", strcmp(r->dut_cpu_from,
			    BENCH_DUT_CPU_LAB) == 0 ? "softirq and the NAPI threads of dut0 and dut1" :
			    "the DUT's CPUs busy");
		return 0;
	}
	return e;
}

void
bench_run_fail(struct bench_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	r->ok = false;
}

static int
write_json_file(const char *dir, const char *name, json_t *doc, char **cause)
{
	struct strbuf sb;
	char *text;
	int rc;

	text = util_json_dumps(doc, JSON_INDENT(2));
	if (text == NULL) {
		util_cause(cause, "cannot encode '%s/%s'", dir, name);
		return -1;
	}
	strbuf_init(&sb);
	strbuf_adds(&sb, text);
	strbuf_addc(&sb, '\n');
	rc = util_write_file_in(dir, name, sb.buf, sb.len, 0644, cause);
	strbuf_free(&sb);
	free(text);
	return rc;
}

static char *
meta_path(const char *dir)
{
	char *p;

	xasprintf(&p, "%s/meta.json", dir);
	return p;
}

int
bench_results_create(const char *dir, const char *kind, int argc, char **argv, char **cause)
{
	struct bench_meta meta = { .schema = BENCH_META_SCHEMA, .stopped = "running" };
	char *path, *sub;
	const char *q;
	struct strbuf cmd;
	struct stat st;
	int i, rc;

	if (util_mkdir(dir, cause) == -1 || util_dir_no_links(dir, cause) == -1)
		return -1;
	path = meta_path(dir);
	if (stat(path, &st) == 0) {
		util_cause(cause, "'%s' holds results already (choose another -o DIR)", dir);
		free(path);
		return -1;
	}
	xasprintf(&sub, "%s/profiles", dir);
	rc = util_mkdir(sub, cause);
	free(sub);
	if (rc == 0) {
		xasprintf(&sub, "%s/values", dir);
		rc = util_mkdir(sub, cause);
		free(sub);
	}
	if (rc == -1) {
		free(path);
		return -1;
	}
	strbuf_init(&cmd);
	strbuf_adds(&cmd, "ntune");
	for (i = 0; i < argc; i++) {
		strbuf_addc(&cmd, ' ');
		if (argv[i][0] != '\0' && strspn(argv[i], "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=+@%") == strlen(argv[i])) {
			strbuf_adds(&cmd, argv[i]);
			continue;
		}
		/* Quoted for sh, so that the command can be pasted again. */
		strbuf_addc(&cmd, '\'');
		for (q = argv[i]; *q != '\0'; q++) {
			if (*q == '\'')
				strbuf_adds(&cmd, "'\\''");
			else
				strbuf_addc(&cmd, *q);
		}
		strbuf_addc(&cmd, '\'');
	}
	meta.command = cmd.buf;
	snprintf(meta.kind, sizeof meta.kind, "%s", kind);
	snprintf(meta.ntune_version, sizeof meta.ntune_version, "%s", NTUNE_VERSION);
	util_utc(0, false, meta.started);
	rc = bench_meta_write(dir, &meta, cause);
	strbuf_free(&cmd);
	free(path);
	if (rc == 0) {
		/* A fresh runs.jsonl: an old one would mix two benches. */
		rc = util_write_file_in(dir, "runs.jsonl", "", 0, 0644, cause);
	}
	return rc;
}

int
bench_results_profile(const char *dir, const char *label, const char *text, char **cause)
{
	char *name;
	int rc;

	if (!bench_label_valid(label)) {
		util_cause(cause, "invalid label '%s'", label);
		return -1;
	}
	xasprintf(&name, "profiles/%s.conf", label);
	rc = util_write_file_in(dir, name, text, strlen(text), 0644, cause);
	free(name);
	return rc;
}

static int
append_line(const char *path, const char *line, char **cause)
{
	int fd;
	size_t len = strlen(line), off = 0;
	ssize_t n;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644)) == -1) {
		util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	while (off < len) {
		n = write(fd, line + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			util_cause(cause, "cannot write '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	(void)fsync(fd);
	close(fd);
	return 0;
}

/* values/<label>.txt holds the pps of every measured run of label, in run order. */
static int
rewrite_values(const char *dir, const char *label, double pps, char **cause)
{
	char *path, *old = NULL;
	size_t len = 0;
	struct strbuf sb;
	int rc;

	xasprintf(&path, "%s/values/%s.txt", dir, label);
	strbuf_init(&sb);
	if (access(path, F_OK) == 0) {
		if (util_read_file(path, &old, &len, cause) == -1) {
			free(path);
			return -1;
		}
		strbuf_add(&sb, old, len);
		free(old);
	}
	strbuf_addf(&sb, "%.10g\n", pps);
	rc = util_write_file_in(dir, path + strlen(dir) + 1, sb.buf, sb.len, 0644, cause);
	strbuf_free(&sb);
	free(path);
	return rc;
}

int
bench_results_add_run(const char *dir, const struct bench_run *r, char **cause)
{
	json_t *o;
	char *text, *path, *line;
	int rc;

	o = bench_run_json(r);
	text = util_json_dumps(o, JSON_COMPACT);
	json_decref(o);
	xasprintf(&line, "%s\n", text);
	free(text);
	xasprintf(&path, "%s/runs.jsonl", dir);
	rc = append_line(path, line, cause);
	free(path);
	free(line);
	if (rc == 0 && r->ok && !r->warmup && bench_label_valid(r->label))
		rc = rewrite_values(dir, r->label, r->value != 0 ? r->value : r->pps, cause);
	return rc;
}

int
bench_results_write_json(const char *dir, const char *name, json_t *doc, char **cause)
{
	return write_json_file(dir, name, doc, cause);
}

int
bench_results_write_text(const char *dir, const char *name, const char *text, char **cause)
{
	return util_write_text_at(dir, name, text, cause);
}

int
bench_meta_write(const char *dir, const struct bench_meta *m, char **cause)
{
	json_t *doc = bench_meta_json(m);
	int rc;

	rc = write_json_file(dir, "meta.json", doc, cause);
	json_decref(doc);
	return rc;
}

int
bench_results_finish(const char *dir, bool complete, const char *stopped, const char *note,
    char **cause)
{
	struct bench_meta meta;
	json_t *doc;
	json_error_t jerr;
	char *path;
	int rc;

	path = meta_path(dir);
	if ((doc = json_load_file(path, 0, &jerr)) == NULL) {
		util_cause(cause, "%s:%d: %s", path, jerr.line, jerr.text);
		free(path);
		return -1;
	}
	rc = bench_meta_read(doc, path, &meta, cause);
	json_decref(doc);
	free(path);
	if (rc == -1)
		return -1;
	util_utc(0, false, meta.finished);
	meta.complete = complete;
	snprintf(meta.stopped, sizeof meta.stopped, "%s", stopped);
	if (note != NULL) {
		free(meta.note);
		meta.note = xstrdup(note);
	}
	rc = bench_meta_write(dir, &meta, cause);
	bench_meta_free(&meta);
	return rc;
}
