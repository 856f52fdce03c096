/*
 * The DUT's CPU time over a lab run (--metric efficiency): softirq time of
 * every CPU plus the CPU time of the NAPI threads of the DUT's interfaces.
 *
 * Why both: this kernel family's default build has no
 * CONFIG_IRQ_TIME_ACCOUNTING, so /proc/stat's softirq column is sampled at
 * the tick: kernel/sched/cputime.c account_system_time() charges a tick to
 * CPUTIME_SOFTIRQ when in_serving_softirq(), else to CPUTIME_SYSTEM. A
 * threaded NAPI poll (net/core/dev.c napi_threaded_poll_loop) runs in its
 * kthread between local_bh_disable() and local_bh_enable(), which add
 * SOFTIRQ_DISABLE_OFFSET, not the SOFTIRQ_OFFSET in_serving_softirq() tests
 * (include/linux/preempt.h): its ticks are CPUTIME_SYSTEM, and the thread's
 * own stime (account_system_index_time), /proc/PID/stat fields 14 and 15.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench_run.h"
#include "util/util.h"

uint64_t
bench_cpu_total(const struct os_cpu_times *t)
{
	return os_cpu_times_ticks(t, NULL);
}

/* The softirq share of each CPU's ticks between a and b, summed: CPU-seconds a second. */
static double
softirq_share(const struct os_cpu_times *a, size_t na, const struct os_cpu_times *b, size_t nb)
{
	size_t i, n = na < nb ? na : nb;
	uint64_t ta, tb;
	double sum = 0;

	for (i = 0; i < n; i++) {
		ta = bench_cpu_total(&a[i]);
		tb = bench_cpu_total(&b[i]);
		if (tb > ta && b[i].softirq > a[i].softirq)
			sum += (double)(b[i].softirq - a[i].softirq) / (double)(tb - ta);
	}
	return sum;
}

static const struct os_napi_thread *
find(const struct bench_napi_snap *s, const struct os_napi_thread *t)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->t[i].pid == t->pid && s->t[i].start == t->start)
			return &s->t[i];
	}
	return NULL;
}

/* The threads' clock ticks in the run; counts what it measured and what it could not. */
static uint64_t
napi_ticks(const struct bench_napi_snap *s0, const struct bench_napi_snap *s1, int *counted,
    int *unmeasured)
{
	const struct os_napi_thread *t;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < s0->n; i++) {
		if ((t = find(s1, &s0->t[i])) == NULL) {
			(*unmeasured)++;	/* gone before the end: its last ticks are lost */
			continue;
		}
		sum += t->ticks > s0->t[i].ticks ? t->ticks - s0->t[i].ticks : 0;
		(*counted)++;
	}
	for (i = 0; i < s1->n; i++) {
		if (find(s0, &s1->t[i]) != NULL)
			continue;
		sum += s1->t[i].ticks;	/* started in the run: all its time is in it */
		(*counted)++;
	}
	return sum;
}

void
bench_run_dut_cpu(struct bench_run *r, const struct os_cpu_times *a, size_t na,
    const struct os_cpu_times *b, size_t nb, const struct bench_napi_snap *s0,
    const struct bench_napi_snap *s1, long hz)
{
	double secs = s1->at - s0->at;

	r->dut_cpu_from = NULL;
	r->dut_cpu = r->dut_softirq = r->dut_napi = 0;
	r->dut_napi_threads = r->dut_napi_unmeasured = 0;
	r->dut_cpu_why[0] = '\0';
	if (na == 0 || nb == 0) {
		snprintf(r->dut_cpu_why, sizeof r->dut_cpu_why, "no per-CPU times (/proc/stat) "
		    "for the softirq part");
		return;
	}
	if (!s0->ok || !s1->ok) {
		snprintf(r->dut_cpu_why, sizeof r->dut_cpu_why, "cannot list the DUT's NAPI threads: %s",
		    !s0->ok ? s0->why : s1->why);
		return;
	}
	if (secs <= 0 || hz <= 0) {
		snprintf(r->dut_cpu_why, sizeof r->dut_cpu_why, "no time between the two readings");
		return;
	}
	r->dut_softirq = softirq_share(a, na, b, nb);
	r->dut_napi = (double)napi_ticks(s0, s1, &r->dut_napi_threads, &r->dut_napi_unmeasured) /
	    (double)hz / secs;
	r->dut_cpu = r->dut_softirq + r->dut_napi;
	r->dut_cpu_from = BENCH_DUT_CPU_LAB;
}
