/*
 * Every conversion between the structs of os.h and their JSON form in the
 * inspect/snapshot document, both directions: collect.c writes them, the
 * snapshot backend and fbsd_text_doc.c read or build them.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/os_json.h"
#include "util/jtable.h"
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

static long
getint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

void
os_json_str(json_t *o, const char *key, char *buf, size_t len)
{
	jtable_str(o, key, buf, len);
}

uint64_t
os_json_u64(json_t *o, const char *key)
{
	return jtable_u64(o, key);
}

/* Each struct's JSON form is one table (util/jtable.h): both directions walk it. */
static const struct jfield system_fields[] = {
	JSTR(struct os_system, NULL, "os", os),
	JSTR(struct os_system, NULL, "version", version),
	JSTR(struct os_system, NULL, "distro", distro),
	JSTR(struct os_system, NULL, "hostname", hostname),
	JSTR(struct os_system, NULL, "netns", netns),
};

static const struct jfield cpu_fields[] = {
	JSTR(struct os_cpu, NULL, "model", model),
	JNUM(struct os_cpu, NULL, "packages", J_INT, packages),
	JNUM(struct os_cpu, NULL, "cores", J_INT, cores),
	JNUM(struct os_cpu, NULL, "threads", J_INT, threads),
	JNUM(struct os_cpu, NULL, "smt", J_TRI, smt),
	JNUM(struct os_cpu, NULL, "numa_nodes", J_INT, numa_nodes),
	JSTR(struct os_cpu, NULL, "governor", governor),
};

/* A NIC's fields; its "queues" and then "unsupported" follow them. */
static const struct jfield nic_fields[] = {
	JSTR(struct os_nic, NULL, "name", name),
	JSTR(struct os_nic, NULL, "driver", driver),
	JSTR(struct os_nic, NULL, "driver_version", driver_version),
	JSTR(struct os_nic, NULL, "firmware", firmware),
	JSTR(struct os_nic, NULL, "bus", bus),
	JSTR(struct os_nic, NULL, "pci_id", pci_id),
	JSTR(struct os_nic, NULL, "pci_name", pci_name),
	JSTR(struct os_nic, NULL, "mac", mac),
	JNUM(struct os_nic, NULL, "speed_mbps", J_LONG, speed_mbps),
	JNUM(struct os_nic, NULL, "mtu", J_INT, mtu),
	JNUM(struct os_nic, NULL, "up", J_TRI, up),
	JNUM(struct os_nic, NULL, "numa_node", J_INT, numa_node),
	JNUM(struct os_nic, "channels", "rx", J_INT, rx_queues),
	JNUM(struct os_nic, "channels", "tx", J_INT, tx_queues),
	JNUM(struct os_nic, "channels", "combined", J_INT, combined_queues),
	JNUM(struct os_nic, "channels", "max_rx", J_INT, max_rx_queues),
	JNUM(struct os_nic, "channels", "max_tx", J_INT, max_tx_queues),
	JNUM(struct os_nic, "channels", "max_combined", J_INT, max_combined_queues),
	JNUM(struct os_nic, "rings", "rx", J_INT, rx_ring),
	JNUM(struct os_nic, "rings", "tx", J_INT, tx_ring),
	JNUM(struct os_nic, "rings", "max_rx", J_INT, max_rx_ring),
	JNUM(struct os_nic, "rings", "max_tx", J_INT, max_tx_ring),
	JNUM(struct os_nic, "offloads", "tso", J_TRI, tso),
	JNUM(struct os_nic, "offloads", "lro", J_TRI, lro),
	JNUM(struct os_nic, "offloads", "gro", J_TRI, gro),
	JNUM(struct os_nic, "offloads", "gso", J_TRI, gso),
	JNUM(struct os_nic, "offloads", "rxcsum", J_TRI, rxcsum),
	JNUM(struct os_nic, "offloads", "txcsum", J_TRI, txcsum),
	JNUM(struct os_nic, "coalesce", "rx_usecs", J_INT, coalesce_rx_usecs),
	JNUM(struct os_nic, "coalesce", "adaptive_rx", J_TRI, adaptive_rx),
};

static const struct jfield nic_tail_fields[] = {
	JSTR(struct os_nic, NULL, "unsupported", unsupported),
};

static const struct jfield queue_fields[] = {
	JNUM(struct os_queue, NULL, "index", J_IDX, index),
	JSTR(struct os_queue, NULL, "kind", kind),
	JNUM(struct os_queue, NULL, "irq", J_INT, irq),
	JSTR(struct os_queue, NULL, "irq_name", irq_name),
	JNUM(struct os_queue, NULL, "irq_cpu", J_INT, irq_cpu),
	JSTR(struct os_queue, NULL, "irq_affinity", irq_affinity),
	JSTR(struct os_queue, NULL, "rps_cpus", rps_cpus),
	JSTR(struct os_queue, NULL, "xps_cpus", xps_cpus),
	JNUM(struct os_queue, NULL, "interrupts", J_U64, interrupts),
};

static const struct jfield cpu_times_fields[] = {
	JNUM(struct os_cpu_times, NULL, "user", J_U64, user),
	JNUM(struct os_cpu_times, NULL, "nice", J_U64, nice),
	JNUM(struct os_cpu_times, NULL, "system", J_U64, system),
	JNUM(struct os_cpu_times, NULL, "interrupt", J_U64, interrupt),
	JNUM(struct os_cpu_times, NULL, "softirq", J_U64, softirq),
	JNUM(struct os_cpu_times, NULL, "idle", J_U64, idle),
	JNUM(struct os_cpu_times, NULL, "iowait", J_U64, iowait),
	JNUM(struct os_cpu_times, NULL, "steal", J_U64, steal),
};

static const struct jfield if_counters_fields[] = {
	JSTR(struct os_if_counters, NULL, "name", name),
	JNUM(struct os_if_counters, NULL, "ipackets", J_U64, ipackets),
	JNUM(struct os_if_counters, NULL, "ibytes", J_U64, ibytes),
	JNUM(struct os_if_counters, NULL, "ierrors", J_U64, ierrors),
	JNUM(struct os_if_counters, NULL, "idrops", J_U64, idrops),
	JNUM(struct os_if_counters, NULL, "opackets", J_U64, opackets),
	JNUM(struct os_if_counters, NULL, "obytes", J_U64, obytes),
	JNUM(struct os_if_counters, NULL, "oerrors", J_U64, oerrors),
	JNUM(struct os_if_counters, NULL, "odrops", J_U64, odrops),
};

/* An interrupt source's fields; its "per_cpu" array follows them. */
static const struct jfield irq_fields[] = {
	JSTR(struct os_irq, NULL, "name", name),
	JSTR(struct os_irq, NULL, "desc", desc),
	JNUM(struct os_irq, NULL, "total", J_U64, total),
};

json_t *
os_json_system(const struct os_system *s)
{
	json_t *o = json_object();

	jtable_to_json(o, s, system_fields, nitems(system_fields));
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
	jtable_from_json(o, s, system_fields, nitems(system_fields));
	os_json_str(o, "platform", s->platform, sizeof s->platform);
	if (strcmp(s->platform, "unknown") == 0)
		s->platform[0] = '\0';
	os_json_str(o, "platform_evidence", s->platform_why, sizeof s->platform_why);
	return 0;
}

json_t *
os_json_cpu(const struct os_cpu *c)
{
	json_t *o = json_object(), *cpus;
	int i;

	jtable_to_json(o, c, cpu_fields, nitems(cpu_fields));
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
	jtable_from_json(o, c, cpu_fields, nitems(cpu_fields));
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
	json_t *o = json_object();

	jtable_to_json(o, n, nic_fields, nitems(nic_fields));
	json_object_set_new(o, "queues", jtable_records_to_json(n->queues, n->nqueues, sizeof *n->queues,
	    queue_fields, nitems(queue_fields)));
	jtable_to_json(o, n, nic_tail_fields, nitems(nic_tail_fields));
	return o;
}

int
os_json_to_nic(json_t *o, struct os_nic *n)
{
	json_t *ql, *e;
	size_t i;

	os_nic_init(n);
	if (!json_is_object(o))
		return -1;
	jtable_from_json(o, n, nic_fields, nitems(nic_fields));
	jtable_from_json(o, n, nic_tail_fields, nitems(nic_tail_fields));
	ql = json_object_get(o, "queues");
	if (json_array_size(ql) > 0 && json_array_size(ql) < 65536) {
		n->queues = xcalloc(json_array_size(ql), sizeof *n->queues);
		json_array_foreach(ql, i, e)
			jtable_from_json(e, &n->queues[n->nqueues++], queue_fields,
			    nitems(queue_fields));
	}
	return 0;
}

json_t *
os_json_cpu_times(const struct os_cpu_times *t, size_t n)
{
	return jtable_records_to_json(t, n, sizeof *t, cpu_times_fields, nitems(cpu_times_fields));
}

void
os_json_to_cpu_times(json_t *e, struct os_cpu_times *t)
{
	jtable_from_json(e, t, cpu_times_fields, nitems(cpu_times_fields));
}

json_t *
os_json_if_counters(const struct os_if_counters *c, size_t n)
{
	return jtable_records_to_json(c, n, sizeof *c, if_counters_fields, nitems(if_counters_fields));
}

void
os_json_to_if_counters(json_t *e, struct os_if_counters *c)
{
	jtable_from_json(e, c, if_counters_fields, nitems(if_counters_fields));
}

json_t *
os_json_irqs(const struct os_irq *q, size_t n)
{
	json_t *a = jtable_records_to_json(q, n, sizeof *q, irq_fields, nitems(irq_fields)), *pc;
	size_t i, j;

	for (i = 0; i < n; i++) {
		pc = q[i].per_cpu != NULL ? json_array() : json_null();
		for (j = 0; q[i].per_cpu != NULL && j < q[i].ncpu; j++)
			json_array_append_new(pc, json_integer((json_int_t)q[i].per_cpu[j]));
		json_object_set_new(json_array_get(a, i), "per_cpu", pc);
	}
	return a;
}

void
os_json_to_irq(json_t *e, struct os_irq *q)
{
	json_t *pc, *c;
	size_t j;

	jtable_from_json(e, q, irq_fields, nitems(irq_fields));
	pc = json_object_get(e, "per_cpu");
	if (json_is_array(pc) && json_array_size(pc) > 0 && json_array_size(pc) <= OS_MAXCPU) {
		q->ncpu = json_array_size(pc);
		q->per_cpu = xcalloc(q->ncpu, sizeof *q->per_cpu);
		json_array_foreach(pc, j, c)
			q->per_cpu[j] = json_is_integer(c) && json_integer_value(c) > 0 ?
			    (uint64_t)json_integer_value(c) : 0;
	}
}
