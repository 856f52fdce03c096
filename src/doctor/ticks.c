/*
 * How far apart the two samples were, from the CPU tick counters each one carries
 * (cpu.N.* as the shared parsers read them: kern.cp_times by os/fbsd_counters.c,
 * /proc/stat's cpuN lines by the Linux backend, os/linux.c).
 *
 * Every tick of a CPU's clock is charged to exactly one of its states, so the sum of its
 * fields grows by the clock's rate a second of wall time whatever the CPU does:
 *  - FreeBSD: statclock() adds the stat ticks it is given to one of the CPU's cp_time
 *    slots (user or nice, sys, intr, idle; sys/kern/kern_clock.c), and handleevents()
 *    in sys/kern/kern_clocksource.c passes it every stat period elapsed since the
 *    CPU's last event. The rate is stathz, kern.clockrate's "stathz = N". A CPU asleep
 *    in idle is charged its missed periods only when it wakes, so a read can lag by
 *    its current sleep: the sum over all CPUs and the sanity limits in doctor.c absorb it.
 *  - Linux: fs/proc/stat.c prints user nice system idle iowait irq softirq steal guest
 *    guest_nice, each nsec_to_clock_t() of the CPU's time, in USER_HZ (100) units. The
 *    first eight are disjoint states and are summed; guest and guest_nice are not,
 *    account_guest_time() in kernel/sched/cputime.c charges them to user and nice too
 *    (the Linux backend reads only the first eight). idle comes from get_idle_time(),
 *    which with NO_HZ includes the CPU's current idle stretch, so it does not lag.
 * So (sum over CPUs of the growth) / (ncpu x hz) is the time between the two reads, to
 * about 1/hz, without the time the reads themselves take.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "doctor/doctor.h"
#include "os/os.h"
#include "util/util.h"

#define TICKS_MAXCPU	4096	/* as many as doctor.c charts */

/* How many CPUs c has tick counters for: cpu.0 .. cpu.N-1, each with its idle field. */
static size_t
ncpus(const struct os_counters *c)
{
	struct os_cpu_times t;
	size_t n;

	for (n = 0; n < TICKS_MAXCPU && os_counters_cpu(c, n, &t); n++)
		;
	return n;
}

/* CPU cpu's ticks: the sum of its states (os_cpu_times_ticks). */
static uint64_t
ticks(const struct os_counters *c, size_t cpu)
{
	struct os_cpu_times t;

	os_counters_cpu(c, cpu, &t);
	return os_cpu_times_ticks(&t, NULL);
}

int
doctor_tick_interval(const struct os_counters *before, const struct os_counters *after,
    double hz, double *secs, char **why)
{
	size_t na = ncpus(before), nb = ncpus(after), i;
	uint64_t t0, t1;
	double sum = 0;

	*secs = 0;
	if (!(hz > 0)) {
		util_cause(why, "the clock rate of the tick counters is unknown");
		return -1;
	}
	if (na == 0 || nb == 0) {
		util_cause(why, "no CPU tick counters in %s", na == 0 ? "before.txt" : "after.txt");
		return -1;
	}
	if (na != nb) {
		util_cause(why, "the samples have tick counters of %zu and %zu CPUs", na, nb);
		return -1;
	}
	for (i = 0; i < na; i++) {
		t0 = ticks(before, i);
		t1 = ticks(after, i);
		if (t1 < t0) {
			util_cause(why, "the tick counters of CPU %zu went down (%" PRIu64 " to %"
			    PRIu64 ")", i, t0, t1);
			return -1;
		}
		sum += (double)(t1 - t0);
	}
	*secs = sum / ((double)na * hz);
	return 0;
}

