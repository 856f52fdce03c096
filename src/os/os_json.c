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

/*
 * One member of a struct's JSON form: where it is in the struct and how it is
 * written and read. Both directions walk the same table, so a field is one row.
 */
enum field_kind {
	F_STR,		/* char array of size bytes */
	F_INT,		/* int, null when negative (unknown) */
	F_LONG,		/* long, null when negative */
	F_TRI,		/* int enum os_tristate: true, false or null */
	F_U64,		/* uint64_t counter */
	F_IDX,		/* int, always a number */
};

struct field {
	const char *group;	/* the member object holding it ("channels"), or NULL */
	const char *key;
	enum field_kind kind;
	size_t	 off;
	size_t	 size;		/* F_STR: the array's size */
};

#define FSTR(type, group, key, member) \
	{ group, key, F_STR, offsetof(type, member), sizeof(((type *)0)->member) }
#define FNUM(type, group, key, kind, member) \
	{ group, key, kind, offsetof(type, member), 0 }

/* Adds the fields of rec to o, in table order (the key order of the document). */
static void
fields_to_json(json_t *o, const void *rec, const struct field *f, size_t n)
{
	const char *p;
	json_t *dst, *v = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (const char *)rec + f[i].off;
		switch (f[i].kind) {
		case F_STR:
			v = json_string(p);
			break;
		case F_INT:
			v = jint(*(const int *)(const void *)p);
			break;
		case F_LONG:
			v = jint(*(const long *)(const void *)p);
			break;
		case F_TRI:
			v = jtri(*(const int *)(const void *)p);
			break;
		case F_U64:
			v = json_integer((json_int_t)*(const uint64_t *)(const void *)p);
			break;
		case F_IDX:
			v = json_integer(*(const int *)(const void *)p);
			break;
		}
		dst = o;
		if (f[i].group != NULL && (dst = json_object_get(o, f[i].group)) == NULL) {
			dst = json_object();
			json_object_set_new(o, f[i].group, dst);
		}
		json_object_set_new(dst, f[i].key, v);
	}
}

/* Reads the fields of rec from o: a missing or mistyped member reads as unknown. */
static void
fields_from_json(json_t *o, void *rec, const struct field *f, size_t n)
{
	json_t *src;
	char *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (char *)rec + f[i].off;
		src = f[i].group != NULL ? json_object_get(o, f[i].group) : o;
		switch (f[i].kind) {
		case F_STR:
			os_json_str(src, f[i].key, p, f[i].size);
			break;
		case F_INT:
		case F_IDX:
			*(int *)(void *)p = (int)getint(src, f[i].key);
			break;
		case F_LONG:
			*(long *)(void *)p = getint(src, f[i].key);
			break;
		case F_TRI:
			*(int *)(void *)p = gettri(src, f[i].key);
			break;
		case F_U64:
			*(uint64_t *)(void *)p = os_json_u64(src, f[i].key);
			break;
		}
	}
}

static const struct field system_fields[] = {
	FSTR(struct os_system, NULL, "os", os),
	FSTR(struct os_system, NULL, "version", version),
	FSTR(struct os_system, NULL, "distro", distro),
	FSTR(struct os_system, NULL, "hostname", hostname),
	FSTR(struct os_system, NULL, "netns", netns),
};

static const struct field cpu_fields[] = {
	FSTR(struct os_cpu, NULL, "model", model),
	FNUM(struct os_cpu, NULL, "packages", F_INT, packages),
	FNUM(struct os_cpu, NULL, "cores", F_INT, cores),
	FNUM(struct os_cpu, NULL, "threads", F_INT, threads),
	FNUM(struct os_cpu, NULL, "smt", F_TRI, smt),
	FNUM(struct os_cpu, NULL, "numa_nodes", F_INT, numa_nodes),
	FSTR(struct os_cpu, NULL, "governor", governor),
};

/* A NIC's fields; its "queues" and then "unsupported" follow them. */
static const struct field nic_fields[] = {
	FSTR(struct os_nic, NULL, "name", name),
	FSTR(struct os_nic, NULL, "driver", driver),
	FSTR(struct os_nic, NULL, "driver_version", driver_version),
	FSTR(struct os_nic, NULL, "firmware", firmware),
	FSTR(struct os_nic, NULL, "bus", bus),
	FSTR(struct os_nic, NULL, "pci_id", pci_id),
	FSTR(struct os_nic, NULL, "pci_name", pci_name),
	FSTR(struct os_nic, NULL, "mac", mac),
	FNUM(struct os_nic, NULL, "speed_mbps", F_LONG, speed_mbps),
	FNUM(struct os_nic, NULL, "mtu", F_INT, mtu),
	FNUM(struct os_nic, NULL, "up", F_TRI, up),
	FNUM(struct os_nic, NULL, "numa_node", F_INT, numa_node),
	FNUM(struct os_nic, "channels", "rx", F_INT, rx_queues),
	FNUM(struct os_nic, "channels", "tx", F_INT, tx_queues),
	FNUM(struct os_nic, "channels", "combined", F_INT, combined_queues),
	FNUM(struct os_nic, "channels", "max_rx", F_INT, max_rx_queues),
	FNUM(struct os_nic, "channels", "max_tx", F_INT, max_tx_queues),
	FNUM(struct os_nic, "channels", "max_combined", F_INT, max_combined_queues),
	FNUM(struct os_nic, "rings", "rx", F_INT, rx_ring),
	FNUM(struct os_nic, "rings", "tx", F_INT, tx_ring),
	FNUM(struct os_nic, "rings", "max_rx", F_INT, max_rx_ring),
	FNUM(struct os_nic, "rings", "max_tx", F_INT, max_tx_ring),
	FNUM(struct os_nic, "offloads", "tso", F_TRI, tso),
	FNUM(struct os_nic, "offloads", "lro", F_TRI, lro),
	FNUM(struct os_nic, "offloads", "gro", F_TRI, gro),
	FNUM(struct os_nic, "offloads", "gso", F_TRI, gso),
	FNUM(struct os_nic, "offloads", "rxcsum", F_TRI, rxcsum),
	FNUM(struct os_nic, "offloads", "txcsum", F_TRI, txcsum),
	FNUM(struct os_nic, "coalesce", "rx_usecs", F_INT, coalesce_rx_usecs),
	FNUM(struct os_nic, "coalesce", "adaptive_rx", F_TRI, adaptive_rx),
};

static const struct field nic_tail_fields[] = {
	FSTR(struct os_nic, NULL, "unsupported", unsupported),
};

static const struct field queue_fields[] = {
	FNUM(struct os_queue, NULL, "index", F_IDX, index),
	FSTR(struct os_queue, NULL, "kind", kind),
	FNUM(struct os_queue, NULL, "irq", F_INT, irq),
	FSTR(struct os_queue, NULL, "irq_name", irq_name),
	FNUM(struct os_queue, NULL, "irq_cpu", F_INT, irq_cpu),
	FSTR(struct os_queue, NULL, "irq_affinity", irq_affinity),
	FSTR(struct os_queue, NULL, "rps_cpus", rps_cpus),
	FSTR(struct os_queue, NULL, "xps_cpus", xps_cpus),
	FNUM(struct os_queue, NULL, "interrupts", F_U64, interrupts),
};

static const struct field cpu_times_fields[] = {
	FNUM(struct os_cpu_times, NULL, "user", F_U64, user),
	FNUM(struct os_cpu_times, NULL, "nice", F_U64, nice),
	FNUM(struct os_cpu_times, NULL, "system", F_U64, system),
	FNUM(struct os_cpu_times, NULL, "interrupt", F_U64, interrupt),
	FNUM(struct os_cpu_times, NULL, "softirq", F_U64, softirq),
	FNUM(struct os_cpu_times, NULL, "idle", F_U64, idle),
	FNUM(struct os_cpu_times, NULL, "iowait", F_U64, iowait),
	FNUM(struct os_cpu_times, NULL, "steal", F_U64, steal),
};

static const struct field if_counters_fields[] = {
	FSTR(struct os_if_counters, NULL, "name", name),
	FNUM(struct os_if_counters, NULL, "ipackets", F_U64, ipackets),
	FNUM(struct os_if_counters, NULL, "ibytes", F_U64, ibytes),
	FNUM(struct os_if_counters, NULL, "ierrors", F_U64, ierrors),
	FNUM(struct os_if_counters, NULL, "idrops", F_U64, idrops),
	FNUM(struct os_if_counters, NULL, "opackets", F_U64, opackets),
	FNUM(struct os_if_counters, NULL, "obytes", F_U64, obytes),
	FNUM(struct os_if_counters, NULL, "oerrors", F_U64, oerrors),
	FNUM(struct os_if_counters, NULL, "odrops", F_U64, odrops),
};

/* An interrupt source's fields; its "per_cpu" array follows them. */
static const struct field irq_fields[] = {
	FSTR(struct os_irq, NULL, "name", name),
	FSTR(struct os_irq, NULL, "desc", desc),
	FNUM(struct os_irq, NULL, "total", F_U64, total),
};

/* n records of size bytes at recs as an array of objects. */
static json_t *
records_to_json(const void *recs, size_t n, size_t size, const struct field *f, size_t nf)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; i < n; i++) {
		o = json_object();
		fields_to_json(o, (const char *)recs + i * size, f, nf);
		json_array_append_new(a, o);
	}
	return a;
}

json_t *
os_json_system(const struct os_system *s)
{
	json_t *o = json_object();

	fields_to_json(o, s, system_fields, nitems(system_fields));
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
	fields_from_json(o, s, system_fields, nitems(system_fields));
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

	fields_to_json(o, c, cpu_fields, nitems(cpu_fields));
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
	fields_from_json(o, c, cpu_fields, nitems(cpu_fields));
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

	fields_to_json(o, n, nic_fields, nitems(nic_fields));
	json_object_set_new(o, "queues", records_to_json(n->queues, n->nqueues, sizeof *n->queues,
	    queue_fields, nitems(queue_fields)));
	fields_to_json(o, n, nic_tail_fields, nitems(nic_tail_fields));
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
	fields_from_json(o, n, nic_fields, nitems(nic_fields));
	fields_from_json(o, n, nic_tail_fields, nitems(nic_tail_fields));
	ql = json_object_get(o, "queues");
	if (json_array_size(ql) > 0 && json_array_size(ql) < 65536) {
		n->queues = xcalloc(json_array_size(ql), sizeof *n->queues);
		json_array_foreach(ql, i, e)
			fields_from_json(e, &n->queues[n->nqueues++], queue_fields,
			    nitems(queue_fields));
	}
	return 0;
}

json_t *
os_json_cpu_times(const struct os_cpu_times *t, size_t n)
{
	return records_to_json(t, n, sizeof *t, cpu_times_fields, nitems(cpu_times_fields));
}

void
os_json_to_cpu_times(json_t *e, struct os_cpu_times *t)
{
	fields_from_json(e, t, cpu_times_fields, nitems(cpu_times_fields));
}

json_t *
os_json_if_counters(const struct os_if_counters *c, size_t n)
{
	return records_to_json(c, n, sizeof *c, if_counters_fields, nitems(if_counters_fields));
}

void
os_json_to_if_counters(json_t *e, struct os_if_counters *c)
{
	fields_from_json(e, c, if_counters_fields, nitems(if_counters_fields));
}

json_t *
os_json_irqs(const struct os_irq *q, size_t n)
{
	json_t *a = records_to_json(q, n, sizeof *q, irq_fields, nitems(irq_fields)), *pc;
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

	fields_from_json(e, q, irq_fields, nitems(irq_fields));
	pc = json_object_get(e, "per_cpu");
	if (json_is_array(pc) && json_array_size(pc) > 0 && json_array_size(pc) <= OS_MAXCPU) {
		q->ncpu = json_array_size(pc);
		q->per_cpu = xcalloc(q->ncpu, sizeof *q->per_cpu);
		json_array_foreach(pc, j, c)
			q->per_cpu[j] = json_is_integer(c) && json_integer_value(c) > 0 ?
			    (uint64_t)json_integer_value(c) : 0;
	}
}
