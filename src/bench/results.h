/*
 * The records of a results directory (bench, tune, lab rfc2544), each one
 * table of fields (util/jtable.h) that the writers write through and `ntune
 * report` reads through: a field renamed in a table changes both, and a
 * member renamed breaks the build of both.
 */
#ifndef NTUNE_BENCH_RESULTS_H
#define NTUNE_BENCH_RESULTS_H

#include <stdbool.h>

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

/*
 * A runs.jsonl line (bench_run_json writes one) into r: -1 and "WHERE: key
 * 'pps': missing" in *cause. Only label and pps are required; an absent
 * number reads as NaN (latency_us too), an absent ok as true, an absent array
 * as NULL. bench_run_free frees it.
 */
struct bench_run;
int	 bench_run_read(json_t *o, const char *where, struct bench_run *r, char **cause);

#endif
