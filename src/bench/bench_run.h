/*
 * One measured run: what it forwarded, the CPUs and interrupts over it, and
 * the DUT's CPU time (results.c, dutcpu.c).
 */
#ifndef NTUNE_BENCH_RUN_H
#define NTUNE_BENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/label.h"
#include "os/os.h"

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

#endif
