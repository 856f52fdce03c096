/*
 * Interrupts from /proc/interrupts (the irqs op), and a NIC's interrupt vectors
 * from them and the sysfs MSI lists.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

int
linux_irqs(struct os_ctx *ctx, struct os_irq **out, size_t *nout, char **cause)
{
	char path[PATH_MAX], *data, *line, *save, *p, *end;
	size_t len, ncpu = 0, n = 0, i;
	struct os_irq *v = NULL, *q;

	*out = NULL;
	*nout = 0;
	linux_rpath(ctx, path, sizeof path, "/proc/interrupts");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	line = strtok_r(data, "\n", &save);
	if (line != NULL)
		for (p = line; (p = strstr(p, "CPU")) != NULL; p += 3)
			ncpu++;
	if (ncpu == 0) {
		free(data);
		util_cause(cause, "'%s': no CPU header line", path);
		return -1;
	}
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		char *colon = strchr(line, ':'), *name;
		int ntok = 0;

		if (colon == NULL)
			continue;
		*colon = '\0';
		name = util_trim(line);
		v = xreallocarray(v, n + 1, sizeof *v);
		q = &v[n++];
		memset(q, 0, sizeof *q);
		os_strlcpy(q->name, name, sizeof q->name);
		q->per_cpu = xcalloc(ncpu, sizeof *q->per_cpu);
		q->ncpu = ncpu;
		p = colon + 1;
		for (i = 0; i < ncpu; i++) {
			unsigned long long c;

			while (*p == ' ')
				p++;
			if (!isdigit((unsigned char)*p))
				break;
			c = strtoull(p, &end, 10);
			p = end;
			q->per_cpu[i] = c;
			q->total += c;
		}
		p = util_trim(p);
		if (isdigit((unsigned char)name[0])) {
			/* "chip  hwirq-type  device[, device]": skip the first two words. */
			while (*p != '\0' && ntok < 2) {
				while (*p != '\0' && !isspace((unsigned char)*p))
					p++;
				while (isspace((unsigned char)*p))
					p++;
				ntok++;
			}
		}
		os_strlcpy(q->desc, p, sizeof q->desc);
	}
	free(data);
	*out = v;
	*nout = n;
	return 0;
}

static void
classify_irq(const char *desc, struct nic_irq *q)
{
	char low[OS_NAME_MAX];
	size_t i, n;
	const char *p;

	for (i = 0; i + 1 < sizeof low && desc[i] != '\0'; i++)
		low[i] = (char)tolower((unsigned char)desc[i]);
	low[i] = '\0';
	q->kind[0] = '\0';
	q->index = -1;
	n = strlen(low);
	while (n > 0 && !isdigit((unsigned char)low[n - 1]))
		n--;
	if (n == 0)
		return;
	p = low + n;
	while (p > low && isdigit((unsigned char)p[-1]))
		p--;
	if (strstr(low, "config") || strstr(low, "misc") || strstr(low, "ctrl") ||
	    strstr(low, "-aq") || strstr(low, ":aq") || strstr(low, "lsc") || strstr(low, "link") ||
	    strstr(low, "event") || strstr(low, "async") || strstr(low, "fdir"))
		return;
	q->index = atoi(p);
	if (strstr(low, "txrx") || strstr(low, "rxtx") || strstr(low, "tx-rx") ||
	    strstr(low, "combined") || strstr(low, "comp"))
		os_strlcpy(q->kind, "rxtx", sizeof q->kind);
	else if (strstr(low, "input") || strstr(low, "rx"))
		os_strlcpy(q->kind, "rx", sizeof q->kind);
	else if (strstr(low, "output") || strstr(low, "tx"))
		os_strlcpy(q->kind, "tx", sizeof q->kind);
	else
		os_strlcpy(q->kind, "rxtx", sizeof q->kind);
}

static int
has_irq(const int *v, size_t n, int irq)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == irq)
			return 1;
	return 0;
}

/* MSI vectors of the NIC's device (or its parent, for virtio), from sysfs. */
static size_t
msi_irqs(struct os_ctx *ctx, const char *ifname, int **out)
{
	static const char *const dirs[] = { "device/msi_irqs", "device/../msi_irqs" };
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int *v = NULL;
	size_t n = 0, i;

	for (i = 0; i < nitems(dirs) && n == 0; i++) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, dirs[i]);
		if ((d = opendir(path)) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = atoi(de->d_name);
		}
		closedir(d);
	}
	*out = v;
	return n;
}

static int
name_mentions(const char *desc, const char *ifname)
{
	size_t n = strlen(ifname);
	const char *p;

	for (p = strstr(desc, ifname); p != NULL; p = strstr(p + 1, ifname)) {
		if (p != desc && isalnum((unsigned char)p[-1]))
			continue;
		if (p[n] == '\0' || p[n] == '-' || p[n] == ' ' || p[n] == ':' || p[n] == ',' ||
		    p[n] == '@')
			return 1;
	}
	return 0;
}

/* The NIC's interrupt vectors (queues and others), in IRQ order. */
static size_t
nic_irqs(struct os_ctx *ctx, const char *ifname, struct nic_irq **out)
{
	struct os_irq *irqs = NULL;
	struct nic_irq *v = NULL;
	size_t nirq = 0, n = 0, nmsi, i;
	int *msi, irq;
	char *end;

	*out = NULL;
	nmsi = msi_irqs(ctx, ifname, &msi);
	if (linux_irqs(ctx, &irqs, &nirq, NULL) != 0) {
		free(msi);
		return 0;
	}
	for (i = 0; i < nirq; i++) {
		irq = (int)strtol(irqs[i].name, &end, 10);
		if (end == irqs[i].name || *end != '\0')
			continue;
		if (!has_irq(msi, nmsi, irq) && !name_mentions(irqs[i].desc, ifname))
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		v[n].irq = irq;
		os_strlcpy(v[n].desc, irqs[i].desc, sizeof v[n].desc);
		v[n].total = irqs[i].total;
		classify_irq(irqs[i].desc, &v[n]);
		/*
		 * The vector named the interface alone is its "other" (link, mailbox) vector,
		 * not a queue: igb and ixgbe request it with netdev->name (igb_main.c and
		 * ixgbe_main.c, igb_request_msix / ixgbe_request_msix_irqs: igb_msix_other).
		 */
		if (strcmp(irqs[i].desc, ifname) == 0) {
			v[n].kind[0] = '\0';
			v[n].index = -1;
		}
		n++;
	}
	free(msi);
	os_irqs_free(irqs, nirq);
	*out = v;
	return n;
}

size_t
linux_nic_queue_irqs(struct os_ctx *ctx, const char *ifname, struct nic_irq **out)
{
	struct nic_irq *v;
	size_t n, i, k = 0;

	n = nic_irqs(ctx, ifname, &v);
	for (i = 0; i < n; i++)
		if (v[i].kind[0] != '\0')
			v[k++] = v[i];
	*out = v;
	return k;
}
