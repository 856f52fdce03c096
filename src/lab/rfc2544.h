/*
 * RFC 2544 section 26: throughput (binary search of the offered rate at which
 * loss <= tolerance), latency at that rate, and the frame loss rate from 100%
 * of the maximum offered rate down in steps. Each trial is the runner's
 * (struct bench_runner's trial): the lab's runs `ntune sink` and `ntune gen`
 * as processes, in the lab's namespaces or over OpenSSH on other machines
 * (bench/lab_trial.c); a DUT's runs them on its generator and sink hosts and
 * reads the DUT's counters around them (bench/remote_load.c).
 */
#ifndef NTUNE_RFC2544_H
#define NTUNE_RFC2544_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_runner;
struct json_t;
struct rfc2544_trial;

#define RFC2544_MAX_SIZES	16
#define RFC2544_MAX_LOADS	20

struct rfc2544_config {
	char		prefix[40];	/* lab prefix for local runs */
	char		*gen_host;	/* "ssh://[user@]host[:port]" or NULL: local lab */
	char		*sink_host;
	char		*gen_args;	/* extra options for ntune gen / ntune sink, split at white space */
	char		*sink_args;
	char		*ntune;		/* ntune binary; local: /proc/self/exe, remote: "ntune" */
	int		sizes[RFC2544_MAX_SIZES];
	int		nsizes;
	double		loads[RFC2544_MAX_LOADS];	/* frame-loss loads, % of max, descending */
	int		nloads;
	double		duration;	/* seconds per trial */
	double		tolerance;	/* acceptable loss fraction */
	int		trials;		/* repetitions of each latency measurement */
	int		steps;		/* binary search steps at most */
	int		threads;	/* gen threads */
	bool		ipv6;
	/* How every trial is run: the lab's runner (bench_lab_runner) or a DUT's. */
	const struct bench_runner *runner;
	void		(*progress)(const char *line, void *);
	void		*arg;
	volatile sig_atomic_t *stop;	/* non-zero: no more trials (bench_interrupted) */
};

struct rfc2544_trial {
	int		size;
	const char	*phase;		/* "max", "search", "latency", "loss" */
	double		rate;		/* requested pps, 0: unlimited */
	uint64_t	sent, received;
	double		offered_pps;	/* what gen achieved */
	double		received_pps;
	double		loss;		/* fraction of sent */
	bool		pass;
	double		lat[6];		/* min avg max p50 p90 p99, us; -1: none */
	double		duration_s;
	double		*per_second;	/* sink pps per second */
	size_t		nper_second;
	char		started[32];
	struct json_t	*extra;		/* more keys for runs.jsonl (a DUT's counters), or NULL */
};

struct rfc2544_size {
	int		size;
	double		max_pps;	/* offered rate at full speed */
	double		throughput_pps;	/* 0 when no rate passed */
	double		lat[6];		/* averaged over the latency trials; -1: none */
	double		loss_pct[RFC2544_MAX_LOADS];	/* -1: not measured (stopped early) */
	double		loss_offered[RFC2544_MAX_LOADS];
};

struct rfc2544_result {
	struct rfc2544_size sizes[RFC2544_MAX_SIZES];
	int		nsizes;
	struct rfc2544_trial *trials;
	size_t		ntrials;
	bool		complete;
};

void	 rfc2544_config_init(struct rfc2544_config *);
/* "64,128,1518" or "rfc2544" (all seven); -1 + cause on bad input. */
int	 rfc2544_parse_sizes(const char *, struct rfc2544_config *, char **cause);
int	 rfc2544_parse_loads(const char *, struct rfc2544_config *, char **cause);
int	 rfc2544_run(const struct rfc2544_config *, struct rfc2544_result *, char **cause);
void	 rfc2544_result_free(struct rfc2544_result *);
/* A trial about to run: size bytes at rate pps (0: full speed) in phase, nothing measured yet. */
void	 rfc2544_trial_init(struct rfc2544_trial *, int size, double rate, const char *phase);
/* The trial's figures from ntune gen's and ntune sink's --json documents; pass by c's tolerance. */
void	 rfc2544_trial_fill(const struct rfc2544_config *c, struct rfc2544_trial *, struct json_t *gen,
	    struct json_t *sink);
/* The result as `ntune lab rfc2544 --json` prints it. */
struct json_t *rfc2544_json(const struct rfc2544_config *, const struct rfc2544_result *);
/*
 * DIR/meta.json (kind "rfc2544"), DIR/runs.jsonl (one trial a line), DIR/values/<size>B.txt
 * (received pps at the throughput rate), DIR/rfc2544.json. stopped: "decided", "interrupted", "error".
 */
int	 rfc2544_write_dir(const char *dir, const struct rfc2544_config *, const struct rfc2544_result *,
	    const char *command, const char *started, const char *stopped, char **cause);

#endif
