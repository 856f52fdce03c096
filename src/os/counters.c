/*
 * Named counters for `diagnose`: the ops every backend has (CPU times, interface
 * counters, queue interrupts), turned into one flat list of names, plus what the
 * live backend counts on its own (os_backend_counters in os.c picks it). The
 * list itself is counter_set.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

static int
cpu_counters(struct os_ctx *ctx, struct os_counters *c, char **cause)
{
	struct os_cpu_times *t;
	size_t n, i;

	if (ctx->ops->cpu_times == NULL)
		return 0;
	if (ctx->ops->cpu_times(ctx, &t, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		os_counters_setf(c, t[i].user, false, "cpu.%zu.user", i);
		os_counters_setf(c, t[i].nice, false, "cpu.%zu.nice", i);
		os_counters_setf(c, t[i].system, false, "cpu.%zu.system", i);
		os_counters_setf(c, t[i].interrupt, false, "cpu.%zu.interrupt", i);
		os_counters_setf(c, t[i].softirq, false, "cpu.%zu.softirq", i);
		os_counters_setf(c, t[i].idle, false, "cpu.%zu.idle", i);
		os_counters_setf(c, t[i].iowait, false, "cpu.%zu.iowait", i);
		os_counters_setf(c, t[i].steal, false, "cpu.%zu.steal", i);
	}
	free(t);
	return 0;
}

static int
if_counters(struct os_ctx *ctx, struct os_counters *c, char **cause)
{
	struct os_if_counters *f;
	size_t n, i;

	if (ctx->ops->if_counters == NULL)
		return 0;
	if (ctx->ops->if_counters(ctx, &f, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!os_counters_want(c, f[i].name))
			continue;
		os_counters_setf(c, f[i].ipackets, false, "if.%s.ipackets", f[i].name);
		os_counters_setf(c, f[i].ibytes, false, "if.%s.ibytes", f[i].name);
		os_counters_setf(c, f[i].ierrors, false, "if.%s.ierrors", f[i].name);
		os_counters_setf(c, f[i].idrops, false, "if.%s.idrops", f[i].name);
		os_counters_setf(c, f[i].opackets, false, "if.%s.opackets", f[i].name);
		os_counters_setf(c, f[i].obytes, false, "if.%s.obytes", f[i].name);
		os_counters_setf(c, f[i].oerrors, false, "if.%s.oerrors", f[i].name);
		os_counters_setf(c, f[i].odrops, false, "if.%s.odrops", f[i].name);
	}
	free(f);
	return 0;
}

/* Is a hex RPS mask ("0", "00000000,00000003") non-zero? */
static bool
mask_set(const char *m)
{
	for (; *m != '\0'; m++)
		if (*m != '0' && *m != ',' && *m != ' ')
			return true;
	return false;
}

/* Every interrupt's count, by number ("irqn.38", per CPU "irqn.38.cpu1"): cheap, each sample. */
static void
irq_counters(struct os_ctx *ctx, struct os_counters *c)
{
	struct os_irq *irqs;
	size_t nirq, i, k;
	const char *nm;
	int num;

	if (ctx->ops->irqs == NULL || ctx->ops->irqs(ctx, &irqs, &nirq, NULL) != 0)
		return;
	for (i = 0; i < nirq; i++) {
		nm = irqs[i].name;
		if (strncmp(nm, "irq", 3) == 0)
			nm += 3;
		if (*nm < '0' || *nm > '9')
			continue;
		num = atoi(nm);
		os_counters_setf(c, irqs[i].total, false, "irqn.%d", num);
		for (k = 0; irqs[i].per_cpu != NULL && k < irqs[i].ncpu; k++)
			os_counters_setf(c, irqs[i].per_cpu[k], false, "irqn.%d.cpu%zu", num, k);
	}
	os_irqs_free(irqs, nirq);
}

/* Queue counts, RPS state, veth or not, which interrupt each queue has (gauges; once is enough). */
static void
nic_counters(struct os_ctx *ctx, struct os_counters *c)
{
	struct os_nic *nics;
	size_t n, i, j;

	if (ctx->ops->nics == NULL || ctx->ops->nics(ctx, &nics, &n, NULL) != 0)
		return;
	for (i = 0; i < n; i++) {
		const struct os_nic *nic = &nics[i];
		uint64_t rxq = 0, rps = 0, rps_known = 0;

		if (!os_counters_want(c, nic->name))
			continue;

		for (j = 0; j < nic->nqueues; j++) {
			const struct os_queue *q = &nic->queues[j];

			if (strcmp(q->kind, "tx") != 0) {
				rxq++;
				if (q->rps_cpus[0] != '\0') {
					rps_known = 1;
					rps |= mask_set(q->rps_cpus);
				}
			}
			if (q->irq >= 0)
				os_counters_setf(c, (uint64_t)q->irq, true, "queue.%s.%s%d.irq",
				    nic->name, q->kind, q->index);
		}
		if (rxq > 0)
			os_counters_setf(c, rxq, true, "if.%s.rxqueues", nic->name);
		/*
		 * A veth receives on the CPU that transmits to its peer (drivers/net/veth.c
		 * veth_xmit: __netif_rx into that CPU's backlog, or with GRO on its NAPI
		 * scheduled there by __veth_xdp_flush), not on a queue interrupt's CPU.
		 */
		if (nic->driver[0] != '\0')
			os_counters_setf(c, strcmp(nic->driver, "veth") == 0, true, "if.%s.veth",
			    nic->name);
		if (rps_known)
			os_counters_setf(c, rps, true, "if.%s.rps", nic->name);
	}
	os_nics_free(nics, n);
}

int
os_counters_collect(struct os_ctx *ctx, struct os_counters *c, bool topology, char **cause)
{
	if (cpu_counters(ctx, c, cause) != 0 || if_counters(ctx, c, cause) != 0)
		return -1;
	irq_counters(ctx, c);
	if (topology)
		nic_counters(ctx, c);
	return os_backend_counters(ctx, c, cause);
}
