/*
 * Every conversion between the structs of os.h and their JSON form in the
 * inspect/snapshot document, both directions: collect.c writes them, the
 * snapshot backend and fbsd_text_doc.c read or build them.
 */
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/os_json.h"
#include "util/util.h"

static const char *const kind_names[] = {
	[OS_TUNABLE_NONE] = "absent",
	[OS_TUNABLE_RUNTIME] = "runtime",
	[OS_TUNABLE_LOADER] = "loader",
	[OS_TUNABLE_BOTH] = "both",
	[OS_TUNABLE_READONLY] = "readonly",
};

const char *
os_tunable_kind_name(enum os_tunable_kind k)
{
	if ((size_t)k >= nitems(kind_names))
		return "absent";
	return kind_names[k];
}

enum os_tunable_kind
os_tunable_kind_parse(const char *s)
{
	size_t i;

	for (i = 0; s != NULL && i < nitems(kind_names); i++)
		if (strcmp(s, kind_names[i]) == 0)
			return (enum os_tunable_kind)i;
	return OS_TUNABLE_NONE;
}

static json_t *
jint(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *
jtri(int v)
{
	return v == OS_UNKNOWN ? json_null() : json_boolean(v);
}

static long
getint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

static int
gettri(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : OS_UNKNOWN;
}

void
os_json_str(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	os_strlcpy(buf, json_is_string(v) ? json_string_value(v) : "", len);
}

uint64_t
os_json_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

json_t *
os_json_system(const struct os_system *s)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "os", s->os, "version", s->version,
	    "distro", s->distro, "hostname", s->hostname, "netns", s->netns);

	/* Only what evidence shows: "unknown" and null otherwise. */
	json_object_set_new(o, "platform", json_string(s->platform[0] ? s->platform : "unknown"));
	json_object_set_new(o, "platform_evidence", s->platform_why[0] ?
	    json_string(s->platform_why) : json_null());
	return o;
}

int
os_json_to_system(json_t *o, struct os_system *s)
{
	memset(s, 0, sizeof *s);
	if (!json_is_object(o))
		return -1;
	os_json_str(o, "os", s->os, sizeof s->os);
	os_json_str(o, "version", s->version, sizeof s->version);
	os_json_str(o, "distro", s->distro, sizeof s->distro);
	os_json_str(o, "hostname", s->hostname, sizeof s->hostname);
	os_json_str(o, "netns", s->netns, sizeof s->netns);
	os_json_str(o, "platform", s->platform, sizeof s->platform);
	if (strcmp(s->platform, "unknown") == 0)
		s->platform[0] = '\0';
	os_json_str(o, "platform_evidence", s->platform_why, sizeof s->platform_why);
	return 0;
}

json_t *
os_json_cpu(const struct os_cpu *c)
{
	json_t *o, *cpus;
	int i;

	o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:s}", "model", c->model,
	    "packages", jint(c->packages), "cores", jint(c->cores), "threads", jint(c->threads),
	    "smt", jtri(c->smt), "numa_nodes", jint(c->numa_nodes), "governor", c->governor);
	cpus = json_array();
	for (i = 0; i < c->threads && (c->cpu_core != NULL || c->cpu_numa != NULL); i++)
		json_array_append_new(cpus, json_pack("{s:i, s:o, s:o}", "cpu", i,
		    "core", jint(c->cpu_core != NULL ? c->cpu_core[i] : -1),
		    "numa", jint(c->cpu_numa != NULL ? c->cpu_numa[i] : -1)));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

int
os_json_to_cpu(json_t *o, struct os_cpu *c)
{
	json_t *cpus, *e;
	size_t i;
	long idx;

	memset(c, 0, sizeof *c);
	if (!json_is_object(o))
		return -1;
	os_json_str(o, "model", c->model, sizeof c->model);
	c->packages = (int)getint(o, "packages");
	c->cores = (int)getint(o, "cores");
	c->threads = (int)getint(o, "threads");
	c->smt = gettri(o, "smt");
	c->numa_nodes = (int)getint(o, "numa_nodes");
	os_json_str(o, "governor", c->governor, sizeof c->governor);
	cpus = json_object_get(o, "cpus");
	if (c->threads > 0 && c->threads <= OS_MAXCPU && json_array_size(cpus) > 0) {
		c->cpu_core = xcalloc((size_t)c->threads, sizeof(int));
		c->cpu_numa = xcalloc((size_t)c->threads, sizeof(int));
		for (i = 0; i < (size_t)c->threads; i++)
			c->cpu_core[i] = c->cpu_numa[i] = -1;
		json_array_foreach(cpus, i, e) {
			idx = getint(e, "cpu");
			if (idx < 0 || idx >= c->threads)
				continue;
			c->cpu_core[idx] = (int)getint(e, "core");
			c->cpu_numa[idx] = (int)getint(e, "numa");
		}
	}
	return 0;
}

json_t *
os_json_nic(const struct os_nic *n)
{
	json_t *o, *ql;
	size_t i;

	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
	    "name", n->name, "driver", n->driver, "driver_version", n->driver_version,
	    "firmware", n->firmware, "bus", n->bus, "pci_id", n->pci_id, "pci_name", n->pci_name,
	    "mac", n->mac, "speed_mbps", jint(n->speed_mbps), "mtu", jint(n->mtu), "up",
	    n->up == OS_UNKNOWN ? json_null() : json_boolean(n->up == OS_ON),
	    "numa_node", jint(n->numa_node));
	json_object_set_new(o, "channels", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
	    "rx", jint(n->rx_queues), "tx", jint(n->tx_queues), "combined", jint(n->combined_queues),
	    "max_rx", jint(n->max_rx_queues), "max_tx", jint(n->max_tx_queues),
	    "max_combined", jint(n->max_combined_queues)));
	json_object_set_new(o, "rings", json_pack("{s:o, s:o, s:o, s:o}", "rx", jint(n->rx_ring),
	    "tx", jint(n->tx_ring), "max_rx", jint(n->max_rx_ring), "max_tx", jint(n->max_tx_ring)));
	json_object_set_new(o, "offloads", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
	    "tso", jtri(n->tso), "lro", jtri(n->lro), "gro", jtri(n->gro), "gso", jtri(n->gso),
	    "rxcsum", jtri(n->rxcsum), "txcsum", jtri(n->txcsum)));
	json_object_set_new(o, "coalesce", json_pack("{s:o, s:o}", "rx_usecs",
	    jint(n->coalesce_rx_usecs), "adaptive_rx", jtri(n->adaptive_rx)));
	ql = json_array();
	for (i = 0; i < n->nqueues; i++) {
		const struct os_queue *q = &n->queues[i];

		json_array_append_new(ql, json_pack("{s:i, s:s, s:o, s:s, s:o, s:s, s:s, s:s, s:I}",
		    "index", q->index, "kind", q->kind, "irq", jint(q->irq), "irq_name", q->irq_name,
		    "irq_cpu", jint(q->irq_cpu), "irq_affinity", q->irq_affinity,
		    "rps_cpus", q->rps_cpus, "xps_cpus", q->xps_cpus,
		    "interrupts", (json_int_t)q->interrupts));
	}
	json_object_set_new(o, "queues", ql);
	json_object_set_new(o, "unsupported", json_string(n->unsupported));
	return o;
}

int
os_json_to_nic(json_t *o, struct os_nic *n)
{
	json_t *ch, *r, *of, *co, *ql, *e;
	size_t i;

	os_nic_init(n);
	if (!json_is_object(o))
		return -1;
	os_json_str(o, "name", n->name, sizeof n->name);
	os_json_str(o, "driver", n->driver, sizeof n->driver);
	os_json_str(o, "driver_version", n->driver_version, sizeof n->driver_version);
	os_json_str(o, "firmware", n->firmware, sizeof n->firmware);
	os_json_str(o, "bus", n->bus, sizeof n->bus);
	os_json_str(o, "pci_id", n->pci_id, sizeof n->pci_id);
	os_json_str(o, "pci_name", n->pci_name, sizeof n->pci_name);
	os_json_str(o, "mac", n->mac, sizeof n->mac);
	n->speed_mbps = getint(o, "speed_mbps");
	n->mtu = (int)getint(o, "mtu");
	n->up = json_is_true(json_object_get(o, "up")) ? OS_ON :
	    json_is_false(json_object_get(o, "up")) ? OS_OFF : OS_UNKNOWN;
	n->numa_node = (int)getint(o, "numa_node");
	ch = json_object_get(o, "channels");
	n->rx_queues = (int)getint(ch, "rx");
	n->tx_queues = (int)getint(ch, "tx");
	n->combined_queues = (int)getint(ch, "combined");
	n->max_rx_queues = (int)getint(ch, "max_rx");
	n->max_tx_queues = (int)getint(ch, "max_tx");
	n->max_combined_queues = (int)getint(ch, "max_combined");
	r = json_object_get(o, "rings");
	n->rx_ring = (int)getint(r, "rx");
	n->tx_ring = (int)getint(r, "tx");
	n->max_rx_ring = (int)getint(r, "max_rx");
	n->max_tx_ring = (int)getint(r, "max_tx");
	of = json_object_get(o, "offloads");
	n->tso = gettri(of, "tso");
	n->lro = gettri(of, "lro");
	n->gro = gettri(of, "gro");
	n->gso = gettri(of, "gso");
	n->rxcsum = gettri(of, "rxcsum");
	n->txcsum = gettri(of, "txcsum");
	co = json_object_get(o, "coalesce");
	n->coalesce_rx_usecs = (int)getint(co, "rx_usecs");
	n->adaptive_rx = gettri(co, "adaptive_rx");
	os_json_str(o, "unsupported", n->unsupported, sizeof n->unsupported);
	ql = json_object_get(o, "queues");
	if (json_array_size(ql) > 0 && json_array_size(ql) < 65536) {
		n->queues = xcalloc(json_array_size(ql), sizeof *n->queues);
		json_array_foreach(ql, i, e) {
			struct os_queue *q = &n->queues[n->nqueues++];

			q->index = (int)getint(e, "index");
			os_json_str(e, "kind", q->kind, sizeof q->kind);
			q->irq = (int)getint(e, "irq");
			os_json_str(e, "irq_name", q->irq_name, sizeof q->irq_name);
			q->irq_cpu = (int)getint(e, "irq_cpu");
			os_json_str(e, "irq_affinity", q->irq_affinity, sizeof q->irq_affinity);
			os_json_str(e, "rps_cpus", q->rps_cpus, sizeof q->rps_cpus);
			os_json_str(e, "xps_cpus", q->xps_cpus, sizeof q->xps_cpus);
			q->interrupts = os_json_u64(e, "interrupts");
		}
	}
	return 0;
}

json_t *
os_json_cpu_times(const struct os_cpu_times *t, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		    "user", (json_int_t)t[i].user, "nice", (json_int_t)t[i].nice,
		    "system", (json_int_t)t[i].system, "interrupt", (json_int_t)t[i].interrupt,
		    "softirq", (json_int_t)t[i].softirq, "idle", (json_int_t)t[i].idle,
		    "iowait", (json_int_t)t[i].iowait, "steal", (json_int_t)t[i].steal));
	return a;
}

void
os_json_to_cpu_times(json_t *e, struct os_cpu_times *t)
{
	t->user = os_json_u64(e, "user");
	t->nice = os_json_u64(e, "nice");
	t->system = os_json_u64(e, "system");
	t->interrupt = os_json_u64(e, "interrupt");
	t->softirq = os_json_u64(e, "softirq");
	t->idle = os_json_u64(e, "idle");
	t->iowait = os_json_u64(e, "iowait");
	t->steal = os_json_u64(e, "steal");
}

json_t *
os_json_if_counters(const struct os_if_counters *c, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		    "name", c[i].name, "ipackets", (json_int_t)c[i].ipackets,
		    "ibytes", (json_int_t)c[i].ibytes, "ierrors", (json_int_t)c[i].ierrors,
		    "idrops", (json_int_t)c[i].idrops, "opackets", (json_int_t)c[i].opackets,
		    "obytes", (json_int_t)c[i].obytes, "oerrors", (json_int_t)c[i].oerrors,
		    "odrops", (json_int_t)c[i].odrops));
	return a;
}

void
os_json_to_if_counters(json_t *e, struct os_if_counters *c)
{
	os_json_str(e, "name", c->name, sizeof c->name);
	c->ipackets = os_json_u64(e, "ipackets");
	c->ibytes = os_json_u64(e, "ibytes");
	c->ierrors = os_json_u64(e, "ierrors");
	c->idrops = os_json_u64(e, "idrops");
	c->opackets = os_json_u64(e, "opackets");
	c->obytes = os_json_u64(e, "obytes");
	c->oerrors = os_json_u64(e, "oerrors");
	c->odrops = os_json_u64(e, "odrops");
}

json_t *
os_json_irqs(const struct os_irq *q, size_t n)
{
	json_t *a = json_array();
	size_t i, j;

	for (i = 0; i < n; i++) {
		json_t *pc = json_array();

		for (j = 0; q[i].per_cpu != NULL && j < q[i].ncpu; j++)
			json_array_append_new(pc, json_integer((json_int_t)q[i].per_cpu[j]));
		json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:o}", "name", q[i].name,
		    "desc", q[i].desc, "total", (json_int_t)q[i].total,
		    "per_cpu", q[i].per_cpu != NULL ? pc : (json_decref(pc), json_null())));
	}
	return a;
}

void
os_json_to_irq(json_t *e, struct os_irq *q)
{
	json_t *pc, *c;
	size_t j;

	os_json_str(e, "name", q->name, sizeof q->name);
	os_json_str(e, "desc", q->desc, sizeof q->desc);
	q->total = os_json_u64(e, "total");
	pc = json_object_get(e, "per_cpu");
	if (json_is_array(pc) && json_array_size(pc) > 0 && json_array_size(pc) <= OS_MAXCPU) {
		q->ncpu = json_array_size(pc);
		q->per_cpu = xcalloc(q->ncpu, sizeof *q->per_cpu);
		json_array_foreach(pc, j, c)
			q->per_cpu[j] = json_is_integer(c) && json_integer_value(c) > 0 ?
			    (uint64_t)json_integer_value(c) : 0;
	}
}
