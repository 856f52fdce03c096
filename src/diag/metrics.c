/*
 * Counters to metrics. Every counter becomes a metric of the same name: its rate per
 * second over the interval, or its total since boot with one capture (gauges are
 * taken as they are). Derived metrics (names in doc/interfaces.md) summarize what the
 * rules look at: CPU busy shares, per-interface packet rates, queue interrupt spread,
 * sums over CPUs, fill ratios, and NIC counters under their canonical names.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag_impl.h"
#include "util/util.h"

#define BUSY_SATURATED	85.0	/* % busy counted as saturated */
#define BUSY_IDLE	25.0	/* % busy counted as idle */

static void
put(json_t *m, double v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
put(json_t *m, double v, const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	json_object_set_new(m, name, json_real(v));
}

static double
get(const json_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A metric, or -1 when absent (every metric is >= 0). */
static double
get(const json_t *m, const char *fmt, ...)
{
	char name[160];
	va_list ap;
	json_t *j;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	j = json_object_get(m, name);
	return j != NULL && json_is_number(j) ? json_number_value(j) : -1;
}

static size_t parts(const char *, char *, size_t, char *[4]);
static bool if_key(const char *, const char *, char *, size_t, const char **);

/* Raw counters: deltas (before given) or totals; rates when secs > 0. */
static void
raw(json_t *m, json_t *d, const struct os_counters *before, const struct os_counters *after,
    double secs)
{
	const struct os_counter *x, *b;
	double delta;
	size_t i;

	for (i = 0; i < after->n; i++) {
		x = &after->v[i];
		if (x->gauge) {
			json_object_set_new(m, x->name, json_real((double)x->value));
			continue;
		}
		b = before != NULL ? os_counters_get(before, x->name) : NULL;
		if (before != NULL && b == NULL)
			continue;
		delta = b != NULL ? (x->value >= b->value ? (double)(x->value - b->value) : 0) :
		    (double)x->value;
		json_object_set_new(d, x->name, json_real(delta));
		json_object_set_new(m, x->name, json_real(secs > 0 ? delta / secs : delta));
	}
}

/*
 * Queue interrupts by name: queue.X.Q.irq (a gauge) says which irqn.N is queue Q of X.
 * The per-number counters are dropped from the metrics afterwards (they only serve this).
 */
static void
map_queues(json_t *m, json_t *d)
{
	const char *key;
	json_t *v, *x, *todo = json_array();
	char nic[96], q[64], name[192];
	const char *rest;
	size_t k, i;
	void *tmp;
	int irq;
	double secs = json_number_value(json_object_get(m, "interval"));

	json_object_foreach(m, key, v)
		if (strncmp(key, "queue.", 6) == 0)
			json_array_append_new(todo, json_string(key));
	json_array_foreach(todo, i, v) {
		if (!if_key(json_string_value(v), "queue", nic, sizeof nic, &rest) ||
		    strchr(rest, '.') == NULL || strcmp(strchr(rest, '.'), ".irq") != 0)
			continue;
		snprintf(q, sizeof q, "%.*s", (int)(strchr(rest, '.') - rest), rest);
		irq = (int)json_number_value(json_object_get(m, json_string_value(v)));
		snprintf(name, sizeof name, "irqn.%d", irq);
		if ((x = json_object_get(d, name)) == NULL)
			continue;
		put(d, json_number_value(x), "irq.%s.%s", nic, q);
		put(m, secs > 0 ? json_number_value(x) / secs : json_number_value(x), "irq.%s.%s",
		    nic, q);
		for (k = 0; k < 4096; k++) {
			snprintf(name, sizeof name, "irqn.%d.cpu%zu", irq, k);
			if ((x = json_object_get(d, name)) == NULL)
				break;
			put(d, json_number_value(x), "irq.%s.%s.cpu%zu", nic, q, k);
		}
	}
	json_decref(todo);
	json_object_foreach_safe(m, tmp, key, v)
		if (strncmp(key, "irqn.", 5) == 0)
			json_object_del(m, key);
}

/*
 * One CPU's times (user nice system interrupt softirq idle iowait steal): ticks over the
 * interval from the counters, else a top -P display (tenths of a percent, already a rate);
 * false when CPU n has neither.
 */
static bool
cpu_times(const json_t *m, const json_t *d, int n, bool top, double v[OS_CPU_STATES])
{
	static const char *const f[] = { "user", "nice", "system", "interrupt", "softirq", "idle",
	    "iowait", "steal" };
	size_t k;

	for (k = 0; k < nitems(f); k++)
		v[k] = top ? get(m, "top.cpu.%d.%s", n, f[k]) : get(d, "cpu.%d.%s", n, f[k]);
	return v[0] >= 0 || v[5] >= 0;
}

static double
pos(double v)
{
	return v > 0 ? v : 0;
}

/* Averages over the CPUs of where the time goes, in %: user, system, interrupt, the kernel. */
static void
cpu_shares(json_t *m, const double sum[4], double kmin, int n)
{
	put(m, sum[0] / n, "cpu.user_avg");
	put(m, sum[1] / n, "cpu.system_avg");
	put(m, sum[2] / n, "cpu.intr_avg");
	put(m, (sum[1] + sum[2]) / n, "cpu.kernel_avg");
	put(m, kmin, "cpu.kernel_min");
}

static void
cpus(json_t *m, const json_t *d)
{
	double v[OS_CPU_STATES], tot, busy, soft, max = -1, min = 101, softmax = -1, softmin = 101, kmin = 101;
	double maxsoft = 0, maxkern = 0;
	double sum[4] = { 0 };
	int n, maxcpu = -1, softcpu = -1, idle = 0, sat = 0, seen = 0;
	/* top's display is of now: it wins over kern.cp_times since boot, not over two samples */
	bool top = get(m, "top.cpu.0.idle") >= 0 && (get(m, "interval") <= 0 ||
	    (get(d, "cpu.0.user") < 0 && get(d, "cpu.0.idle") < 0));

	for (n = 0; cpu_times(m, d, n, top, v); n++) {
		if ((tot = os_cpu_ticks(v, &busy)) <= 0)
			continue;
		seen++;
		busy = 100 * busy / tot;
		soft = 100 * (pos(v[3]) + pos(v[4])) / tot;
		sum[0] += 100 * (pos(v[0]) + pos(v[1])) / tot;
		sum[1] += 100 * pos(v[2]) / tot;
		sum[2] += soft;
		if (100 * pos(v[2]) / tot + soft < kmin)
			kmin = 100 * pos(v[2]) / tot + soft;
		put(m, busy, "cpu.%d.busy", n);
		put(m, soft, "cpu.%d.soft", n);
		if (busy > max)
			max = busy, maxcpu = n, maxsoft = soft, maxkern = soft + 100 * pos(v[2]) / tot;
		if (busy < min)
			min = busy;
		if (soft > softmax)
			softmax = soft, softcpu = n;
		if (soft < softmin)
			softmin = soft;
		idle += busy < BUSY_IDLE;
		sat += busy >= BUSY_SATURATED;
	}
	/* no CPU whose times moved (two equal samples): the load is unseen, not 0% */
	if (n > 0 && seen == 0)
		put(m, 1, "cpu.unmoved");
	if (n == 0 || seen == 0)
		return;
	put(m, n, "ncpu");
	/* 1: the CPU figures are of now (two samples, or top's display), 0: since boot */
	put(m, top || get(m, "interval") > 0, "cpu.rates");
	put(m, top, "cpu.from_top");
	put(m, max, "cpu.busy_max");
	put(m, maxcpu, "cpu.busy_max_cpu");
	put(m, maxsoft, "cpu.busy_max_soft");
	put(m, maxkern, "cpu.busy_max_kernel");
	put(m, min, "cpu.busy_min");
	put(m, softmax, "cpu.soft_max");
	put(m, softcpu, "cpu.soft_max_cpu");
	put(m, softmin, "cpu.soft_min");
	put(m, softmax - softmin, "cpu.soft_spread");
	put(m, idle, "cpu.idle_cpus");
	put(m, sat, "cpu.saturated_cpus");
	put(m, 100.0 * sat / n, "cpu.saturated_pct");
	cpu_shares(m, sum, kmin, n);
}

/* The number in a queue or thread name: "rxq3" -> 3, "irq28" -> 28, "3" -> 3; -1 without one. */
static double
name_number(const char *s)
{
	s += strcspn(s, "0123456789");
	return *s != '\0' ? atof(s) : -1;
}

/* The busiest of a family of top -HS threads: its % of a CPU, number, CPU; the sum and count. */
struct tfam {
	double	 max, id, cpu, sum, n;
	char	 name[64];	/* the busiest one's name after the prefix ("rxq3", "irq28", "que") */
};

static void
thread_family(const json_t *m, const char *prefix, struct tfam *t)
{
	const char *key;
	json_t *v;
	char idbuf[64];
	size_t l = strlen(prefix);

	memset(t, 0, sizeof *t);
	t->max = t->id = t->cpu = -1;
	json_object_foreach((json_t *)m, key, v) {
		if (strncmp(key, prefix, l) != 0 || strchr(key + l, '.') == NULL ||
		    strcmp(strchr(key + l, '.'), ".pct") != 0)
			continue;
		t->n++;
		t->sum += json_number_value(v);
		if (json_number_value(v) <= t->max)
			continue;
		t->max = json_number_value(v);
		snprintf(idbuf, sizeof idbuf, "%.*s", (int)(strchr(key + l, '.') - (key + l)), key + l);
		t->id = name_number(idbuf);
		snprintf(t->name, sizeof t->name, "%s", idbuf);
		t->cpu = get(m, "%s%s.cpu", prefix, idbuf);
	}
}

/* Puts a family's figures as OUT.thread_max, _id, _cpu, OUT.thread_sum, OUT.threads. */
static void
put_family(json_t *m, const char *prefix, const char *out)
{
	struct tfam t;

	thread_family(m, prefix, &t);
	if (t.n == 0)
		return;
	put(m, t.max, "%s.thread_max", out);
	put(m, t.id, "%s.thread_max_id", out);
	put(m, t.cpu, "%s.thread_max_cpu", out);
	put(m, t.sum, "%s.thread_sum", out);
	put(m, t.n, "%s.threads", out);
}

/* top -HS thread shares: "X.pct10" (tenths) become "X.pct"; the busiest netisr and iflib threads. */
static void
top_threads(json_t *m)
{
	const char *key;
	json_t *v, *todo = json_array();
	char name[160];
	size_t i;
	void *tmp;

	json_object_foreach_safe(m, tmp, key, v) {
		if (strlen(key) > 6 && strcmp(key + strlen(key) - 6, ".pct10") == 0 &&
		    (strncmp(key, "ithr.", 5) == 0 || strncmp(key, "kthr.", 5) == 0)) {
			snprintf(name, sizeof name, "%.*s.pct", (int)strlen(key) - 6, key);
			json_array_append_new(todo, json_pack("[sf]", name, json_number_value(v) / 10));
			json_object_del(m, key);
		} else if (strncmp(key, "top.cpu.", 8) == 0)
			json_object_del(m, key);
	}
	json_array_foreach(todo, i, v)
		put(m, json_number_value(json_array_get(v, 1)), "%s",
		    json_string_value(json_array_get(v, 0)));
	json_decref(todo);
	put_family(m, "kthr.netisr.", "netisr");
	put_family(m, "kthr.if_io_tqg.", "iflib");
	put_family(m, "kthr.ksoftirqd.", "ksoftirqd");
}

/*
 * Splits "a.b.c.d" into at most 4 dot-separated parts (copies into buf); the part count.
 * For names without dots (CPUs, netisr protocols); per-interface keys go through if_key.
 */
static size_t
parts(const char *key, char *buf, size_t len, char *p[4])
{
	size_t n = 0;
	char *save, *t;

	snprintf(buf, len, "%s", key);
	for (t = strtok_r(buf, ".", &save); t != NULL; t = strtok_r(NULL, ".", &save)) {
		if (n == 4)
			return 5;
		p[n++] = t;
	}
	return n;
}

/* How many dot-separated parts follow the interface name in a key of family fam (0: not fixed). */
static int
suffix_parts(const char *fam, const char *key)
{
	const char *last = strrchr(key, '.');

	if (strcmp(fam, "if") == 0 || strcmp(fam, "qdisc") == 0)
		return 1;
	if (strcmp(fam, "napi") == 0 || strcmp(fam, "queue") == 0 || strcmp(fam, "ithr") == 0)
		return 2;
	if (strcmp(fam, "irq") == 0)
		return last != NULL && strncmp(last + 1, "cpu", 3) == 0 &&
		    isdigit((unsigned char)last[4]) ? 2 : 1;
	return 0;
}

/*
 * A per-interface key "fam.IF.rest": the interface name may have dots (VLANs "eth0.10",
 * "igb0.100"), the parts after it are counted from the end. rest: what follows "IF.".
 */
static bool
if_key(const char *key, const char *fam, char *ifname, size_t len, const char **rest)
{
	size_t fl = strlen(fam);
	const char *start = key + fl + 1, *p;
	int k = suffix_parts(fam, key);

	if (k == 0 || strncmp(key, fam, fl) != 0 || key[fl] != '.')
		return false;
	for (p = key + strlen(key); p > start && k > 0;)
		if (*--p == '.')
			k--;
	if (k > 0 || p <= start || (size_t)(p - start) >= len)
		return false;
	memcpy(ifname, start, (size_t)(p - start));
	ifname[p - start] = '\0';
	*rest = p + 1;
	return true;
}

/* The CPU that processed most packets in softirq, and its share of them. */
static void
softnet_top(json_t *m, double total)
{
	const char *key;
	json_t *v;
	double best = -1;
	int cpu = -1;
	char buf[160], *p[4];

	if (total <= 0)
		return;
	json_object_foreach(m, key, v) {
		if (strncmp(key, "softnet.cpu", 11) == 0 && parts(key, buf, sizeof buf, p) == 3 &&
		    strcmp(p[2], "processed") == 0 && json_number_value(v) > best) {
			best = json_number_value(v);
			cpu = atoi(p[1] + 3);
		}
	}
	put(m, cpu, "softnet.top_cpu");
	put(m, 100 * best / total, "softnet.top_share");
	put(m, best, "softnet.top_processed");
	put(m, total - best, "softnet.others_processed");
}

static void
softnet_totals(json_t *m)
{
	static const char *const sn[] = { "processed", "dropped", "squeezed", "received_rps" };
	const char *key;
	json_t *v;
	double s[nitems(sn)];
	char buf[160], *p[4];
	size_t i;
	bool any = false;

	for (i = 0; i < nitems(sn); i++)
		s[i] = 0;
	json_object_foreach(m, key, v) {
		if (strncmp(key, "softnet.cpu", 11) != 0 || parts(key, buf, sizeof buf, p) != 3)
			continue;
		for (i = 0; i < nitems(sn); i++)
			if (strcmp(p[2], sn[i]) == 0)
				s[i] += json_number_value(v), any = true;
	}
	for (i = 0; any && i < nitems(sn); i++)
		put(m, s[i], "softnet.%s", sn[i]);
	softnet_top(m, s[0]);
}

static void
netisr_totals(json_t *m)
{
	const char *key;
	json_t *v;
	double *per = NULL, q = 0, h = 0, best = 0;
	size_t nper = 0, cpu, i;
	char buf[160], *p[4];

	json_object_foreach(m, key, v) {
		if (strncmp(key, "netisr.", 7) != 0 || parts(key, buf, sizeof buf, p) != 4 ||
		    strncmp(p[2], "cpu", 3) != 0)
			continue;
		cpu = (size_t)atoi(p[2] + 3);
		if (strcmp(p[3], "qdrops") == 0)
			q += json_number_value(v);
		else if (strcmp(p[3], "handled") == 0 && cpu < 4096) {
			if (cpu >= nper) {
				per = xreallocarray(per, cpu + 1, sizeof *per);
				for (i = nper; i <= cpu; i++)
					per[i] = 0;
				nper = cpu + 1;
			}
			per[cpu] += json_number_value(v);
			h += json_number_value(v);
		}
	}
	for (i = 0; i < nper; i++)
		if (per[i] > best)
			best = per[i];
	free(per);
	if (h <= 0 && q <= 0)
		return;
	put(m, q, "netisr.qdrops");
	put(m, h, "netisr.handled");
	put(m, 100 * q / (h + q), "netisr.drop_pct");
	put(m, h > 0 ? 100 * best / h : 0, "netisr.top_cpu_share");
	put(m, (double)nper, "netisr.cpus");
}

static bool
rx_queue(const char *q)
{
	return strncmp(q, "rx", 2) == 0 || strncmp(q, "que", 3) == 0 || (q[0] == 'q' &&
	    q[1] >= '0' && q[1] <= '9');
}

/* One of nic's queue interrupt keys ("irq.NIC.Q", "irq.NIC.Q.cpuN"): the queue, and the CPU or -1. */
static bool
irq_of(const char *key, const char *nic, char *q, size_t qlen, int *cpu)
{
	char name[96];
	const char *rest, *dot;

	if (!if_key(key, "irq", name, sizeof name, &rest) || strcmp(name, nic) != 0)
		return false;
	dot = strchr(rest, '.');
	snprintf(q, qlen, "%.*s", (int)(dot != NULL ? dot - rest : (ptrdiff_t)strlen(rest)), rest);
	*cpu = dot != NULL ? atoi(dot + 4) : -1;
	return rx_queue(q);
}

/* Per NIC: queue interrupt rate, active queues, the busiest queue's share, CPUs taking them. */
static void
irq_spread(json_t *m, const json_t *d, const char *nic)
{
	const char *key;
	json_t *v;
	double tot = 0, max = 0, percpu[256] = { 0 }, x;
	size_t nq = 0, active = 0, cpus = 0, i;
	char q[64];
	bool have_cpu = false;
	int cpu;

	json_object_foreach((json_t *)d, key, v) {
		if (!irq_of(key, nic, q, sizeof q, &cpu))
			continue;
		x = json_number_value(v);
		if (cpu >= 0) {
			if (cpu < 256)
				percpu[cpu] += x, have_cpu = true;
			continue;
		}
		nq++;
		tot += x;
		if (x > max)
			max = x;
	}
	if (nq == 0)
		return;
	json_object_foreach((json_t *)d, key, v) {
		if (irq_of(key, nic, q, sizeof q, &cpu) && cpu < 0 && tot > 0 &&
		    json_number_value(v) > 0.05 * max)
			active++;
	}
	for (i = 0; i < 256; i++)
		cpus += tot > 0 && percpu[i] > 0.05 * tot;
	put(m, (double)nq, "irq.%s.queues", nic);
	put(m, tot, "irq.%s.total", nic);
	put(m, (double)active, "irq.%s.queues_active", nic);
	put(m, tot > 0 ? 100 * max / tot : 0, "irq.%s.top_share", nic);
	if (json_object_get(m, "interval") != NULL && json_number_value(json_object_get(m,
	    "interval")) > 0)
		put(m, tot / json_number_value(json_object_get(m, "interval")), "irq.%s.rate", nic);
	else if (get(m, "irq.rates") == 1)
		put(m, tot, "irq.%s.rate", nic);
	if (have_cpu)
		put(m, (double)cpus, "irq.%s.cpus_active", nic);
}

/* Per NIC: its queues' interrupt threads in top -HS (ithr.NIC.QUEUE.pct), the busiest one. */
static void
ithreads(json_t *m, const char *nic)
{
	struct tfam t;
	char prefix[112];

	snprintf(prefix, sizeof prefix, "ithr.%s.", nic);
	thread_family(m, prefix, &t);
	if (t.n == 0)
		return;
	put(m, t.max, "if.%s.ithread_max", nic);
	/* a queue number only from a queue's name ("rxq3"), not from "irq28" or "que" */
	put(m, strncmp(t.name, "irq", 3) == 0 ? -1 : t.id, "if.%s.ithread_max_queue", nic);
	put(m, t.cpu, "if.%s.ithread_max_cpu", nic);
	put(m, t.sum, "if.%s.ithread_sum", nic);
	put(m, t.n, "if.%s.ithreads", nic);
}

/*
 * Per NIC with NAPI threads: the share of a CPU the busiest thread uses (napi.X.ID.usecs
 * is a rate in microseconds per second), on how many CPUs the NAPI work ran, which CPU
 * had most of it and its share.
 */
static void
napi_spread(json_t *m, const char *nic)
{
	const char *key, *rest;
	json_t *v;
	double percpu[256] = { 0 }, tot = 0, busy = 0, top = 0, x;
	char name[96], cpukey[192];
	size_t i, cpus = 0;
	int cpu, topcpu = -1;

	json_object_foreach(m, key, v) {
		if (!if_key(key, "napi", name, sizeof name, &rest) || strcmp(name, nic) != 0 ||
		    strcmp(strchr(rest, '.'), ".usecs") != 0)
			continue;
		snprintf(cpukey, sizeof cpukey, "napi.%s.%.*s.cpu", nic,
		    (int)(strchr(rest, '.') - rest), rest);
		if ((cpu = (int)json_number_value(json_object_get(m, cpukey))) < 0 || cpu >= 256)
			continue;
		x = json_number_value(v);
		percpu[cpu] += x;
		tot += x;
		if (x / 1e4 > busy)
			busy = x / 1e4;
	}
	if (get(m, "if.%s.napi_threads", nic) < 0 && tot <= 0)
		return;
	for (i = 0; i < 256; i++) {
		cpus += tot > 0 && percpu[i] > 0.05 * tot;
		if (percpu[i] > top)
			top = percpu[i], topcpu = (int)i;
	}
	put(m, busy, "if.%s.napi_busy_max", nic);
	if (topcpu >= 0 && get(m, "cpu.%d.busy", topcpu) >= 0)
		put(m, get(m, "cpu.%d.busy", topcpu), "if.%s.napi_top_cpu_busy", nic);
	put(m, (double)cpus, "if.%s.napi_cpus", nic);
	put(m, topcpu, "if.%s.napi_top_cpu", nic);
	put(m, tot > 0 ? 100 * top / tot : 0, "if.%s.napi_top_share", nic);
}

/*
 * Per-queue counters of a FreeBSD iflib NIC (nic.X.REST, from dev.DRV.UNIT.REST):
 * the driver's queueN.rx_packets and queueN.irqs (ix: sys/dev/ixgbe/if_ix.c
 * ixgbe_add_hw_stats) and iflib's txqN.r_drops, the drops of a transmit queue's
 * mp_ring (sys/net/iflib.c iflib_add_device_sysctl_post). Gives the number of receive
 * queues, the busiest one and its share of packets and interrupts, and the transmit
 * drops with the queue that dropped most.
 */
static void
queue_counters(json_t *m, const char *nic)
{
	const char *key, *rest;
	json_t *v;
	double pk[64] = { 0 }, irq[64] = { 0 }, drops = 0, dmax = -1, ptot = 0, itot = 0;
	double pmax = 0, imax = 0;
	char prefix[112], field[32];
	unsigned q;
	int n, nq = 0, top = -1, dtop = -1;

	snprintf(prefix, sizeof prefix, "nic.%s.", nic);
	json_object_foreach(m, key, v) {
		if (strncmp(key, prefix, strlen(prefix)) != 0)
			continue;
		rest = key + strlen(prefix);
		n = 0;
		if (sscanf(rest, "queue%u.%31s%n", &q, field, &n) == 2 && rest[n] == '\0' &&
		    q < 64) {
			if (strcmp(field, "rx_packets") == 0) {
				pk[q] = json_number_value(v);
				nq = (int)q + 1 > nq ? (int)q + 1 : nq;
			} else if (strcmp(field, "irqs") == 0)
				irq[q] = json_number_value(v);
		} else if (sscanf(rest, "iflib.txq%u.r_drops%n", &q, &n) == 1 && rest[n] == '\0') {
			drops += json_number_value(v);
			if (json_number_value(v) > dmax)
				dmax = json_number_value(v), dtop = (int)q;
		}
	}
	for (n = 0; n < nq; n++) {
		ptot += pk[n];
		itot += irq[n];
		if (pk[n] > pmax)
			pmax = pk[n], top = n;
		if (irq[n] > imax)
			imax = irq[n];
	}
	if (nq > 0) {
		put(m, nq, "nic.%s.rxq_count", nic);
		put(m, ptot, "nic.%s.rxq_packets", nic);
		put(m, top, "nic.%s.rxq_top", nic);
		put(m, ptot > 0 ? 100 * pmax / ptot : 0, "nic.%s.rxq_top_share", nic);
		put(m, itot > 0 ? 100 * imax / itot : 0, "nic.%s.rxq_irq_top_share", nic);
	}
	if (dtop >= 0) {
		put(m, drops, "nic.%s.txq_drops", nic);
		put(m, dtop, "nic.%s.txq_drops_top", nic);
	}
}

/* The sum of nic's counters whose name matches pattern ("rx_queue_*_drops"), -1 when none. */
static double
glob_sum(const json_t *m, const char *nic, const char *pattern)
{
	const char *key;
	json_t *v;
	char prefix[112];
	double s = -1;

	snprintf(prefix, sizeof prefix, "nic.%s.", nic);
	json_object_foreach((json_t *)m, key, v)
		if (strncmp(key, prefix, strlen(prefix)) == 0 &&
		    fnmatch(pattern, key + strlen(prefix), 0) == 0)
			s = (s < 0 ? 0 : s) + json_number_value(v);
	return s;
}

/* Canonical NIC counters from the drivers' names ("counter:" stanzas of the rules). */
static void
nic_canonical(json_t *m, const struct diag_rules *rs, const char *nic, const char *os)
{
	size_t i, k, j;
	double s, v, base;
	bool seen;

	for (i = 0; i < rs->n; i++) {
		const struct diag_rule *r = &rs->r[i];

		if (r->counter == NULL || !diag_os_match(r->os, os))
			continue;
		/* a canonical name is summed over all its stanzas, at its first one */
		for (seen = false, k = 0; k < i && !seen; k++)
			seen = rs->r[k].counter != NULL && strcmp(rs->r[k].counter, r->counter) == 0 &&
			    diag_os_match(rs->r[k].os, os);
		if (seen)
			continue;
		s = -1;
		for (k = i; k < rs->n; k++) {
			const struct diag_rule *x = &rs->r[k];

			if (x->counter == NULL || strcmp(x->counter, r->counter) != 0 ||
			    !diag_os_match(x->os, os))
				continue;
			for (j = 0; j < x->nfrom; j++) {
				if (strchr(x->from[j], '*') != NULL)
					v = glob_sum(m, nic, x->from[j]);
				else
					v = get(m, "nic.%s.%s", nic, x->from[j]);
				if (v >= 0)
					s = (s < 0 ? 0 : s) + v;
			}
		}
		if (s < 0)
			continue;
		put(m, s, "nic.%s.%s", nic, r->counter);
		if ((base = get(m, "if.%s.ipackets", nic)) < 0)
			base = get(m, "nic.%s.mac_stats.good_pkts_rcvd", nic);
		if (base >= 0)
			put(m, s + base > 0 ? 100 * s / (s + base) : 0, "nic.%s.%s_pct", nic, r->counter);
	}
}

static void
interfaces(json_t *m, const json_t *d, const struct diag_rules *rs, double secs, const char *os)
{
	char **ifs;
	size_t n, i;
	double v;

	n = diag_entities(m, "if", &ifs);
	for (i = 0; i < n; i++) {
		if (secs > 0 && (v = get(d, "if.%s.ipackets", ifs[i])) >= 0)
			put(m, v / secs, "if.%s.rx_pps", ifs[i]);
		/*
		 * What the CPUs other than the busiest processed, against what ifs[i]
		 * received: under 10% means its packets were processed on that one CPU
		 * (other namespaces' packets only add to it: it can miss, not invent).
		 */
		if ((v = get(m, "if.%s.rx_pps", ifs[i])) > 0 && get(m, "softnet.others_processed") >= 0)
			put(m, 100 * get(m, "softnet.others_processed") / v, "if.%s.rx_others_pct",
			    ifs[i]);
		if (secs > 0 && (v = get(d, "if.%s.opackets", ifs[i])) >= 0)
			put(m, v / secs, "if.%s.tx_pps", ifs[i]);
		irq_spread(m, d, ifs[i]);
		ithreads(m, ifs[i]);
		napi_spread(m, ifs[i]);
		queue_counters(m, ifs[i]);
		nic_canonical(m, rs, ifs[i], os);
		free(ifs[i]);
	}
	free(ifs);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t
add_entity(char ***e, size_t n, const char *name)
{
	size_t i;

	if (strcmp(name, "lo") == 0 || strcmp(name, "lo0") == 0)
		return n;
	for (i = 0; i < n; i++)
		if (strcmp((*e)[i], name) == 0)
			return n;
	*e = xreallocarray(*e, n + 1, sizeof **e);
	(*e)[n] = xstrdup(name);
	return n + 1;
}

/* The interface of a "nic.IF.counter" key: the longest known interface it starts with, else up to the first dot. */
static void
nic_entity(const char *key, char **known, size_t nknown, char *out, size_t len)
{
	size_t i, l, best = 0;
	const char *p = key + 4;

	for (i = 0; i < nknown; i++) {
		l = strlen(known[i]);
		if (l > best && strncmp(p, known[i], l) == 0 && p[l] == '.')
			best = l;
	}
	if (best == 0)
		best = strchr(p, '.') != NULL ? (size_t)(strchr(p, '.') - p) : 0;
	snprintf(out, len, "%.*s", (int)best, p);
}

static size_t
interface_entities(const json_t *metrics, char ***out)
{
	static const char *const fams[] = { "if", "irq", "qdisc", "napi", "queue", "ithr" };
	const char *key, *rest;
	json_t *v;
	char name[160], **e = NULL;
	size_t n = 0, known, i;

	json_object_foreach((json_t *)metrics, key, v)
		for (i = 0; i < nitems(fams); i++)
			if (if_key(key, fams[i], name, sizeof name, &rest))
				n = add_entity(&e, n, name);
	known = n;
	json_object_foreach((json_t *)metrics, key, v) {
		if (strncmp(key, "nic.", 4) != 0)
			continue;
		nic_entity(key, e, known, name, sizeof name);
		if (name[0] != '\0')
			n = add_entity(&e, n, name);
	}
	*out = e;
	return n;
}

size_t
diag_entities(const json_t *metrics, const char *each, char ***out)
{
	const char *key;
	json_t *v;
	char buf[160], *p[4], **e = NULL;
	size_t n = 0, np;
	bool ok;

	if (strcmp(each, "if") == 0)
		n = interface_entities(metrics, &e);
	else {
		json_object_foreach((json_t *)metrics, key, v) {
			if ((np = parts(key, buf, sizeof buf, p)) < 3)
				continue;
			if (strcmp(each, "proto") == 0)
				ok = strcmp(p[0], "netisr") == 0;
			else
				ok = strcmp(p[0], "cpu") == 0 && strcmp(p[2], "busy") == 0;
			if (ok)
				n = add_entity(&e, n, p[1]);
		}
	}
	if (n > 0)
		qsort(e, n, sizeof *e, cmp_str);
	*out = e;
	return n;
}

/*
 * vmstat -i N: the later blocks' rates per second (irqrate.NIC.QUEUE) stand for the queue
 * interrupt counts when there is no interval: irq.NIC.QUEUE becomes a rate (irq.rates 1).
 */
static void
irq_rates(json_t *m, json_t *d)
{
	const char *key;
	json_t *v;
	void *tmp;
	char name[160];
	bool any = false;

	json_object_foreach_safe(m, tmp, key, v) {
		if (strncmp(key, "irqrate.", 8) != 0)
			continue;
		snprintf(name, sizeof name, "irq.%s", key + 8);
		if (strcmp(name + strlen(name) - 4, ".irq") == 0)
			name[strlen(name) - 4] = '\0';
		put(d, json_number_value(v), "%s", name);
		put(m, json_number_value(v), "%s", name);
		json_object_del(m, key);
		any = true;
	}
	if (any)
		put(m, 1, "irq.rates");
}

/* One netstat -w stream (ifw.NAME.*): NAME's rates, or for "total" the box's (net.*). */
static void
stream_one(json_t *m, const char *name)
{
	double in = get(m, "ifw.%s.ipackets", name), err = get(m, "ifw.%s.ierrors", name);
	double drop = get(m, "ifw.%s.idrops", name), loss = (err > 0 ? err : 0) + (drop > 0 ? drop : 0);
	char pre[96];

	if (strcmp(name, "total") == 0)
		snprintf(pre, sizeof pre, "net");
	else
		snprintf(pre, sizeof pre, "if.%s", name);
	if (in >= 0 && get(m, "%s.rx_pps", pre) < 0)
		put(m, in, "%s.rx_pps", pre);
	if (get(m, "ifw.%s.opackets", name) >= 0 && get(m, "%s.tx_pps", pre) < 0)
		put(m, get(m, "ifw.%s.opackets", name), "%s.tx_pps", pre);
	put(m, loss, "%s.rx_loss_ps", pre);
	put(m, in + loss > 0 ? 100 * loss / (in + loss) : 0, "%s.rx_loss_pct", pre);
	if (get(m, "ifw.%s.odrops", name) >= 0)
		put(m, get(m, "ifw.%s.odrops", name), "%s.tx_drops_ps", pre);
}

/* Rates a capture holds already: netstat -w streams and systat -ifstat (bytes/s -> bit/s). */
static void
stream_rates(json_t *m)
{
	const char *key;
	json_t *v, *names = json_array();
	char name[96];
	size_t i, l;

	json_object_foreach(m, key, v) {
		l = strlen(key);
		if (strncmp(key, "ifw.", 4) == 0 && l > 9 && strcmp(key + l - 5, ".rows") == 0) {
			snprintf(name, sizeof name, "%.*s", (int)(l - 9), key + 4);
			json_array_append_new(names, json_string(name));
		} else if (strncmp(key, "ifs.", 4) == 0 && l > 11 && strcmp(key + l - 7, ".ibytes") == 0)
			put(m, 8 * json_number_value(v), "if.%.*s.rx_bps", (int)(l - 11), key + 4);
		else if (strncmp(key, "ifs.", 4) == 0 && l > 11 && strcmp(key + l - 7, ".obytes") == 0)
			put(m, 8 * json_number_value(v), "if.%.*s.tx_bps", (int)(l - 11), key + 4);
	}
	json_array_foreach(names, i, v)
		stream_one(m, json_string_value(v));
	json_decref(names);
}

/*
 * At line rate: a netstat -w stream whose bits on the wire (each frame's bytes plus 24 of
 * FCS, preamble and inter-frame gap: IEEE 802.3 clause 4) are within 95-103% of an
 * Ethernet speed. net.line_limited is always put (0 or 1), so a rule's cost can test it;
 * net.line_rate_bps is the speed, net.line_wire_bps the rate seen.
 */
static void
line_rate(json_t *m)
{
	static const double speeds[] = { 1e8, 1e9, 2.5e9, 5e9, 1e10, 2.5e10, 4e10, 5e10, 1e11 };
	static const char *const dirs[][2] = { { "ibytes", "ipackets" }, { "obytes", "opackets" } };
	const char *key;
	json_t *v;
	char name[96];
	double bytes, pkts, wire, best = 0, speed = 0;
	size_t l, d, k;

	json_object_foreach(m, key, v) {
		l = strlen(key);
		if (strncmp(key, "ifw.", 4) != 0 || l <= 9 || strcmp(key + l - 5, ".rows") != 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(l - 9), key + 4);
		for (d = 0; d < 2; d++) {
			bytes = get(m, "ifw.%s.%s", name, dirs[d][0]);
			pkts = get(m, "ifw.%s.%s", name, dirs[d][1]);
			if (bytes <= 0 || pkts < 0)
				continue;
			wire = 8 * (bytes + 24 * pkts);
			for (k = 0; k < nitems(speeds); k++)
				if (wire >= 0.95 * speeds[k] && wire <= 1.03 * speeds[k] && wire > best)
					best = wire, speed = speeds[k];
		}
	}
	put(m, speed > 0, "net.line_limited");
	if (speed > 0) {
		put(m, speed, "net.line_rate_bps");
		put(m, best, "net.line_wire_bps");
	}
}

json_t *
diag_metrics(const struct diag_rules *rs, const struct os_counters *before,
    const struct os_counters *after, double secs, const char *os)
{
	json_t *m = json_object(), *d = json_object();

	if (before == NULL)
		secs = 0;
	json_object_set_new(m, "interval", json_real(secs));
	raw(m, d, before, after, secs);
	if (secs <= 0)
		irq_rates(m, d);
	map_queues(m, d);
	cpus(m, d);
	top_threads(m);
	softnet_totals(m);
	if (get(m, "softnet.top_cpu") >= 0 && get(m, "cpu.%d.busy", (int)get(m, "softnet.top_cpu")) >= 0) {
		put(m, get(m, "cpu.%d.busy", (int)get(m, "softnet.top_cpu")), "softnet.top_cpu_busy");
		put(m, get(m, "cpu.%d.soft", (int)get(m, "softnet.top_cpu")), "softnet.top_cpu_soft");
	}
	netisr_totals(m);
	if (get(m, "conntrack.max") > 0 && get(m, "conntrack.count") >= 0)
		put(m, 100 * get(m, "conntrack.count") / get(m, "conntrack.max"), "conntrack.fill_pct");
	if (get(m, "pf.states_limit") > 0 && get(m, "pf.states") >= 0)
		put(m, 100 * get(m, "pf.states") / get(m, "pf.states_limit"), "pf.fill_pct");
	stream_rates(m);
	line_rate(m);
	interfaces(m, d, rs, secs, os);
	json_decref(d);
	return m;
}
