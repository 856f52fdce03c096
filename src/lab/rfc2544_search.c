/* RFC 2544 throughput, latency and frame loss, each trial run by a bench_runner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "lab/traffic_cli.h"
#include "util/jtable.h"
#include "util/util.h"
#include "util/util_json.h"

void
rfc2544_config_init(struct rfc2544_config *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	snprintf(c->prefix, sizeof(c->prefix), "ntune");
	for (i = 0; i < 7; i++)
		c->sizes[i] = lab_rfc2544_sizes[i];
	c->nsizes = 7;
	for (i = 0; i < 10; i++)
		c->loads[i] = 100 - 10 * i;
	c->nloads = 10;
	c->duration = 10;
	c->tolerance = 0;
	c->trials = 1;
	c->steps = 8;
	c->threads = 1;
}

static int
parse_list(const char *s, double *out, int max, int *n)
{
	char *copy = xstrdup(s), *tok, *save = NULL, *end;

	*n = 0;
	for (tok = strtok_r(copy, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		double v = strtod(tok, &end);

		if (end == tok || *end != '\0' || *n >= max) {
			free(copy);
			return -1;
		}
		out[(*n)++] = v;
	}
	free(copy);
	return *n > 0 ? 0 : -1;
}

int
rfc2544_parse_sizes(const char *s, struct rfc2544_config *c, char **cause)
{
	double v[RFC2544_MAX_SIZES];
	int i, n;

	if (strcmp(s, "rfc2544") == 0 || strcmp(s, "all") == 0) {
		for (i = 0; i < 7; i++)
			c->sizes[i] = lab_rfc2544_sizes[i];
		c->nsizes = 7;
		return 0;
	}
	if (parse_list(s, v, RFC2544_MAX_SIZES, &n) == -1) {
		util_cause(cause, "invalid size list '%s' (e.g. 64,128,1518; at most %d)", s,
		    RFC2544_MAX_SIZES);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* The range first: converting a value outside int's range is undefined. */
		if (!(v[i] >= 64 && v[i] <= LAB_FRAME_MAX) || v[i] != (int)v[i]) {
			util_cause(cause, "invalid frame size '%g' (64..%d)", v[i], LAB_FRAME_MAX);
			return -1;
		}
		c->sizes[i] = (int)v[i];
	}
	c->nsizes = n;
	return 0;
}

int
rfc2544_parse_loads(const char *s, struct rfc2544_config *c, char **cause)
{
	double v[RFC2544_MAX_LOADS];
	int i, n;

	if (parse_list(s, v, RFC2544_MAX_LOADS, &n) == -1) {
		util_cause(cause, "invalid load list '%s' (percentages, e.g. 100,90,80)", s);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (v[i] <= 0 || v[i] > 100 || (i > 0 && v[i] >= v[i - 1])) {
			util_cause(cause, "invalid load list '%s' (descending percentages in (0,100])", s);
			return -1;
		}
		c->loads[i] = v[i];
	}
	c->nloads = n;
	return 0;
}

void
rfc2544_result_free(struct rfc2544_result *r)
{
	size_t i;

	for (i = 0; i < r->ntrials; i++) {
		free(r->trials[i].per_second);
		json_decref(r->trials[i].extra);
	}
	free(r->trials);
	r->trials = NULL;
	r->ntrials = 0;
}

void
rfc2544_trial_init(struct rfc2544_trial *t, int size, double rate, const char *phase)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->size = size;
	t->phase = phase;
	t->rate = rate;
	for (i = 0; i < 6; i++)
		t->lat[i] = -1;
	util_utc(0, false, t->started);
}

void
rfc2544_trial_fill(const struct rfc2544_config *c, struct rfc2544_trial *t, json_t *gj, json_t *sj)
{
	static const char *const keys[6] = { TRAFFIC_KEY_LAT_MIN, TRAFFIC_KEY_LAT_AVG,
	    TRAFFIC_KEY_LAT_MAX, TRAFFIC_KEY_LAT_P50, TRAFFIC_KEY_LAT_P90, TRAFFIC_KEY_LAT_P99 };
	json_t *lat, *ps;
	size_t k;
	int i;

	t->sent = (uint64_t)json_integer_value(json_object_get(gj, TRAFFIC_KEY_PACKETS));
	t->offered_pps = json_number_value(json_object_get(gj, TRAFFIC_KEY_PPS));
	t->received = (uint64_t)json_integer_value(json_object_get(sj, TRAFFIC_KEY_PACKETS));
	t->received_pps = json_number_value(json_object_get(sj, TRAFFIC_KEY_PPS));
	t->duration_s = json_number_value(json_object_get(gj, TRAFFIC_KEY_DURATION));
	t->loss = t->sent > 0 && t->sent > t->received ?
	    (double)(t->sent - t->received) / (double)t->sent : 0;
	t->pass = t->received > 0 && t->loss <= c->tolerance;
	if ((lat = json_object_get(sj, TRAFFIC_KEY_LATENCY)) != NULL && json_is_object(lat)) {
		for (i = 0; i < 6; i++)
			t->lat[i] = json_number_value(json_object_get(lat, keys[i]));
	}
	if ((ps = json_object_get(sj, TRAFFIC_KEY_PER_SECOND)) != NULL && json_array_size(ps) > 0) {
		t->per_second = xcalloc(json_array_size(ps), sizeof(double));
		for (k = 0; k < json_array_size(ps); k++) {
			double v = json_number_value(json_array_get(ps, k));

			if (v > 0)
				t->per_second[t->nper_second++] = v;
		}
	}
}

static void
report(const struct rfc2544_config *c, const struct rfc2544_trial *t)
{
	char line[256], rate[32];

	if (c->progress == NULL)
		return;
	if (t->rate > 0)
		snprintf(rate, sizeof(rate), "%.0f pps", t->rate);
	else
		snprintf(rate, sizeof(rate), "max");
	snprintf(line, sizeof(line), "%5d B %-7s rate %-12s sent %10llu  received %10llu  loss %.4f%%  %s",
	    t->size, t->phase, rate, (unsigned long long)t->sent, (unsigned long long)t->received,
	    100 * t->loss, t->pass ? "pass" : "fail");
	c->progress(line, c->arg);
}

static int
trial(const struct rfc2544_config *c, struct rfc2544_result *r, int size, double rate,
    const char *phase, struct rfc2544_trial **out, char **cause)
{
	struct rfc2544_trial t;

	if (c->stop != NULL && *c->stop) {
		util_cause(cause, "interrupted");
		return -1;
	}
	if (c->runner->trial(c->runner->arg, c, size, rate, phase, &t, cause) == -1)
		return -1;
	r->trials = xreallocarray(r->trials, r->ntrials + 1, sizeof(*r->trials));
	r->trials[r->ntrials] = t;
	*out = &r->trials[r->ntrials++];
	report(c, *out);
	return 0;
}

static int
one_size(const struct rfc2544_config *c, struct rfc2544_result *r, struct rfc2544_size *s, char **cause)
{
	struct rfc2544_trial *t;
	double lo = 0, hi, best = 0, sum[6] = { 0 };
	int i, k, nlat = 0, zero_run = 0;

	for (i = 0; i < 6; i++)
		s->lat[i] = -1;
	for (i = 0; i < c->nloads; i++)
		s->loss_pct[i] = s->loss_offered[i] = -1;
	/* Full speed first: the upper bound of the search and the 100% load. */
	if (trial(c, r, s->size, 0, "max", &t, cause) == -1)
		return -1;
	if (t->received == 0) {
		util_cause(cause, "the sink saw none of the %llu frames sent at %d bytes "
		    "(is the DUT forwarding? see ntune lab status)", (unsigned long long)t->sent, s->size);
		return -1;
	}
	s->max_pps = t->offered_pps;
	if (t->pass)
		best = t->offered_pps;
	else {
		hi = t->offered_pps;
		for (k = 0; k < c->steps; k++) {
			double rate = (lo + hi) / 2;

			if (trial(c, r, s->size, rate, "search", &t, cause) == -1)
				return -1;
			if (t->pass) {
				lo = rate;
				best = t->offered_pps < rate ? t->offered_pps : rate;
			} else
				hi = rate;
		}
	}
	s->throughput_pps = best;
	if (best > 0) {
		for (k = 0; k < c->trials; k++) {
			if (trial(c, r, s->size, best, "latency", &t, cause) == -1)
				return -1;
			if (t->lat[1] >= 0) {
				for (i = 0; i < 6; i++)
					sum[i] += t->lat[i];
				nlat++;
			}
		}
		for (i = 0; i < 6 && nlat > 0; i++)
			s->lat[i] = sum[i] / nlat;
	}
	/* Frame loss from 100% down until two loads in a row lose nothing (RFC 2544 26.3). */
	for (i = 0; i < c->nloads && zero_run < 2; i++) {
		double rate = c->loads[i] >= 100 ? 0 : s->max_pps * c->loads[i] / 100;

		if (trial(c, r, s->size, rate, "loss", &t, cause) == -1)
			return -1;
		s->loss_pct[i] = 100 * t->loss;
		s->loss_offered[i] = t->offered_pps;
		zero_run = t->sent > 0 && t->received >= t->sent ? zero_run + 1 : 0;
	}
	return 0;
}

int
rfc2544_run(const struct rfc2544_config *c, struct rfc2544_result *r, char **cause)
{
	int i;

	memset(r, 0, sizeof(*r));
	if (c->duration <= 0 || c->trials < 1 || c->steps < 0 || c->nsizes < 1) {
		util_cause(cause, "invalid rfc2544 settings");
		return -1;
	}
	if (c->runner == NULL || c->runner->trial == NULL) {
		util_cause(cause, "no runner for the trials (the lab's or a DUT's)");
		return -1;
	}
	for (i = 0; i < c->nsizes; i++) {
		struct rfc2544_size *s = &r->sizes[r->nsizes++];

		memset(s, 0, sizeof(*s));
		s->size = c->sizes[i];
		if (one_size(c, r, s, cause) == -1) {
			r->nsizes--;
			return -1;
		}
	}
	r->complete = true;
	return 0;
}

static json_t *
lat_json(const double *lat)
{
	if (lat[1] < 0)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "min", lat[0], "avg", lat[1],
	    "max", lat[2], "p50", lat[3], "p90", lat[4], "p99", lat[5]);
}

/* A trial's own keys in its runs.jsonl line, after the rows every line has (bench/results.c). */
static const struct jfield trial_fields[] = {
	JNUM(struct rfc2544_trial, NULL, "size", J_IDX, size),
	JNUM(struct rfc2544_trial, NULL, "phase", J_PSTR, phase),
	JNUM(struct rfc2544_trial, NULL, "rate", J_DBL, rate),
	JNUM(struct rfc2544_trial, NULL, "offered_pps", J_DBL, offered_pps),
	JNUM(struct rfc2544_trial, NULL, "sent", J_U64, sent),
	JNUM(struct rfc2544_trial, NULL, "received", J_U64, received),
	JNUM(struct rfc2544_trial, NULL, "loss", J_DBL, loss),
	JNUM(struct rfc2544_trial, NULL, "pass", J_BOOL, pass),
};

static json_t *
trial_json(const struct rfc2544_trial *t, size_t idx)
{
	struct bench_run r = { .run = (int)idx, .pps = t->received_pps,
	    .bps = t->received_pps * t->size * 8, .drops = t->sent > t->received ?
	    t->sent - t->received : 0, .per_second = t->per_second, .nsec = t->nper_second,
	    .duration_s = t->duration_s };
	json_t *o;

	snprintf(r.label, sizeof r.label, "%dB", t->size);
	snprintf(r.started, sizeof r.started, "%s", t->started);
	o = bench_run_trial_json(&r);
	jtable_to_json(o, t, trial_fields, nitems(trial_fields));
	json_object_set_new(o, "latency_us", lat_json(t->lat));
	if (t->extra != NULL)
		json_object_update(o, t->extra);
	return o;
}

json_t *
rfc2544_json(const struct rfc2544_config *c, const struct rfc2544_result *r)
{
	json_t *sizes = json_array();
	int i, k;

	for (i = 0; i < r->nsizes; i++) {
		const struct rfc2544_size *s = &r->sizes[i];
		json_t *loss = json_array();

		for (k = 0; k < c->nloads; k++) {
			if (s->loss_pct[k] < 0)
				continue;
			json_array_append_new(loss, json_pack("{s:f, s:f, s:f}", "load_pct", c->loads[k],
			    "offered_pps", s->loss_offered[k], "loss_pct", s->loss_pct[k]));
		}
		json_array_append_new(sizes, json_pack("{s:i, s:f, s:f, s:f, s:o, s:o}",
		    "size", s->size, "max_pps", s->max_pps, "throughput_pps", s->throughput_pps,
		    "throughput_bps", s->throughput_pps * s->size * 8, "latency_us", lat_json(s->lat),
		    "frame_loss", loss));
	}
	return json_pack("{s:f, s:f, s:i, s:i, s:b, s:b, s:o}", "duration_s", c->duration,
	    "loss_tolerance", c->tolerance, "trials", c->trials, "steps", c->steps,
	    "ipv6", c->ipv6, "complete", r->complete, "sizes", sizes);
}

static int
write_json(const char *dir, const char *name, json_t *o, size_t flags, char **cause)
{
	char *text;
	int rc;

	text = util_json_dumps(o, flags);
	rc = util_write_file_in(dir, name, text, strlen(text), 0644, cause);
	free(text);
	return rc;
}

int
rfc2544_write_dir(const char *dir, const struct rfc2544_config *c, const struct rfc2544_result *r,
    const char *command, const char *started, const char *stopped, char **cause)
{
	struct bench_meta meta;
	struct strbuf runs;
	char *path;
	json_t *o;
	size_t i;
	int k, rc;

	if (util_mkdir(dir, cause) == -1 || util_dir_no_links(dir, cause) == -1)
		return -1;
	xasprintf(&path, "%s/values", dir);
	if (util_mkdir(path, cause) == -1) {
		free(path);
		return -1;
	}
	free(path);
	strbuf_init(&runs);
	for (i = 0; i < r->ntrials; i++) {
		char *line;

		o = trial_json(&r->trials[i], i);
		line = util_json_dumps(o, JSON_COMPACT);
		strbuf_adds(&runs, line);
		strbuf_addc(&runs, '\n');
		free(line);
		json_decref(o);
	}
	rc = util_write_file_in(dir, "runs.jsonl", runs.buf ? runs.buf : "", runs.len, 0644, cause);
	strbuf_free(&runs);
	if (rc == -1)
		return -1;
	/* values/<size>B.txt: received pps of the trials at the throughput rate. */
	for (k = 0; k < r->nsizes; k++) {
		struct strbuf v;

		strbuf_init(&v);
		for (i = 0; i < r->ntrials; i++) {
			if (r->trials[i].size == r->sizes[k].size && strcmp(r->trials[i].phase, "latency") == 0)
				strbuf_addf(&v, "%.0f\n", r->trials[i].received_pps);
		}
		xasprintf(&path, "values/%dB.txt", r->sizes[k].size);
		rc = util_write_file_in(dir, path, v.buf ? v.buf : "", v.len, 0644, cause);
		free(path);
		strbuf_free(&v);
		if (rc == -1)
			return -1;
	}
	o = rfc2544_json(c, r);
	rc = write_json(dir, "rfc2544.json", o, JSON_INDENT(2), cause);
	json_decref(o);
	if (rc == -1)
		return -1;
	meta = (struct bench_meta){ .schema = BENCH_META_SCHEMA, .kind = "rfc2544",
	    .ntune_version = NTUNE_VERSION, .command = (char *)command, .complete = r->complete };
	snprintf(meta.started, sizeof meta.started, "%s", started);
	snprintf(meta.stopped, sizeof meta.stopped, "%s", stopped);
	util_utc(0, false, meta.finished);
	o = bench_meta_json(&meta);
	rc = write_json(dir, "meta.json", o, JSON_INDENT(2), cause);
	json_decref(o);
	return rc;
}
