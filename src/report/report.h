/* The HTML report of a results directory (bench, tune, rfc2544). */
#ifndef NTUNE_REPORT_H
#define NTUNE_REPORT_H

#include <stddef.h>

#include <jansson.h>

#include "bench/results.h"

struct diag_result;

struct report_profile {
	char	*label;
	char	*text;
};

struct report_data {
	char	*dir;
	struct bench_meta meta;	/* meta.json (required) */
	struct bench_run *runs;	/* runs.jsonl's lines (bench_run_read) */
	size_t	nruns;
	struct bench_verdict_file *verdict;	/* verdict.json or NULL */
	struct bench_summary *summary;	/* summary.json (tune) or NULL */
	struct diag_result *diagnosis;	/* diagnosis.json (the baseline's `ntune diagnose --json`) or NULL */
	struct bench_hosts *hosts;	/* hosts.json (bench --dut) or NULL */
	char	*best;		/* best.conf or NULL */
	struct report_profile *profiles;
	size_t	nprofiles;
};

/* Reads DIR; a malformed file gives "DIR/runs.jsonl:12: ..." in *cause. */
int	report_load(const char *dir, struct report_data *, char **cause);
/*
 * Parses runs.jsonl text (used by report_load and the fuzzer) into *runs
 * (report_runs_free), a line through bench_run_read; name is for messages.
 */
int	report_parse_runs(const char *name, const char *text, size_t len, struct bench_run **runs,
	    size_t *nruns, char **cause);
void	report_runs_free(struct bench_run *, size_t);
void	report_data_free(struct report_data *);

/* The whole page: self-contained HTML with inline SVG, no scripts, no external resources. */
char	*report_html(const struct report_data *);

/*
 * The page of an `ntune doctor` document (schema ntune-doctor): per-CPU load as a chart,
 * the ranked list, what is fine, the proposed profile. Self-contained as report_html.
 */
struct doctor_doc;
char	*report_doctor_html(const struct doctor_doc *);

/* Quantile of sorted values (linear interpolation, type 7). */
double	report_quantile(const double *sorted, size_t n, double q);

#endif
