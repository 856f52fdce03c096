/*
 * Measuring in the namespace lab (measure.c).
 */
#ifndef NTUNE_BENCH_LAB_H
#define NTUNE_BENCH_LAB_H

#include <stdbool.h>

struct bench_run;
struct remote_words;
struct rfc2544_config;
struct rfc2544_trial;
enum bench_load_kind {
	BENCH_LOAD_GEN = 0,	/* ntune gen in <prefix>-gen */
	BENCH_LOAD_IPERF3,	/* iperf3 -s in <prefix>-sink, iperf3 -c in <prefix>-gen */
	BENCH_LOAD_CMD,		/* sh -c CMD in <prefix>-gen */
	BENCH_LOAD_PKTGEN,	/* netmap's pkt-gen on remote load hosts (--dut only, remote_load.c) */
};

struct os_ctx;

struct bench_lab {
	char	prefix[40];
	char	gen_ns[48], dut_ns[48], sink_ns[48];
	enum bench_load_kind load;
	const char *cmd;	/* BENCH_LOAD_CMD */
	const char *args;	/* gen/iperf3: more arguments, white-space separated, or NULL */
	const char *self;	/* the ntune binary (for `ntune gen`) */
	int	size;		/* gen: frame size, bytes */
	int	flows;		/* gen: flows (0 = gen's default) */
	int	threads;	/* gen: threads (0 = gen's default) */
	double	settle;		/* seconds of load before the measurement starts */
	bool	latency;	/* also run `ntune sink --json` in the sink for latency */
	double	rate;		/* gen: --rate PPS (0 = as fast as it can) */
	int	mtu;		/* the lab's MTU (from its state; 1500 when unset) */
	bool	zero_ok;	/* nothing forwarded while the load sent is a value (0), not a failed run */
	struct os_ctx *os;	/* per-CPU times and interrupts (host-wide) */
	/* When set, `ntune diagnose --json` runs in the DUT during the measurement, into this file. */
	const char *diagnose_to;
};

/*
 * "gen", "gen ARGS", "iperf3", "iperf3 ARGS", "pkt-gen", "pkt-gen ARGS": sets
 * l->load and l->args (pointing into s) and returns 0; anything else is a shell
 * command: -1, nothing set.
 */
int	bench_parse_load(const char *s, struct bench_lab *l);
/*
 * ntune gen's options for the lab's frame size, flows, threads and rate;
 * size > 0 and rate > 0 replace the lab's.
 */
void	bench_gen_words(const struct bench_lab *, int size, double rate, struct remote_words *);
/* The mean % busy of the CPUs over secs seconds with no load of ours, -1 if unknown. */
double	bench_lab_idle_busy(struct bench_lab *, double secs);
/* Checks that the lab exists and we may use it; fills the namespace names. */
int	bench_lab_open(struct bench_lab *, const char *prefix, char **cause);
void	bench_lab_close(struct bench_lab *);
/*
 * Runs the load for settle + duration seconds and measures forwarded packets
 * at the sink's interface, per second, with per-CPU load and interrupt rates.
 * A failed run (the load died, no packet forwarded) returns 0 with r->ok
 * false and r->error set; -1 only when measuring itself is impossible or on
 * SIGINT/SIGTERM (bench_interrupted), with *cause.
 */
int	bench_lab_measure(struct bench_lab *, double duration, struct bench_run *r, char **cause);
/*
 * The lab runner's RFC 2544 trial (bench_runner.trial, lab_trial.c): ntune
 * sink, then ntune gen, in c's lab's namespaces or on c's --gen-host and
 * --sink-host over ssh, for c->duration seconds; arg is not used.
 */
int	bench_lab_rfc2544_trial(void *arg, const struct rfc2544_config *c, int size, double rate,
	    const char *phase, struct rfc2544_trial *t, char **cause);

#endif
