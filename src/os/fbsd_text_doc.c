/*
 * Building the inspect document (os_json.h schema) from the parsed FreeBSD
 * and Linux text.
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "os/os_json.h"
#include "os/platform.h"
#include "util/util.h"

struct names {
	char	(*v)[OS_NAME_MAX];
	size_t	 n;
};

static void
names_add(struct names *ns, const char *name)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return;
	ns->v = xreallocarray(ns->v, ns->n + 1, sizeof *ns->v);
	os_strlcpy(ns->v[ns->n++], name, OS_NAME_MAX);
}

static int
cmp_names(const void *a, const void *b)
{
	char da[OS_NAME_MAX], db[OS_NAME_MAX];
	int ua, ub, c;

	ua = util_ifname_unit(a, da, sizeof da);
	ub = util_ifname_unit(b, db, sizeof db);
	if ((c = strcmp(da, db)) != 0)
		return c;
	return ua - ub;
}

static int
has_option(const char *opts, const char *o)
{
	char pat[64];

	if (strlen(o) > 32)
		return 0;
	snprintf(pat, sizeof pat, "<%s,", o);
	if (strstr(opts, pat) != NULL)
		return 1;
	snprintf(pat, sizeof pat, ",%s,", o);
	if (strstr(opts, pat) != NULL)
		return 1;
	snprintf(pat, sizeof pat, ",%s>", o);
	if (strstr(opts, pat) != NULL)
		return 1;
	snprintf(pat, sizeof pat, "<%s>", o);
	return strstr(opts, pat) != NULL;
}

static long
dev_long(struct fbsd_text *t, const char *drv, int unit, const char *leaf, long def)
{
	char name[256];

	snprintf(name, sizeof name, "dev.%s.%d.%s", drv, unit, leaf);
	return fbsd_text_value_long(t, name, def);
}

static const char *
dev_str(struct fbsd_text *t, const char *drv, int unit, const char *leaf)
{
	char name[256];

	snprintf(name, sizeof name, "dev.%s.%d.%s", drv, unit, leaf);
	return fbsd_text_value(t, name);
}

/* Queue sets under dev.<drv>.<unit>.iflib: rxq0.., txq0.. (rxq00.. past ten). */
static int
count_iflib_queues(struct fbsd_text *t, const char *drv, int unit, const char *q)
{
	char pre[128];
	const char *key, *p;
	json_t *v;
	size_t n;
	int max = -1, i;

	n = (size_t)snprintf(pre, sizeof pre, "dev.%s.%d.iflib.%s", drv, unit, q);
	json_object_foreach(t->sysctls, key, v) {
		if (strncmp(key, pre, n) != 0 || !isdigit((unsigned char)key[n]))
			continue;
		for (p = key + n; isdigit((unsigned char)*p); p++)
			;
		if (*p != '.')
			continue;
		i = atoi(key + n);
		if (i > max && i < 4096)
			max = i;
	}
	return max + 1;
}

/* The queue number in an interrupt's name after "ix0:": "rxq3", "que 3", "q3"; else -1. */
static int
queue_irq_index(const char *d)
{
	if (strncmp(d, "rxq", 3) == 0 && isdigit((unsigned char)d[3]))
		return atoi(d + 3);
	if (strncmp(d, "que ", 4) == 0 && isdigit((unsigned char)d[4]))
		return atoi(d + 4);
	if (d[0] == 'q' && isdigit((unsigned char)d[1]))
		return atoi(d + 1);
	return -1;
}

/* Whether ifconfig output for ifname was given. */
static bool
in_ifconfig(struct fbsd_text *t, const char *ifname)
{
	size_t i;

	for (i = 0; i < t->nifs; i++) {
		if (strcmp(t->ifs[i].name, ifname) == 0)
			return true;
	}
	return false;
}

/* What pciconf -lv, dmesg and ifconfig say about NIC name. */
static void
from_outputs(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	size_t i;

	for (i = 0; i < t->npci; i++) {
		struct pcidev *d = &t->pci[i];

		if (strcmp(d->name, name) != 0)
			continue;
		os_strlcpy(nic->bus, d->sel, sizeof nic->bus);
		if (d->vendor_id[0] != '\0')
			snprintf(nic->pci_id, sizeof nic->pci_id, "%s:%s", d->vendor_id, d->device_id);
		if (d->vendor[0] != '\0' || d->device[0] != '\0')
			if (snprintf(nic->pci_name, sizeof nic->pci_name, "%s%s%s", d->vendor,
			    d->vendor[0] != '\0' && d->device[0] != '\0' ? " " : "", d->device) < 0)
				nic->pci_name[0] = '\0';
	}
	for (i = 0; i < t->ndn; i++) {
		struct dnic *d = &t->dn[i];

		if (strcmp(d->name, name) != 0)
			continue;
		if (nic->pci_name[0] == '\0')
			os_strlcpy(nic->pci_name, d->desc, sizeof nic->pci_name);
		if (d->rxq > 0) {
			nic->rx_queues = d->rxq;
			nic->tx_queues = d->txq;
		}
		if (d->rxd > 0) {
			nic->rx_ring = d->rxd;
			nic->tx_ring = d->txd;
		}
		if (d->mac[0] != '\0')
			os_strlcpy(nic->mac, d->mac, sizeof nic->mac);
	}
	for (i = 0; i < t->nifs; i++) {
		struct ifc *f = &t->ifs[i];

		if (strcmp(f->name, name) != 0)
			continue;
		if (f->mac[0] != '\0')
			os_strlcpy(nic->mac, f->mac, sizeof nic->mac);
		nic->mtu = f->mtu;
		nic->up = f->up ? OS_ON : OS_OFF;
		nic->speed_mbps = f->speed;
		if (f->options[0] != '\0') {
			nic->tso = has_option(f->options, "TSO4") || has_option(f->options, "TSO6");
			nic->lro = has_option(f->options, "LRO");
			nic->rxcsum = has_option(f->options, "RXCSUM");
			nic->txcsum = has_option(f->options, "TXCSUM");
		}
	}
}

/* The queues and their interrupt vectors from vmstat -i ("ix0:rxq0", "igb0:que 0"). */
static void
nic_queues(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	int q, nq, nrxirq = 0;
	size_t i;

	for (i = 0; i < t->nirq; i++) {
		size_t l = strlen(name);
		const char *d = t->irq[i].desc;

		if (strncmp(d, name, l) == 0 && d[l] == ':' && queue_irq_index(d + l + 1) >= 0)
			nrxirq++;
	}
	nq = nic->rx_queues > 0 ? nic->rx_queues : nrxirq;
	if (nq > 0 && nq < 4096) {
		nic->queues = xcalloc((size_t)nq, sizeof *nic->queues);
		for (q = 0; q < nq; q++) {
			struct os_queue *oq = &nic->queues[nic->nqueues++];

			oq->index = q;
			os_strlcpy(oq->kind, nic->tx_queues == nic->rx_queues ? "rxtx" : "rx",
			    sizeof oq->kind);
			oq->irq = -1;
			oq->irq_cpu = -1;
			for (i = 0; i < t->nirq; i++) {
				const char *d = t->irq[i].desc;
				size_t l = strlen(name);

				if (strncmp(d, name, l) != 0 || d[l] != ':')
					continue;
				if (queue_irq_index(d + l + 1) == q) {
					oq->irq = t->irq[i].irq;
					os_strlcpy(oq->irq_name, t->irq[i].desc, sizeof oq->irq_name);
					oq->interrupts = t->irq[i].total;
				}
			}
			for (i = 0; oq->irq >= 0 && i < t->nmasks; i++)
				if (t->masks[i].irq == oq->irq) {
					os_strlcpy(oq->irq_affinity, t->masks[i].cpus,
					    sizeof oq->irq_affinity);
					oq->irq_cpu = os_cpulist_first(t->masks[i].cpus);
				}
		}
	}
}

static void
build_nic(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	char drv[OS_NAME_MAX];
	const char *s, *p;
	int unit, nq;
	long v;

	os_nic_init(nic);
	os_strlcpy(nic->name, name, sizeof nic->name);
	/* Without ifconfig output the link state is unknown, not down. */
	nic->up = in_ifconfig(t, name) ? OS_OFF : OS_UNKNOWN;
	unit = util_ifname_unit(name, drv, sizeof drv);
	os_strlcpy(nic->driver, (s = dev_str(t, drv, unit, "%driver")) != NULL ? s : drv,
	    sizeof nic->driver);
	if ((s = dev_str(t, drv, unit, "fw_version")) != NULL)
		os_strlcpy(nic->firmware, s, sizeof nic->firmware);
	if ((s = dev_str(t, drv, unit, "%location")) != NULL && (p = strstr(s, "dbsf=")) != NULL) {
		size_t n = strcspn(p + 5, " ");

		os_strlcpy(nic->bus, p + 5, n + 1 < sizeof nic->bus ? n + 1 : sizeof nic->bus);
	}
	if ((s = dev_str(t, drv, unit, "%pnpinfo")) != NULL) {
		const char *ve = strstr(s, "vendor=0x"), *de = strstr(s, " device=0x");

		if (ve != NULL && de != NULL)
			snprintf(nic->pci_id, sizeof nic->pci_id, "%.4s:%.4s", ve + 9, de + 10);
	}
	if ((s = dev_str(t, drv, unit, "%desc")) != NULL)
		os_strlcpy(nic->pci_name, s, sizeof nic->pci_name);
	nic->numa_node = (int)dev_long(t, drv, unit, "%domain", -1);
	from_outputs(t, name, nic);
	/* iflib: an override of 0 means "driver default", so it only counts when set */
	if ((v = dev_long(t, drv, unit, "iflib.override_nrxqs", 0)) > 0)
		nic->rx_queues = (int)v;
	if ((v = dev_long(t, drv, unit, "iflib.override_ntxqs", 0)) > 0)
		nic->tx_queues = (int)v;
	if ((v = dev_long(t, drv, unit, "iflib.override_nrxds", 0)) > 0)
		nic->rx_ring = (int)v;
	if ((v = dev_long(t, drv, unit, "iflib.override_ntxds", 0)) > 0)
		nic->tx_ring = (int)v;
	if (nic->rx_queues < 0 && (nq = count_iflib_queues(t, drv, unit, "rxq")) > 0) {
		nic->rx_queues = nq;
		nic->tx_queues = count_iflib_queues(t, drv, unit, "txq");
	}
	if ((v = dev_long(t, drv, unit, "enable_aim", -1)) >= 0)
		nic->adaptive_rx = v != 0;
	nic_queues(t, name, nic);
}

static int
nic_candidate(struct fbsd_text *t, const char *name)
{
	char drv[OS_NAME_MAX];
	int unit;
	size_t i;

	unit = util_ifname_unit(name, drv, sizeof drv);
	if (unit < 0)
		return 0;
	for (i = 0; i < t->npci; i++)
		if (strcmp(t->pci[i].name, name) == 0 && t->pci[i].network)
			return 1;
	return fbsd_text_is_nic_driver(drv);
}

static void
collect_nic_names(struct fbsd_text *t, struct names *ns)
{
	const char *key, *p;
	json_t *v;
	size_t i;
	char buf[OS_NAME_MAX];

	for (i = 0; i < t->npci; i++)
		if (t->pci[i].network && strncmp(t->pci[i].name, "none", 4) != 0 &&
		    nic_candidate(t, t->pci[i].name))
			names_add(ns, t->pci[i].name);
	for (i = 0; i < t->nifs; i++)
		if (nic_candidate(t, t->ifs[i].name))
			names_add(ns, t->ifs[i].name);
	for (i = 0; i < t->ndn; i++)
		names_add(ns, t->dn[i].name);
	for (i = 0; i < t->nirq; i++) {
		size_t n = strcspn(t->irq[i].desc, ":");

		if (t->irq[i].desc[n] != ':' || n >= sizeof buf)
			continue;
		memcpy(buf, t->irq[i].desc, n);
		buf[n] = '\0';
		if (nic_candidate(t, buf) && strncmp(t->irq[i].desc + n + 1, "timer", 5) != 0)
			names_add(ns, buf);
	}
	json_object_foreach(t->sysctls, key, v) {
		char drv[OS_NAME_MAX];
		size_t n;

		if (strncmp(key, "dev.", 4) != 0)
			continue;
		p = key + 4;
		n = strcspn(p, ".");
		if (n == 0 || n >= sizeof drv || p[n] != '.' || !isdigit((unsigned char)p[n + 1]))
			continue;
		memcpy(drv, p, n);
		drv[n] = '\0';
		if (!fbsd_text_is_nic_driver(drv))
			continue;
		if (snprintf(buf, sizeof buf, "%s%d", drv, atoi(p + n + 1)) >= (int)sizeof buf)
			continue;
		names_add(ns, buf);
	}
	if (ns->n > 1)
		qsort(ns->v, ns->n, sizeof *ns->v, cmp_names);
}

/* "stable/23.7" (OPNsense's release branches carry a minor number; FreeBSD's stable/14 none). */
static bool
opnsense_branch(const char *version, char *branch, size_t len)
{
	const char *p = strstr(version, "stable/");
	size_t n;

	if (p == NULL || !isdigit((unsigned char)p[7]))
		return false;
	n = 7 + strspn(p + 7, "0123456789");
	if (p[n] != '.' || !isdigit((unsigned char)p[n + 1]))
		return false;
	n += 1 + strspn(p + n + 1, "0123456789");
	snprintf(branch, len, "%.*s", (int)n, p);
	return true;
}

/*
 * Which FreeBSD distribution the sysctls prove, and why. Only evidence sets it: a dump
 * that says nothing leaves the platform unknown for other inputs (or --os) to decide.
 */
static void
platform_evidence(struct fbsd_text *t, struct os_system *sys)
{
	const char *v = fbsd_text_value(t, "kern.version");
	enum os_platform p = OS_PLATFORM_UNKNOWN;
	char branch[32];

	if (v != NULL && (p = os_platform_in_text(v)) != OS_PLATFORM_UNKNOWN)
		snprintf(sys->platform_why, sizeof sys->platform_why, "kern.version names %s",
		    os_platform_label(p));
	else if (fbsd_text_value(t, "net.inet.rss.enabled") != NULL) {
		p = OS_PLATFORM_OPNSENSE;
		snprintf(sys->platform_why, sizeof sys->platform_why, "net.inet.rss.enabled exists "
		    "(only OPNsense kernels define it: opnsense/src sys/net/rss_config.c)");
	} else if (v != NULL && opnsense_branch(v, branch, sizeof branch)) {
		p = OS_PLATFORM_OPNSENSE;
		snprintf(sys->platform_why, sizeof sys->platform_why, "kern.version is built from "
		    "%s, an OPNsense release branch (FreeBSD's are stable/NN)", branch);
	} else if (v != NULL && strstr(v, "RELENG_2_") != NULL) {
		p = OS_PLATFORM_PFSENSE;
		snprintf(sys->platform_why, sizeof sys->platform_why, "kern.version is built from "
		    "a pfSense RELENG_2_* branch");
	}
	if (p == OS_PLATFORM_UNKNOWN)
		return;
	os_strlcpy(sys->platform, os_platform_name(p), sizeof sys->platform);
	if (sys->distro[0] == '\0')
		os_strlcpy(sys->distro, os_platform_label(p), sizeof sys->distro);
}

/* The system: what kern.* says, and whether the files are Linux text. */
static json_t *
doc_system(struct fbsd_text *t)
{
	struct os_system sys;
	const char *s;

	memset(&sys, 0, sizeof sys);
	os_strlcpy(sys.os, (s = fbsd_text_value(t, "kern.ostype")) != NULL ? s : "FreeBSD", sizeof sys.os);
	if ((s = fbsd_text_value(t, "kern.osrelease")) != NULL)
		os_strlcpy(sys.version, s, sizeof sys.version);
	else
		os_strlcpy(sys.version, t->os_release, sizeof sys.version);
	if ((s = fbsd_text_value(t, "kern.hostname")) != NULL)
		os_strlcpy(sys.hostname, s, sizeof sys.hostname);
	platform_evidence(t, &sys);
	if (t->nlnics > 0 || t->nlirqs > 0) {
		if (t->npci > 0 || json_object_size(t->sysctls) > 0 || t->nirq > 0)
			fbsd_text_error(t, "the files mix Linux and FreeBSD output; the NICs come from both");
		else {
			os_strlcpy(sys.os, "Linux", sizeof sys.os);
			os_strlcpy(sys.version, "", sizeof sys.version);
		}
	}
	return os_json_system(&sys);
}

/* Reads the topology_spec that was given; 0 when there is one (free it). */
static int
doc_topology(struct fbsd_text *t, struct fbsd_topology *tp)
{
	const char *s;

	if ((s = fbsd_text_value(t, "kern.sched.topology_spec")) == NULL &&
	    (s = t->topology) == NULL)
		return -1;
	if (fbsd_topology_parse(s, tp) != 0) {
		fbsd_text_error(t, "%s: kern.sched.topology_spec: no CPU groups could be read",
		    t->topology_from);
		return -1;
	}
	if (tp->truncated)
		fbsd_text_error(t, "%s: kern.sched.topology_spec cut short (no closing </groups>); "
		    "CPU groups after the cut are unknown", t->topology_from);
	return 0;
}

/* The CPUs: sysctls first, then the topology, dmesg, top -P and /proc/interrupts. */
static json_t *
doc_cpu(struct fbsd_text *t)
{
	struct os_cpu cpu;
	struct fbsd_topology tp;
	const char *s;
	int have_topo;
	long tpc;
	json_t *o;

	memset(&cpu, 0, sizeof cpu);
	os_strlcpy(cpu.model, (s = fbsd_text_value(t, "hw.model")) != NULL ? s : t->cpu_model,
	    sizeof cpu.model);
	have_topo = doc_topology(t, &tp) == 0;
	cpu.threads = (int)fbsd_text_value_long(t, "hw.ncpu", fbsd_text_value_long(t, "kern.smp.cpus",
	    have_topo ? tp.ncpu : t->d_ncpu > 0 ? t->d_ncpu : (int)t->nload > 0 ? (int)t->nload : -1));
	cpu.cores = (int)fbsd_text_value_long(t, "kern.smp.cores", t->d_cores);
	if (cpu.cores < 0 && have_topo && !tp.truncated && tp.ncores > 0)
		cpu.cores = tp.ncores;
	tpc = fbsd_text_value_long(t, "kern.smp.threads_per_core", t->d_threads);
	if (tpc > 0)
		cpu.smt = tpc > 1 ? OS_ON : OS_OFF;
	else if (have_topo && tp.ncores > 0)
		cpu.smt = tp.smt ? OS_ON : OS_OFF;
	else if (cpu.cores > 0 && cpu.threads > 0)
		cpu.smt = cpu.threads > cpu.cores ? OS_ON : OS_OFF;
	else
		cpu.smt = OS_UNKNOWN;
	if (cpu.cores < 0 && tpc > 0 && cpu.threads > 0)
		cpu.cores = (int)(cpu.threads / tpc);
	if (cpu.threads < 0 && t->lirq_ncpu > 0)
		cpu.threads = (int)t->lirq_ncpu;
	cpu.packages = t->d_pkgs;
	cpu.numa_nodes = (int)fbsd_text_value_long(t, "vm.ndomains", have_topo && tp.nnodes > 0 ?
	    tp.nnodes : (have_topo && !tp.truncated) ? 1 : -1);
	if (have_topo && cpu.threads == tp.ncpu) {
		cpu.cpu_core = tp.cpu_core;
		cpu.cpu_numa = tp.cpu_node;
	}
	o = os_json_cpu(&cpu);
	if (have_topo)
		fbsd_topology_free(&tp);
	return o;
}

/* The NICs: FreeBSD ones, then those only Linux text names. */
static json_t *
doc_nics(struct fbsd_text *t)
{
	struct names ns = { NULL, 0 };
	size_t i, n_bsd;
	json_t *a;

	collect_nic_names(t, &ns);
	n_bsd = ns.n;
	for (i = 0; i < t->nlnics; i++)
		names_add(&ns, t->lnics[i].name);
	for (i = 0; i < t->nlirqs; i++) {
		char nm[OS_NAME_MAX], qk[8];
		int idx;

		if (fbsd_text_irq_ifname(t->lirqs[i].desc, nm, sizeof nm, &idx, qk, sizeof qk) == 0)
			names_add(&ns, nm);
	}
	a = json_array();
	for (i = 0; i < ns.n; i++) {
		struct os_nic nic;

		if (i < n_bsd)
			build_nic(t, ns.v[i], &nic);
		else
			fbsd_text_linux_nic(t, ns.v[i], &nic);
		json_array_append_new(a, os_json_nic(&nic));
		free(nic.queues);
	}
	free(ns.v);
	return a;
}

/*
 * kern.cp_times: 5 tick counts a CPU in the order of sys/sys/resource.h (CP_USER,
 * CP_NICE, CP_SYS, CP_INTR, CP_IDLE; sys/kern/kern_clock.c sysctl_kern_cp_times), as
 * the freebsd backend's cpu_times reads them. Nothing when it is absent or not whole.
 */
static void
doc_cpu_times(struct fbsd_text *t, json_t *doc)
{
	const char *v = fbsd_text_value(t, "kern.cp_times"), *p;
	struct os_cpu_times *c;
	uint64_t x[5];
	size_t n = 0, k = 0, cap = 0;
	char *end;

	if (v == NULL)
		return;
	c = NULL;
	for (p = v; *p != '\0'; p = end) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (!isdigit((unsigned char)*p)) {
			free(c);
			return;
		}
		x[k++] = strtoull(p, &end, 10);
		if (k < 5)
			continue;
		if (n == cap)
			c = xreallocarray(c, cap = cap * 2 + 8, sizeof *c);
		memset(&c[n], 0, sizeof c[n]);
		c[n].user = x[0];
		c[n].nice = x[1];
		c[n].system = x[2];
		c[n].interrupt = x[3];
		c[n++].idle = x[4];
		k = 0;
	}
	if (n > 0 && k == 0)
		json_object_set_new(doc, "cpu_times", os_json_cpu_times(c, n));
	free(c);
}

/* top -P load, vmstat -i and /proc/interrupts counts, netstat -i counters, kern.cp_times. */
static void
doc_counters(struct fbsd_text *t, json_t *doc)
{
	struct os_if_counters *c;
	struct os_irq *q;
	json_t *a;
	size_t i, n;

	if (t->nload > 0) {
		a = json_array();
		for (i = 0; i < t->nload; i++)
			json_array_append_new(a, json_pack("{s:f, s:f, s:f, s:f, s:f}", "user",
			    t->load[i][0], "nice", t->load[i][1], "system", t->load[i][2],
			    "interrupt", t->load[i][3], "idle", t->load[i][4]));
		json_object_set_new(doc, "cpu_load", a);
	}
	if (t->nirq > 0 || t->nlirqs > 0) {
		/* vmstat -i has no per-CPU counts (null), /proc/interrupts has them. */
		q = xcalloc(t->nirq + t->nlirqs, sizeof *q);
		for (i = 0; i < t->nirq; i++) {
			os_strlcpy(q[i].name, t->irq[i].name, sizeof q[i].name);
			os_strlcpy(q[i].desc, t->irq[i].desc, sizeof q[i].desc);
			q[i].total = t->irq[i].total;
		}
		if (t->nlirqs > 0)
			memcpy(q + t->nirq, t->lirqs, t->nlirqs * sizeof *q);
		json_object_set_new(doc, "irqs", os_json_irqs(q, t->nirq + t->nlirqs));
		free(q);
	}
	c = xcalloc(t->nifs + 1, sizeof *c);
	for (i = n = 0; i < t->nifs; i++)
		if (t->ifs[i].counters)
			c[n++] = t->ifs[i].c;
	if (n > 0)
		json_object_set_new(doc, "if_counters", os_json_if_counters(c, n));
	free(c);
	doc_cpu_times(t, doc);
}

json_t *
fbsd_text_doc(struct fbsd_text *t)
{
	json_t *doc;

	doc = json_pack("{s:s, s:i, s:s, s:s, s:s}", "schema", OS_JSON_SCHEMA, "version",
	    OS_JSON_VERSION, "ntune_version", NTUNE_VERSION, "backend", "freebsd-text",
	    "inputs", t->kinds);
	json_object_set_new(doc, "system", doc_system(t));
	json_object_set_new(doc, "cpu", doc_cpu(t));
	json_object_set_new(doc, "nics", doc_nics(t));
	json_object_set_new(doc, "tunables", json_array());
	doc_counters(t, doc);
	json_object_set(doc, "sysctls", t->sysctls);
	json_object_set(doc, "errors", t->errors);
	return doc;
}
