/*
 * The FreeBSD backend: sysctl(3) (by name and by walking the MIB), kenv(2) for
 * loader-only tunables, getifaddrs(3) + if_data for counters, SIOCGIFCAP for
 * offloads. Live values are formatted the way sysctl -a, ifconfig and vmstat -i
 * print them and go through the same parsers as pasted text (fbsd_text.c), so
 * the logic that turns them into CPUs and NICs is the one the tests run on real
 * output. On Linux, tests/shim compiles this file against declarations only.
 */
#include <sys/param.h>
#include <sys/types.h>
#include <sys/cpuset.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/sockio.h>
#include <sys/sysctl.h>

#include <net/if.h>
#include <net/if_dl.h>

#include <ctype.h>
#include <errno.h>
#include <ifaddrs.h>
#include <kenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/fbsd_text.h"
#include "os/os_impl.h"
#include "os/os_json.h"
#include "util/util.h"

#ifndef CPUSTATES
#define CP_USER		0
#define CP_NICE		1
#define CP_SYS		2
#define CP_INTR		3
#define CP_IDLE		4
#define CPUSTATES	5
#endif

struct fbsd {
	json_t	*doc;		/* system, cpu and nics, built once */
};

/* The oid's kind word and format ("I", "LU", "A", "N"...) via {0, 4, mib...}. */
static int
oid_fmt(const int *mib, size_t len, u_int *kind, char *fmt, size_t fmtlen)
{
	int qoid[CTL_MAXNAME + 2];
	u_char buf[BUFSIZ];
	size_t j = sizeof buf;

	if (len > CTL_MAXNAME)
		return -1;
	qoid[0] = 0;
	qoid[1] = 4;
	memcpy(qoid + 2, mib, len * sizeof(int));
	if (sysctl(qoid, (u_int)len + 2, buf, &j, NULL, 0) != 0 || j < sizeof(u_int))
		return -1;
	memcpy(kind, buf, sizeof(u_int));
	os_strlcpy(fmt, (const char *)buf + sizeof(u_int), fmtlen);
	return 0;
}

static int
oid_name(const int *mib, size_t len, char *name, size_t namelen)
{
	int qoid[CTL_MAXNAME + 2];
	size_t j = namelen;

	qoid[0] = 0;
	qoid[1] = 1;
	memcpy(qoid + 2, mib, len * sizeof(int));
	if (sysctl(qoid, (u_int)len + 2, name, &j, NULL, 0) != 0)
		return -1;
	name[namelen - 1] = '\0';
	return 0;
}

/* One integer of esize bytes, as signed and as unsigned. */
static void
decode(const u_char *p, size_t esize, long long *v, unsigned long long *u)
{
	int8_t s8;
	int16_t s16;
	int32_t s32;
	int64_t s64;

	switch (esize) {
	case 1:
		memcpy(&s8, p, 1);
		*v = s8;
		*u = (uint8_t)s8;
		break;
	case 2:
		memcpy(&s16, p, 2);
		*v = s16;
		*u = (uint16_t)s16;
		break;
	case 4:
		memcpy(&s32, p, 4);
		*v = s32;
		*u = (uint32_t)s32;
		break;
	default:
		memcpy(&s64, p, 8);
		*v = s64;
		*u = (uint64_t)s64;
		break;
	}
}

/* The value as sysctl(8) prints it; -1 for opaque or unreadable oids. */
static int
oid_value(const int *mib, size_t len, u_int kind, char **value)
{
	size_t n = 0, i, esize;
	u_char *buf;
	struct strbuf sb;
	int type = (int)(kind & CTLTYPE);

	if (type == CTLTYPE_NODE || type == CTLTYPE_OPAQUE)
		return -1;
	if (sysctl(mib, (u_int)len, NULL, &n, NULL, 0) != 0)
		return -1;
	n += n / 8 + 16;
	buf = xmalloc(n + 1);
	if (sysctl(mib, (u_int)len, buf, &n, NULL, 0) != 0) {
		free(buf);
		return -1;
	}
	if (type == CTLTYPE_STRING) {
		buf[n] = '\0';
		*value = (char *)buf;
		return 0;
	}
	switch (type) {
	case CTLTYPE_INT: case CTLTYPE_UINT: esize = sizeof(int); break;
	case CTLTYPE_LONG: case CTLTYPE_ULONG: esize = sizeof(long); break;
	case CTLTYPE_S64: case CTLTYPE_U64: esize = sizeof(int64_t); break;
	case CTLTYPE_S8: case CTLTYPE_U8: esize = 1; break;
	case CTLTYPE_S16: case CTLTYPE_U16: esize = 2; break;
	case CTLTYPE_S32: case CTLTYPE_U32: esize = 4; break;
	default:
		free(buf);
		return -1;
	}
	strbuf_init(&sb);
	for (i = 0; i + esize <= n; i += esize) {
		long long v = 0;
		unsigned long long u = 0;
		int is_unsigned = type == CTLTYPE_UINT || type == CTLTYPE_ULONG ||
		    type == CTLTYPE_U64 || type == CTLTYPE_U8 || type == CTLTYPE_U16 ||
		    type == CTLTYPE_U32;

		decode(buf + i, esize, &v, &u);
		if (i > 0)
			strbuf_addc(&sb, ' ');
		if (is_unsigned)
			strbuf_addf(&sb, "%llu", u);
		else
			strbuf_addf(&sb, "%lld", v);
	}
	free(buf);
	*value = strbuf_detach(&sb);
	return 0;
}

/*
 * Walks every oid whose name starts with prefix. From the prefix's own oid (or
 * the first one) the MIB's "next" query {0, 2} goes depth first; a subtree is
 * contiguous in that order, so the walk stops when it leaves it.
 */
static int
walk(const char *prefix, int (*fn)(const char *, const char *, u_int, void *), void *arg)
{
	int mib[CTL_MAXNAME], next[CTL_MAXNAME + 2], qoid[CTL_MAXNAME + 2];
	size_t len = 0, nlen, plen = strlen(prefix);
	char name[1024], fmt[64], *value, top[256];
	u_int kind;
	int found, inside = 0, rc;

	os_strlcpy(top, prefix, sizeof top);
	if (plen > 0 && top[plen - 1] == '.')
		top[plen - 1] = '\0';
	len = CTL_MAXNAME;
	found = top[0] != '\0' && sysctlnametomib(top, mib, &len) == 0;
	if (found && oid_fmt(mib, len, &kind, fmt, sizeof fmt) == 0 &&
	    (kind & CTLTYPE) != CTLTYPE_NODE) {
		/* the prefix names one leaf */
		if (oid_value(mib, len, kind, &value) != 0)
			return 0;
		rc = fn(top, value, kind, arg);
		free(value);
		return rc != 0;
	}
	if (!found) {
		mib[0] = 1;
		len = 1;
	}
	for (;;) {
		qoid[0] = 0;
		qoid[1] = 2;
		memcpy(qoid + 2, mib, len * sizeof(int));
		nlen = sizeof next;
		if (sysctl(qoid, (u_int)len + 2, next, &nlen, NULL, 0) != 0)
			break;
		len = nlen / sizeof(int);
		memcpy(mib, next, nlen);
		if (oid_name(mib, len, name, sizeof name) != 0)
			continue;
		if (strncmp(name, prefix, plen) != 0) {
			if (inside && found)
				break;
			continue;
		}
		inside = 1;
		if (oid_fmt(mib, len, &kind, fmt, sizeof fmt) != 0)
			continue;
		if (oid_value(mib, len, kind, &value) != 0)
			continue;
		rc = fn(name, value, kind, arg);
		free(value);
		if (rc != 0)
			return 1;
	}
	return 0;
}

static int
feed_sysctl(const char *name, const char *value, u_int kind, void *arg)
{
	fbsd_text_sysctl(arg, name, value);
	return 0;
}

/* Interfaces as `ifconfig -a` prints them (flags, mtu, options, ether). */
static void
feed_ifconfig(struct fbsd_text *t)
{
	static const struct {
		int bit;
		const char *name;
	} caps[] = {
		{ IFCAP_RXCSUM, "RXCSUM" }, { IFCAP_TXCSUM, "TXCSUM" }, { IFCAP_TSO4, "TSO4" },
		{ IFCAP_TSO6, "TSO6" }, { IFCAP_LRO, "LRO" },
		{ IFCAP_VLAN_HWTAGGING, "VLAN_HWTAGGING" },
	};
	struct ifaddrs *ifa, *i;
	struct strbuf sb;
	struct ifreq ifr;
	size_t k;
	int s;

	if (getifaddrs(&ifa) != 0)
		return;
	s = socket(AF_INET, SOCK_DGRAM, 0);
	strbuf_init(&sb);
	for (i = ifa; i != NULL; i = i->ifa_next) {
		const struct if_data *d = i->ifa_data;
		const struct sockaddr_dl *sdl = (const struct sockaddr_dl *)(void *)i->ifa_addr;
		const unsigned char *mac;
		const char *sep = "<";

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_LINK || d == NULL)
			continue;
		strbuf_addf(&sb, "%s: flags=%x<%s> metric 0 mtu %lu\n", i->ifa_name, i->ifa_flags,
		    (i->ifa_flags & IFF_UP) ? "UP" : "", (unsigned long)d->ifi_mtu);
		memset(&ifr, 0, sizeof ifr);
		os_strlcpy(ifr.ifr_name, i->ifa_name, sizeof ifr.ifr_name);
		if (s != -1 && ioctl(s, SIOCGIFCAP, &ifr) == 0) {
			strbuf_adds(&sb, "\toptions=0");
			for (k = 0; k < nitems(caps); k++)
				if (ifr.ifr_curcap & caps[k].bit) {
					strbuf_addf(&sb, "%s%s", sep, caps[k].name);
					sep = ",";
				}
			strbuf_adds(&sb, *sep == ',' ? ">\n" : "<>\n");
		}
		if (sdl->sdl_alen == 6) {
			mac = (const unsigned char *)LLADDR(sdl);
			strbuf_addf(&sb, "\tether %02x:%02x:%02x:%02x:%02x:%02x\n", mac[0], mac[1],
			    mac[2], mac[3], mac[4], mac[5]);
		}
		if (d->ifi_baudrate >= 1000000)
			strbuf_addf(&sb, "\tmedia: Ethernet autoselect (%lubaseT <full-duplex>)\n",
			    (unsigned long)(d->ifi_baudrate / 1000000));
	}
	if (s != -1)
		close(s);
	freeifaddrs(ifa);
	if (sb.len > 0)
		fbsd_text_add(t, sb.buf, sb.len, "ifconfig");
	strbuf_free(&sb);
}

/* Where an interrupt may run, formatted like `cpuset -g -x IRQ`. */
static void
irq_mask_text(struct strbuf *sb, int irq)
{
	cpuset_t set;
	const char *sep = " ";
	int c;

	memset(&set, 0, sizeof set);
	if (cpuset_getaffinity(CPU_LEVEL_WHICH, CPU_WHICH_IRQ, irq, sizeof set, &set) != 0)
		return;
	strbuf_addf(sb, "irq %d mask:", irq);
	for (c = 0; c < CPU_SETSIZE && c < OS_MAXCPU; c++)
		if (CPU_ISSET(c, &set)) {
			strbuf_addf(sb, "%s%d", sep, c);
			sep = ", ";
		}
	strbuf_addc(sb, '\n');
}

/* hw.intrnames + hw.intrcnt, formatted like vmstat -i; masks (may be NULL) gets cpuset's view. */
static int
intr_text(struct strbuf *sb, struct strbuf *masks)
{
	size_t nlen = 0, clen = 0, i, ncnt;
	char *names, *p;
	u_long *cnt;

	if (sysctlbyname("hw.intrnames", NULL, &nlen, NULL, 0) != 0 ||
	    sysctlbyname("hw.intrcnt", NULL, &clen, NULL, 0) != 0)
		return -1;
	names = xmalloc(nlen + 1);
	cnt = xmalloc(clen + sizeof(u_long));
	if (sysctlbyname("hw.intrnames", names, &nlen, NULL, 0) != 0 ||
	    sysctlbyname("hw.intrcnt", cnt, &clen, NULL, 0) != 0) {
		free(names);
		free(cnt);
		return -1;
	}
	names[nlen] = '\0';
	ncnt = clen / sizeof(u_long);
	strbuf_adds(sb, "interrupt                          total       rate\n");
	for (i = 0, p = names; i < ncnt && p < names + nlen; i++, p += strlen(p) + 1) {
		char name[128];

		os_strlcpy(name, p, sizeof name);
		util_trim(name);
		if (name[0] == '\0' || cnt[i] == 0)
			continue;
		strbuf_addf(sb, "%-24s %20lu %10d\n", name, cnt[i], 0);
		if (masks != NULL && strncmp(name, "irq", 3) == 0 && isdigit((unsigned char)name[3]))
			irq_mask_text(masks, atoi(name + 3));
	}
	free(names);
	free(cnt);
	return 0;
}

static json_t *
build_doc(void)
{
	static const char *const prefixes[] = { "kern.ostype", "kern.osrelease", "kern.hostname",
	    "kern.version", "kern.smp.", "kern.sched.topology_spec", "hw.model", "hw.ncpu",
	    "vm.ndomains", "dev.", "hw.ix.", "hw.igb." };
	struct fbsd_text *t = fbsd_text_new();
	struct strbuf sb, masks;
	json_t *doc;
	size_t i;

	for (i = 0; i < nitems(prefixes); i++)
		walk(prefixes[i], feed_sysctl, t);
	feed_ifconfig(t);
	strbuf_init(&sb);
	strbuf_init(&masks);
	if (intr_text(&sb, &masks) == 0) {
		fbsd_text_add(t, sb.buf, sb.len, "hw.intrcnt");
		if (masks.len > 0)
			fbsd_text_add(t, masks.buf, masks.len, "cpuset");
	}
	strbuf_free(&sb);
	strbuf_free(&masks);
	doc = fbsd_text_doc(t);
	fbsd_text_free(t);
	/* the raw sysctls were only needed to derive the rest */
	json_object_del(doc, "sysctls");
	json_object_set_new(doc, "backend", json_string("freebsd"));
	return doc;
}

static json_t *
doc(struct os_ctx *ctx)
{
	struct fbsd *f = ctx->priv;

	if (f->doc == NULL)
		f->doc = build_doc();
	return f->doc;
}

static int
fb_system(struct os_ctx *ctx, struct os_system *s, char **cause)
{
	return os_json_to_system(json_object_get(doc(ctx), "system"), s);
}

static int
fb_cpu(struct os_ctx *ctx, struct os_cpu *c, char **cause)
{
	return os_json_to_cpu(json_object_get(doc(ctx), "cpu"), c);
}

static int
fb_nics(struct os_ctx *ctx, struct os_nic **out, size_t *n, char **cause)
{
	json_t *a = json_object_get(doc(ctx), "nics"), *e;
	size_t i;

	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	*n = 0;
	json_array_foreach(a, i, e)
		os_json_to_nic(e, &(*out)[(*n)++]);
	return 0;
}

static int
fb_cpu_times(struct os_ctx *ctx, struct os_cpu_times **out, size_t *n, char **cause)
{
	size_t len = 0, ncpu, i;
	long *v;

	if (sysctlbyname("kern.cp_times", NULL, &len, NULL, 0) != 0 || len == 0) {
		util_cause(cause, "cannot read 'kern.cp_times': %s", strerror(errno));
		return -1;
	}
	v = xmalloc(len);
	if (sysctlbyname("kern.cp_times", v, &len, NULL, 0) != 0) {
		util_cause(cause, "cannot read 'kern.cp_times': %s", strerror(errno));
		free(v);
		return -1;
	}
	ncpu = len / (CPUSTATES * sizeof(long));
	*out = xcalloc(ncpu + 1, sizeof **out);
	for (i = 0; i < ncpu; i++) {
		long *c = v + i * CPUSTATES;

		(*out)[i].user = (uint64_t)c[CP_USER];
		(*out)[i].nice = (uint64_t)c[CP_NICE];
		(*out)[i].system = (uint64_t)c[CP_SYS];
		(*out)[i].interrupt = (uint64_t)c[CP_INTR];
		(*out)[i].idle = (uint64_t)c[CP_IDLE];
	}
	*n = ncpu;
	free(v);
	return 0;
}

static int
fb_if_counters(struct os_ctx *ctx, struct os_if_counters **out, size_t *n, char **cause)
{
	struct ifaddrs *ifa, *i;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	if (getifaddrs(&ifa) != 0) {
		util_cause(cause, "getifaddrs: %s", strerror(errno));
		return -1;
	}
	for (i = ifa; i != NULL; i = i->ifa_next) {
		const struct if_data *d = i->ifa_data;
		struct os_if_counters *c;

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_LINK || d == NULL)
			continue;
		*out = xreallocarray(*out, cnt + 1, sizeof **out);
		c = &(*out)[cnt++];
		memset(c, 0, sizeof *c);
		os_strlcpy(c->name, i->ifa_name, sizeof c->name);
		c->ipackets = d->ifi_ipackets;
		c->ibytes = d->ifi_ibytes;
		c->ierrors = d->ifi_ierrors;
		c->idrops = d->ifi_iqdrops;
		c->opackets = d->ifi_opackets;
		c->obytes = d->ifi_obytes;
		c->oerrors = d->ifi_oerrors;
		c->odrops = d->ifi_oqdrops;
	}
	freeifaddrs(ifa);
	*n = cnt;
	return 0;
}

int
os_freebsd_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause)
{
	struct ifaddrs *ifa, *i;
	int rc = -1;

	if (getifaddrs(&ifa) != 0) {
		util_cause(cause, "getifaddrs: %s", strerror(errno));
		return -1;
	}
	for (i = ifa; i != NULL && rc == -1; i = i->ifa_next) {
		const struct sockaddr_dl *sdl = (const struct sockaddr_dl *)(void *)i->ifa_addr;

		if (sdl == NULL || sdl->sdl_family != AF_LINK || strcmp(i->ifa_name, ifname) != 0)
			continue;
		if (sdl->sdl_alen != 6) {
			util_cause(cause, "interface '%s' has no Ethernet address", ifname);
			break;
		}
		memcpy(mac, LLADDR(sdl), 6);
		rc = 0;
	}
	if (i == NULL && rc == -1)
		util_cause(cause, "no interface '%s'", ifname);
	freeifaddrs(ifa);
	return rc;
}

static int
fb_irqs(struct os_ctx *ctx, struct os_irq **out, size_t *n, char **cause)
{
	struct strbuf sb;
	struct fbsd_text *t;
	json_t *d, *a, *e;
	size_t i;

	*out = NULL;
	*n = 0;
	strbuf_init(&sb);
	if (intr_text(&sb, NULL) != 0) {
		strbuf_free(&sb);
		util_cause(cause, "cannot read 'hw.intrcnt': %s", strerror(errno));
		return -1;
	}
	t = fbsd_text_new();
	fbsd_text_add(t, sb.buf, sb.len, "hw.intrcnt");
	strbuf_free(&sb);
	d = fbsd_text_doc(t);
	fbsd_text_free(t);
	a = json_object_get(d, "irqs");
	*out = xcalloc(json_array_size(a) + 1, sizeof **out);
	json_array_foreach(a, i, e) {
		struct os_irq *q = &(*out)[(*n)++];

		os_strlcpy(q->name, json_string_value(json_object_get(e, "name")), sizeof q->name);
		os_strlcpy(q->desc, json_string_value(json_object_get(e, "desc")), sizeof q->desc);
		q->total = (uint64_t)json_integer_value(json_object_get(e, "total"));
	}
	json_decref(d);
	return 0;
}

/* ---- tunables ---- */

static int
find_oid(const char *name, int *mib, size_t *len, u_int *kind, char *fmt, size_t fmtlen)
{
	*len = CTL_MAXNAME;
	if (sysctlnametomib(name, mib, len) != 0)
		return -1;
	return oid_fmt(mib, *len, kind, fmt, fmtlen);
}

/* The IFCAP bits of a cap:NAME row's bsd_arg (os/ifset.c's bsd_methods[] lists the names). */
static int
if_cap_bit(const char *what)
{
	if (strcmp(what, "tso") == 0)
		return IFCAP_TSO4 | IFCAP_TSO6;
	if (strcmp(what, "lro") == 0)
		return IFCAP_LRO;
	if (strcmp(what, "rxcsum") == 0)
		return IFCAP_RXCSUM;
	if (strcmp(what, "txcsum") == 0)
		return IFCAP_TXCSUM;
	return 0;
}

static int
if_exists(const char *ifname)
{
	return if_nametoindex(ifname) != 0;
}

static int
if_tunable(const char *name, const char *set, char **value, char **cause)
{
	char ifname[IFNAMSIZ + 8], buf[32];
	const char *s;
	const struct os_ifset *r;
	struct ifreq ifr;
	int sock, bit, rc = -1;

	if (os_if_split(name, ifname, sizeof ifname, &s, if_exists) != 0) {
		if (os_ifsets_table(NULL, cause) != NULL)
			util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	r = os_ifset_find(s);
	bit = r != NULL && r->bsd == OS_IFSET_BSD_CAP ? if_cap_bit(r->bsd_arg) : 0;
	if ((r == NULL || r->bsd != OS_IFSET_BSD_MTU) && bit == 0) {
		util_cause(cause, "unsupported on 'freebsd' (use ifconfig or the driver's dev.* "
		    "sysctls)");
		return -1;
	}
	if ((sock = socket(AF_INET, SOCK_DGRAM, 0)) == -1) {
		util_cause(cause, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof ifr);
	os_strlcpy(ifr.ifr_name, ifname, sizeof ifr.ifr_name);
	if (bit == 0) {
		if (set == NULL) {
			if (ioctl(sock, SIOCGIFMTU, &ifr) != 0)
				goto fail;
			snprintf(buf, sizeof buf, "%d", ifr.ifr_mtu);
			*value = xstrdup(buf);
		} else {
			ifr.ifr_mtu = atoi(set);
			if (ioctl(sock, SIOCSIFMTU, &ifr) != 0)
				goto fail;
		}
	} else {
		if (ioctl(sock, SIOCGIFCAP, &ifr) != 0)
			goto fail;
		if (set == NULL)
			*value = xstrdup((ifr.ifr_curcap & bit) ? "on" : "off");
		else {
			int cur = ifr.ifr_curcap;

			ifr.ifr_reqcap = strcmp(set, "on") == 0 ? (cur | bit) : (cur & ~bit);
			if (ioctl(sock, SIOCSIFCAP, &ifr) != 0)
				goto fail;
		}
	}
	rc = 0;
	close(sock);
	return rc;
fail:
	util_cause(cause, "'%s': %s", ifname, strerror(errno));
	close(sock);
	return -1;
}

static int
fb_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	int mib[CTL_MAXNAME];
	size_t len;
	u_int kind;
	char fmt[64], buf[1024];

	*value = NULL;
	if (strncmp(name, "if.", 3) == 0)
		return if_tunable(name, NULL, value, cause);
	if (find_oid(name, mib, &len, &kind, fmt, sizeof fmt) == 0) {
		if (oid_value(mib, len, kind, value) == 0)
			return 0;
		util_cause(cause, "sysctl: %s", strerror(errno));
		return -1;
	}
	if (kenv(KENV_GET, name, buf, sizeof buf) > 0) {
		*value = xstrdup(buf);
		return 0;
	}
	util_cause(cause, "unknown sysctl '%s'", name);
	return -1;
}

static int
fb_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	int mib[CTL_MAXNAME], type;
	size_t len;
	u_int kind;
	char fmt[64], *end;
	long long v;

	if (strncmp(name, "if.", 3) == 0)
		return if_tunable(name, value, NULL, cause);
	if (find_oid(name, mib, &len, &kind, fmt, sizeof fmt) != 0) {
		util_cause(cause, "unknown sysctl '%s'", name);
		return -1;
	}
	if ((kind & CTLFLAG_WR) == 0) {
		util_cause(cause, "%s", (kind & CTLFLAG_TUN) ?
		    "a loader tunable (set it in /boot/loader.conf and reboot)" : "read-only");
		return -1;
	}
	type = (int)(kind & CTLTYPE);
	if (type == CTLTYPE_STRING) {
		if (sysctl(mib, (u_int)len, NULL, NULL, value, strlen(value) + 1) != 0)
			goto fail;
		return 0;
	}
	errno = 0;
	v = strtoll(value, &end, 0);
	if (end == value || *end != '\0' || errno != 0) {
		util_cause(cause, "not an integer");
		return -1;
	}
	switch (type) {
	case CTLTYPE_INT: case CTLTYPE_UINT: case CTLTYPE_S32: case CTLTYPE_U32: {
		int32_t x = (int32_t)v;

		if (sysctl(mib, (u_int)len, NULL, NULL, &x, sizeof x) != 0)
			goto fail;
		return 0;
	}
	case CTLTYPE_LONG: case CTLTYPE_ULONG: {
		long x = (long)v;

		if (sysctl(mib, (u_int)len, NULL, NULL, &x, sizeof x) != 0)
			goto fail;
		return 0;
	}
	case CTLTYPE_S64: case CTLTYPE_U64: {
		int64_t x = (int64_t)v;

		if (sysctl(mib, (u_int)len, NULL, NULL, &x, sizeof x) != 0)
			goto fail;
		return 0;
	}
	default:
		util_cause(cause, "unsupported sysctl type");
		return -1;
	}
fail:
	util_cause(cause, "%s", strerror(errno));
	return -1;
}

static int
fb_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *k, char **cause)
{
	int mib[CTL_MAXNAME];
	size_t len;
	u_int kind;
	char fmt[64], buf[1024], *v = NULL;

	*k = OS_TUNABLE_NONE;
	if (strncmp(name, "if.", 3) == 0) {
		if (if_tunable(name, NULL, &v, NULL) == 0)
			*k = OS_TUNABLE_RUNTIME;
		free(v);
		return 0;
	}
	if (find_oid(name, mib, &len, &kind, fmt, sizeof fmt) == 0) {
		/* CTLFLAG_TUN: also read from the loader's environment at boot */
		if ((kind & CTLFLAG_TUN) && (kind & CTLFLAG_WR))
			*k = OS_TUNABLE_BOTH;
		else if (kind & CTLFLAG_TUN)
			*k = OS_TUNABLE_LOADER;
		else if (kind & CTLFLAG_WR)
			*k = OS_TUNABLE_RUNTIME;
		else
			*k = OS_TUNABLE_READONLY;
		return 0;
	}
	if (kenv(KENV_GET, name, buf, sizeof buf) > 0)
		*k = OS_TUNABLE_LOADER;
	return 0;
}

struct list_arg {
	int	(*fn)(const char *, const char *, void *);
	void	*arg;
};

static int
list_cb(const char *name, const char *value, u_int kind, void *arg)
{
	struct list_arg *la = arg;

	return la->fn(name, value, la->arg);
}

static int
fb_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *, const char *, void *), void *arg, char **cause)
{
	struct list_arg la = { fn, arg };

	walk(prefix, list_cb, &la);
	return 0;
}

static void
fb_close(struct os_ctx *ctx)
{
	struct fbsd *f = ctx->priv;

	if (f != NULL) {
		json_decref(f->doc);
		free(f);
	}
}

int
os_freebsd_init(struct os_ctx *ctx, char **cause)
{
	if (ctx->root[0] != '\0') {
		util_cause(cause, "the freebsd backend reads the running system only "
		    "(give saved output with --from)");
		return -1;
	}
	ctx->priv = xcalloc(1, sizeof(struct fbsd));
	return 0;
}

const struct os_ops os_freebsd_ops = {
	.name = "freebsd",
	.system = fb_system,
	.cpu = fb_cpu,
	.nics = fb_nics,
	.cpu_times = fb_cpu_times,
	.if_counters = fb_if_counters,
	.irqs = fb_irqs,
	.tunable_get = fb_tunable_get,
	.tunable_set = fb_tunable_set,
	.tunable_kind = fb_tunable_kind,
	.tunable_list = fb_tunable_list,
	.close = fb_close,
};
