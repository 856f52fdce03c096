/*
 * The records of a results directory (bench, tune, lab rfc2544), each one
 * table of fields (util/jtable.h) that the writers write through and `ntune
 * report` reads through: a field renamed in a table changes both, and a
 * member renamed breaks the build of both.
 */
#ifndef NTUNE_BENCH_RESULTS_H
#define NTUNE_BENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* meta.json: what ran, when, and why it stopped. */
#define BENCH_META_SCHEMA	1
struct bench_meta {
	int	schema;			/* BENCH_META_SCHEMA */
	char	kind[16];		/* bench, tune, rfc2544 */
	char	ntune_version[32];
	char	*command;		/* the command line, quoted for sh */
	char	started[32];		/* ISO 8601 UTC */
	bool	complete;
	char	stopped[32];		/* why: decided, max-runs, budget, interrupted, error, running... */
	char	finished[32];		/* "" while running */
	char	*note;			/* more on why it stopped, or NULL */
};

json_t	*bench_meta_json(const struct bench_meta *);
/* Reads doc (from file, for messages): -1 and "FILE: key 'stopped': missing" in *cause. */
int	 bench_meta_read(json_t *doc, const char *file, struct bench_meta *, char **cause);
void	 bench_meta_free(struct bench_meta *);
/* Writes DIR/meta.json (atomically). */
int	 bench_meta_write(const char *dir, const struct bench_meta *, char **cause);

/* verdict.json: one comparison of profile b with a (bench_verdict_json writes one). */
struct bench_comparison {
	char	a[64], b[64];
	uint64_t n_a, n_b;
	double	mean_a, mean_b, stddev_a, stddev_b;	/* NaN: null */
	double	confidence;		/* percent */
	char	metric[16];		/* pps, bps, latency_p99_us, efficiency ("" in older files) */
	json_t	*welch, *mann_whitney;	/* written only (stat_cmp_json), or NULL: null */
	double	ratio, ratio_lo, ratio_hi, alpha_decide;	/* NaN: null */
	bool	decided;
	int	direction;		/* +1 b higher, -1 b lower, 0 no difference proven */
	char	*text;			/* the verdict in words */
};

/* verdict.json: how a bench (or a tune's final bench) decided, and its comparisons. */
struct bench_verdict_file {
	double	confidence;		/* percent */
	int	min_runs, max_runs, looks;
	double	alpha_look;
	char	stopped[32];
	bool	bench;			/* written: seed, runs_each and correction (a bench's) */
	uint64_t seed;
	int	runs_each;
	struct bench_comparison *cmp;	/* read; written from the array given */
	size_t	ncmp;
	char	*correction;
	double	cpu_busy_before;	/* percent; negative or NaN: null (not measured) */
};

/* Its head and cpu_busy_before from the bench's settings (bench and tune), the rest zero. */
struct bench_ctx;
void	 bench_verdict_file_init(struct bench_verdict_file *, const struct bench_ctx *,
	    const char *stopped);
/* The comparison (its welch and mann_whitney taken) and the file around comparisons (taken). */
json_t	*bench_comparison_json(struct bench_comparison *);
json_t	*bench_verdict_file_json(const struct bench_verdict_file *, json_t *comparisons);
/* Reads doc (from file): -1 and "FILE: key 'comparisons[2].text': missing" in *cause. */
int	 bench_verdict_file_read(json_t *doc, const char *file, struct bench_verdict_file *,
	    char **cause);
void	 bench_verdict_file_free(struct bench_verdict_file *);

/* hosts.json (bench --dut): who is who, and each boot of the DUT the bench saw. */
struct bench_host {
	bool	present;		/* read: the role is in the file */
	char	url[400];		/* as the user gave it */
	char	os[32], platform[64], uname[512], ntune_version[64], boot_id[128];
};

struct bench_boot {
	char	boot_id[128];		/* "" when it did not come back */
	char	*why;
	int	before_run;
	double	recovery_s;		/* negative: found, not waited for (written without) */
	bool	came_back;		/* written once waited for (recovery_s >= 0) */
	char	*error;			/* why it did not, or NULL */
};

struct bench_hosts {
	int	schema;			/* 1 */
	struct bench_host dut, gen, sink;
	struct bench_boot *boots;	/* read; written from the array given */
	size_t	nboots;
	char	*dut_in, *dut_out, *gen_if, *sink_if, *dst;	/* "path" */
};

json_t	*bench_host_json(const struct bench_host *);
json_t	*bench_boot_json(const struct bench_boot *);
/* The file around its boots (taken). */
json_t	*bench_hosts_json(const struct bench_hosts *, json_t *boots);
/* Reads doc (from file): -1 and "FILE: boots[2]: key 'why': missing" in *cause. */
int	 bench_hosts_read(json_t *doc, const char *file, struct bench_hosts *, char **cause);
void	 bench_hosts_free(struct bench_hosts *);

/* summary.json (tune): a step's change of one knob. */
struct bench_summary_change {
	char	*name, *value, *was;
};

/* A step of the tuner (bench/tune.h struct bench_tune_step says what each is). */
struct bench_summary_step {
	char	*change;
	struct bench_summary_change *changes;	/* NULL: none in the file (older versions) */
	size_t	nchanges;
	char	*was;
	bool	tried;			/* absent reads true (older versions tried every step) */
	char	*why, *order;
	char	*finding;		/* or NULL: null */
	bool	pair;
	int	drop_of;		/* 1-based step a drop check is of, -1: null */
	bool	removed;		/* written for a drop check */
	int	dropped_at;		/* -1: null */
	bool	extended;
	int	max_runs;		/* written when tried */
	double	spread;			/* written when > 0 */
	char	*verdict;
	bool	kept;
	char	*stopped;
	int	runs;			/* > 0: the means below are written */
	double	mean_best, mean_try, pct, pct_hw, p;	/* NaN when not in the file; p NaN: null */
	char	*note;			/* or NULL */
};

struct bench_summary {
	char	*baseline, *best;
	char	metric[16];		/* pps, bps, latency_p99_us */
	double	baseline_pps, best_pps;	/* NaN: null */
	double	gain_pct, gain_pct_hw, gain_ratio;	/* gain_pct_hw NaN: null */
	bool	gain_proven;
	int	kept;
	char	*final_lab;		/* or NULL: null */
	char	*stopped;
	char	*verdict;		/* the final bench's, or NULL (none) */
	struct bench_summary_step *steps;
	size_t	nsteps;
	char	*order;
	json_t	*diagnosis;		/* written only (taken), NULL: null */
	double	spread;			/* NaN: null */
	double	min_effect_pct;
	char	**left_out;		/* written only */
	size_t	nleft_out;
};

json_t	*bench_summary_json(struct bench_summary *);
/* Reads doc (from file): -1 and "FILE: steps[3]: key 'kept': missing" in *cause. */
int	 bench_summary_read(json_t *doc, const char *file, struct bench_summary *, char **cause);
void	 bench_summary_free(struct bench_summary *);

/*
 * A runs.jsonl line (bench_run_json writes one) into r: -1 and "WHERE: key
 * 'pps': missing" in *cause. Only label and pps are required; an absent
 * number reads as NaN (latency_us too), an absent ok as true, an absent array
 * as NULL. bench_run_free frees it.
 */
struct bench_run;
int	 bench_run_read(json_t *o, const char *where, struct bench_run *r, char **cause);
/*
 * The rows of r a trial of lab rfc2544 writes in its runs.jsonl line (run,
 * block, label, warmup, pps, bps, drops, per_second, started, duration_s);
 * the trial adds its own keys after them.
 */
json_t	*bench_run_trial_json(const struct bench_run *r);

/* --- the results directory --------------------------------------------- */

/*
 * Creates DIR (and profiles/, values/) and writes meta.json with
 * complete=false, stopped="running". Refuses a DIR that holds a results
 * directory already unless it is empty.
 */
int	bench_results_create(const char *dir, const char *kind, int argc, char **argv, char **cause);
int	bench_results_profile(const char *dir, const char *label, const char *text, char **cause);
/* Appends the run to runs.jsonl (flushed) and, for a measured run, rewrites values/<label>.txt. */
int	bench_results_add_run(const char *dir, const struct bench_run *, char **cause);
/* Writes a JSON document (verdict.json, summary.json) atomically. */
int	bench_results_write_json(const char *dir, const char *name, json_t *, char **cause);
int	bench_results_write_text(const char *dir, const char *name, const char *text, char **cause);
/* Rewrites meta.json: finished, complete, stopped ("decided", "max-runs", "budget", "interrupted", "error"). */
int	bench_results_finish(const char *dir, bool complete, const char *stopped, const char *note, char **cause);

#endif
