/* Inside the remote runner: remote.c (hosts, settings, reboots) and remote_load.c (loads, trials). */
#ifndef NTUNE_BENCH_REMOTE_IMPL_H
#define NTUNE_BENCH_REMOTE_IMPL_H

#include "bench/bench.h"

/* One load through the DUT, the DUT's counters read idle before and after it. */
struct bench_trial {
	int	size;		/* frame bytes, 0: the lab's */
	double	rate;		/* pps, 0: the lab's --rate, or as fast as it goes */
	double	secs;		/* the load sends this long */
	double	skip;		/* iperf3: seconds at the start left out of the figures (settle) */
	const char *gen_word;	/* one more option for ntune gen (--batch=8), or NULL */
	bool	probe;		/* low rate, only to see the path forward: no extra arguments */
	/* what the sink counted on its own clock, and what the generator sent */
	uint64_t sent, received, bytes, lost;	/* sent 0: unknown (iperf3 TCP) */
	double	pps, bps, gen_pps, duration_s;
	double	*per_second;	/* pps (iperf3 TCP: bit/s) each second at the sink */
	size_t	nsec;
	json_t	*gen, *sink;	/* their --json documents */
	struct remote_counters c0, c1;
	char	error[256];	/* "" the trial worked; else why not (a failed run, not an error) */
};

/*
 * The DUT's counters, the load (sink first, then the generator, never a word
 * to the DUT until the generator is done and the sink has waited for late
 * frames), the counters again. -1 + cause when the DUT cannot be read or
 * rebooted on its own before it, or on a signal; 0 otherwise, t->error set
 * when the load failed.
 */
int	bench_trial_run(struct bench_remote *, struct bench_trial *, char **cause);
/* A low-rate probe from the generator through the DUT to the sink: 0 when nothing was lost. */
int	bench_trial_probe(struct bench_remote *);
void	bench_trial_free(struct bench_trial *);
/* The DUT's counters of the trial as runs.jsonl keys ("dut": {...}, "gen": {...}). */
json_t	*bench_trial_json(const struct bench_trial *);

#endif
