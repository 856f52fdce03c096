/*
 * FreeBSD text parsers (see fbsd_text.h), and the Linux text a user may paste
 * instead of a snapshot (ethtool -l, -g, -i and /proc/interrupts). Every line is classified by its own
 * shape, so outputs pasted one after another in a file are taken apart; what is
 * cut short is reported as "path:line: ..." and the rest is still used.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/os_impl.h"
#include "os/os_json.h"
#include "os/platform.h"
#include "util/util.h"

struct pcidev {
	char	name[OS_NAME_MAX];	/* ix0, or none12 */
	char	sel[OS_NAME_MAX];	/* pci0:21:0:0 */
	char	vendor_id[8], device_id[8];
	char	vendor[OS_TEXT_MAX], device[OS_TEXT_MAX];
	char	cls[32];
	int	network;
};

struct vmirq {
	char	 name[OS_NAME_MAX];	/* "irq264: ix0:rxq0" as vmstat -i prints it */
	char	 desc[OS_NAME_MAX];	/* "ix0:rxq0" */
	int	 irq;
	uint64_t total;
};

struct ifc {
	char	 name[OS_NAME_MAX];
	int	 mtu, up, have_flags;
	char	 mac[24];
	char	 options[OS_TEXT_MAX];
	long	 speed;
	int	 counters;
	struct os_if_counters c;
};

struct dnic {
	char	name[OS_NAME_MAX];
	char	desc[OS_TEXT_MAX];
	int	rxq, txq, rxd, txd;
	char	mac[24];
};

struct fbsd_text {
	json_t		*sysctls;
	json_t		*errors;
	struct pcidev	*pci;
	size_t		 npci;
	struct vmirq	*irq;
	size_t		 nirq;
	struct ifc	*ifs;
	size_t		 nifs;
	struct dnic	*dn;
	size_t		 ndn;
	char		 cpu_model[OS_TEXT_MAX];
	char		 os_release[OS_TEXT_MAX];
	int		 d_ncpu, d_pkgs, d_cores, d_threads;
	double		(*load)[5];
	size_t		 nload;
	int		 load_complete;
	char		*topology;
	char		 topology_from[OS_TEXT_MAX];
	struct irqmask {
		int	 irq;
		char	 cpus[OS_NAME_MAX];
	}		*masks;		/* cpuset -g -x IRQ */
	size_t		 nmasks;
	struct lnic {
		char	 name[OS_NAME_MAX];
		char	 driver[OS_NAME_MAX], version[OS_NAME_MAX], firmware[OS_TEXT_MAX];
		char	 bus[OS_NAME_MAX];
		int	 ch[2][4];	/* [max, current][rx, tx, other, combined] */
		int	 ring[2][2];	/* [max, current][rx, tx] */
	}		*lnics;
	size_t		 nlnics;
	struct os_irq	*lirqs;		/* /proc/interrupts rows */
	size_t		 nlirqs;
	size_t		 lirq_ncpu;
	char		 kinds[256];
};

enum mode { M_NONE, M_SYSCTL, M_PCICONF, M_IFCONFIG, M_NETSTAT_I, M_NETSTAT_Q, M_VMSTAT,
    M_TOP_PROCS };

struct fbsd_text *
fbsd_text_new(void)
{
	struct fbsd_text *t = xcalloc(1, sizeof *t);

	t->sysctls = json_object();
	t->errors = json_array();
	t->d_ncpu = t->d_pkgs = t->d_cores = t->d_threads = -1;
	return t;
}

void
fbsd_text_free(struct fbsd_text *t)
{
	if (t == NULL)
		return;
	json_decref(t->sysctls);
	json_decref(t->errors);
	free(t->pci);
	free(t->irq);
	free(t->ifs);
	free(t->dn);
	free(t->load);
	free(t->topology);
	free(t->masks);
	free(t->lnics);
	os_irqs_free(t->lirqs, t->nlirqs);
	free(t);
}

static void
kind(struct fbsd_text *t, const char *k)
{
	char pat[64];

	snprintf(pat, sizeof pat, " %s ", k);
	{
		char cur[260];

		snprintf(cur, sizeof cur, " %s ", t->kinds);
		if (strstr(cur, pat) != NULL)
			return;
	}
	if (t->kinds[0] != '\0')
		strncat(t->kinds, " ", sizeof t->kinds - strlen(t->kinds) - 1);
	strncat(t->kinds, k, sizeof t->kinds - strlen(t->kinds) - 1);
}

const char *
fbsd_text_kinds(struct fbsd_text *t)
{
	return t->kinds;
}

static void
error(struct fbsd_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
error(struct fbsd_text *t, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	json_array_append_new(t->errors, json_string(msg));
	free(msg);
}

static void utf8_clean(unsigned char *);

void
fbsd_text_sysctl(struct fbsd_text *t, const char *name, const char *value)
{
	json_t *v;
	char *n, *c;

	if ((v = json_string(value)) == NULL) {
		c = xstrdup(value);
		utf8_clean((unsigned char *)c);
		v = json_string(c);
		free(c);
	}
	n = xstrdup(name);
	utf8_clean((unsigned char *)n);
	json_object_set_new(t->sysctls, n, v);
	free(n);
}

static const char *
sysctl(struct fbsd_text *t, const char *name)
{
	json_t *v = json_object_get(t->sysctls, name);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static long
sysctl_long(struct fbsd_text *t, const char *name, long def)
{
	const char *v = sysctl(t, name);
	char *end;
	long l;

	if (v == NULL)
		return def;
	l = strtol(v, &end, 10);
	return end == v ? def : l;
}

/* ---- line shapes ---- */

static int
is_sysctl_name(const char *s, size_t n)
{
	size_t i;
	int dot = 0;

	if (n == 0 || !isalpha((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dot = 1;
		else if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '%' && s[i] != '-')
			return 0;
	}
	return dot && s[n - 1] != '.';
}

/* "name: value" with a dotted name: a sysctl line. */
static int
sysctl_line(const char *line, char *name, size_t nlen, const char **value)
{
	const char *colon = strstr(line, ": ");
	size_t n;

	if (colon == NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] == ':' && is_sysctl_name(line, n - 1)) {
			os_strlcpy(name, line, n < nlen ? n : nlen);
			*value = line + n;
			return 1;
		}
		return 0;
	}
	n = (size_t)(colon - line);
	if (!is_sysctl_name(line, n) || n >= nlen)
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	*value = colon + 2;
	return 1;
}

/* "name=value" (loader.conf / sysctl.conf). */
static int
conf_line(const char *line)
{
	const char *eq = strchr(line, '=');

	return eq != NULL && is_sysctl_name(line, (size_t)(eq - line));
}

static int
is_devname(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (islower((unsigned char)s[i]) || s[i] == '_'))
		i++;
	if (i == 0 || i == n)
		return 0;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	return i == n && isdigit((unsigned char)s[n - 1]);
}

static void
split_driver(const char *name, char *drv, size_t len, int *unit)
{
	size_t n = strlen(name);

	while (n > 0 && isdigit((unsigned char)name[n - 1]))
		n--;
	os_strlcpy(drv, name, n + 1 < len ? n + 1 : len);
	*unit = name[n] != '\0' ? atoi(name + n) : -1;
}

static int
trailing_two_ints(const char *line, uint64_t *a, uint64_t *b, size_t *start)
{
	const char *p = line + strlen(line), *e2, *s2, *e1, *s1;

	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	e2 = p;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	s2 = p;
	if (s2 == e2 || p == line || !isspace((unsigned char)p[-1]))
		return 0;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	e1 = p;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	s1 = p;
	if (s1 == e1 || p == line || !isspace((unsigned char)p[-1]))
		return 0;
	*a = strtoull(s1, NULL, 10);
	*b = strtoull(s2, NULL, 10);
	*start = (size_t)(s1 - line);
	return 1;
}

/* ---- per-kind line parsers ---- */

static int
pciconf_entry(struct fbsd_text *t, const char *line)
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

static int
pciconf_prop(struct fbsd_text *t, const char *line)
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

static int
ifconfig_head(struct fbsd_text *t, const char *line)
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

static int
ifconfig_prop(struct fbsd_text *t, const char *line)
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

static int
vmstat_line(struct fbsd_text *t, const char *line, int in_vmstat, int *cut)
{
	uint64_t total, rate;
	size_t start, n;
	struct vmirq *q;
	char name[OS_NAME_MAX];
	const char *p;

	*cut = 0;
	if (!trailing_two_ints(line, &total, &rate, &start)) {
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

static int
top_line(struct fbsd_text *t, const char *line, int *cut)
{
	int cpu, i;
	const char *p;
	double v[5];
	static const char *const keys[] = { "user", "nice", "system", "interrupt", "idle" };
	char *end;

	*cut = 0;
	if (strncmp(line, "CPU ", 4) != 0)
		return 0;
	p = line + 4;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	cpu = atoi(p);
	if ((p = strchr(p, ':')) == NULL || cpu < 0 || cpu >= OS_MAXCPU)
		return 0;
	p++;
	for (i = 0; i < 5; i++) {
		while (*p == ' ' || *p == ',')
			p++;
		v[i] = strtod(p, &end);
		if (end == p || *end != '%') {
			*cut = 1;
			return 1;
		}
		p = end + 1;
		while (*p == ' ')
			p++;
		if (strncmp(p, keys[i], strlen(keys[i])) != 0) {
			*cut = 1;
			return 1;
		}
		p += strlen(keys[i]);
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

static int
netstat_i_row(struct fbsd_text *t, const char *line)
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

static int
netstat_q_row(struct fbsd_text *t, const char *line)
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
		if (sysctl(t, rows[i].cur) == NULL)
			fbsd_text_sysctl(t, rows[i].cur, cur);
		if (rows[i].lim != NULL && strcmp(lim, "n/a") != 0 && sysctl(t, rows[i].lim) == NULL)
			fbsd_text_sysctl(t, rows[i].lim, lim);
		return 1;
	}
	return 0;
}

/* `cpuset -g -x IRQ`: "irq 264 mask: 0, 4" */
static int
cpuset_line(struct fbsd_text *t, const char *line)
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

static int is_nic_driver(const char *);

static int
dmesg_line(struct fbsd_text *t, const char *line)
{
	const char *colon, *p;
	char name[OS_NAME_MAX], drv[OS_NAME_MAX];
	struct dnic *d;
	int unit, a, b;
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
	if (n >= sizeof name || !is_devname(line, n))
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	split_driver(name, drv, sizeof drv, &unit);
	p = colon + 2;
	if (!is_nic_driver(drv))
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

/* ---- file classification ---- */

static int
linux_text(const char *line)
{
	return strncmp(line, "Channel parameters for ", 23) == 0 ||
	    strncmp(line, "Ring parameters for ", 20) == 0 ||
	    strncmp(line, "driver: ", 8) == 0 || strncmp(line, "Features for ", 13) == 0 ||
	    (strstr(line, "CPU0") != NULL && strstr(line, "CPU1") != NULL && line[0] == ' ') ||
	    strstr(line, "-edge ") != NULL || strstr(line, "PCI-MSI") != NULL;
}

/* ---- Linux text: ethtool -l / -g / -i, /proc/interrupts ---- */

static struct lnic *
lnic_get(struct fbsd_text *t, const char *name)
{
	struct lnic *n;
	size_t i;

	for (i = 0; i < t->nlnics; i++)
		if (strcmp(t->lnics[i].name, name) == 0)
			return &t->lnics[i];
	t->lnics = xreallocarray(t->lnics, t->nlnics + 1, sizeof *t->lnics);
	n = &t->lnics[t->nlnics++];
	memset(n, 0, sizeof *n);
	os_strlcpy(n->name, name, sizeof n->name);
	memset(n->ch, -1, sizeof n->ch);
	memset(n->ring, -1, sizeof n->ring);
	return n;
}

/* "  30:  3551364829  0  1   PCI-MSI 262144-edge  eth0-0" */
static int
is_irq_row(const char *line)
{
	const char *p = line;

	const char *s;

	while (*p == ' ')
		p++;
	/* a number, or a three-letter counter (NMI, LOC, RES...) */
	for (s = p; isdigit((unsigned char)*p); p++)
		;
	if (p == s) {
		for (; isupper((unsigned char)*p); p++)
			;
		if (p - s != 3)
			return 0;
	}
	if (*p != ':')
		return 0;
	p++;
	while (*p == ' ')
		p++;
	return isdigit((unsigned char)*p);
}

static int
is_linux_text(const char *text)
{
	const char *p = text;

	while (isspace((unsigned char)*p) && *p != '\0' && strncmp(p, " ", 1) == 0 &&
	    strncmp(p, "   ", 3) != 0)
		p++;
	while (*p == '\n')
		p++;
	return strncmp(p, "Channel parameters for ", 23) == 0 ||
	    strncmp(p, "Ring parameters for ", 20) == 0 || strncmp(p, "driver: ", 8) == 0 ||
	    strncmp(p, "Features for ", 13) == 0 ||
	    (strstr(p, "CPU0") != NULL && strstr(p, "CPU0") < strchr(p, '\n') &&
	    strspn(p, " ") > 0) || is_irq_row(p);
}

static void
irq_row(struct fbsd_text *t, const char *line, const char *path, size_t lineno, int last)
{
	char name[OS_NAME_MAX], *end;
	const char *p = line, *colon = strchr(line, ':');
	unsigned long long v[OS_MAXCPU];
	size_t n = 0, i;
	struct os_irq *q;

	while (*p == ' ')
		p++;
	if ((size_t)(colon - p) >= sizeof name)
		return;
	memcpy(name, p, (size_t)(colon - p));
	name[colon - p] = '\0';
	for (p = colon + 1; n < OS_MAXCPU; n++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v[n] = strtoull(p, &end, 10);
		p = end;
	}
	while (*p == ' ')
		p++;
	if (t->lirq_ncpu == 0)
		t->lirq_ncpu = n;	/* a fragment without its CPU header */
	if (n < t->lirq_ncpu || (*p == '\0' && isdigit((unsigned char)name[0]) && last)) {
		error(t, "%s:%zu: /proc/interrupts line cut short: '%s'", path, lineno, line);
		if (n < t->lirq_ncpu)
			return;
	}
	t->lirqs = xreallocarray(t->lirqs, t->nlirqs + 1, sizeof *t->lirqs);
	q = &t->lirqs[t->nlirqs++];
	memset(q, 0, sizeof *q);
	os_strlcpy(q->name, name, sizeof q->name);
	q->ncpu = t->lirq_ncpu;
	q->per_cpu = xcalloc(q->ncpu + 1, sizeof *q->per_cpu);
	for (i = 0; i < q->ncpu; i++) {
		q->per_cpu[i] = v[i];
		q->total += v[i];
	}
	/* "chip hwirq-type device": the device is the last word */
	if ((end = strrchr(p, ' ')) != NULL && isdigit((unsigned char)name[0]))
		p = end + 1;
	os_strlcpy(q->desc, p, sizeof q->desc);
}

static void
linux_file(struct fbsd_text *t, char *text, const char *path)
{
	char *line, *next, key[64];
	const char *v, *colon;
	struct lnic *cur = NULL, info;
	int sec = 0, sub = 0, have_info = 0, val;
	size_t lineno = 0, k;
	static const char *const chkeys[] = { "RX", "TX", "Other", "Combined" };

	memset(&info, 0, sizeof info);
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		if (strncmp(line, "Channel parameters for ", 23) == 0 ||
		    strncmp(line, "Ring parameters for ", 20) == 0) {
			char nm[OS_NAME_MAX];

			sec = line[0] == 'C' ? 1 : 2;
			os_strlcpy(nm, strstr(line, " for ") + 5, sizeof nm);
			if (strlen(nm) > 0 && nm[strlen(nm) - 1] == ':')
				nm[strlen(nm) - 1] = '\0';
			cur = lnic_get(t, nm);
			kind(t, sec == 1 ? "ethtool-l" : "ethtool-g");
			continue;
		}
		if (strncmp(line, "Pre-set maximums:", 17) == 0) {
			sub = 0;
			continue;
		}
		if (strncmp(line, "Current hardware settings:", 26) == 0) {
			sub = 1;
			continue;
		}
		if (strstr(line, "CPU0") != NULL && !is_irq_row(line)) {
			t->lirq_ncpu = 0;
			for (v = line; (v = strstr(v, "CPU")) != NULL; v += 3)
				t->lirq_ncpu++;
			kind(t, "interrupts");
			continue;
		}
		if (is_irq_row(line)) {
			size_t nerr = json_array_size(t->errors);

			irq_row(t, line, path, lineno, next == NULL || *next == '\0');
			kind(t, "interrupts");
			/* cat /proc/interrupts ends with a newline: without one, the paste was cut */
			if (next == NULL && json_array_size(t->errors) == nerr)
				error(t, "%s:%zu: /proc/interrupts text ends without a newline: its last line "
				    "may be cut short", path, lineno);
			continue;
		}
		if ((colon = strchr(line, ':')) == NULL || (size_t)(colon - line) >= sizeof key)
			continue;
		memcpy(key, line, (size_t)(colon - line));
		key[colon - line] = '\0';
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		val = isdigit((unsigned char)*v) ? atoi(v) : -1;
		if (cur != NULL && sec == 1) {
			for (k = 0; k < nitems(chkeys); k++)
				if (strcmp(key, chkeys[k]) == 0)
					cur->ch[sub][k] = val;
		} else if (cur != NULL && sec == 2) {
			if (strcmp(key, "RX") == 0)
				cur->ring[sub][0] = val;
			else if (strcmp(key, "TX") == 0)
				cur->ring[sub][1] = val;
		}
		if (strcmp(key, "driver") == 0) {
			os_strlcpy(info.driver, v, sizeof info.driver);
			have_info = 1;
			kind(t, "ethtool-i");
		} else if (strcmp(key, "version") == 0)
			os_strlcpy(info.version, v, sizeof info.version);
		else if (strcmp(key, "firmware-version") == 0)
			os_strlcpy(info.firmware, v, sizeof info.firmware);
		else if (strcmp(key, "bus-info") == 0)
			os_strlcpy(info.bus, v, sizeof info.bus);
	}
	if (have_info) {
		/* ethtool -i does not print the interface's name */
		struct lnic *n = NULL;

		if (t->nlnics == 1 && t->lnics[0].driver[0] == '\0')
			n = &t->lnics[0];
		else {
			char nm[OS_NAME_MAX];

			snprintf(nm, sizeof nm, "(%.48s)", info.bus[0] != '\0' ? info.bus : "unnamed");
			n = lnic_get(t, nm);
		}
		os_strlcpy(n->driver, info.driver, sizeof n->driver);
		os_strlcpy(n->version, info.version, sizeof n->version);
		os_strlcpy(n->firmware, info.firmware, sizeof n->firmware);
		os_strlcpy(n->bus, info.bus, sizeof n->bus);
	}
}

/* The interface an IRQ's name belongs to: "eth0-0", "i40e-enP1s15-TxRx-3" -> enP1s15. */
static int
irq_ifname(const char *desc, char *name, size_t len, int *index, char *qkind, size_t klen)
{
	char buf[OS_NAME_MAX], *tok[8], *save, *w;
	size_t n = 0, i;

	os_strlcpy(buf, desc, sizeof buf);
	for (w = strtok_r(buf, "-", &save); w != NULL && n < nitems(tok); w = strtok_r(NULL, "-", &save))
		tok[n++] = w;
	if (n < 2 || strspn(tok[n - 1], "0123456789") != strlen(tok[n - 1]) ||
	    strchr(desc, ':') != NULL)
		return -1;
	*index = atoi(tok[n - 1]);
	for (i = 1; i + 1 < n; i++)
		if (strcasecmp(tok[i], "TxRx") == 0 || strcasecmp(tok[i], "rxtx") == 0 ||
		    strcasecmp(tok[i], "rx") == 0 || strcasecmp(tok[i], "tx") == 0) {
			os_strlcpy(name, tok[i - 1], len);
			os_strlcpy(qkind, strcasecmp(tok[i], "rx") == 0 ? "rx" :
			    strcasecmp(tok[i], "tx") == 0 ? "tx" : "rxtx", klen);
			return 0;
		}
	if (n == 2) {
		os_strlcpy(name, tok[0], len);
		os_strlcpy(qkind, "rxtx", klen);
		return 0;
	}
	return -1;
}

static void
build_linux_nic(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	struct lnic *l = NULL;
	size_t i, k;
	char nm[OS_NAME_MAX], qk[8];
	int idx;

	os_nic_init(nic);
	os_strlcpy(nic->name, name, sizeof nic->name);
	for (i = 0; i < t->nlnics; i++)
		if (strcmp(t->lnics[i].name, name) == 0)
			l = &t->lnics[i];
	if (l != NULL) {
		os_strlcpy(nic->driver, l->driver, sizeof nic->driver);
		os_strlcpy(nic->driver_version, l->version, sizeof nic->driver_version);
		os_strlcpy(nic->firmware, l->firmware, sizeof nic->firmware);
		os_strlcpy(nic->bus, l->bus, sizeof nic->bus);
		nic->max_rx_queues = l->ch[0][0];
		nic->max_tx_queues = l->ch[0][1];
		nic->max_combined_queues = l->ch[0][3];
		nic->rx_queues = l->ch[1][0];
		nic->tx_queues = l->ch[1][1];
		nic->combined_queues = l->ch[1][3];
		nic->max_rx_ring = l->ring[0][0];
		nic->max_tx_ring = l->ring[0][1];
		nic->rx_ring = l->ring[1][0];
		nic->tx_ring = l->ring[1][1];
	}
	for (i = 0; i < t->nlirqs; i++) {
		struct os_queue *q;
		const struct os_irq *r = &t->lirqs[i];
		uint64_t best = 0;

		if (irq_ifname(r->desc, nm, sizeof nm, &idx, qk, sizeof qk) != 0 ||
		    strcmp(nm, name) != 0)
			continue;
		nic->queues = xreallocarray(nic->queues, nic->nqueues + 1, sizeof *nic->queues);
		q = &nic->queues[nic->nqueues++];
		memset(q, 0, sizeof *q);
		q->index = idx;
		os_strlcpy(q->kind, qk, sizeof q->kind);
		q->irq = atoi(r->name);
		os_strlcpy(q->irq_name, r->desc, sizeof q->irq_name);
		q->interrupts = r->total;
		/* the text has no affinity: the CPU that took most of them */
		q->irq_cpu = -1;
		for (k = 0; k < r->ncpu; k++)
			if (r->per_cpu[k] > best) {
				best = r->per_cpu[k];
				q->irq_cpu = (int)k;
			}
	}
}

/* Replaces bytes that are not valid UTF-8 (JSON strings must be) with '?'. */
static void
utf8_clean(unsigned char *s)
{
	size_t n, i;

	while (*s != '\0') {
		if (*s < 0x80) {
			s++;
			continue;
		}
		n = (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : 0;
		if (*s == 0xc0 || *s == 0xc1 || *s > 0xf4)
			n = 0;
		for (i = 1; i <= n; i++)
			if ((s[i] & 0xc0) != 0x80)
				break;
		if (n == 0 || i <= n) {
			*s++ = '?';
			continue;
		}
		s += n + 1;
	}
}

void
fbsd_text_add(struct fbsd_text *t, const char *data, size_t len, const char *path)
{
	char *copy, *line, *next, *last_sysctl = NULL, name[256], last_line[80] = "";
	const char *value, *p;
	enum mode mode = M_NONE;
	size_t lineno = 0, recognized = 0, unknown = 0, first_unknown = 0, conf = 0, linux = 0;
	size_t reported = 0;
	int cut, last_ok = 1, in_vmstat = 0, ends_nl;

	copy = xstrndup(data, len);
	utf8_clean((unsigned char *)copy);
	len = strlen(copy);
	if (is_linux_text(copy)) {
		linux_file(t, copy, path);
		free(copy);
		return;
	}
	for (p = copy; isspace((unsigned char)*p); p++)
		;
	if (*p == '<') {
		/* a bare kern.sched.topology_spec value */
		free(t->topology);
		t->topology = xstrdup(p);
		os_strlcpy(t->topology_from, path, sizeof t->topology_from);
		kind(t, "topology_spec");
		free(copy);
		return;
	}
	ends_nl = len > 0 && copy[len - 1] == '\n';
	for (line = copy; line != NULL; line = next) {
		size_t l;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else if (*line == '\0')
			break;
		lineno++;
		l = strlen(line);
		if (l > 0 && line[l - 1] == '\r')
			line[--l] = '\0';
		last_ok = 1;
		if (l == 0 || strspn(line, " \t") == l) {
			if (mode != M_NETSTAT_Q)
				mode = M_NONE;
			continue;
		}
		if (strncmp(line, "Name ", 5) == 0 && strstr(line, " Mtu ") != NULL &&
		    strstr(line, "Ipkts") != NULL) {
			mode = M_NETSTAT_I;
			kind(t, "netstat-i");
			recognized++;
			continue;
		}
		if (strncmp(line, "Configuration:", 14) == 0) {
			mode = M_NETSTAT_Q;
			kind(t, "netstat-Q");
			recognized++;
			continue;
		}
		if (strncmp(line, "interrupt ", 10) == 0 && strstr(line, "total") != NULL &&
		    strstr(line, "rate") != NULL) {
			in_vmstat = 1;
			mode = M_VMSTAT;
			kind(t, "vmstat-i");
			recognized++;
			continue;
		}
		if (mode == M_NETSTAT_I && netstat_i_row(t, line)) {
			recognized++;
			continue;
		}
		if (mode == M_NETSTAT_Q) {
			if (netstat_q_row(t, line) || isalpha((unsigned char)line[0]) ||
			    line[0] == ' ') {
				recognized++;
				continue;
			}
		}
		if (pciconf_entry(t, line)) {
			mode = M_PCICONF;
			kind(t, "pciconf");
			recognized++;
			continue;
		}
		if (mode == M_PCICONF && pciconf_prop(t, line)) {
			recognized++;
			continue;
		}
		if (ifconfig_head(t, line)) {
			mode = M_IFCONFIG;
			kind(t, "ifconfig");
			recognized++;
			continue;
		}
		if (mode == M_IFCONFIG && ifconfig_prop(t, line)) {
			recognized++;
			continue;
		}
		if (cpuset_line(t, line)) {
			kind(t, "cpuset");
			recognized++;
			continue;
		}
		if (strncmp(line, "  PID ", 6) == 0 && strstr(line, "COMMAND") != NULL) {
			mode = M_TOP_PROCS;
			recognized++;
			continue;
		}
		if (mode == M_TOP_PROCS && isdigit((unsigned char)line[strspn(line, " ")])) {
			recognized++;
			continue;
		}
		if (top_line(t, line, &cut)) {
			kind(t, "top-P");
			recognized++;
			if (cut) {
				last_ok = 0;
				t->load_complete = 0;
				error(t, "%s:%zu: top -P line cut short: '%s'", path, lineno, line);
				reported = lineno;
			}
			continue;
		}
		if (strncmp(line, "last pid:", 9) == 0 || strncmp(line, "CPU:", 4) == 0 ||
		    strncmp(line, "Mem:", 4) == 0 || strncmp(line, "ARC:", 4) == 0 ||
		    strncmp(line, "Swap:", 5) == 0 || strstr(line, " processes:") != NULL ||
		    strstr(line, " threads: ") != NULL) {
			recognized++;
			continue;
		}
		if (vmstat_line(t, line, in_vmstat, &cut)) {
			mode = M_VMSTAT;
			kind(t, "vmstat-i");
			recognized++;
			continue;
		}
		if (cut) {
			last_ok = 0;
			error(t, "%s:%zu: vmstat -i line cut short: '%s'", path, lineno, line);
			reported = lineno;
			continue;
		}
		if (sysctl_line(line, name, sizeof name, &value)) {
			fbsd_text_sysctl(t, name, value);
			if (strcmp(name, "kern.sched.topology_spec") == 0)
				os_strlcpy(t->topology_from, path, sizeof t->topology_from);
			free(last_sysctl);
			last_sysctl = xstrdup(name);
			mode = M_SYSCTL;
			kind(t, "sysctl");
			recognized++;
			continue;
		}
		if (line[0] != '#' && conf_line(line)) {
			conf++;
			continue;
		}
		if (mode == M_SYSCTL && last_sysctl != NULL && (isspace((unsigned char)line[0]) ||
		    line[0] == '<' || (sysctl(t, last_sysctl) != NULL &&
		    sysctl(t, last_sysctl)[0] == '<') ||
		    strcmp(last_sysctl, "kern.version") == 0)) {
			/* a multi-line value (kern.sched.topology_spec, kern.version...) */
			char *v;

			xasprintf(&v, "%s\n%s", sysctl(t, last_sysctl) != NULL ?
			    sysctl(t, last_sysctl) : "", line);
			fbsd_text_sysctl(t, last_sysctl, v);
			free(v);
			recognized++;
			continue;
		}
		if (dmesg_line(t, line)) {
			kind(t, "dmesg");
			recognized++;
			continue;
		}
		if (linux_text(line)) {
			linux++;
			continue;
		}
		if (line[0] == '#' || line[0] == ' ' || line[0] == '\t') {
			if (mode != M_NONE)
				recognized++;
			continue;
		}
		if (unknown++ == 0)
			first_unknown = lineno;
		last_ok = 0;
		os_strlcpy(last_line, line, sizeof last_line);
	}
	if (!ends_nl && !last_ok && lineno > 0 && reported != lineno && recognized > 0)
		error(t, "%s:%zu: last line cut short: '%s'", path, lineno, last_line);
	if (recognized == 0) {
		if (conf > 0)
			error(t, "%s: a loader.conf/sysctl.conf profile, not the output of a command "
			    "(check it with `ntune check`)", path);
		else if (linux > 0)
			error(t, "%s: Linux ethtool or /proc/interrupts text; run `ntune snapshot` on "
			    "that machine instead", path);
		else
			error(t, "%s: unrecognized content (expected sysctl -a, pciconf -lv, vmstat -i, "
			    "ifconfig -a, dmesg, top -P, netstat -ibnd or netstat -Q output)", path);
	} else if (unknown > (!last_ok && !ends_nl ? 1u : 0u) && !strstr(t->kinds, "dmesg"))
		error(t, "%s:%zu: unrecognized line%s (%zu in all)", path, first_unknown,
		    unknown > 1 ? "s" : "", unknown);
	free(last_sysctl);
	free(copy);
}

/* ---- topology ---- */

void
fbsd_topology_free(struct fbsd_topology *tp)
{
	free(tp->cpu_core);
	free(tp->cpu_node);
	tp->cpu_core = tp->cpu_node = NULL;
}

static void
cpu_set_from(const char *p, const char *end, int *arr, int ncpu, int value)
{
	char *e;
	long c;

	while (p < end) {
		while (p < end && !isdigit((unsigned char)*p))
			p++;
		if (p >= end)
			break;
		c = strtol(p, &e, 10);
		p = e;
		if (c >= 0 && c < ncpu)
			arr[c] = value;
	}
}

int
fbsd_topology_parse(const char *xml, struct fbsd_topology *tp)
{
	const char *p, *cpu, *close, *flags, *nextg;
	int first = 1, core = 0, node = 0, i;

	memset(tp, 0, sizeof *tp);
	tp->ncpu = -1;
	if ((p = strstr(xml, "<groups>")) == NULL && (p = strstr(xml, "<group ")) == NULL)
		return -1;
	tp->truncated = strstr(xml, "</groups>") == NULL;
	for (p = strstr(p, "<group "); p != NULL; p = nextg) {
		int count;

		nextg = strstr(p + 1, "<group ");
		if ((cpu = strstr(p, "<cpu count=\"")) == NULL || (nextg != NULL && cpu > nextg))
			continue;
		count = atoi(cpu + 12);
		close = strstr(cpu, "</cpu>");
		if (first) {
			first = 0;
			if (count <= 0 || count > OS_MAXCPU)
				return -1;
			tp->ncpu = count;
			tp->cpu_core = xcalloc((size_t)count, sizeof(int));
			tp->cpu_node = xcalloc((size_t)count, sizeof(int));
			for (i = 0; i < count; i++)
				tp->cpu_core[i] = tp->cpu_node[i] = -1;
			continue;
		}
		if (close == NULL) {
			tp->truncated = 1;
			break;
		}
		cpu = strchr(cpu, '>');
		flags = strstr(close, "<flags>");
		if (flags != NULL && (nextg == NULL || flags < nextg) &&
		    (strstr(flags, "name=\"THREAD\"") != NULL || strstr(flags, "name=\"SMT\"") != NULL) &&
		    (nextg == NULL || strstr(flags, "name=\"SMT\"") < nextg ||
		    strstr(flags, "name=\"THREAD\"") < nextg)) {
			cpu_set_from(cpu + 1, close, tp->cpu_core, tp->ncpu, core++);
			if (count > 1)
				tp->smt = 1;
		} else if (flags != NULL && (nextg == NULL || flags < nextg) &&
		    strstr(flags, "name=\"NODE\"") != NULL &&
		    (nextg == NULL || strstr(flags, "name=\"NODE\"") < nextg)) {
			cpu_set_from(cpu + 1, close, tp->cpu_node, tp->ncpu, node++);
		}
	}
	if (tp->ncpu < 0)
		return -1;
	/* CPUs in no SMT group are cores of their own */
	for (i = 0; i < tp->ncpu; i++)
		if (tp->cpu_core[i] < 0 && !tp->truncated)
			tp->cpu_core[i] = core++;
	tp->ncores = core;
	tp->nnodes = node;
	return 0;
}

/* ---- building the document ---- */

static const char *const nic_drivers[] = {
	"ix", "ixl", "ixv", "iavf", "ice", "igb", "em", "igc", "lem", "re", "rl", "bge", "bnxt",
	"mlxen", "mce", "cxl", "cc", "vcxl", "ena", "vtnet", "vmx", "ax", "al_eth", "qlnxe", "oce",
	"sfxge", "hn", "xn", "alc", "ale", "age", "nfe", "msk", "sk", "vge", "fxp", "dc", "bce", "bxe",
	"jme", "xl", "dwc", "awg", "cgem", "mvneta", "tsec", "dpaa", "dpni", "enetc", "genet", "axp",
	"ure", "ue", "axe", "axge", "cdce", "lio", "gve", "iflib",
};

static int
is_nic_driver(const char *drv)
{
	size_t i;

	for (i = 0; i < nitems(nic_drivers); i++)
		if (strcmp(drv, nic_drivers[i]) == 0)
			return 1;
	return 0;
}

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

	split_driver(a, da, sizeof da, &ua);
	split_driver(b, db, sizeof db, &ub);
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
	return sysctl_long(t, name, def);
}

static const char *
dev_str(struct fbsd_text *t, const char *drv, int unit, const char *leaf)
{
	char name[256];

	snprintf(name, sizeof name, "dev.%s.%d.%s", drv, unit, leaf);
	return sysctl(t, name);
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

static void
build_nic(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	char drv[OS_NAME_MAX];
	const char *s, *p;
	int unit, q, nq, nrxirq = 0;
	size_t i;
	long v;

	os_nic_init(nic);
	os_strlcpy(nic->name, name, sizeof nic->name);
	/* Without ifconfig output the link state is unknown, not down. */
	nic->up = in_ifconfig(t, name) ? OS_OFF : OS_UNKNOWN;
	split_driver(name, drv, sizeof drv, &unit);
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
	/* queues and their interrupt vectors from vmstat -i ("ix0:rxq0", "igb0:que 0") */
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

static int
nic_candidate(struct fbsd_text *t, const char *name)
{
	char drv[OS_NAME_MAX];
	int unit;
	size_t i;

	split_driver(name, drv, sizeof drv, &unit);
	if (unit < 0)
		return 0;
	for (i = 0; i < t->npci; i++)
		if (strcmp(t->pci[i].name, name) == 0 && t->pci[i].network)
			return 1;
	return is_nic_driver(drv);
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
		if (!is_nic_driver(drv))
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
	const char *v = sysctl(t, "kern.version");
	enum os_platform p = OS_PLATFORM_UNKNOWN;
	char branch[32];

	if (v != NULL && (p = os_platform_in_text(v)) != OS_PLATFORM_UNKNOWN)
		snprintf(sys->platform_why, sizeof sys->platform_why, "kern.version names %s",
		    os_platform_label(p));
	else if (sysctl(t, "net.inet.rss.enabled") != NULL) {
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

json_t *
fbsd_text_doc(struct fbsd_text *t)
{
	json_t *doc, *a;
	struct os_system sys;
	struct os_cpu cpu;
	struct fbsd_topology tp;
	struct names ns = { NULL, 0 };
	const char *s;
	size_t i, j, n_bsd;
	int have_topo = 0;

	doc = json_pack("{s:s, s:i, s:s, s:s, s:s}", "schema", OS_JSON_SCHEMA, "version",
	    OS_JSON_VERSION, "ntune_version", NTUNE_VERSION, "backend", "freebsd-text",
	    "inputs", t->kinds);

	memset(&sys, 0, sizeof sys);
	os_strlcpy(sys.os, (s = sysctl(t, "kern.ostype")) != NULL ? s : "FreeBSD", sizeof sys.os);
	if ((s = sysctl(t, "kern.osrelease")) != NULL)
		os_strlcpy(sys.version, s, sizeof sys.version);
	else
		os_strlcpy(sys.version, t->os_release, sizeof sys.version);
	if ((s = sysctl(t, "kern.hostname")) != NULL)
		os_strlcpy(sys.hostname, s, sizeof sys.hostname);
	platform_evidence(t, &sys);
	if (t->nlnics > 0 || t->nlirqs > 0) {
		if (t->npci > 0 || json_object_size(t->sysctls) > 0 || t->nirq > 0)
			error(t, "the files mix Linux and FreeBSD output; the NICs come from both");
		else {
			os_strlcpy(sys.os, "Linux", sizeof sys.os);
			os_strlcpy(sys.version, "", sizeof sys.version);
		}
	}
	json_object_set_new(doc, "system", os_json_system(&sys));

	memset(&cpu, 0, sizeof cpu);
	os_strlcpy(cpu.model, (s = sysctl(t, "hw.model")) != NULL ? s : t->cpu_model,
	    sizeof cpu.model);
	if ((s = sysctl(t, "kern.sched.topology_spec")) != NULL ||
	    (s = t->topology) != NULL) {
		if (fbsd_topology_parse(s, &tp) == 0) {
			have_topo = 1;
			if (tp.truncated)
				error(t, "%s: kern.sched.topology_spec cut short (no closing </groups>); "
				    "CPU groups after the cut are unknown", t->topology_from);
		} else
			error(t, "%s: kern.sched.topology_spec: no CPU groups could be read",
			    t->topology_from);
	}
	cpu.threads = (int)sysctl_long(t, "hw.ncpu", sysctl_long(t, "kern.smp.cpus",
	    have_topo ? tp.ncpu : t->d_ncpu > 0 ? t->d_ncpu : (int)t->nload > 0 ? (int)t->nload : -1));
	cpu.cores = (int)sysctl_long(t, "kern.smp.cores", t->d_cores);
	if (cpu.cores < 0 && have_topo && !tp.truncated && tp.ncores > 0)
		cpu.cores = tp.ncores;
	{
		long tpc = sysctl_long(t, "kern.smp.threads_per_core", t->d_threads);

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
	}
	if (cpu.threads < 0 && t->lirq_ncpu > 0)
		cpu.threads = (int)t->lirq_ncpu;
	cpu.packages = t->d_pkgs;
	cpu.numa_nodes = (int)sysctl_long(t, "vm.ndomains", have_topo && tp.nnodes > 0 ?
	    tp.nnodes : (have_topo && !tp.truncated) ? 1 : -1);
	if (have_topo && cpu.threads == tp.ncpu) {
		cpu.cpu_core = tp.cpu_core;
		cpu.cpu_numa = tp.cpu_node;
	}
	json_object_set_new(doc, "cpu", os_json_cpu(&cpu));
	if (have_topo)
		fbsd_topology_free(&tp);

	collect_nic_names(t, &ns);
	n_bsd = ns.n;
	for (i = 0; i < t->nlnics; i++)
		names_add(&ns, t->lnics[i].name);
	for (i = 0; i < t->nlirqs; i++) {
		char nm[OS_NAME_MAX], qk[8];
		int idx;

		if (irq_ifname(t->lirqs[i].desc, nm, sizeof nm, &idx, qk, sizeof qk) == 0)
			names_add(&ns, nm);
	}
	a = json_array();
	for (i = 0; i < ns.n; i++) {
		struct os_nic nic;

		json_t *o;

		if (i < n_bsd)
			build_nic(t, ns.v[i], &nic);
		else
			build_linux_nic(t, ns.v[i], &nic);
		o = os_json_nic(&nic);
		json_array_append_new(a, o);
		free(nic.queues);
	}
	free(ns.v);
	json_object_set_new(doc, "nics", a);
	json_object_set_new(doc, "tunables", json_array());

	if (t->nload > 0) {
		a = json_array();
		for (i = 0; i < t->nload; i++)
			json_array_append_new(a, json_pack("{s:f, s:f, s:f, s:f, s:f}", "user",
			    t->load[i][0], "nice", t->load[i][1], "system", t->load[i][2],
			    "interrupt", t->load[i][3], "idle", t->load[i][4]));
		json_object_set_new(doc, "cpu_load", a);
	}
	if (t->nirq > 0 || t->nlirqs > 0) {
		a = json_array();
		for (i = 0; i < t->nirq; i++)
			json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:n}", "name", t->irq[i].name,
			    "desc", t->irq[i].desc, "total", (json_int_t)t->irq[i].total, "per_cpu"));
		for (i = 0; i < t->nlirqs; i++) {
			json_t *pc = json_array();

			for (j = 0; j < t->lirqs[i].ncpu; j++)
				json_array_append_new(pc, json_integer((json_int_t)t->lirqs[i].per_cpu[j]));
			json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:o}", "name",
			    t->lirqs[i].name, "desc", t->lirqs[i].desc, "total",
			    (json_int_t)t->lirqs[i].total, "per_cpu", pc));
		}
		json_object_set_new(doc, "irqs", a);
	}
	a = json_array();
	for (i = 0; i < t->nifs; i++) {
		struct os_if_counters *c = &t->ifs[i].c;

		if (!t->ifs[i].counters)
			continue;
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		    "name", c->name, "ipackets", (json_int_t)c->ipackets, "ibytes",
		    (json_int_t)c->ibytes, "ierrors", (json_int_t)c->ierrors, "idrops",
		    (json_int_t)c->idrops, "opackets", (json_int_t)c->opackets, "obytes",
		    (json_int_t)c->obytes, "oerrors", (json_int_t)c->oerrors, "odrops",
		    (json_int_t)c->odrops));
	}
	if (json_array_size(a) > 0)
		json_object_set_new(doc, "if_counters", a);
	else
		json_decref(a);
	json_object_set(doc, "sysctls", t->sysctls);
	json_object_set(doc, "errors", t->errors);
	return doc;
}
