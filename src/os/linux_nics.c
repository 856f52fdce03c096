/*
 * NIC inventory: PCI identity, driver, ethtool facts, queues and their IRQs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

static void
nic_pci(struct os_ctx *ctx, struct os_nic *nic)
{
	static const char *const devs[] = { "device", "device/.." };
	char path[PATH_MAX], ven[32], dev[32], link[PATH_MAX], sub[64];
	size_t i = 0;

	/* virtio and other bus devices sit below their PCI function */
	linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/device/subsystem", nic->name);
	if (linux_link_basename(path, sub, sizeof sub) != NULL && strcmp(sub, "pci") != 0)
		i = 1;
	for (; i < nitems(devs); i++) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/vendor", nic->name, devs[i]);
		if (linux_readval(path, ven, sizeof ven) != 0)
			continue;
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/device", nic->name, devs[i]);
		if (linux_readval(path, dev, sizeof dev) != 0)
			continue;
		if (snprintf(nic->pci_id, sizeof nic->pci_id, "%.8s:%.8s",
		    strncmp(ven, "0x", 2) == 0 ? ven + 2 : ven,
		    strncmp(dev, "0x", 2) == 0 ? dev + 2 : dev) < 0)
			nic->pci_id[0] = '\0';
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", nic->name, devs[i]);
		if (realpath(path, link) != NULL) {
			const char *b = strrchr(link, '/');

			os_strlcpy(nic->bus, b != NULL ? b + 1 : link, sizeof nic->bus);
		}
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/numa_node", nic->name, devs[i]);
		nic->numa_node = (int)linux_readlong(path, -1);
		return;
	}
}

/* PCI names from the pci.ids database, when installed. */
static void
nic_pci_name(struct os_nic *nic)
{
	static const char *const dbs[] = { "/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
	    "/usr/share/pci.ids" };
	FILE *f = NULL;
	char line[512], ven[8], dev[8], vname[256] = "";
	size_t i;
	int in = 0;

	if (sscanf(nic->pci_id, "%4[0-9a-f]:%4[0-9a-f]", ven, dev) != 2)
		return;
	for (i = 0; i < nitems(dbs) && f == NULL; i++)
		f = fopen(dbs[i], "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '\t' && line[0] != '#') {
			if (in)
				break;
			if (strncmp(line, ven, 4) == 0 && line[4] == ' ') {
				in = 1;
				os_strlcpy(vname, util_trim(line + 5), sizeof vname);
			}
		} else if (in && line[0] == '\t' && line[1] != '\t' && strncmp(line + 1, dev, 4) == 0 &&
		    line[5] == ' ') {
			snprintf(nic->pci_name, sizeof nic->pci_name, "%s %s", vname,
			    util_trim(line + 6));
			break;
		}
	}
	fclose(f);
}

/* Notes what the driver lacks (EOPNOTSUPP) or what failed (anything else). */
static void
nic_note(struct os_nic *nic, const char *what, int err)
{
	char *list = err == EOPNOTSUPP || err == EINVAL ? nic->unsupported : nic->unread;
	size_t len = strlen(list);

	if (err == EOPNOTSUPP || err == EINVAL)
		snprintf(list + len, OS_TEXT_MAX - len, "%s%s", len > 0 ? ", " : "", what);
	else
		snprintf(list + len, OS_TEXT_MAX - len, "%scannot read %s: %s", len > 0 ? "; " : "",
		    what, strerror(err));
}

static void
nic_ethtool(struct os_nic *nic)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	static const char *const offs[] = { "tso", "gso", "gro", "lro", "rxcsum", "txcsum" };
	int *dst[] = { &nic->tso, &nic->gso, &nic->gro, &nic->lro, &nic->rxcsum, &nic->txcsum };
	int err, on;
	size_t i;

	if (linux_ethtool(nic->name, &di, &err) == 0) {
		if (nic->driver[0] == '\0')
			os_strlcpy(nic->driver, di.driver, sizeof nic->driver);
		os_strlcpy(nic->driver_version, di.version, sizeof nic->driver_version);
		os_strlcpy(nic->firmware, di.fw_version, sizeof nic->firmware);
		if (nic->bus[0] == '\0' && strcmp(di.bus_info, "N/A") != 0)
			os_strlcpy(nic->bus, di.bus_info, sizeof nic->bus);
	} else
		nic_note(nic, "driver info", err);
	if (linux_ethtool(nic->name, &ch, &err) == 0) {
		nic->rx_queues = (int)ch.rx_count;
		nic->tx_queues = (int)ch.tx_count;
		nic->combined_queues = (int)ch.combined_count;
		nic->max_rx_queues = (int)ch.max_rx;
		nic->max_tx_queues = (int)ch.max_tx;
		nic->max_combined_queues = (int)ch.max_combined;
	} else
		nic_note(nic, "channels", err);
	if (linux_ethtool(nic->name, &r, &err) == 0) {
		nic->rx_ring = (int)r.rx_pending;
		nic->tx_ring = (int)r.tx_pending;
		nic->max_rx_ring = (int)r.rx_max_pending;
		nic->max_tx_ring = (int)r.tx_max_pending;
	} else
		nic_note(nic, "rings", err);
	if (linux_ethtool(nic->name, &c, &err) == 0) {
		nic->coalesce_rx_usecs = (int)c.rx_coalesce_usecs;
		nic->adaptive_rx = c.use_adaptive_rx_coalesce != 0;
	} else
		nic_note(nic, "coalescing", err);
	for (i = 0; i < nitems(offs); i++) {
		if (linux_offload_get(nic->name, linux_find_offload(offs[i]), &on, &err) == 0)
			*dst[i] = on;
		else if (err != EOPNOTSUPP)
			nic_note(nic, offs[i], err);
	}
}

/* What ethtool could not read in a capture: unsupported, or unread with what it said. */
static bool
captured_failed(struct os_ctx *ctx, struct os_nic *nic, const char *group)
{
	char why[OS_TEXT_MAX];
	size_t len = strlen(nic->unread);
	int err = linux_captured_failed(ctx, nic->name, group, why, sizeof why);

	if (err == EOPNOTSUPP)
		nic_note(nic, group, err);
	else if (err != 0)
		snprintf(nic->unread + len, OS_TEXT_MAX - len, "%scannot read %s: %s",
		    len > 0 ? "; " : "", group, why);
	return err != 0;
}

/* nic_ethtool's facts from a capture (the box's ethtool text, linux_captured.c). */
static void
nic_captured(struct os_ctx *ctx, struct os_nic *nic)
{
	static const char *const offs[] = { "tso", "gso", "gro", "lro", "rxcsum", "txcsum" };
	int *dst[] = { &nic->tso, &nic->gso, &nic->gro, &nic->lro, &nic->rxcsum, &nic->txcsum };
	char v[OS_TEXT_MAX], key[32];
	size_t i;

	if (!linux_captured_has(ctx, nic->name))
		return;
	if (!captured_failed(ctx, nic, "driver info") &&
	    linux_captured_fact(ctx, nic->name, "driver", v, sizeof v) == 0) {
		if (nic->driver[0] == '\0')
			os_strlcpy(nic->driver, v, sizeof nic->driver);
		if (linux_captured_fact(ctx, nic->name, "driver_version", v, sizeof v) == 0)
			os_strlcpy(nic->driver_version, v, sizeof nic->driver_version);
		if (linux_captured_fact(ctx, nic->name, "firmware", v, sizeof v) == 0)
			os_strlcpy(nic->firmware, v, sizeof nic->firmware);
		if (linux_captured_fact(ctx, nic->name, "bus", v, sizeof v) == 0 &&
		    nic->bus[0] == '\0' && strcmp(v, "N/A") != 0)
			os_strlcpy(nic->bus, v, sizeof nic->bus);
	}
	if (!captured_failed(ctx, nic, "channels") &&
	    linux_captured_int(ctx, nic->name, "channels.combined", &nic->combined_queues) == 0) {
		(void)linux_captured_int(ctx, nic->name, "channels.rx", &nic->rx_queues);
		(void)linux_captured_int(ctx, nic->name, "channels.tx", &nic->tx_queues);
		(void)linux_captured_int(ctx, nic->name, "channels.max.rx", &nic->max_rx_queues);
		(void)linux_captured_int(ctx, nic->name, "channels.max.tx", &nic->max_tx_queues);
		(void)linux_captured_int(ctx, nic->name, "channels.max.combined",
		    &nic->max_combined_queues);
	}
	if (!captured_failed(ctx, nic, "rings") &&
	    linux_captured_int(ctx, nic->name, "ring.rx", &nic->rx_ring) == 0) {
		(void)linux_captured_int(ctx, nic->name, "ring.tx", &nic->tx_ring);
		(void)linux_captured_int(ctx, nic->name, "ring.max.rx", &nic->max_rx_ring);
		(void)linux_captured_int(ctx, nic->name, "ring.max.tx", &nic->max_tx_ring);
	}
	if (!captured_failed(ctx, nic, "coalescing") &&
	    linux_captured_int(ctx, nic->name, "coalesce.rx-usecs", &nic->coalesce_rx_usecs) == 0)
		(void)linux_captured_int(ctx, nic->name, "coalesce.adaptive-rx", &nic->adaptive_rx);
	/* the driver lacks one (EOPNOTSUPP) is no note, as above */
	if (linux_captured_failed(ctx, nic->name, "offloads", v, sizeof v) == EIO) {
		(void)captured_failed(ctx, nic, "offloads");
		return;
	}
	for (i = 0; i < nitems(offs); i++) {
		snprintf(key, sizeof key, "offload.%s", offs[i]);
		if (linux_captured_fact(ctx, nic->name, key, v, sizeof v) == 0)
			*dst[i] = strcmp(v, "on") == 0;
	}
}

static void
queue_irq_info(struct os_ctx *ctx, struct os_queue *q, const struct nic_irq *ni)
{
	char path[PATH_MAX], buf[OS_NAME_MAX];

	q->irq = ni->irq;
	os_strlcpy(q->irq_name, ni->desc, sizeof q->irq_name);
	q->interrupts = ni->total;
	linux_rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", ni->irq);
	if (linux_readval(path, buf, sizeof buf) == 0)
		os_strlcpy(q->irq_affinity, buf, sizeof q->irq_affinity);
	linux_rpath(ctx, path, sizeof path, "/proc/irq/%d/effective_affinity_list", ni->irq);
	if (linux_readval(path, buf, sizeof buf) == 0 && buf[0] != '\0')
		q->irq_cpu = os_cpulist_first(buf);
	else if (q->irq_affinity[0] != '\0')
		q->irq_cpu = os_cpulist_first(q->irq_affinity);
}

static void
nic_queues(struct os_ctx *ctx, struct os_nic *nic)
{
	struct nic_irq *ni;
	size_t nirq, nrx, ntx, n, i, k, j;
	int separate = 0;
	char path[PATH_MAX];

	nrx = linux_count_queues(ctx, nic->name, "rx");
	ntx = linux_count_queues(ctx, nic->name, "tx");
	nirq = linux_nic_queue_irqs(ctx, nic->name, &ni);
	for (i = 0; i < nirq; i++)
		if (strcmp(ni[i].kind, "rxtx") != 0)
			separate = 1;
	if (nic->combined_queues < 0 && nic->rx_queues < 0) {
		nic->rx_queues = (int)nrx;
		nic->tx_queues = (int)ntx;
	}
	n = separate ? nrx + ntx : (nrx > ntx ? nrx : ntx);
	nic->queues = xcalloc(n, sizeof *nic->queues);
	nic->nqueues = n;
	for (k = 0; k < n; k++) {
		struct os_queue *q = &nic->queues[k];
		const char *kind;
		size_t idx;

		if (separate) {
			kind = k < nrx ? "rx" : "tx";
			idx = k < nrx ? k : k - nrx;
		} else {
			idx = k;
			kind = idx < nrx && idx < ntx ? "rxtx" : idx < nrx ? "rx" : "tx";
		}
		q->index = (int)idx;
		os_strlcpy(q->kind, kind, sizeof q->kind);
		q->irq = -1;
		q->irq_cpu = -1;
		if (strcmp(kind, "tx") != 0) {
			linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/rx-%zu/rps_cpus",
			    nic->name, idx);
			linux_readval(path, q->rps_cpus, sizeof q->rps_cpus);
		}
		if (strcmp(kind, "rx") != 0) {
			linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/tx-%zu/xps_cpus",
			    nic->name, idx);
			linux_readval(path, q->xps_cpus, sizeof q->xps_cpus);
		}
		for (j = 0; j < nirq; j++) {
			if (ni[j].index != (int)idx)
				continue;
			if (separate ? strcmp(ni[j].kind, kind) == 0 : 1) {
				queue_irq_info(ctx, q, &ni[j]);
				break;
			}
		}
	}
	free(ni);
}

static int
cmp_nic(const void *a, const void *b)
{
	return strcmp(((const struct os_nic *)a)->name, ((const struct os_nic *)b)->name);
}

int
linux_nics(struct os_ctx *ctx, struct os_nic **out, size_t *nout, char **cause)
{
	char dir[PATH_MAX], path[PATH_MAX], buf[256];
	DIR *d;
	struct dirent *de;
	struct os_nic *v = NULL, *nic;
	size_t n = 0;
	long flags;
	int irq_err;

	*out = NULL;
	*nout = 0;
	linux_rpath(ctx, dir, sizeof dir, "/sys/class/net");
	if ((d = opendir(dir)) == NULL) {
		util_cause(cause, "cannot read '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "lo") == 0 ||
		    strlen(de->d_name) >= OS_NAME_MAX)
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		nic = &v[n++];
		os_nic_init(nic);
		os_strlcpy(nic->name, de->d_name, sizeof nic->name);
	}
	closedir(d);
	if (n > 1)	/* qsort(NULL, 0) is undefined (C11 7.22.5p1; UBSan, fuzz_doctor) */
		qsort(v, n, sizeof *v, cmp_nic);
	linux_rpath(ctx, path, sizeof path, "/proc/interrupts");
	irq_err = access(path, R_OK) == 0 ? 0 : errno;
	for (nic = v; nic < v + n; nic++) {
		if (irq_err != 0)
			nic_note(nic, "its queue interrupts ('/proc/interrupts')", irq_err);
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/device/driver", nic->name);
		linux_link_basename(path, nic->driver, sizeof nic->driver);
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/address", nic->name);
		linux_readval(path, nic->mac, sizeof nic->mac);
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/mtu", nic->name);
		nic->mtu = (int)linux_readlong(path, -1);
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/flags", nic->name);
		flags = linux_readlong(path, 0);
		nic->up = (flags & IFF_UP) != 0;
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/speed", nic->name);
		if (linux_readval(path, buf, sizeof buf) == 0 && atol(buf) > 0)
			nic->speed_mbps = atol(buf);
		nic_pci(ctx, nic);
		nic_pci_name(nic);
		if (linux_live(ctx))
			nic_ethtool(nic);
		else
			nic_captured(ctx, nic);
		nic_queues(ctx, nic);
	}
	*out = v;
	*nout = n;
	return 0;
}
