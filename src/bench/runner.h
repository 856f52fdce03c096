/*
 * A/B runs of profiles through a runner: the lab (lab_runner.c) or a DUT over
 * ssh (bench/dut_bench.h); bench_ab (ab.c).
 */
#ifndef NTUNE_BENCH_RUNNER_H
#define NTUNE_BENCH_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/label.h"
#include "bench/sequential.h"

struct bench_lab;
struct bench_run;
struct bench_verdict;
struct kb;
struct kb_profile;
struct rfc2544_config;
struct rfc2544_trial;

struct bench_profile {
	char	label[BENCH_LABEL_MAX];
	char	*text;			/* the exact profile text (written to profiles/) */
	struct kb_profile *prof;	/* parsed; no entries = the settings as they are */
	double	*values;		/* pps of the measured runs (per_boot: of the boots) */
	size_t	nvalues;
	char	boot[128];		/* per_boot: the boot of values[nvalues - 1] */
	int	in_boot;		/* per_boot: runs averaged into values[nvalues - 1] */
};

/*
 * How a run is done: apply a profile (journal receives the id to restore, ""
 * when nothing was changed), restore it, measure one run, the CPUs' business
 * before any load, one RFC 2544 trial. Two runners: the namespace lab
 * (bench_lab_runner) and a DUT over ssh (bench_remote_runner); bench_ab,
 * bench_tune_run and rfc2544_run see only this.
 */
struct bench_runner {
	void	*arg;
	int	(*apply)(void *arg, const struct bench_profile *, char *journal, size_t len, char **cause);
	int	(*restore)(void *arg, const char *journal, char **cause);
	int	(*measure)(void *arg, double duration, struct bench_run *, char **cause);
	double	(*idle_busy)(void *arg, double secs);
	/*
	 * One RFC 2544 trial of size-byte frames at rate pps (0: as fast as it
	 * goes) for c->duration seconds in phase ("max", "search", "latency",
	 * "loss"): fills t (rfc2544_trial_init, then rfc2544_trial_fill from the
	 * generator's and the sink's --json), or -1 + cause.
	 */
	int	(*trial)(void *arg, const struct rfc2544_config *c, int size, double rate,
		    const char *phase, struct rfc2544_trial *t, char **cause);
	/*
	 * Whether the profiles are compared boot against boot (one boot = one
	 * sample, bench_ctx.per_boot), or NULL: never. bench_ab asks it first.
	 */
	bool	(*per_boot)(void *arg, const struct bench_profile *, size_t n);
	bool	in_lab;		/* the lab: a diagnosis of the baseline, a fresh lab for tune's final bench */
};

struct bench_ctx {
	struct bench_lab *lab;
	const struct bench_runner *runner;	/* the lab's (lab_runner) or a DUT's */
	struct bench_runner lab_runner;	/* bench_lab_runner's, arg this context */
	/*
	 * One boot = one sample: the runs of a profile measured in the same boot
	 * of the DUT (bench_run.boot) are averaged into one value, so the tests
	 * count boots, not runs that share a boot (remote DUT with reboots).
	 */
	bool	per_boot;
	const struct kb *kb;
	const char *state_dir;		/* NULL: apply's default */
	const char *dir;		/* results directory, or NULL */
	struct bench_seq seq;
	double	duration;		/* seconds measured per run */
	double	warmup;			/* seconds of the discarded warm-up run per profile, 0 = none */
	bool	bits;			/* compare bit/s instead of packets/s */
	bool	latency;		/* compare the sink's p99 latency (lower is better) */
	bool	efficiency;		/* compare packets per DUT CPU-second */
	uint64_t seed;
	int	step;			/* tune: the step, recorded with each run */
	int	run;			/* runs so far, numbering continues across calls */
	int	planned;		/* the last run number bench_ab may reach */
	int	blocks;			/* measured blocks done by the last bench_ab */
	int	failed_profile;		/* after -1: the profile whose apply or run failed, or -1 */
	double	busy_before;		/* % CPU busy before the first run (other work), -1 unknown */
	char	journal[64];		/* the journal entry in force while a profile is applied */
	bool	diagnosed;		/* DIR/diagnosis.json written (first measured run of profiles[0]) */
	void	(*progress)(void *arg, const char *msg);
	void	*progress_arg;
};

/*
 * Benchmarks profiles[1..n-1] against profiles[0] in randomized interleaved
 * blocks, each run: apply (journalled, inside the lab's DUT), measure,
 * revert. Stops by the sequential rule (*stop decided or max-runs) and fills
 * verdicts[0..n-2] (na = 0 when a comparison could not be computed).
 * -1 + cause on a failed apply, a failed run, a failed restore or SIGINT/SIGTERM:
 * whatever was applied has been reverted by then (unless the restore itself
 * failed, which the cause says with the journal ID to revert).
 */
int	bench_ab(struct bench_ctx *, struct bench_profile *, size_t n, struct bench_verdict *verdicts,
	    enum bench_stop *stop, char **cause);
void	bench_profile_free(struct bench_profile *);
/* Formats a progress line and hands it to fn(arg, line); nothing when fn is NULL. */
void	bench_say(void (*fn)(void *arg, const char *msg), void *arg, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* bench_say to the progress callback of o, a struct bench_ctx or bench_remote. */
#define BENCH_SAY(o, ...)	bench_say((o)->progress, (o)->progress_arg, __VA_ARGS__)

/*
 * The lab as the runner of c (c->runner = &c->lab_runner): apply in c->lab's
 * DUT namespace with c->kb and c->state_dir, measure with bench_lab_measure.
 */
void	bench_lab_runner(struct bench_ctx *c);

#endif
