/*
 * The A/B runner: run order, sequential stopping, verdicts, the results
 * directory, measurement in the lab, and the tuner.
 */
#ifndef NTUNE_BENCH_H
#define NTUNE_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "os/os.h"
#include "remote/remote.h"
#include "stat/stat.h"

#define BENCH_LABEL_MAX	64

/* --- run order (schedule.c) ---------------------------------------------- */

/* A small, seeded, portable PRNG (splitmix64) so that a run order can be replayed. */
uint64_t bench_rand(uint64_t *state);

/*
 * The order of the profiles in block `block` (0-based): every block holds each
 * profile once. Even blocks are a seeded random permutation; each odd block is
 * the mirror of the block before it, so two profiles run A B B A ... or
 * B A A B ... and every profile takes every position equally often (drift on
 * a noisy machine cancels instead of masquerading as a gain).
 * order[] receives nprofiles indexes.
 */
void	bench_block_order(size_t nprofiles, size_t block, uint64_t seed, size_t *order);

/* --- sequential stopping (seq.c) ----------------------------------------- */

/*
 * The stopping rule. After every complete block with at least min_runs runs
 * per profile, the comparisons are looked at; the bench stops as soon as all
 * of them are decided, or at max_runs. Repeated looks inflate the false
 * positive rate, so each look tests at a Bonferroni-corrected level:
 * alpha / (looks * comparisons), looks = max_runs - min_runs + 1 (the
 * number of planned looks). This is conservative (it keeps the overall error
 * below alpha whatever the correlation between looks) and valid for the
 * rank test as well as for the t test.
 */
struct bench_seq {
	int	min_runs;
	int	max_runs;
	double	confidence;	/* e.g. 0.95 */
	int	ncomparisons;	/* profiles - 1 */
};

enum bench_stop {
	BENCH_CONTINUE = 0,
	BENCH_DECIDED,		/* every comparison significant at the corrected level */
	BENCH_MAX_RUNS,		/* max_runs reached, something still undecided */
};

int	bench_seq_looks(const struct bench_seq *);
/* The per-look significance level (two-sided). */
double	bench_seq_alpha(const struct bench_seq *);
/* runs = runs per profile so far; p[] the comparisons' p values (Welch). */
enum bench_stop bench_seq_decide(const struct bench_seq *, int runs, const double *p, size_t n);
const char *bench_stop_name(enum bench_stop);

/* --- verdicts (verdict.c) ------------------------------------------------ */

struct bench_verdict {
	char	a[BENCH_LABEL_MAX], b[BENCH_LABEL_MAX];
	size_t	na, nb;
	double	mean_a, mean_b, sd_a, sd_b;
	double	confidence;		/* level of the intervals shown, e.g. 0.95 */
	double	alpha_decide;		/* level the decision used (corrected for looks) */
	/* Welch t */
	double	diff, diff_hw;		/* mean_b - mean_a and the interval's half width */
	double	pct, pct_hw;		/* the same as % of mean_a */
	double	df, p_welch;
	/* Mann-Whitney U (normal approximation with tie correction) */
	double	u, p_mw;
	struct stat_cmp welch, mw;	/* as `ntune stat` computes them */
	/* ratio mean_b / mean_a, interval by the delta method with Welch df */
	double	ratio, ratio_lo, ratio_hi;
	bool	decided;		/* p_welch < alpha_decide */
	char	unit[16];		/* "packets" (pps, default), "bits" (bit/s), "latency" (p99 µs)
					   or "efficiency" (packets per DUT CPU-second) */
	int	direction;		/* +1 b higher, -1 b lower, 0 no difference proven */
};

/*
 * Compares sample b with sample a (at least 2 values each). confidence sets
 * the intervals; alpha_decide the decision (pass 1 - confidence for a single
 * look).
 */
int	bench_verdict_compute(const char *label_a, const double *a, size_t na,
	    const char *label_b, const double *b, size_t nb, double confidence,
	    double alpha_decide, struct bench_verdict *, char **cause);
/*
 * In words, e.g. "B forwards 23.1% ± 3.2% more packets than A, 95%
 * confidence, 12 runs each". what: "forwards", more: "more packets".
 */
char	*bench_verdict_text(const struct bench_verdict *);
/* ministat-style block: the two samples, the differences, the tests. */
char	*bench_verdict_table(const struct bench_verdict *);
json_t	*bench_verdict_json(const struct bench_verdict *);

/* --- the results directory (results.c) ----------------------------------- */

struct bench_run {
	int	run;			/* 1-based over the whole bench, warm-ups included */
	int	block;			/* 0 = warm-up block */
	char	label[BENCH_LABEL_MAX];
	int	step;			/* tune: the step this run belongs to, else 0 */
	bool	warmup;
	bool	ok;			/* false: the run failed, see error */
	char	error[256];
	double	pps, bps;		/* forwarded, counted at the sink */
	double	value;			/* what values/<label>.txt gets: pps, bps or p99 µs (0: pps) */
	double	lat_avg, lat_p99;	/* latency at the sink in µs (bench_lab.latency), else 0 */
	uint64_t packets, bytes;	/* forwarded */
	uint64_t sent;			/* sent by the generator side, 0 if unknown */
	uint64_t drops;			/* sent - forwarded (when known) */
	double	*per_second;		/* forwarded pps per second */
	size_t	nsec;
	double	*cpu_busy;		/* % busy per CPU over the run */
	size_t	ncpu;
	char	(*irq_names)[64];	/* interrupts (and NET_RX softirqs) that moved */
	double	*irq_rates;		/* per second */
	size_t	nirq;
	char	started[32];		/* ISO 8601 UTC */
	double	duration_s;
	json_t	*extra;			/* more keys for runs.jsonl (a remote DUT's counters), or NULL */
	char	boot[128];		/* the DUT's boot id during the run (remote), else "" */
	/*
	 * The DUT's CPU time over the run in CPU-seconds a second, what
	 * --metric efficiency divides by: from BENCH_DUT_CPU_LAB or
	 * BENCH_DUT_CPU_HOST (dut_cpu_from); NULL: not measured (dut_cpu_why).
	 */
	const char *dut_cpu_from;
	double	dut_cpu;
	double	dut_softirq, dut_napi;	/* lab: its two parts */
	int	dut_napi_threads;	/* lab: NAPI threads whose time is counted */
	int	dut_napi_unmeasured;	/* lab: threads whose time in the run could not be read */
	char	dut_cpu_why[200];
};

/*
 * Where a run's dut_cpu comes from. Lab: the softirq time of every CPU
 * (/proc/stat) plus the CPU time of the NAPI threads of the DUT's dut0 and
 * dut1; the softirq part also holds the sink's receive and the generator's
 * transmit softirqs, which run on the same host, and a softirq the kernel runs
 * as a NAPI thread re-enables bottom halves is in both parts (the tick is
 * charged to the softirq column and to the thread's stime: kernel/sched/
 * cputime.c account_system_time). Host: every CPU of a DUT
 * reached over ssh, a machine of its own (busy time of kern.cp_times or
 * /proc/stat).
 */
#define BENCH_DUT_CPU_LAB	"softirq+napi"
#define BENCH_DUT_CPU_HOST	"dut-host"

/* The NAPI threads of the DUT's interfaces at one instant (BENCH_DUT_CPU_LAB). */
#define BENCH_NAPI_MAX	64
struct bench_napi_snap {
	struct os_napi_thread t[BENCH_NAPI_MAX];
	size_t	n;
	double	at;			/* util_now() when read */
	bool	ok;			/* false: they could not be listed, why says why */
	char	why[160];
};

/*
 * Sets r's dut_cpu (BENCH_DUT_CPU_LAB) from the CPU times a (start of the run)
 * and b (end) and the NAPI threads s0 and s1 read then, hz clock ticks a
 * second: the softirq share of every CPU's ticks, summed, plus the threads' CPU
 * time over s1->at - s0->at. A thread in both counts its difference; one only
 * in s1 started during the run (a NAPI instance keeps its thread) and counts
 * all its time; one gone by s1 counts nothing and is counted in
 * dut_napi_unmeasured. No CPU times or threads that could not be listed leave
 * dut_cpu unmeasured with why.
 */
/* All the ticks of one CPU's times (every column). */
uint64_t bench_cpu_total(const struct os_cpu_times *);
void	bench_run_dut_cpu(struct bench_run *r, const struct os_cpu_times *a, size_t na,
	    const struct os_cpu_times *b, size_t nb, const struct bench_napi_snap *s0,
	    const struct bench_napi_snap *s1, long hz);

void	bench_run_free(struct bench_run *);
/*
 * --metric efficiency: packets forwarded per CPU-second the DUT spent,
 * r->pps / r->dut_cpu. -1 when the DUT's CPU time was not measured or is 0.
 */
double	bench_run_efficiency(const struct bench_run *);
/* Every CPU's busy time over the run, CPU-seconds a second (the sum of r->cpu_busy / 100). */
double	bench_run_all_cpu(const struct bench_run *);
struct bench_ctx;
/*
 * The value a run gives for ctx's metric (pps, bit/s, p99 µs or efficiency);
 * an efficiency that cannot be computed marks the run failed and gives 0.
 */
double	bench_run_value(const struct bench_ctx *, struct bench_run *);
/* Marks the run failed, with why (its error). */
void	bench_run_fail(struct bench_run *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
json_t	*bench_run_json(const struct bench_run *);

/* A label usable as a file name: [A-Za-z0-9._-], not starting with '.'. */
int	bench_label_valid(const char *);
/* A label from a profile path: basename without .conf, sanitized, made unique against used[]. */
void	bench_label_from_path(const char *path, char *out, size_t len, char used[][BENCH_LABEL_MAX], size_t nused);

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

/* --- measuring in the lab (lab.c) --------------------------------------- */

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

/* --- A/B runs of profiles (ab.c) ---------------------------------------- */

struct kb;
struct kb_profile;

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
 * before any load. Two runners: the namespace lab (bench_lab_runner) and a DUT
 * over ssh (bench_remote_runner); bench_ab and bench_tune_run see only this.
 */
struct bench_runner {
	void	*arg;
	int	(*apply)(void *arg, const struct bench_profile *, char *journal, size_t len, char **cause);
	int	(*restore)(void *arg, const char *journal, char **cause);
	int	(*measure)(void *arg, double duration, struct bench_run *, char **cause);
	double	(*idle_busy)(void *arg, double secs);
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

/* --- a real DUT, generator and sink reached over ssh (remote.c) ---------- */

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
	const char *ntune;		/* the ntune command on every host */
	const char *dut_in, *dut_out;	/* the DUT's interfaces facing gen and sink */
	const char *gen_if, *sink_if;	/* the generator's and the sink's data interfaces */
	const char *dst;		/* the sink's data address (gen --dst) */
	const char *gen_args, *sink_args;	/* more words for ntune gen / sink, or NULL */
	struct bench_lab *lab;		/* frame size, flows, threads, rate, settle */
	const char *dir;		/* results directory, or NULL */
	int	confirm_secs;		/* apply --confirm on the DUT: reverts itself after this */
	/*
	 * Reboot mode (profiles with boot-time knobs, or --reboot): a profile is
	 * applied persistently (apply --root dut_root) and the DUT rebooted, once
	 * per switch of profile; the original settings come back with a last
	 * reboot in bench_remote_finish (unless the DUT already runs them).
	 */
	bool	reboot;
	const char *dut_root;		/* apply --root on the DUT, or NULL */
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
	/* found */
	struct remote_facts dut_facts, gen_facts, sink_facts;
	const char *os;			/* the DUT's OS as the knowledge base names it */
	bool	agentless;		/* no ntune on the DUT (or --agentless): apply/agentless.h */
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
};

/*
 * Reaches the three hosts (ssh, shared connections), reads who they are and
 * the DUT's counters on dut_in/dut_out. -1 + cause
 * when a host cannot be reached or lacks ntune.
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
/* Reads the profile back from the live DUT (ntune verify there): 0 when every knob has its value. */
int	bench_remote_verify(struct bench_remote *, const struct bench_profile *, char **cause);
/* `ntune snapshot` of the DUT (idle) into DIR/dut/NAME.json; quietly nothing without DIR. */
void	bench_remote_snapshot(struct bench_remote *, const char *name);
void	bench_remote_runner(struct bench_remote *, struct bench_runner *);
/*
 * The lab as the runner of c (c->runner = &c->lab_runner): apply in c->lab's
 * DUT namespace with c->kb and c->state_dir, measure with bench_lab_measure.
 */
void	bench_lab_runner(struct bench_ctx *c);
/* The knowledge base's name for the OS the facts describe (linux, freebsd, opnsense, pfsense). */
const char *bench_remote_os(const struct remote_facts *);
/* The lines of profile p whose knob takes effect at boot on the DUT (boot), or the others (malloc'd). */
char	*bench_remote_profile_part(const struct bench_remote *, const struct bench_profile *p,
	    bool boot);
/*
 * Reads the knobs names[0..n-1] on the DUT with one `ntune verify - --json` there
 * (a profile of the names; the values are not set, only compared): *values is an
 * object name -> {"actual": value or null, "error": why or null}. -1 + cause when
 * the DUT cannot be asked (tune_remote.c).
 */
int	bench_remote_knobs(struct bench_remote *, char *const *names, size_t n, json_t **values,
	    char **cause);
/* A bench_getter over bench_remote_knobs' values (arg: the json_t object). */
int	bench_remote_knob_get(void *arg, const char *name, char **value, char **why);
/*
 * The tuner's candidates for the DUT: path, or the candidate file of the DUT's
 * OS (bench_gens_default), with its dut0/dut1 (and FreeBSD's dev.dut0 device
 * tree) renamed to --dut-in/--dut-out; boot-time knobs allowed in reboot_auto.
 */
struct bench_gens;
int	bench_remote_gens(const struct bench_remote *, const char *path, struct bench_gens *,
	    char **cause);
/*
 * tune --dut --plan: the candidates in the order they would be tried (the list's:
 * the DUT is not diagnosed), each with its runs, reboots and most DUT time, which
 * fit in the budget, and the totals; schema 1 (README). Nothing is changed.
 */
struct bench_tune;
json_t	*bench_remote_tune_plan(const struct bench_remote *, const struct bench_ctx *,
	    struct bench_tune *);
/*
 * An RFC 2544 trial through the DUT, for rfc2544_config.run_trial with arg the
 * opened bench_remote: the DUT's counters are read idle before and after, the
 * sink counts on its own clock and waits for late frames, and latency is kept
 * only when the generator and the sink are the same host.
 */
struct rfc2544_config;
struct rfc2544_trial;
int	bench_remote_rfc2544_trial(void *arg, const struct rfc2544_config *, int size, double rate,
	    const char *phase, struct rfc2544_trial *, char **cause);

/* --- the tuner (tune.c) -------------------------------------------------- */

/* A bundle has up to 4 changes; a pair of two bundles up to 8. */
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

/* --- the tuner's candidate generators (cand.c, share/tune/linux.cand) ---- */

enum bench_gen_kind {
	BENCH_GEN_MASKS,	/* each single CPU (highest first, up to 4), then all CPUs */
	BENCH_GEN_FLIP,		/* a bool to its other value */
	BENCH_GEN_TIMES,	/* the current number times each factor of arg */
	BENCH_GEN_SET,		/* arg */
	BENCH_GEN_NCPU,		/* the CPU count (queues) */
	BENCH_GEN_ENUM,		/* the values of arg that the knowledge base lists */
	BENCH_GEN_BUNDLE,	/* arg "name=value ...", applied together; %c: one per CPU */
	BENCH_GEN_FIX,		/* arg "FROM:TO": only a knob at FROM, set to TO (a known trap) */
};

struct bench_gen {
	char	*name;		/* the knob; a bundle: what notes call it */
	enum bench_gen_kind kind;
	char	*arg;		/* NULL when the kind takes none */
	char	*why;
	int	 line;
};

struct bench_gens {
	struct bench_gen *v;
	size_t	 n;
	const char *os;		/* the knowledge base's OS of the DUT, NULL: linux */
	bool	 boot;		/* boot-time (loader) knobs may be tried: the runner reboots */
};

/* Parses candidate stanzas ("file:line: ..." errors; at least one candidate). */
int	bench_gens_parse(const char *file, const char *text, size_t len, struct bench_gens *,
	    char **cause);
/* Reads path, NULL: <share>/tune/linux.cand. */
int	bench_gens_load(const char *path, struct bench_gens *, char **cause);
/* The default candidate file for the knowledge base's OS os: <share>/tune/OS.cand (malloc'd). */
char	*bench_gens_default(const char *os);
void	bench_gens_free(struct bench_gens *);
/* The knob names the generators read (a bundle's parts too), each once, in order (malloc'd). */
size_t	bench_gens_knobs(const struct bench_gens *, char ***names);
/*
 * Renames an interface in every name and arg ("dut0" -> "ix0"): the candidate
 * file names the lab's dut0/dut1, a DUT has its own. from is matched as a whole
 * word between dots, "=" or white space.
 */
void	bench_gens_rename(struct bench_gens *, const char *from, const char *to);

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

/* --- signals ------------------------------------------------------------- */

/* Set by the SIGINT/SIGTERM handler bench_signals_install() installs: the signal number. */
extern volatile sig_atomic_t bench_interrupted;
void	bench_signals_install(void);
void	bench_signals_restore(void);

#endif
