/*
 * Counters to metrics. Every counter becomes a metric of the same name: its rate per
 * second over the interval, or its total since boot with one capture (gauges are
 * taken as they are). Derived metrics (names in doc/interfaces.md) summarize what the
 * rules look at: CPU busy shares, per-interface packet rates, queue interrupt spread,
 * sums over CPUs, fill ratios, and NIC counters under their canonical names.
 */
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
	char buf[160], *p[4], name[192];
	size_t k, i;
	void *tmp;
	int irq;
	double secs = json_number_value(json_object_get(m, "interval"));

	json_object_foreach(m, key, v)
		if (strncmp(key, "queue.", 6) == 0)
			json_array_append_new(todo, json_string(key));
	json_array_foreach(todo, i, v) {
		if (parts(json_string_value(v), buf, sizeof buf, p) != 4 || strcmp(p[3], "irq") != 0)
			continue;
		irq = (int)json_number_value(json_object_get(m, json_string_value(v)));
		snprintf(name, sizeof name, "irqn.%d", irq);
		if ((x = json_object_get(d, name)) == NULL)
			continue;
		put(d, json_number_value(x), "irq.%s.%s", p[1], p[2]);
		put(m, secs > 0 ? json_number_value(x) / secs : json_number_value(x), "irq.%s.%s",
		    p[1], p[2]);
		for (k = 0; k < 4096; k++) {
			snprintf(name, sizeof name, "irqn.%d.cpu%zu", irq, k);
			if ((x = json_object_get(d, name)) == NULL)
				break;
			put(d, json_number_value(x), "irq.%s.%s.cpu%zu", p[1], p[2], k);
		}
	}
	json_decref(todo);
	json_object_foreach_safe(m, tmp, key, v)
		if (strncmp(key, "irqn.", 5) == 0)
			json_object_del(m, key);
}

static void
cpus(json_t *m, const json_t *d)
{
	static const char *const f[] = { "user", "nice", "system", "interrupt", "softirq", "idle",
	    "iowait", "steal" };
	double v[8], tot, busy, soft, max = -1, min = 101, softmax = -1, softmin = 101;
	int n, maxcpu = -1, softcpu = -1, idle = 0, sat = 0;
	size_t k;

	for (n = 0;; n++) {
		tot = 0;
		for (k = 0; k < nitems(f); k++) {
			v[k] = get(d, "cpu.%d.%s", n, f[k]);
			tot += v[k] > 0 ? v[k] : 0;
		}
		if (v[0] < 0 && v[5] < 0)
			break;
		if (tot <= 0)
			continue;
		busy = 100 * (tot - (v[5] > 0 ? v[5] : 0) - (v[6] > 0 ? v[6] : 0)) / tot;
		soft = 100 * ((v[3] > 0 ? v[3] : 0) + (v[4] > 0 ? v[4] : 0)) / tot;
		put(m, busy, "cpu.%d.busy", n);
		put(m, soft, "cpu.%d.soft", n);
		if (busy > max)
			max = busy, maxcpu = n;
		if (busy < min)
			min = busy;
		if (soft > softmax)
			softmax = soft, softcpu = n;
		if (soft < softmin)
			softmin = soft;
		idle += busy < BUSY_IDLE;
		sat += busy >= BUSY_SATURATED;
	}
	if (n == 0)
		return;
	put(m, n, "ncpu");
	put(m, max, "cpu.busy_max");
	put(m, maxcpu, "cpu.busy_max_cpu");
	put(m, min, "cpu.busy_min");
	put(m, softmax, "cpu.soft_max");
	put(m, softcpu, "cpu.soft_max_cpu");
	put(m, softmin, "cpu.soft_min");
	put(m, softmax - softmin, "cpu.soft_spread");
	put(m, idle, "cpu.idle_cpus");
	put(m, sat, "cpu.saturated_cpus");
}

/*
 * Splits "a.b.c.d" into at most 4 dot-separated parts (copies into buf); the part count.
 * Interface names with dots (VLANs "eth0.100") are not told apart: a known limit.
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

/* Per NIC: queue interrupt rate, active queues, the busiest queue's share, CPUs taking them. */
static void
irq_spread(json_t *m, const json_t *d, const char *nic)
{
	const char *key;
	json_t *v;
	double tot = 0, max = 0, percpu[256] = { 0 }, x;
	size_t nq = 0, active = 0, cpus = 0, i;
	char buf[160], *p[4], prefix[96];
	bool have_cpu = false;

	snprintf(prefix, sizeof prefix, "irq.%s.", nic);
	json_object_foreach((json_t *)d, key, v) {
		size_t n;

		if (strncmp(key, prefix, strlen(prefix)) != 0 || (n = parts(key, buf, sizeof buf,
		    p)) < 3 || n > 4 || !rx_queue(p[2]))
			continue;
		x = json_number_value(v);
		if (n == 4) {
			if (strncmp(p[3], "cpu", 3) == 0 && (i = (size_t)atoi(p[3] + 3)) < 256)
				percpu[i] += x, have_cpu = true;
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
		if (strncmp(key, prefix, strlen(prefix)) == 0 && parts(key, buf, sizeof buf, p) == 3 &&
		    rx_queue(p[2]) && tot > 0 && json_number_value(v) > 0.05 * max)
			active++;
	}
	for (i = 0; i < 256; i++)
		cpus += tot > 0 && percpu[i] > 0.05 * tot;
	put(m, (double)nq, "irq.%s.queues", nic);
	put(m, (double)active, "irq.%s.queues_active", nic);
	put(m, tot > 0 ? 100 * max / tot : 0, "irq.%s.top_share", nic);
	if (json_object_get(m, "interval") != NULL && json_number_value(json_object_get(m,
	    "interval")) > 0)
		put(m, tot / json_number_value(json_object_get(m, "interval")), "irq.%s.rate", nic);
	if (have_cpu)
		put(m, (double)cpus, "irq.%s.cpus_active", nic);
}

/* Canonical NIC counters from the drivers' names ("counter:" stanzas of the rules). */
static void
nic_canonical(json_t *m, const struct diag_rules *rs, const char *nic, const char *os)
{
	size_t i, j;
	double s, v, base;

	for (i = 0; i < rs->n; i++) {
		const struct diag_rule *r = &rs->r[i];

		if (r->counter == NULL || !diag_os_match(r->os, os))
			continue;
		s = -1;
		for (j = 0; j < r->nfrom; j++)
			if ((v = get(m, "nic.%s.%s", nic, r->from[j])) >= 0)
				s = (s < 0 ? 0 : s) + v;
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
		if (secs > 0 && (v = get(d, "if.%s.opackets", ifs[i])) >= 0)
			put(m, v / secs, "if.%s.tx_pps", ifs[i]);
		irq_spread(m, d, ifs[i]);
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

size_t
diag_entities(const json_t *metrics, const char *each, char ***out)
{
	static const char *const ifp[] = { "if", "irq", "nic", "qdisc" };
	const char *key;
	json_t *v;
	char buf[160], *p[4], **e = NULL;
	size_t n = 0, np, i;
	bool ok;

	json_object_foreach((json_t *)metrics, key, v) {
		if ((np = parts(key, buf, sizeof buf, p)) < 3)
			continue;
		if (strcmp(each, "if") == 0) {
			for (ok = false, i = 0; i < nitems(ifp); i++)
				ok |= strcmp(p[0], ifp[i]) == 0;
			ok = ok && strcmp(p[1], "lo") != 0 && strcmp(p[1], "lo0") != 0;
		} else if (strcmp(each, "proto") == 0)
			ok = strcmp(p[0], "netisr") == 0 && np >= 3;
		else
			ok = strcmp(p[0], "cpu") == 0 && strcmp(p[2], "busy") == 0;
		for (i = 0; ok && i < n; i++)
			ok = strcmp(e[i], p[1]) != 0;
		if (!ok)
			continue;
		e = xreallocarray(e, n + 1, sizeof *e);
		e[n++] = xstrdup(p[1]);
	}
	if (n > 0)
		qsort(e, n, sizeof *e, cmp_str);
	*out = e;
	return n;
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
	map_queues(m, d);
	cpus(m, d);
	softnet_totals(m);
	netisr_totals(m);
	if (get(m, "conntrack.max") > 0 && get(m, "conntrack.count") >= 0)
		put(m, 100 * get(m, "conntrack.count") / get(m, "conntrack.max"), "conntrack.fill_pct");
	if (get(m, "pf.states_limit") > 0 && get(m, "pf.states") >= 0)
		put(m, 100 * get(m, "pf.states") / get(m, "pf.states_limit"), "pf.fill_pct");
	interfaces(m, d, rs, secs, os);
	json_decref(d);
	return m;
}
