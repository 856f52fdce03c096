/*
 * A real DUT, generator and sink reached over ssh (remote.c, remote_load.c).
 */
#ifndef NTUNE_BENCH_REMOTE_H
#define NTUNE_BENCH_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/label.h"
#include "dut/dut.h"

struct bench_lab;
struct capture_set;
struct bench_profile;
struct bench_runner;
struct kb;

/*
 * --load pkt-gen, pkt-gen -w: seconds it waits after opening the port in
 * netmap mode for the link to come back (a NIC's link bounces 2-4 s then; the
 * netbenches harness waits 5 s between its receiver and its sender), on the
 * sink and again on the generator: each run or trial costs twice this more.
 */
#define BENCH_PKTGEN_LINK_S	5

struct bench_remote {
	/* set by the caller */
	struct remote_host dut, gen, sink;
	struct remote_ssh ssh;
	const char *ntune;		/* the ntune command on the load hosts (the DUT needs none) */
	const char *dut_in, *dut_out;	/* the DUT's interfaces facing gen and sink */
	const char *gen_if, *sink_if;	/* the generator's and the sink's data interfaces */
	const char *dst;		/* the sink's data address (gen --dst) */
	const char *gen_args, *sink_args;	/* more words for ntune gen / sink, or NULL */
	struct bench_lab *lab;		/* frame size, flows, threads, rate, settle */
	const char *dir;		/* results directory, or NULL */
	int	confirm_secs;		/* apply --confirm on the DUT: reverts itself after this */
	/*
	 * Reboot mode (profiles with boot-time knobs, or --reboot): a profile is
	 * applied persistently (files under dut_root) and the DUT rebooted, once
	 * per switch of profile; the original settings come back with a last
	 * reboot in bench_remote_finish (unless the DUT already runs them).
	 */
	bool	reboot;
	const char *dut_root;		/* prefix of the DUT's files and journal, or NULL (agentless_opts root) */
	const char *reboot_cmd;		/* sh command on the DUT; NULL: shutdown -r now */
	/*
	 * The tuner's reboot mode: only the profile's boot-time part (loader
	 * tunables on the DUT's OS, kb) is applied persistently, with a reboot
	 * when it differs from the part in force; the runtime part is applied
	 * with --confirm after it, for each run, like without reboots.
	 */
	bool	reboot_auto;
	const struct kb *kb;		/* which knobs take effect at boot (reboot_auto) */
	double	reboot_timeout;		/* s from the reboot command to a forwarding DUT */
	double	reboot_settle;		/* s after the data path probe passed */
	void	(*progress)(void *arg, const char *msg);
	void	*progress_arg;
	/*
	 * The DUT's snapshot document from its capture (the command layer's
	 * cmd_os_capture_snapshot: the knowledge base's tunables, like `ntune snapshot
	 * ssh://`); NULL: no per-run snapshot.
	 */
	json_t	*(*capture_snapshot)(const struct capture_set *, char **cause);
	/* found */
	struct dut_facts dut_facts, gen_facts, sink_facts;
	const char *os;			/* the DUT's OS as the knowledge base names it */
	char	boot_id[128];		/* the DUT's current boot */
	char	dut_mac[18];		/* pkt-gen: dut_in's MAC address (its -D), "" until read */
	double	reboot_mean;		/* s one reboot took on average (an estimate before the first) */
	double	reboot_total;		/* s spent in reboots */
	char	*boot_text;		/* reboot_auto: the boot-time part in force, "" the original, NULL unknown */
	int	ncpu;			/* the DUT's CPUs */
	int	run;
	json_t	*boots;			/* [{boot_id, why, before_run, recovery_s, came_back}] */
	int	nreboots;
	char	cur_label[BENCH_LABEL_MAX];	/* reboot mode: the profile in force, "" none yet */
	char	cur_journal[64];	/* reboot mode: its journal entry on the DUT, "" none */
	char	pending[256];		/* reboot mode: why the next run cannot be measured */
	bool	snapshot_said;		/* a failed snapshot was said (once until one works) */
};

/*
 * Reaches the three hosts (ssh, shared connections), reads who they are and
 * the DUT's counters on dut_in/dut_out. The DUT is always reached agentless
 * (apply/dut_apply.h; an ntune there is not used). -1 + cause when a host
 * cannot be reached or a load host lacks ntune for an ntune gen load.
 */
int	bench_remote_open(struct bench_remote *, char **cause);
/* Creates DIR/dut/ (snapshots) and writes DIR/hosts.json (b->dir set). */
int	bench_remote_open_dir(struct bench_remote *, char **cause);
/*
 * Reboot mode: takes the last profile out and reboots, so that the DUT runs
 * its original settings again (also after Ctrl-C); no reboot when the boot in
 * force already runs them (the last profile had no settings and its switch
 * completed). 0 or -1 + cause.
 */
int	bench_remote_finish(struct bench_remote *, char **cause);
void	bench_remote_close(struct bench_remote *);
/* Reads the profile back from the live DUT (agentless_verify): 0 when every knob has its value. */
int	bench_remote_verify(struct bench_remote *, const struct bench_profile *, char **cause);
/*
 * Can every knob of p be applied on the DUT agentless (agentless_check)? Before
 * anything runs; -1 + cause "FILE:LINE: ..." when not.
 */
int	bench_remote_check(const struct bench_remote *, const struct bench_profile *, char **cause);
/*
 * A snapshot of the DUT (idle) into DIR/dut/NAME.json: its capture parsed here
 * (capture_snapshot); nothing without DIR.
 */
void	bench_remote_snapshot(struct bench_remote *, const char *name);
void	bench_remote_runner(struct bench_remote *, struct bench_runner *);
/* The lines of profile p whose knob takes effect at boot on the DUT (boot), or the others (malloc'd). */
char	*bench_remote_profile_part(const struct bench_remote *, const struct bench_profile *p,
	    bool boot);
/*
 * An RFC 2544 trial through the DUT, the trial of bench_remote_runner (arg the
 * opened bench_remote): the DUT's counters are read idle before and after, the
 * sink counts on its own clock and waits for late frames, and latency is kept
 * only when the generator and the sink are the same host.
 */
struct rfc2544_config;
struct rfc2544_trial;
int	bench_remote_rfc2544_trial(void *arg, const struct rfc2544_config *, int size, double rate,
	    const char *phase, struct rfc2544_trial *, char **cause);

/* What a load through the DUT offered and what reached the sink (bench_remote_load_during). */
struct bench_load_figures {
	uint64_t sent, received;	/* frames the generator sent, the sink counted */
	double	gen_pps;		/* offered: the generator's rate on its own clock */
	double	pps, bps;		/* achieved: the sink's rate on its own clock */
	double	secs;			/* how long the sink counted */
	char	error[256];		/* "" the load ran all through during(); else why not */
};
/*
 * A load through the DUT while the caller reads it (doctor): the sink, then the
 * generator (b->lab: ntune gen or pkt-gen, not iperf3) sending for at most secs
 * seconds; settle seconds after it started, during(arg) runs (it may talk to the
 * DUT: what it reads is the DUT under this load); when during returns the
 * generator is stopped (SIGTERM on its host: it ends and says what it sent) and
 * the sink counts the late frames. -1 + cause when the load cannot start, on a
 * signal, or when during fails (its cause); a load that failed, or ended before
 * during returned, is f->error.
 */
int	bench_remote_load_during(struct bench_remote *, double settle, double secs,
	    int (*during)(void *arg, char **cause), void *arg, struct bench_load_figures *f,
	    char **cause);

#endif
