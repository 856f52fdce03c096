/*
 * The tuner (tune.c).
 */
#ifndef NTUNE_BENCH_TUNE_H
#define NTUNE_BENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "bench/sequential.h"
#include "bench/verdict.h"

struct bench_ctx;
struct bench_gens;
struct diag_result;
struct kb;

#define BENCH_CHANGES_MAX 8

struct bench_change {
	char	name[128];
	char	value[128];
	char	current[128];	/* the value in force when the candidates were made */
};

/*
 * One step of the tuner: a single knob, or a bundle of knobs that only work
 * together (GRO + UDP GRO forwarding), applied in order and kept or rejected
 * as one change.
 */
struct bench_candidate {
	struct bench_change set[BENCH_CHANGES_MAX];
	size_t	n;
	char	label[BENCH_CHANGES_MAX * 260];	/* "name=value", a bundle "a=1 + b=2" */
	char	was[BENCH_CHANGES_MAX * 260];	/* the values in force: "a=0, b=0" */
	char	why[400];	/* what the change is meant to do */
	char	order[400];	/* why it is tried where it is (diagnosis, list, pair) */
	int	line;		/* its generator's line in the candidate file, 0 = none */
	int	finding;	/* rank of the first diagnosis finding naming one of its knobs, -1 */
	bool	trap;		/* a known trap found set in the DUT (kind fix): tried first */
};

/* Reads a knob's value in the DUT: 0 and *value (malloc'd), or -1 and *why. */
typedef int (*bench_getter)(void *arg, const char *name, char **value, char **why);

/*
 * Candidate changes for the lab's DUT, most promising first: UDP GRO
 * forwarding, RPS/XPS masks, threaded NAPI, GRO/GSO/TSO, rings and channels,
 * qdisc, and (host_knobs) the host-global backlog/budget/weight/busy-poll
 * sysctls. Every name must be a knob of the knowledge base for linux whose
 * value passes its type and range, and be readable through get; the ones that
 * are not, or whose scope is host without host_knobs, are left out with a
 * line in *notes. Parts of a bundle already at their value are dropped from it.
 */
void	bench_tune_candidates_from(const struct kb *, const struct bench_gens *, bench_getter get,
	    void *arg, int ncpu, bool host_knobs, struct bench_candidate **, size_t *,
	    char ***notes, size_t *nnotes);
/*
 * The same, reading the values inside the network namespace dut_ns, from the
 * candidate file path (NULL: <share>/tune/linux.cand).
 */
int	bench_tune_candidates(const struct kb *, const char *path, const char *dut_ns, int ncpu,
	    bool host_knobs, struct bench_candidate **, size_t *, char ***notes, size_t *nnotes,
	    char **cause);

struct diag_result;
/*
 * Orders the candidates by a diagnosis of the starting settings (d NULL: keeps
 * the list order): a known trap found set in the DUT first (kind fix: the
 * setting itself is the evidence), then the first candidate of each knob a
 * finding names, the most certain finding's first; the others keep their order.
 * Fills each candidate's order (why it is where it is) and finding.
 */
void	bench_tune_order(struct bench_candidate *, size_t, const struct diag_result *d);
/*
 * Runs per profile for a step that should decide an effect of the relative size
 * effect (0.10 = 10%) with 80% power, when runs vary by cv (sd / mean), testing at
 * the corrected level of seq (its confidence, min_runs, comparisons): the
 * smallest max_runs in [seq->min_runs, cap] that reaches it, else cap.
 */
int	bench_tune_plan_runs(const struct bench_seq *seq, double cv, double effect, int cap);

struct bench_tune_step {
	struct bench_candidate c;
	bool	kept;
	bool	tried;		/* false: skipped (note says why) */
	char	*verdict;	/* in words */
	char	*note;
	double	mean_best, mean_try, pct, pct_hw, p;
	double	cv;		/* run-to-run spread of both samples (pooled sd / mean), 0 unknown */
	int	runs;
	int	max_runs;	/* planned for the step from the spread */
	bool	extended;	/* benched again with more runs: the first bench could not decide */
	bool	pair;		/* a pair of two singles tried after them */
	/*
	 * A drop check (drop_of > 0): benches the best profile without the
	 * changes of kept step drop_of (1-based) against the best profile;
	 * removed: they were taken out (the profile without them was not
	 * decided worse). A kept step taken out so has kept = false and
	 * dropped_at = the check's step (1-based).
	 */
	size_t	drop_of;
	bool	removed;
	size_t	dropped_at;
	enum bench_stop stop;
};

struct bench_tune {
	double	budget_s;	/* wall-clock budget for the whole tune */
	bool	host_knobs;
	bool	bits;		/* goal throughput: bit/s (else pps) */
	bool	latency;	/* goal latency: p99 µs at the sink, lower is better */
	bool	efficiency;	/* metric efficiency: pps per DUT CPU-second */
	int	ncpu;
	const char *cand_path;	/* the candidate file, NULL: <share>/tune/linux.cand */
	const struct bench_gens *gens;	/* the generators (read already), or NULL: cand_path's */
	bench_getter get;	/* how knobs are read in the DUT, NULL: inside the lab's DUT */
	void	*get_arg;
	const char *dut_name;	/* what the log calls the DUT, NULL: the lab's DUT namespace */
	/*
	 * What one reboot of the DUT costs (s, the runner's measured mean) when
	 * boot-time candidates are tried across reboots (gens->boot), else NULL.
	 */
	const double *reboot_s;
	/*
	 * A DUT outside the lab: diagnoses it under the load of the first baseline
	 * run into path (DIR/diagnosis.json), 0 and *d, or -1 + why (the tune goes
	 * on in the candidate list's order, saying why); NULL: not diagnosed.
	 */
	int	(*diagnose)(void *arg, const char *path, struct diag_result **d, char **why);
	void	*diagnose_arg;
	int	pairs;		/* pair up the best N singles that were not kept (0: no pairs) */
	double	min_effect;	/* the relative effect a step is planned to decide (0.10) */
	int	max_runs_cap;	/* a step's runs per profile never exceed this */
	/* results */
	struct diag_result *diag;	/* the baseline's diagnosis, or NULL; set before: the caller's */
	const char *diag_from;		/* the file the caller's diagnosis came from, or NULL */
	char	*diag_note;		/* why there is none, or NULL */
	double	cv;			/* pooled run-to-run spread so far, 0 unknown */
	double	cv_ss;			/* its sum of squares (cv^2 times df) */
	int	cv_df;			/* its degrees of freedom */
	struct bench_tune_step *steps;
	size_t	nsteps;
	char	**notes;
	size_t	nnotes;
	char	*best_text;		/* best.conf */
	size_t	nkept;
	struct bench_verdict final;	/* best against the starting settings; na = 0 if not run */
	bool	have_final;
	bool	final_apart;		/* bench_tune_run leaves the final bench to the caller */
	char	final_lab[48];		/* the fresh lab the final bench ran in, "" = the tuned one */
	const char *stopped;		/* "done", "budget", "interrupted", "error" */
};

/*
 * Tries the candidates one by one against the best profile so far, keeping a
 * change only when the bench decides it forwards more (never a worse or
 * unproven one), then benches the best profile against the starting settings
 * for the gain. Writes DIR/best.conf, summary.json, verdict.json (ctx->dir).
 * -1 + cause on interruption or an error the tune cannot go on from (the
 * partial summary is still written); the settings are restored either way.
 */
/* The rule: keep a change only when the bench stopped decided and it forwards more. */
bool	bench_tune_keep(enum bench_stop, const struct bench_verdict *);
/*
 * A drop check's rule: a kept step stays only when the best profile without it was
 * decided worse (fewer packets; for --goal latency, a higher latency).
 */
bool	bench_tune_still_needed(enum bench_stop, const struct bench_verdict *);
int	bench_tune_run(struct bench_ctx *, struct bench_tune *, char **cause);
/* Whether cand changes a knob that takes effect at boot, tried across reboots (t->reboot_s). */
bool	bench_tune_boot_change(const struct bench_ctx *, const struct bench_tune *,
	    const struct bench_candidate *cand);
/*
 * The most a step of runs runs per profile may take, warm-ups included, and with
 * boot the reboots: at most one per run, two for the warm-ups and one to restore
 * (*reboots, when not NULL), each costing *t->reboot_s.
 */
double	bench_tune_step_cost(const struct bench_ctx *, const struct bench_tune *, bool boot,
	    double per_run, int runs, int *reboots);
/*
 * The final bench: the best profile against the starting settings in ctx's
 * lab (a fresh one when the caller made it so: t->final_lab), into t->final.
 */
int	bench_tune_final(struct bench_ctx *, struct bench_tune *, char **cause);
json_t	*bench_tune_summary(const struct bench_tune *);
/*
 * The profile of the kept steps, in order, a later value of a knob replacing
 * an earlier one (and moving it last, after what it depends on), with extra's
 * changes on top (extra NULL: none). Never NULL; "" when nothing is kept.
 */
char	*bench_tune_profile(const struct bench_tune *, const struct bench_candidate *extra);
/* best.conf: bench_tune_profile with each kept step's reason and figures as comments. */
char	*bench_tune_best_conf(const struct bench_tune *, const char *prefix);
/*
 * Pairs of the best singles tried and not kept (at most top of them, the
 * highest observed gain first, none decided worse, none already in the best
 * profile), each pair of disjoint knobs once, appended to *out.
 */
size_t	bench_tune_pairs(const struct bench_tune *, size_t top, struct bench_candidate **out,
	    size_t *n);
void	bench_tune_free(struct bench_tune *);

#endif
