/* Reads a results directory for the report. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/results.h"
#include "bench/bench_run.h"
#include "diag/diag.h"
#include "report/report.h"
#include "util/util.h"

void
report_runs_free(struct bench_run *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bench_run_free(&runs[i]);
	free(runs);
}

int
report_parse_runs(const char *name, const char *text, size_t len, struct bench_run **runs,
    size_t *nruns, char **cause)
{
	struct bench_run *r = NULL;
	json_error_t jerr;
	size_t off = 0, end, n = 0;
	char *where;
	json_t *o;
	int line = 0, rc = 0;

	while (off < len && rc == 0) {
		line++;
		end = off;
		while (end < len && text[end] != '\n')
			end++;
		if (end > off) {
			o = json_loadb(text + off, end - off, JSON_REJECT_DUPLICATES, &jerr);
			if (o == NULL) {
				util_cause(cause, "%s:%d: %s", name, line, jerr.text);
				rc = -1;
				break;
			}
			r = xreallocarray(r, n + 1, sizeof *r);
			xasprintf(&where, "%s:%d", name, line);
			rc = bench_run_read(o, where, &r[n], cause);
			n += rc == 0;
			free(where);
			json_decref(o);
		}
		off = end + 1;
	}
	if (rc == -1) {
		report_runs_free(r, n);
		r = NULL;
		n = 0;
	}
	*runs = r;
	*nruns = n;
	return rc;
}

static json_t *
load_json(const char *dir, const char *file, int required, char **cause)
{
	json_error_t jerr;
	json_t *doc;
	char *path;

	xasprintf(&path, "%s/%s", dir, file);
	if (!required && access(path, F_OK) == -1) {
		free(path);
		return json_null();
	}
	doc = json_load_file(path, JSON_DECODE_INT_AS_REAL, &jerr);
	if (doc == NULL) {
		if (access(path, F_OK) == -1)
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		else
			util_cause(cause, "%s:%d: %s", path, jerr.line, jerr.text);
	} else if (!json_is_object(doc)) {
		util_cause(cause, "%s: not a JSON object", path);
		json_decref(doc);
		doc = NULL;
	}
	free(path);
	return doc;
}

static int
cmp_profile(const void *a, const void *b)
{
	return strcmp(((const struct report_profile *)a)->label,
	    ((const struct report_profile *)b)->label);
}

static int
load_profiles(struct report_data *d, char **cause)
{
	struct dirent *de;
	char *path, *text;
	size_t len, nlen;
	DIR *dp;

	xasprintf(&path, "%s/profiles", d->dir);
	dp = opendir(path);
	free(path);
	if (dp == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL) {
		nlen = strlen(de->d_name);
		if (de->d_name[0] == '.' || nlen < 6 || strcmp(de->d_name + nlen - 5, ".conf") != 0)
			continue;
		xasprintf(&path, "%s/profiles/%s", d->dir, de->d_name);
		if (util_read_file(path, &text, &len, cause) == -1) {
			free(path);
			closedir(dp);
			return -1;
		}
		free(path);
		d->profiles = xreallocarray(d->profiles, d->nprofiles + 1, sizeof *d->profiles);
		d->profiles[d->nprofiles].label = xstrndup(de->d_name, nlen - 5);
		d->profiles[d->nprofiles].text = text;
		d->nprofiles++;
	}
	closedir(dp);
	if (d->nprofiles > 1)
		qsort(d->profiles, d->nprofiles, sizeof *d->profiles, cmp_profile);
	return 0;
}

int
report_load(const char *dir, struct report_data *d, char **cause)
{
	char *path, *text, *why = NULL;
	size_t len;
	json_t *j;
	int rc;

	memset(d, 0, sizeof *d);
	d->dir = xstrdup(dir);
	if ((j = load_json(dir, "meta.json", 1, cause)) == NULL)
		goto fail;
	xasprintf(&path, "%s/meta.json", dir);
	rc = bench_meta_read(j, path, &d->meta, cause);
	free(path);
	json_decref(j);
	if (rc == -1)
		goto fail;
	xasprintf(&path, "%s/runs.jsonl", dir);
	if (access(path, F_OK) == 0) {
		if (util_read_file(path, &text, &len, cause) == -1) {
			free(path);
			goto fail;
		}
		rc = report_parse_runs(path, text, len, &d->runs, &d->nruns, cause);
		free(text);
		if (rc == -1) {
			free(path);
			goto fail;
		}
	}
	free(path);
	if ((j = load_json(dir, "verdict.json", 0, cause)) == NULL)
		goto fail;
	if (!json_is_null(j)) {
		d->verdict = xcalloc(1, sizeof *d->verdict);
		xasprintf(&path, "%s/verdict.json", dir);
		rc = bench_verdict_file_read(j, path, d->verdict, cause);
		free(path);
		if (rc == -1) {
			free(d->verdict);
			d->verdict = NULL;
		}
	}
	json_decref(j);
	if (rc == -1)
		goto fail;
	if ((j = load_json(dir, "summary.json", 0, cause)) == NULL)
		goto fail;
	if (!json_is_null(j)) {
		d->summary = xcalloc(1, sizeof *d->summary);
		xasprintf(&path, "%s/summary.json", dir);
		rc = bench_summary_read(j, path, d->summary, cause);
		free(path);
		if (rc == -1) {
			free(d->summary);
			d->summary = NULL;
		}
	}
	json_decref(j);
	if (rc == -1)
		goto fail;
	/*
	 * The baseline's diagnosis (diag_load: its table, the one `ntune diagnose --json`
	 * writes it with) is a bonus: one that cannot be read is left out.
	 */
	xasprintf(&path, "%s/diagnosis.json", dir);
	if (access(path, F_OK) == 0 && diag_load(path, &d->diagnosis, &why) == -1) {
		free(why);
		why = NULL;
		d->diagnosis = NULL;
	}
	free(path);
	if ((j = load_json(dir, "hosts.json", 0, cause)) == NULL)
		goto fail;
	if (!json_is_null(j)) {
		d->hosts = xcalloc(1, sizeof *d->hosts);
		xasprintf(&path, "%s/hosts.json", dir);
		rc = bench_hosts_read(j, path, d->hosts, cause);
		free(path);
		if (rc == -1) {
			free(d->hosts);
			d->hosts = NULL;
		}
	}
	json_decref(j);
	if (rc == -1)
		goto fail;
	xasprintf(&path, "%s/best.conf", dir);
	if (access(path, F_OK) == 0 && util_read_file(path, &d->best, &len, cause) == -1) {
		free(path);
		goto fail;
	}
	free(path);
	if (load_profiles(d, cause) == -1)
		goto fail;
	return 0;
fail:
	report_data_free(d);
	return -1;
}

static void
profile_free(void *p)
{
	struct report_profile *rp = p;

	free(rp->label);
	free(rp->text);
}

void
report_data_free(struct report_data *d)
{
	free(d->dir);
	bench_meta_free(&d->meta);
	report_runs_free(d->runs, d->nruns);
	if (d->verdict != NULL)
		bench_verdict_file_free(d->verdict);
	free(d->verdict);
	if (d->summary != NULL)
		bench_summary_free(d->summary);
	free(d->summary);
	diag_result_free(d->diagnosis);
	if (d->hosts != NULL)
		bench_hosts_free(d->hosts);
	free(d->hosts);
	free(d->best);
	util_array_free(d->profiles, d->nprofiles, sizeof *d->profiles, profile_free);
	memset(d, 0, sizeof *d);
}
