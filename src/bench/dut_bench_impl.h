/* Inside the remote runner: remote.c (hosts, settings, reboots) and remote_load.c (loads, trials). */
#ifndef NTUNE_BENCH_REMOTE_IMPL_H
#define NTUNE_BENCH_REMOTE_IMPL_H

#include "bench/dut_bench.h"

struct agentless_opts;
/* How the DUT is reached (always agentless): its host, OS and root for apply/dut_apply.h. */
void	bench_remote_agentless(const struct bench_remote *, struct agentless_opts *);

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
	struct dut_counters c0, c1;
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
/* Before anything else: the load's program (iperf3, pkt-gen) is on the generator and sink hosts. */
int	bench_trial_check_load(struct bench_remote *, char **cause);

/* --- netmap's pkt-gen as the load (remote_pktgen.c) --------------------- */

/* The sink's helper says this on stderr once its pkt-gen is ready to receive. */
#define BENCH_PKTGEN_READY	"ntune-pkt-gen: rx ready"

/* The summary line pkt-gen prints when it ends ("Sent ..." / "Received ..."). */
struct bench_pktgen {
	uint64_t packets, bytes, events;
	int	size;		/* pkt-gen's bytes each (the mean, without the FCS) */
	double	secs;		/* from its first to its last frame, its own clock */
	bool	nothing;	/* "Sent nothing." / "Received nothing.": 0 packets */
	char	line[160];	/* the line as printed (cut) */
};

/*
 * The words that run pkt-gen through its POSIX sh helper on the sink (rx) or
 * the generator (tx) host; for tx it first reads the DUT's dut_in MAC (idle).
 */
int	bench_pktgen_words(struct bench_remote *, const struct bench_trial *, bool rx,
	    struct remote_words *, char **cause);
/*
 * Finds and reads the summary line in pkt-gen's standard output (out,
 * NUL-terminated; rx: "Received", else "Sent"): 0, or -1 + cause when there is
 * none or it does not read as pkt-gen prints it.
 */
int	bench_pktgen_summary(const char *out, bool rx, struct bench_pktgen *, char **cause);
/* Both outputs into t->gen and t->sink (ntune gen/sink's keys), or t->error. */
void	bench_pktgen_documents(struct bench_remote *, struct bench_trial *, struct remote_child *gen,
	    int gen_status, struct remote_child *sink, int sink_status);
/* Asks the sink's helper to stop its pkt-gen (SIGTERM to it over a new ssh command). */
void	bench_pktgen_stop(struct remote_child *sink);
/* prog can be run on the generator and the sink host: 0, or -1 + cause naming the host. */
int	bench_load_prog_check(struct bench_remote *, const char *prog, char **cause);

#endif
