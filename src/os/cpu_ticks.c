/*
 * CPU busy from tick counters, computed here once for every source: live /proc/stat and
 * kern.cp_times, a capture's samples, a paste, bench's per-run counters of a DUT.
 * Every tick of a CPU's clock is charged to exactly one of its states (FreeBSD: statclock()
 * in sys/kern/kern_clock.c adds to one cp_time slot; Linux: kernel/sched/cputime.c charges
 * one cpustat index, and guest/guest_nice, which fs/proc/stat.c prints after steal, are
 * also charged to user and nice, so they are not states of their own), so a CPU's ticks
 * are the sum of its states. Busy is what is neither idle nor iowait (idle time with I/O
 * pending: fs/proc/stat.c get_iowait_time).
 */
#include <stdio.h>

#include "os/os.h"

/* The counter names of the states (cpu.N.NAME, as the readers of every source set them). */
static const char *const states[OS_CPU_STATES] = { "user", "nice", "system", "interrupt",
    "softirq", "idle", "iowait", "steal" };

double
os_cpu_ticks(const double t[OS_CPU_STATES], double *busy)
{
	double v, sum = 0, idle = 0;
	int k;

	for (k = 0; k < OS_CPU_STATES; k++) {
		v = t[k] > 0 ? t[k] : 0;	/* a state a source lacks is negative: none */
		sum += v;
		if (k == OS_CPU_IDLE || k == OS_CPU_IOWAIT)
			idle += v;
	}
	if (busy != NULL)
		*busy = sum - idle;
	return sum;
}

void
os_cpu_times_vec(const struct os_cpu_times *c, double t[OS_CPU_STATES])
{
	t[0] = (double)c->user;
	t[1] = (double)c->nice;
	t[2] = (double)c->system;
	t[3] = (double)c->interrupt;
	t[4] = (double)c->softirq;
	t[OS_CPU_IDLE] = (double)c->idle;
	t[OS_CPU_IOWAIT] = (double)c->iowait;
	t[7] = (double)c->steal;
}

uint64_t
os_cpu_times_ticks(const struct os_cpu_times *c, uint64_t *busy)
{
	const uint64_t f[OS_CPU_STATES] = { c->user, c->nice, c->system, c->interrupt, c->softirq,
	    c->idle, c->iowait, c->steal };
	uint64_t sum = 0, idle = 0;
	int k;

	/* modulo 2^64, as the kernel's counters wrap: a difference of two readings stays right */
	for (k = 0; k < OS_CPU_STATES; k++) {
		sum += f[k];
		if (k == OS_CPU_IDLE || k == OS_CPU_IOWAIT)
			idle += f[k];
	}
	if (busy != NULL)
		*busy = sum - idle;
	return sum;
}

double
os_cpu_busy_pct(const struct os_cpu_times *a, const struct os_cpu_times *b)
{
	double ta[OS_CPU_STATES], tb[OS_CPU_STATES], busy, tot;
	int k;

	os_cpu_times_vec(a, ta);
	os_cpu_times_vec(b, tb);
	for (k = 0; k < OS_CPU_STATES; k++)
		tb[k] -= ta[k];
	tot = os_cpu_ticks(tb, &busy);
	return tot > 0 && busy > 0 ? 100 * busy / tot : 0;
}

bool
os_counters_cpu(const struct os_counters *c, size_t cpu, struct os_cpu_times *t)
{
	uint64_t *f[OS_CPU_STATES] = { &t->user, &t->nice, &t->system, &t->interrupt, &t->softirq,
	    &t->idle, &t->iowait, &t->steal };
	const struct os_counter *v;
	char name[64];
	int k;

	for (k = 0; k < OS_CPU_STATES; k++) {
		snprintf(name, sizeof name, "cpu.%zu.%s", cpu, states[k]);
		v = os_counters_get(c, name);
		*f[k] = v != NULL ? v->value : 0;
		if (k == OS_CPU_IDLE && v == NULL)
			return false;
	}
	return true;
}
