/*
 * FreeBSD command output, one line at a time: pciconf -lv, ifconfig, vmstat -i,
 * top -P, netstat -i / -Q, cpuset -g -x, dmesg (fbsd_text_scan.c picks the
 * parser of a line); and which drivers are NIC drivers.
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

static const char *const nic_drivers[] = {
	"ix", "ixl", "ixv", "iavf", "ice", "igb", "em", "igc", "lem", "re", "rl", "bge", "bnxt",
	"mlxen", "mce", "cxl", "cc", "vcxl", "ena", "vtnet", "vmx", "ax", "al_eth", "qlnxe", "oce",
	"sfxge", "hn", "xn", "alc", "ale", "age", "nfe", "msk", "sk", "vge", "fxp", "dc", "bce", "bxe",
	"jme", "xl", "dwc", "awg", "cgem", "mvneta", "tsec", "dpaa", "dpni", "enetc", "genet", "axp",
	"ure", "ue", "axe", "axge", "cdce", "lio", "gve", "iflib",
};

int
fbsd_text_is_nic_driver(const char *drv)
{
	size_t i;

	for (i = 0; i < nitems(nic_drivers); i++)
		if (strcmp(drv, nic_drivers[i]) == 0)
			return 1;
	return 0;
}

int
fbsd_text_pciconf_entry(struct fbsd_text *t, const char *line)
{
	const char *at = strchr(line, '@'), *p;
	struct pcidev *d;
	size_t n;
	unsigned long chip;

	if (at == NULL || strncmp(at + 1, "pci", 3) != 0 || !isdigit((unsigned char)at[4]))
		return 0;
	n = (size_t)(at - line);
	if (n == 0 || n >= OS_NAME_MAX)
		return 0;
	for (p = line; p < at; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	t->pci = xreallocarray(t->pci, t->npci + 1, sizeof *t->pci);
	d = &t->pci[t->npci++];
	memset(d, 0, sizeof *d);
	memcpy(d->name, line, n);
	d->name[n] = '\0';
	p = at + 1;
	n = strcspn(p, "\t ");
	if (n > 0 && p[n - 1] == ':')
		n--;
	os_strlcpy(d->sel, p, n + 1 < sizeof d->sel ? n + 1 : sizeof d->sel);
	if ((p = strstr(line, " vendor=0x")) != NULL)
		snprintf(d->vendor_id, sizeof d->vendor_id, "%.4s", p + 10);
	if ((p = strstr(line, " device=0x")) != NULL)
		snprintf(d->device_id, sizeof d->device_id, "%.4s", p + 10);
	if ((p = strstr(line, "chip=0x")) != NULL) {
		/* FreeBSD 12 and older: chip=0xDDDDVVVV */
		chip = strtoul(p + 7, NULL, 16);
		snprintf(d->vendor_id, sizeof d->vendor_id, "%04lx", chip & 0xffff);
		snprintf(d->device_id, sizeof d->device_id, "%04lx", (chip >> 16) & 0xffff);
	}
	if ((p = strstr(line, "class=0x02")) != NULL)
		d->network = 1;
	return 1;
}

int
fbsd_text_pciconf_prop(struct fbsd_text *t, const char *line)
{
	struct pcidev *d;
	const char *p = line, *q;
	char key[16];
	size_t n;

	if (t->npci == 0 || !isspace((unsigned char)*p))
		return 0;
	d = &t->pci[t->npci - 1];
	while (isspace((unsigned char)*p))
		p++;
	n = strcspn(p, " =");
	if (n >= sizeof key)
		return 1;
	memcpy(key, p, n);
	key[n] = '\0';
	if ((q = strchr(p, '=')) == NULL)
		return 1;
	q++;
	while (isspace((unsigned char)*q))
		q++;
	if (*q == '\'') {
		char val[OS_TEXT_MAX];
		size_t l;

		q++;
		os_strlcpy(val, q, sizeof val);
		l = strlen(val);
		if (l > 0 && val[l - 1] == '\'')
			val[l - 1] = '\0';
		if (strcmp(key, "vendor") == 0)
			os_strlcpy(d->vendor, val, sizeof d->vendor);
		else if (strcmp(key, "device") == 0)
			os_strlcpy(d->device, val, sizeof d->device);
		return 1;
	}
	if (strcmp(key, "class") == 0) {
		os_strlcpy(d->cls, q, sizeof d->cls);
		if (strcmp(q, "network") == 0)
			d->network = 1;
	}
	return 1;
}

int
fbsd_text_ifconfig_head(struct fbsd_text *t, const char *line)
{
	const char *colon = strstr(line, ": flags="), *p;
	struct ifc *f;
	size_t n;

	if (colon == NULL)
		return 0;
	n = (size_t)(colon - line);
	if (n == 0 || n >= OS_NAME_MAX)
		return 0;
	for (p = line; p < colon; p++)
		if (!isalnum((unsigned char)*p) && strchr("_.-", *p) == NULL)
			return 0;
	t->ifs = xreallocarray(t->ifs, t->nifs + 1, sizeof *t->ifs);
	f = &t->ifs[t->nifs++];
	memset(f, 0, sizeof *f);
	memcpy(f->name, line, n);
	f->name[n] = '\0';
	f->mtu = -1;
	f->speed = -1;
	f->have_flags = 1;
	p = strchr(colon, '<');
	f->up = p != NULL && (strncmp(p, "<UP,", 4) == 0 || strncmp(p, "<UP>", 4) == 0);
	if ((p = strstr(line, " mtu ")) != NULL)
		f->mtu = atoi(p + 5);
	return 1;
}

static long
media_speed(const char *s)
{
	const char *p;
	double v;
	char *end;

	/* "(10Gbase-T <full-duplex>)", "(1000baseT <full-duplex>)", "(2500Base-T ...)" */
	if ((p = strchr(s, '(')) == NULL)
		return -1;
	p++;
	v = strtod(p, &end);
	if (end == p)
		return -1;
	if (*end == 'G' || *end == 'g')
		return (long)(v * 1000);
	if (strncasecmp(end, "base", 4) == 0)
		return (long)v;
	return -1;
}

int
fbsd_text_ifconfig_prop(struct fbsd_text *t, const char *line)
{
	struct ifc *f;
	const char *p = line, *lt;

	if (t->nifs == 0 || !isspace((unsigned char)*p))
		return 0;
	f = &t->ifs[t->nifs - 1];
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "ether ", 6) == 0)
		os_strlcpy(f->mac, p + 6, sizeof f->mac);
	else if (strncmp(p, "options=", 8) == 0) {
		if ((lt = strchr(p, '<')) != NULL)
			os_strlcpy(f->options, lt, sizeof f->options);
	}
	else if (strncmp(p, "media:", 6) == 0)
		f->speed = media_speed(p);
	return 1;
}

int
fbsd_text_vmstat_line(struct fbsd_text *t, const char *line, int in_vmstat, int *cut)
{
	uint64_t total, rate;
	size_t start, n;
	struct vmirq *q;
	char name[OS_NAME_MAX];
	const char *p;

	*cut = 0;
	if (!fbsd_text_two_ints(line, &total, &rate, &start)) {
		/* "irq149: em0:irq0" with its counts cut off */
		if (in_vmstat && strncmp(line, "irq", 3) == 0 && isdigit((unsigned char)line[3]) &&
		    strchr(line, ':') != NULL)
			*cut = 1;
		return 0;
	}
	n = start;
	while (n > 0 && isspace((unsigned char)line[n - 1]))
		n--;
	if (n == 0 || n >= sizeof name)
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	if (!in_vmstat && !(strncmp(name, "irq", 3) == 0 && isdigit((unsigned char)name[3])) &&
	    !(strncmp(name, "cpu", 3) == 0 && strstr(name, ":timer") != NULL))
		return 0;
	if (strcmp(name, "Total") == 0)
		return 1;
	t->irq = xreallocarray(t->irq, t->nirq + 1, sizeof *t->irq);
	q = &t->irq[t->nirq++];
	memset(q, 0, sizeof *q);
	os_strlcpy(q->name, name, sizeof q->name);
	q->total = total;
	q->irq = -1;
	if (strncmp(name, "irq", 3) == 0 && (p = strchr(name, ':')) != NULL) {
		q->irq = atoi(name + 3);
		p++;
		while (*p == ' ')
			p++;
		os_strlcpy(q->desc, p, sizeof q->desc);
	} else
		os_strlcpy(q->desc, name, sizeof q->desc);
	return 1;
}

int
fbsd_text_top_line(struct fbsd_text *t, const char *line, int *cut)
{
	int cpu, rc;
	double v[5];

	*cut = 0;
	if ((rc = os_top_cpu_line(line, &cpu, v)) == 0)
		return 0;
	if (rc < 0) {
		*cut = 1;
		return 1;
	}
	if (cpu == 0) {
		t->nload = 0;
		t->load_complete = 1;
	}
	if ((size_t)cpu != t->nload)
		return 1;
	t->load = xreallocarray(t->load, t->nload + 1, sizeof *t->load);
	memcpy(t->load[t->nload++], v, sizeof v);
	return 1;
}

int
fbsd_text_netstat_i_row(struct fbsd_text *t, const char *line)
{
	char name[OS_NAME_MAX], mtu[16], net[64], addr[64];
	unsigned long long f[9];
	struct ifc *fc = NULL;
	size_t i, l;

	int got;

	got = sscanf(line, "%63s %15s %63s %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu", name,
	    mtu, net, addr, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8]);
	if (got >= 4 && strncmp(net, "<Link#", 6) != 0)
		return 1;	/* an address row */
	if (got < 11)
		return 0;
	l = strlen(name);
	if (l > 0 && name[l - 1] == '*')
		name[l - 1] = '\0';
	for (i = 0; i < t->nifs; i++)
		if (strcmp(t->ifs[i].name, name) == 0)
			fc = &t->ifs[i];
	if (fc == NULL) {
		t->ifs = xreallocarray(t->ifs, t->nifs + 1, sizeof *t->ifs);
		fc = &t->ifs[t->nifs++];
		memset(fc, 0, sizeof *fc);
		os_strlcpy(fc->name, name, sizeof fc->name);
		fc->speed = -1;
		fc->mtu = atoi(mtu);
		fc->up = l > 0 && line[l - 1] != '*';
	}
	if (fc->mac[0] == '\0' && strchr(addr, ':') != NULL)
		os_strlcpy(fc->mac, addr, sizeof fc->mac);
	fc->counters = 1;
	os_strlcpy(fc->c.name, name, sizeof fc->c.name);
	fc->c.ipackets = f[0];
	fc->c.ierrors = f[1];
	fc->c.idrops = f[2];
	fc->c.ibytes = f[3];
	fc->c.opackets = f[4];
	fc->c.oerrors = f[5];
	fc->c.obytes = f[6];
	fc->c.odrops = f[8];
	return 1;
}

int
fbsd_text_netstat_q_row(struct fbsd_text *t, const char *line)
{
	static const struct {
		const char *label, *cur, *lim;
	} rows[] = {
		{ "Thread count", "net.isr.numthreads", "net.isr.maxthreads" },
		{ "Default queue limit", "net.isr.defaultqlimit", "net.isr.maxqlimit" },
		{ "Dispatch policy", "net.isr.dispatch", NULL },
		{ "Threads bound to CPUs", "net.isr.bindthreads", NULL },
	};
	size_t i;
	char cur[64], lim[64];

	for (i = 0; i < nitems(rows); i++) {
		if (strncmp(line, rows[i].label, strlen(rows[i].label)) != 0)
			continue;
		if (sscanf(line + strlen(rows[i].label), "%63s %63s", cur, lim) != 2)
			return 0;
		if (strcmp(cur, "enabled") == 0)
			strcpy(cur, "1");
		else if (strcmp(cur, "disabled") == 0)
			strcpy(cur, "0");
		if (fbsd_text_value(t, rows[i].cur) == NULL)
			fbsd_text_sysctl(t, rows[i].cur, cur);
		if (rows[i].lim != NULL && strcmp(lim, "n/a") != 0 && fbsd_text_value(t, rows[i].lim) == NULL)
			fbsd_text_sysctl(t, rows[i].lim, lim);
		return 1;
	}
	return 0;
}

/* `cpuset -g -x IRQ`: "irq 264 mask: 0, 4" */
int
fbsd_text_cpuset_line(struct fbsd_text *t, const char *line)
{
	unsigned char set[OS_MAXCPU];
	char list[OS_TEXT_MAX], *w;
	const char *p, *r;
	int irq;
	size_t i;

	if (sscanf(line, "irq %d mask:", &irq) != 1 || (p = strstr(line, "mask:")) == NULL)
		return 0;
	for (r = p + 5, w = list; *r != '\0' && w < list + sizeof list - 1; r++)
		if (*r != ' ' && *r != '\t')
			*w++ = *r;
	*w = '\0';
	if (os_cpulist_parse(list, set, NULL) != 0)
		return 0;
	for (i = 0; i < t->nmasks && t->masks[i].irq != irq; i++)
		;
	if (i == t->nmasks) {
		t->masks = xreallocarray(t->masks, t->nmasks + 1, sizeof *t->masks);
		t->nmasks++;
	}
	t->masks[i].irq = irq;
	os_cpulist_format(set, t->masks[i].cpus, sizeof t->masks[i].cpus);
	return 1;
}

static struct dnic *
dnic_get(struct fbsd_text *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ndn; i++)
		if (strcmp(t->dn[i].name, name) == 0)
			return &t->dn[i];
	t->dn = xreallocarray(t->dn, t->ndn + 1, sizeof *t->dn);
	memset(&t->dn[t->ndn], 0, sizeof *t->dn);
	os_strlcpy(t->dn[t->ndn].name, name, sizeof t->dn[t->ndn].name);
	t->dn[t->ndn].rxq = t->dn[t->ndn].txq = t->dn[t->ndn].rxd = t->dn[t->ndn].txd = -1;
	return &t->dn[t->ndn++];
}

int
fbsd_text_dmesg_line(struct fbsd_text *t, const char *line)
{
	const char *colon, *p;
	char name[OS_NAME_MAX], drv[OS_NAME_MAX];
	struct dnic *d;
	int a, b;
	size_t n;

	if (strncmp(line, "CPU: ", 5) == 0) {
		char model[OS_TEXT_MAX], *paren;

		os_strlcpy(model, line + 5, sizeof model);
		if ((paren = strstr(model, " (")) != NULL && strstr(paren, "-MHz") != NULL)
			*paren = '\0';
		os_strlcpy(t->cpu_model, util_trim(model), sizeof t->cpu_model);
		return 1;
	}
	if (strncmp(line, "FreeBSD/SMP: ", 13) == 0) {
		int c;

		if ((p = strstr(line, "Detected: ")) != NULL)
			t->d_ncpu = atoi(p + 10);
		else if (sscanf(line + 13, "%d package(s) x %d core(s) x %d hardware threads",
		    &a, &b, &c) == 3) {
			t->d_pkgs = a;
			t->d_cores = a * b;
			t->d_threads = c;
		} else if (sscanf(line + 13, "%d package(s) x %d core(s)", &a, &b) == 2) {
			t->d_pkgs = a;
			t->d_cores = a * b;
			t->d_threads = 1;
		}
		return 1;
	}
	if (strncmp(line, "FreeBSD ", 8) == 0 && isdigit((unsigned char)line[8])) {
		n = strcspn(line + 8, " ");
		os_strlcpy(t->os_release, line + 8, n + 1 < sizeof t->os_release ? n + 1 :
		    sizeof t->os_release);
		return 1;
	}
	if ((colon = strstr(line, ": ")) == NULL)
		return 0;
	n = (size_t)(colon - line);
	if (n >= sizeof name || !fbsd_text_is_devname(line, n))
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	util_ifname_unit(name, drv, sizeof drv);
	p = colon + 2;
	if (!fbsd_text_is_nic_driver(drv))
		return 1;
	d = dnic_get(t, name);
	if (*p == '<' && d->desc[0] == '\0') {
		const char *e = strchr(p, '>');

		if (e != NULL)
			os_strlcpy(d->desc, p + 1, (size_t)(e - p) < sizeof d->desc ? (size_t)(e - p) :
			    sizeof d->desc);
	} else if (sscanf(p, "Using %d RX queues %d TX queues", &a, &b) == 2) {
		d->rxq = a;
		d->txq = b;
	} else if (sscanf(p, "Using %d TX descriptors and %d RX descriptors", &a, &b) == 2) {
		d->txd = a;
		d->rxd = b;
	} else if (sscanf(p, "netmap queues/slots: TX %d/%d, RX", &a, &b) == 2) {
		if (d->txd < 0)
			d->txd = b;
		if ((p = strstr(p, "RX ")) != NULL && sscanf(p, "RX %d/%d", &a, &b) == 2 && d->rxd < 0)
			d->rxd = b;
	} else if (strncmp(p, "Ethernet address: ", 18) == 0)
		os_strlcpy(d->mac, p + 18, sizeof d->mac);
	return 1;
}
