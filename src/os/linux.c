/*
 * The Linux backend: /proc, /sys, ethtool ioctls (SIOCETHTOOL), rtnetlink.
 *
 * ctx->root prefixes every /proc and /sys path so tests can point the backend
 * at a captured tree; ioctls and netlink are used only when root is "" (live).
 *
 * Network namespaces: ioctls, netlink and /proc/net follow the calling
 * process's network namespace. /sys/class/net shows the devices of the
 * namespace that mounted /sys: a process that only setns(2)'d into a namespace
 * must also unshare(CLONE_NEWNS) and mount a fresh sysfs on /sys (as
 * `ip netns exec` does) before the sysfs-backed settings (rps_cpus, xps_cpus,
 * rps_flow_cnt, queue lists) work; mtu and txqueuelen use ioctls and do not care.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "os/os_impl.h"
#include "util/util.h"

static int
live(struct os_ctx *ctx)
{
	return ctx->root[0] == '\0';
}

static void
rpath(struct os_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
rpath(struct os_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", ctx->root);
	if (n >= len)
		n = len - 1;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Reads a small file; value without trailing white space. */
static int
readval(const char *path, char *buf, size_t len)
{
	int fd;
	ssize_t n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

static long
readlong(const char *path, long def)
{
	char buf[64], *end;
	long v;

	if (readval(path, buf, sizeof buf) != 0)
		return def;
	v = strtol(buf, &end, 0);
	if (end == buf)
		return def;
	return v;
}

static int
writeval(const char *path, const char *value, char **cause, const char *name)
{
	int fd;
	size_t n = strlen(value);
	ssize_t w;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1) {
		util_cause(cause, "cannot set '%s': cannot open '%s': %s", name, path, strerror(errno));
		return -1;
	}
	w = write(fd, value, n);
	if (w < 0 || (size_t)w != n) {
		util_cause(cause, "cannot set '%s' to '%s': %s", name, value,
		    w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		util_cause(cause, "cannot set '%s' to '%s': %s", name, value, strerror(errno));
		return -1;
	}
	return 0;
}

static const char *
basename_of_link(const char *path, char *buf, size_t len)
{
	char tmp[PATH_MAX];
	ssize_t n;
	const char *p;

	if ((n = readlink(path, tmp, sizeof tmp - 1)) < 0)
		return NULL;
	tmp[n] = '\0';
	p = strrchr(tmp, '/');
	os_strlcpy(buf, p != NULL ? p + 1 : tmp, len);
	return buf;
}

static int
parse_int(const char *s, long *v)
{
	char *end;

	errno = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return -1;
	*v = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0' || errno != 0)
		return -1;
	return 0;
}

static int
parse_onoff(const char *s)
{
	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0 || strcmp(s, "yes") == 0 ||
	    strcmp(s, "true") == 0)
		return 1;
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0 || strcmp(s, "no") == 0 ||
	    strcmp(s, "false") == 0)
		return 0;
	return -1;
}

/* ---- ethtool ---- */

static int
ethtool(const char *ifname, void *data, int *err)
{
	struct ifreq ifr;
	int fd, rc;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		*err = errno;
		return -1;
	}
	memset(&ifr, 0, sizeof ifr);
	os_strlcpy(ifr.ifr_name, ifname, sizeof ifr.ifr_name);
	ifr.ifr_data = data;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	*err = errno;
	close(fd);
	return rc;
}

static int
ifioctl(const char *ifname, unsigned long req, struct ifreq *ifr, int *err)
{
	int fd, rc;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		*err = errno;
		return -1;
	}
	os_strlcpy(ifr->ifr_name, ifname, sizeof ifr->ifr_name);
	rc = ioctl(fd, req, ifr);
	*err = errno;
	close(fd);
	return rc;
}

static int
if_exists(const char *ifname)
{
	return if_nametoindex(ifname) != 0;
}

struct offload {
	const char *name;
	uint32_t gcmd, scmd;	/* legacy one-feature commands, 0 = a GFLAGS bit */
	uint32_t flag;
};

static const struct offload offloads[] = {
	{ "gro", ETHTOOL_GGRO, ETHTOOL_SGRO, 0 },
	{ "tso", ETHTOOL_GTSO, ETHTOOL_STSO, 0 },
	{ "gso", ETHTOOL_GGSO, ETHTOOL_SGSO, 0 },
	{ "rxcsum", ETHTOOL_GRXCSUM, ETHTOOL_SRXCSUM, 0 },
	{ "txcsum", ETHTOOL_GTXCSUM, ETHTOOL_STXCSUM, 0 },
	{ "sg", ETHTOOL_GSG, ETHTOOL_SSG, 0 },
	{ "lro", 0, 0, ETH_FLAG_LRO },
	{ "rxhash", 0, 0, ETH_FLAG_RXHASH },
	{ "rxvlan", 0, 0, ETH_FLAG_RXVLAN },
	{ "txvlan", 0, 0, ETH_FLAG_TXVLAN },
	{ "ntuple", 0, 0, ETH_FLAG_NTUPLE },
};

static const struct offload *
find_offload(const char *s)
{
	size_t i;

	for (i = 0; i < nitems(offloads); i++)
		if (strcmp(offloads[i].name, s) == 0)
			return &offloads[i];
	return NULL;
}

static int
offload_get(const char *ifname, const struct offload *o, int *on, int *err)
{
	struct ethtool_value ev;

	memset(&ev, 0, sizeof ev);
	ev.cmd = o->gcmd != 0 ? o->gcmd : ETHTOOL_GFLAGS;
	if (ethtool(ifname, &ev, err) != 0)
		return -1;
	*on = o->gcmd != 0 ? ev.data != 0 : (ev.data & o->flag) != 0;
	return 0;
}

static int
offload_set(const char *ifname, const struct offload *o, int on, int *err)
{
	struct ethtool_value ev;

	memset(&ev, 0, sizeof ev);
	if (o->gcmd != 0) {
		ev.cmd = o->scmd;
		ev.data = (uint32_t)on;
		return ethtool(ifname, &ev, err);
	}
	ev.cmd = ETHTOOL_GFLAGS;
	if (ethtool(ifname, &ev, err) != 0)
		return -1;
	ev.cmd = ETHTOOL_SFLAGS;
	if (on)
		ev.data |= o->flag;
	else
		ev.data &= ~o->flag;
	return ethtool(ifname, &ev, err);
}

/*
 * Features by their ethtool -k name (rx-udp-gro-forwarding, rx-gro-list,
 * tx-udp-segmentation...): the string set ETH_SS_FEATURES gives each name its
 * bit, ETHTOOL_GFEATURES / SFEATURES read and write the bits. The legacy
 * commands above know only a dozen of them.
 */
struct feature {
	uint32_t	 bit;
	uint32_t	 words;		/* size of the feature bitmap in 32-bit words */
};

static int
feature_find(const char *ifname, const char *fname, struct feature *f, int *err)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info;
	struct ethtool_gstrings *gs;
	uint32_t n, i;
	int rc = -1;

	memset(&info, 0, sizeof info);
	info.hdr.cmd = ETHTOOL_GSSET_INFO;
	info.hdr.sset_mask = 1ULL << ETH_SS_FEATURES;
	if (ethtool(ifname, &info, err) != 0)
		return -1;
	if ((info.hdr.sset_mask & (1ULL << ETH_SS_FEATURES)) == 0 || info.len == 0 ||
	    info.len > 4096) {
		*err = EOPNOTSUPP;
		return -1;
	}
	n = info.len;
	gs = xcalloc(1, sizeof *gs + (size_t)n * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	if (ethtool(ifname, gs, err) != 0)
		goto out;
	*err = ENOENT;
	for (i = 0; i < n && i < gs->len; i++) {
		const char *name = (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

		if (strncmp(name, fname, ETH_GSTRING_LEN) == 0 && strlen(fname) < ETH_GSTRING_LEN) {
			f->bit = i;
			f->words = (n + 31) / 32;
			rc = 0;
			break;
		}
	}
out:
	free(gs);
	return rc;
}

/* The feature's block of GFEATURES: available, requested, active, never_changed. */
static int
feature_block(const char *ifname, const struct feature *f, struct ethtool_get_features_block *b,
    int *err)
{
	struct ethtool_gfeatures *g;
	int rc;

	g = xcalloc(1, sizeof *g + f->words * sizeof g->features[0]);
	g->cmd = ETHTOOL_GFEATURES;
	g->size = f->words;
	if ((rc = ethtool(ifname, g, err)) == 0)
		*b = g->features[f->bit / 32];
	free(g);
	return rc;
}

static int
feature_get(const char *ifname, const char *fname, int *on, int *err)
{
	struct feature f;
	struct ethtool_get_features_block b;

	if (feature_find(ifname, fname, &f, err) != 0 || feature_block(ifname, &f, &b, err) != 0)
		return -1;
	*on = (b.active & (1U << (f.bit % 32))) != 0;
	return 0;
}

/* 0, or -1 with *err: EOPNOTSUPP when the driver has it fixed. */
static int
feature_set(const char *ifname, const char *fname, int on, int *err)
{
	struct feature f;
	struct ethtool_get_features_block b;
	struct ethtool_sfeatures *sf;
	uint32_t m;
	int rc;

	if (feature_find(ifname, fname, &f, err) != 0 || feature_block(ifname, &f, &b, err) != 0)
		return -1;
	m = 1U << (f.bit % 32);
	if (((b.active & m) != 0) == (on != 0))
		return 0;
	if ((b.available & m) == 0 || (b.never_changed & m) != 0) {
		*err = EOPNOTSUPP;
		return -1;
	}
	sf = xcalloc(1, sizeof *sf + f.words * sizeof sf->features[0]);
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = f.words;
	sf->features[f.bit / 32].valid = m;
	sf->features[f.bit / 32].requested = on ? m : 0;
	rc = ethtool(ifname, sf, err);
	free(sf);
	/* A positive return says some features were changed or refused: check below. */
	return rc < 0 ? -1 : 0;
}

/* Per-device NAPI attributes in /sys/class/net/IF (kernel >= 5.12 for threaded). */
static const char *const dev_attrs[][2] = {
	{ "napi_threaded", "threaded" },
	{ "gro_flush_timeout", "gro_flush_timeout" },
	{ "napi_defer_hard_irqs", "napi_defer_hard_irqs" },
};

static const char *
dev_attr(const char *setting)
{
	size_t i;

	for (i = 0; i < nitems(dev_attrs); i++)
		if (strcmp(dev_attrs[i][0], setting) == 0)
			return dev_attrs[i][1];
	return NULL;
}

/* ---- per-interface IRQs ---- */

struct nic_irq {
	int	 irq;
	char	 desc[OS_NAME_MAX];
	char	 kind[8];	/* "rx", "tx", "rxtx"; "" = not a queue (config, misc...) */
	int	 index;		/* queue number, -1 */
	uint64_t total;
};

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
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, dirs[i]);
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

static int
linux_irqs(struct os_ctx *, struct os_irq **, size_t *, char **);

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
		n++;
	}
	free(msi);
	os_irqs_free(irqs, nirq);
	*out = v;
	return n;
}

static size_t
nic_queue_irqs(struct os_ctx *ctx, const char *ifname, struct nic_irq **out)
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

/* ---- sysfs queues ---- */

static size_t
count_queues(struct os_ctx *ctx, const char *ifname, const char *dir)
{
	char path[PATH_MAX], pre[8];
	DIR *d;
	struct dirent *de;
	size_t n = 0;

	rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues", ifname);
	if ((d = opendir(path)) == NULL)
		return 0;
	snprintf(pre, sizeof pre, "%s-", dir);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, pre, 3) == 0 && isdigit((unsigned char)de->d_name[3]))
			n++;
	closedir(d);
	return n;
}

static int
sysfs_if_check(struct os_ctx *ctx, const char *ifname, const char *name, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	rpath(ctx, path, sizeof path, "/sys/class/net/%s", ifname);
	if (stat(path, &st) == 0)
		return 0;
	if (live(ctx) && if_exists(ifname))
		util_cause(cause, "'%s': interface '%s' is not in this mount namespace's /sys "
		    "(enter its network namespace with `ip netns exec`, which remounts /sys)",
		    name, ifname);
	else
		util_cause(cause, "'%s': no interface '%s'", name, ifname);
	return -1;
}

/* Per-queue sysfs attribute: all queues (queue < 0) or one. */
static int
queue_attr_get(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, const char *name, char **value, char **cause)
{
	char path[PATH_MAX], buf[256];
	struct strbuf sb;
	size_t n, i;
	int uniform = 1;
	char first[256] = "";

	if (sysfs_if_check(ctx, ifname, name, cause) != 0)
		return -1;
	n = count_queues(ctx, ifname, dir);
	if (queue >= 0) {
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%d/%s", ifname, dir,
		    queue, attr);
		if (readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': %s", name, strerror(errno));
			return -1;
		}
		*value = xstrdup(buf);
		return 0;
	}
	if (n == 0) {
		util_cause(cause, "'%s': interface '%s' has no %s queues in sysfs", name, ifname, dir);
		return -1;
	}
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%zu/%s", ifname, dir, i,
		    attr);
		if (readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s' (%s-%zu): %s", name, dir, i, strerror(errno));
			strbuf_free(&sb);
			return -1;
		}
		if (i == 0)
			os_strlcpy(first, buf, sizeof first);
		else if (strcmp(first, buf) != 0)
			uniform = 0;
		if (i > 0)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, buf);
	}
	if (uniform) {
		strbuf_free(&sb);
		*value = xstrdup(first);
	} else
		*value = strbuf_detach(&sb);
	return 0;
}

static int
ncpu_online(struct os_ctx *ctx)
{
	char path[PATH_MAX], buf[256];
	unsigned char set[OS_MAXCPU];
	int i, n = 0;

	rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/online");
	if (readval(path, buf, sizeof buf) != 0 || os_cpulist_parse(buf, set, NULL) != 0)
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			n = i + 1;
	return n;
}

/* Splits a space-separated value into words (at most max). */
static size_t
split_words(const char *s, char words[][256], size_t max)
{
	size_t n = 0, k;

	while (*s != '\0' && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		for (k = 0; *s != '\0' && !isspace((unsigned char)*s); s++)
			if (k + 1 < 256)
				words[n][k++] = *s;
		words[n][k] = '\0';
		n++;
	}
	return n;
}

static int
queue_attr_set(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, const char *name, const char *value, int ismask, char **cause)
{
	char path[PATH_MAX], (*words)[256], norm[256];
	unsigned char set[OS_MAXCPU];
	size_t n, nw, i;
	long v;
	int rc = -1;

	if (sysfs_if_check(ctx, ifname, name, cause) != 0)
		return -1;
	n = queue >= 0 ? 1 : count_queues(ctx, ifname, dir);
	if (n == 0) {
		util_cause(cause, "'%s': interface '%s' has no %s queues in sysfs", name, ifname, dir);
		return -1;
	}
	words = xcalloc(n + 1, sizeof *words);
	nw = split_words(value, words, n + 1);
	if (nw != 1 && nw != n) {
		util_cause(cause, "invalid value '%s' for '%s': give one value or one per queue (%zu)",
		    value, name, n);
		goto out;
	}
	for (i = 0; i < nw; i++) {
		if (ismask) {
			if (os_cpumask_parse(words[i], set, NULL) != 0) {
				util_cause(cause, "invalid value '%s' for '%s': not a hex CPU mask",
				    words[i], name);
				goto out;
			}
			os_cpumask_format(set, ncpu_online(ctx), norm, sizeof norm);
			os_strlcpy(words[i], norm, 256);
		} else if (parse_int(words[i], &v) != 0 || v < 0) {
			util_cause(cause, "invalid value '%s' for '%s': not a count", words[i], name);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%zu/%s", ifname, dir,
		    queue >= 0 ? (size_t)queue : i, attr);
		if (writeval(path, words[nw == 1 ? 0 : i], cause, name) != 0)
			goto out;
	}
	rc = 0;
out:
	free(words);
	return rc;
}

/* ---- qdisc via rtnetlink (get) and tc(8) (set) ---- */

static int
qdisc_get(const char *ifname, char *kind, size_t len, char **cause, const char *name)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	char buf[16384];
	struct nlmsghdr *nh;
	struct sockaddr_nl sa;
	int fd, ifindex, done = 0, found = 0;
	ssize_t n;

	if ((ifindex = (int)if_nametoindex(ifname)) == 0) {
		util_cause(cause, "'%s': no interface '%s'", name, ifname);
		return -1;
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) == -1) {
		util_cause(cause, "cannot read '%s': netlink: %s", name, strerror(errno));
		return -1;
	}
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = sizeof req;
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = ifindex;
	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa, sizeof sa) < 0) {
		util_cause(cause, "cannot read '%s': netlink: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	while (!done) {
		if ((n = recv(fd, buf, sizeof buf, 0)) <= 0)
			break;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			struct tcmsg *tc;
			struct rtattr *rta;
			int alen;

			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (nh->nlmsg_type != RTM_NEWQDISC)
				continue;
			tc = NLMSG_DATA(nh);
			if (tc->tcm_ifindex != ifindex || tc->tcm_parent != TC_H_ROOT)
				continue;
			alen = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof *tc));
			for (rta = (struct rtattr *)((char *)tc + NLMSG_ALIGN(sizeof *tc));
			    RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
				if (rta->rta_type == TCA_KIND && !found) {
					size_t l = RTA_PAYLOAD(rta);

					if (l >= len)
						l = len - 1;
					memcpy(kind, RTA_DATA(rta), l);
					kind[l] = '\0';
					/*
					 * Handle 0: is the kernel's own root qdisc; setting
					 * "default" gives it back, a named kind would not.
					 */
					if (tc->tcm_handle == 0)
						snprintf(kind, len, "default");
					found = 1;
				}
			}
		}
	}
	close(fd);
	if (!found) {
		util_cause(cause, "cannot read '%s': no root qdisc reported", name);
		return -1;
	}
	return 0;
}

static const char *
find_tc(void)
{
	static const char *const paths[] = { "/usr/sbin/tc", "/sbin/tc", "/usr/bin/tc", "/bin/tc" };
	size_t i;

	for (i = 0; i < nitems(paths); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

static int
qdisc_set(const char *ifname, const char *value, char **cause, const char *name)
{
	char words[16][256], cur[64];
	char *argv[24];
	const char *tc, *p;
	size_t n, i, k = 0;
	pid_t pid;
	int status, devnull, deflt;

	n = split_words(value, words, 16);
	if (n == 0) {
		util_cause(cause, "invalid value '' for '%s'", name);
		return -1;
	}
	for (i = 0; i < n; i++)
		for (p = words[i]; *p != '\0'; p++)
			if (!isalnum((unsigned char)*p) && strchr("_.:-/", *p) == NULL) {
				util_cause(cause, "invalid value '%s' for '%s'", value, name);
				return -1;
			}
	if ((tc = find_tc()) == NULL) {
		util_cause(cause, "cannot set '%s': tc(8) not found (install iproute2)", name);
		return -1;
	}
	/* "default": delete ours, the kernel attaches its default root qdisc again. */
	deflt = n == 1 && strcmp(words[0], "default") == 0;
	if (deflt) {
		if (qdisc_get(ifname, cur, sizeof cur, cause, name) != 0)
			return -1;
		if (strcmp(cur, "default") == 0)
			return 0;
	}
	argv[k++] = (char *)tc;
	argv[k++] = (char *)"qdisc";
	argv[k++] = (char *)(deflt ? "del" : "replace");
	argv[k++] = (char *)"dev";
	argv[k++] = (char *)ifname;
	argv[k++] = (char *)"root";
	for (i = 0; i < n && !deflt; i++)
		argv[k++] = words[i];
	argv[k] = NULL;
	if ((pid = fork()) == -1) {
		util_cause(cause, "cannot set '%s': fork: %s", name, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if ((devnull = open("/dev/null", O_WRONLY)) != -1)
			dup2(devnull, STDOUT_FILENO);
		execv(tc, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			util_cause(cause, "cannot set '%s': waitpid: %s", name, strerror(errno));
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		util_cause(cause, "cannot set '%s' to '%s': tc qdisc %s failed", name, value,
		    deflt ? "del" : "replace");
		return -1;
	}
	return 0;
}

/* ---- IRQ affinity ---- */

static int
irq_affinity_get(struct os_ctx *ctx, const char *ifname, const char *name, char **value,
    char **cause)
{
	struct nic_irq *q;
	size_t n, i;
	char path[PATH_MAX], buf[256], first[256] = "";
	struct strbuf sb;
	int uniform = 1;

	if ((n = nic_queue_irqs(ctx, ifname, &q)) == 0) {
		free(q);
		util_cause(cause, "'%s': interface '%s' has no queue interrupts", name, ifname);
		return -1;
	}
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", q[i].irq);
		if (readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': '%s': %s", name, path, strerror(errno));
			strbuf_free(&sb);
			free(q);
			return -1;
		}
		if (i == 0)
			os_strlcpy(first, buf, sizeof first);
		else if (strcmp(buf, first) != 0)
			uniform = 0;
		if (i > 0)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, buf);
	}
	free(q);
	if (uniform) {
		*value = xstrdup(first);
		strbuf_free(&sb);
	} else
		*value = strbuf_detach(&sb);
	return 0;
}

static int
irq_affinity_set(struct os_ctx *ctx, const char *ifname, const char *name, const char *value,
    char **cause)
{
	struct nic_irq *q;
	size_t n, nw, i;
	char path[PATH_MAX], (*words)[256], buf[32];
	unsigned char set[OS_MAXCPU];
	int ncpu = ncpu_online(ctx), rc = -1, spread;

	if ((n = nic_queue_irqs(ctx, ifname, &q)) == 0) {
		free(q);
		util_cause(cause, "'%s': interface '%s' has no queue interrupts", name, ifname);
		return -1;
	}
	words = xcalloc(n + 1, sizeof *words);
	spread = strcmp(value, "spread") == 0;
	nw = spread ? n : split_words(value, words, n + 1);
	if (!spread && nw != 1 && nw != n) {
		util_cause(cause, "invalid value '%s' for '%s': give one CPU list, 'spread', "
		    "or one list per queue interrupt (%zu)", value, name, n);
		goto out;
	}
	for (i = 0; !spread && i < nw; i++)
		if (os_cpulist_parse(words[i], set, NULL) != 0) {
			util_cause(cause, "invalid value '%s' for '%s': not a CPU list", words[i], name);
			goto out;
		}
	for (i = 0; i < n; i++) {
		const char *v;

		if (spread) {
			snprintf(buf, sizeof buf, "%zu", i % (size_t)(ncpu > 0 ? ncpu : 1));
			v = buf;
		} else
			v = words[nw == 1 ? 0 : i];
		rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", q[i].irq);
		if (writeval(path, v, cause, name) != 0)
			goto out;
	}
	rc = 0;
out:
	free(words);
	free(q);
	return rc;
}

/* ---- if.<ifname>.napi_thread_cpus: the CPUs the NAPI kernel threads may run on ---- */

#define NAPI_MAXTHREADS	64

/* The online CPUs: what a NAPI thread may run on before anyone pins it. */
static int
online_cpus(unsigned char set[OS_MAXCPU], char **cause)
{
	char buf[256];

	if (readval("/sys/devices/system/cpu/online", buf, sizeof buf) != 0) {
		util_cause(cause, "cannot read '/sys/devices/system/cpu/online': %s", strerror(errno));
		return -1;
	}
	return os_cpulist_parse(buf, set, cause);
}

/*
 * One CPU list when every thread has the same affinity (or the online CPUs
 * when the interface has no NAPI thread), else one list per thread.
 */
static int
napi_cpus_get(const char *ifname, const char *name, char **value, char **cause)
{
	unsigned char set[OS_MAXCPU], first[OS_MAXCPU];
	pid_t pids[NAPI_MAXTHREADS];
	char buf[256], *why = NULL;
	struct strbuf sb;
	size_t n, i;
	int same = 1;

	if (os_linux_napi_pids(ifname, pids, nitems(pids), &n, &why) != 0)
		goto fail;
	if (n == 0) {
		if (online_cpus(set, &why) != 0)
			goto fail;
		os_cpulist_format(set, buf, sizeof buf);
		*value = xstrdup(buf);
		return 0;
	}
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		if (os_linux_pid_cpus(pids[i], i == 0 ? first : set, &why) != 0) {
			strbuf_free(&sb);
			goto fail;
		}
		if (i > 0 && memcmp(first, set, sizeof set) != 0)
			same = 0;
		os_cpulist_format(i == 0 ? first : set, buf, sizeof buf);
		strbuf_addf(&sb, "%s%s", i > 0 ? " " : "", buf);
	}
	if (same) {
		os_cpulist_format(first, buf, sizeof buf);
		strbuf_free(&sb);
		*value = xstrdup(buf);
	} else
		*value = strbuf_detach(&sb);
	return 0;
fail:
	util_cause(cause, "cannot read '%s': %s", name, why);
	free(why);
	return -1;
}

/* Pins every NAPI thread of ifname to the CPU list value. */
static int
napi_cpus_set(const char *ifname, const char *name, const char *value, char **cause)
{
	unsigned char set[OS_MAXCPU], online[OS_MAXCPU];
	pid_t pids[NAPI_MAXTHREADS];
	char *why = NULL;
	size_t n, i;
	int any = 0;

	if (os_cpulist_parse(value, set, NULL) != 0) {
		util_cause(cause, "invalid value '%s' for '%s': not a CPU list (0-1,3)", value, name);
		return -1;
	}
	if (online_cpus(online, &why) != 0)
		goto fail;
	for (i = 0; i < OS_MAXCPU; i++) {
		if (set[i] && !online[i]) {
			util_cause(cause, "invalid value '%s' for '%s': CPU %zu is not online", value,
			    name, i);
			return -1;
		}
		any |= set[i];
	}
	if (!any) {
		util_cause(cause, "invalid value '%s' for '%s': no CPU", value, name);
		return -1;
	}
	if (os_linux_napi_pids(ifname, pids, nitems(pids), &n, &why) != 0)
		goto fail;
	if (n == 0) {
		/* Nothing to pin: fine when asked for what an unpinned thread gets (a restore). */
		if (memcmp(set, online, sizeof set) == 0)
			return 0;
		util_cause(cause, "cannot set '%s': '%s' has no NAPI thread (napi_threaded=1 first)",
		    name, ifname);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (os_linux_pid_set_cpus(pids[i], set, &why) != 0)
			goto fail;
	return 0;
fail:
	util_cause(cause, "cannot set '%s' to '%s': %s", name, value, why);
	free(why);
	return -1;
}

/* ---- if.<ifname>.<setting> ---- */

static int
queue_number(const char *setting, const char *dir)
{
	return atoi(setting + strlen(dir) + 1);
}

static int
if_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	char ifname[IFNAMSIZ + 8], buf[64];
	const char *s, *attr;
	const struct offload *o;
	int err = 0, on;
	long v = -1;

	if (os_if_split(name, ifname, sizeof ifname, &s, live(ctx) ? if_exists : NULL) != 0) {
		util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	if (strcmp(s, "rps_cpus") == 0)
		return queue_attr_get(ctx, ifname, "rx", -1, "rps_cpus", name, value, cause);
	if (strcmp(s, "rps_flow_cnt") == 0)
		return queue_attr_get(ctx, ifname, "rx", -1, "rps_flow_cnt", name, value, cause);
	if (strcmp(s, "xps_cpus") == 0)
		return queue_attr_get(ctx, ifname, "tx", -1, "xps_cpus", name, value, cause);
	if (strncmp(s, "rx-", 3) == 0)
		return queue_attr_get(ctx, ifname, "rx", queue_number(s, "rx"),
		    strchr(s, '.') + 1, name, value, cause);
	if (strncmp(s, "tx-", 3) == 0)
		return queue_attr_get(ctx, ifname, "tx", queue_number(s, "tx"),
		    strchr(s, '.') + 1, name, value, cause);
	if (strcmp(s, "irq_affinity") == 0)
		return irq_affinity_get(ctx, ifname, name, value, cause);
	if (strcmp(s, "napi_thread_cpus") == 0) {
		if (!live(ctx)) {
			util_cause(cause, "cannot read '%s': not available from a captured tree", name);
			return -1;
		}
		return napi_cpus_get(ifname, name, value, cause);
	}
	if ((attr = dev_attr(s)) != NULL) {
		char path[PATH_MAX];

		if (sysfs_if_check(ctx, ifname, name, cause) != 0)
			return -1;
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, attr);
		if (readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': %s", name, errno == ENOENT ?
			    "this kernel has no such attribute" : strerror(errno));
			return -1;
		}
		*value = xstrdup(buf);
		return 0;
	}
	if (!live(ctx)) {
		char path[PATH_MAX];

		/* A captured tree has sysfs copies of mtu and tx_queue_len only. */
		if (strcmp(s, "mtu") == 0 || strcmp(s, "txqueuelen") == 0) {
			rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname,
			    strcmp(s, "mtu") == 0 ? "mtu" : "tx_queue_len");
			if (readval(path, buf, sizeof buf) == 0) {
				*value = xstrdup(buf);
				return 0;
			}
		}
		util_cause(cause, "cannot read '%s': not available from a captured tree", name);
		return -1;
	}
	if (!if_exists(ifname)) {
		util_cause(cause, "'%s': no interface '%s'", name, ifname);
		return -1;
	}
	if (strcmp(s, "qdisc") == 0) {
		if (qdisc_get(ifname, buf, sizeof buf, cause, name) != 0)
			return -1;
		*value = xstrdup(buf);
		return 0;
	}
	if (strcmp(s, "mtu") == 0 || strcmp(s, "txqueuelen") == 0) {
		struct ifreq ifr;

		memset(&ifr, 0, sizeof ifr);
		if (ifioctl(ifname, strcmp(s, "mtu") == 0 ? SIOCGIFMTU : SIOCGIFTXQLEN, &ifr,
		    &err) != 0)
			goto fail;
		v = strcmp(s, "mtu") == 0 ? ifr.ifr_mtu : ifr.ifr_qlen;
	} else if (strncmp(s, "channels.", 9) == 0) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

		if (ethtool(ifname, &ch, &err) != 0)
			goto fail;
		s += 9;
		v = strcmp(s, "combined") == 0 ? ch.combined_count : strcmp(s, "rx") == 0 ?
		    ch.rx_count : strcmp(s, "tx") == 0 ? ch.tx_count : ch.other_count;
	} else if (strncmp(s, "ring.", 5) == 0) {
		struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };

		if (ethtool(ifname, &r, &err) != 0)
			goto fail;
		s += 5;
		v = strcmp(s, "rx") == 0 ? r.rx_pending : strcmp(s, "tx") == 0 ? r.tx_pending :
		    strcmp(s, "rx-mini") == 0 ? r.rx_mini_pending : r.rx_jumbo_pending;
	} else if (strncmp(s, "coalesce.", 9) == 0) {
		struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };

		if (ethtool(ifname, &c, &err) != 0)
			goto fail;
		s += 9;
		if (strcmp(s, "rx-usecs") == 0)
			v = c.rx_coalesce_usecs;
		else if (strcmp(s, "tx-usecs") == 0)
			v = c.tx_coalesce_usecs;
		else if (strcmp(s, "rx-frames") == 0)
			v = c.rx_max_coalesced_frames;
		else if (strcmp(s, "tx-frames") == 0)
			v = c.tx_max_coalesced_frames;
		else {
			on = strcmp(s, "adaptive-rx") == 0 ? c.use_adaptive_rx_coalesce != 0 :
			    c.use_adaptive_tx_coalesce != 0;
			*value = xstrdup(on ? "on" : "off");
			return 0;
		}
	} else if (strcmp(s, "flow-control") == 0) {
		struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };

		if (ethtool(ifname, &pp, &err) != 0)
			goto fail;
		*value = xstrdup(pp.rx_pause && pp.tx_pause ? "on" : pp.rx_pause ? "rx" :
		    pp.tx_pause ? "tx" : "off");
		return 0;
	} else if (strncmp(s, "offload.", 8) == 0) {
		if ((o = find_offload(s + 8)) != NULL ? offload_get(ifname, o, &on, &err) != 0 :
		    feature_get(ifname, s + 8, &on, &err) != 0) {
			if (err == ENOENT) {
				util_cause(cause, "cannot read '%s': '%s' has no feature '%s' "
				    "(ethtool -k %s lists them)", name, ifname, s + 8, ifname);
				return -1;
			}
			goto fail;
		}
		*value = xstrdup(on ? "on" : "off");
		return 0;
	} else {
		util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	snprintf(buf, sizeof buf, "%ld", v);
	*value = xstrdup(buf);
	return 0;
fail:
	if (err == EOPNOTSUPP)
		util_cause(cause, "cannot read '%s': driver of '%s' does not support it", name, ifname);
	else
		util_cause(cause, "cannot read '%s': %s", name, strerror(err));
	return -1;
}

static int
ethtool_setfail(const char *name, const char *ifname, const char *value, int err, char **cause)
{
	if (err == EOPNOTSUPP)
		util_cause(cause, "cannot set '%s': driver of '%s' does not support it", name, ifname);
	else
		util_cause(cause, "cannot set '%s' to '%s': %s", name, value, strerror(err));
	return -1;
}

static int
if_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	char ifname[IFNAMSIZ + 8];
	const char *s, *attr;
	const struct offload *o;
	int err = 0, on, got;
	long v = 0;
	int numeric;

	if (os_if_split(name, ifname, sizeof ifname, &s, live(ctx) ? if_exists : NULL) != 0) {
		util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	if (strcmp(s, "rps_cpus") == 0)
		return queue_attr_set(ctx, ifname, "rx", -1, "rps_cpus", name, value, 1, cause);
	if (strcmp(s, "rps_flow_cnt") == 0)
		return queue_attr_set(ctx, ifname, "rx", -1, "rps_flow_cnt", name, value, 0, cause);
	if (strcmp(s, "xps_cpus") == 0)
		return queue_attr_set(ctx, ifname, "tx", -1, "xps_cpus", name, value, 1, cause);
	if (strncmp(s, "rx-", 3) == 0 || strncmp(s, "tx-", 3) == 0) {
		attr = strchr(s, '.') + 1;
		return queue_attr_set(ctx, ifname, s[0] == 'r' ? "rx" : "tx",
		    queue_number(s, "rx"), attr, name, value, strcmp(attr, "rps_flow_cnt") != 0,
		    cause);
	}
	if (strcmp(s, "irq_affinity") == 0)
		return irq_affinity_set(ctx, ifname, name, value, cause);
	if (!live(ctx)) {
		util_cause(cause, "cannot set '%s': a captured tree is read-only", name);
		return -1;
	}
	if (strcmp(s, "napi_thread_cpus") == 0)
		return napi_cpus_set(ifname, name, value, cause);
	if ((attr = dev_attr(s)) != NULL) {
		char path[PATH_MAX];

		if (parse_int(value, &v) != 0 || v < 0 || v > INT32_MAX) {
			util_cause(cause, "invalid value '%s' for '%s': not a non-negative integer",
			    value, name);
			return -1;
		}
		if (sysfs_if_check(ctx, ifname, name, cause) != 0)
			return -1;
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, attr);
		if (writeval(path, value, cause, name) != 0) {
			/* veth and other software devices have NAPI only with GRO or XDP on. */
			if (strcmp(attr, "threaded") == 0 && cause != NULL && *cause != NULL &&
			    strstr(*cause, strerror(EIO)) != NULL) {
				free(*cause);
				*cause = NULL;
				util_cause(cause, "cannot set '%s' to '%s': '%s' has no NAPI instance "
				    "now (a veth has one only with GRO or XDP on)", name, value, ifname);
			}
			return -1;
		}
		return 0;
	}
	if (!if_exists(ifname)) {
		util_cause(cause, "'%s': no interface '%s'", name, ifname);
		return -1;
	}
	if (strcmp(s, "qdisc") == 0)
		return qdisc_set(ifname, value, cause, name);
	numeric = strncmp(s, "offload.", 8) != 0 && strcmp(s, "flow-control") != 0 &&
	    strncmp(s, "coalesce.adaptive", 17) != 0;
	if (numeric && (parse_int(value, &v) != 0 || v < 0 || v > INT32_MAX)) {
		util_cause(cause, "invalid value '%s' for '%s': not a non-negative integer", value,
		    name);
		return -1;
	}
	if (strcmp(s, "mtu") == 0 || strcmp(s, "txqueuelen") == 0) {
		struct ifreq ifr;
		int mtu = strcmp(s, "mtu") == 0;

		memset(&ifr, 0, sizeof ifr);
		if (mtu)
			ifr.ifr_mtu = (int)v;
		else
			ifr.ifr_qlen = (int)v;
		if (ifioctl(ifname, mtu ? SIOCSIFMTU : SIOCSIFTXQLEN, &ifr, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "channels.", 9) == 0) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
		uint32_t max;

		if (ethtool(ifname, &ch, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		s += 9;
		if (strcmp(s, "combined") == 0) {
			ch.combined_count = (uint32_t)v;
			max = ch.max_combined;
		} else if (strcmp(s, "rx") == 0) {
			ch.rx_count = (uint32_t)v;
			max = ch.max_rx;
		} else if (strcmp(s, "tx") == 0) {
			ch.tx_count = (uint32_t)v;
			max = ch.max_tx;
		} else {
			ch.other_count = (uint32_t)v;
			max = ch.max_other;
		}
		if ((uint32_t)v > max) {
			util_cause(cause, "cannot set '%s' to %ld: maximum is %u", name, v, max);
			return -1;
		}
		ch.cmd = ETHTOOL_SCHANNELS;
		if (ethtool(ifname, &ch, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "ring.", 5) == 0) {
		struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };
		uint32_t max;

		if (ethtool(ifname, &r, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		s += 5;
		if (strcmp(s, "rx") == 0) {
			r.rx_pending = (uint32_t)v;
			max = r.rx_max_pending;
		} else if (strcmp(s, "tx") == 0) {
			r.tx_pending = (uint32_t)v;
			max = r.tx_max_pending;
		} else if (strcmp(s, "rx-mini") == 0) {
			r.rx_mini_pending = (uint32_t)v;
			max = r.rx_mini_max_pending;
		} else {
			r.rx_jumbo_pending = (uint32_t)v;
			max = r.rx_jumbo_max_pending;
		}
		if ((uint32_t)v > max) {
			util_cause(cause, "cannot set '%s' to %ld: maximum is %u", name, v, max);
			return -1;
		}
		r.cmd = ETHTOOL_SRINGPARAM;
		if (ethtool(ifname, &r, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "coalesce.", 9) == 0) {
		struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };

		if (ethtool(ifname, &c, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		s += 9;
		if (strncmp(s, "adaptive-", 9) == 0) {
			if ((on = parse_onoff(value)) < 0) {
				util_cause(cause, "invalid value '%s' for '%s': use on or off", value, name);
				return -1;
			}
			if (s[9] == 'r')
				c.use_adaptive_rx_coalesce = (uint32_t)on;
			else
				c.use_adaptive_tx_coalesce = (uint32_t)on;
		} else if (strcmp(s, "rx-usecs") == 0)
			c.rx_coalesce_usecs = (uint32_t)v;
		else if (strcmp(s, "tx-usecs") == 0)
			c.tx_coalesce_usecs = (uint32_t)v;
		else if (strcmp(s, "rx-frames") == 0)
			c.rx_max_coalesced_frames = (uint32_t)v;
		else
			c.tx_max_coalesced_frames = (uint32_t)v;
		c.cmd = ETHTOOL_SCOALESCE;
		if (ethtool(ifname, &c, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strcmp(s, "flow-control") == 0) {
		struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
		int rx, tx;

		if (strcmp(value, "rx") == 0)
			rx = 1, tx = 0;
		else if (strcmp(value, "tx") == 0)
			rx = 0, tx = 1;
		else if ((on = parse_onoff(value)) >= 0)
			rx = tx = on;
		else {
			util_cause(cause, "invalid value '%s' for '%s': use on, off, rx or tx", value,
			    name);
			return -1;
		}
		if (ethtool(ifname, &pp, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		pp.cmd = ETHTOOL_SPAUSEPARAM;
		pp.rx_pause = (uint32_t)rx;
		pp.tx_pause = (uint32_t)tx;
		if (ethtool(ifname, &pp, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "offload.", 8) == 0) {
		if ((on = parse_onoff(value)) < 0) {
			util_cause(cause, "invalid value '%s' for '%s': use on or off", value, name);
			return -1;
		}
		o = find_offload(s + 8);
		if (o != NULL ? offload_set(ifname, o, on, &err) != 0 :
		    feature_set(ifname, s + 8, on, &err) != 0) {
			if (err == ENOENT) {
				util_cause(cause, "cannot set '%s': '%s' has no feature '%s' "
				    "(ethtool -k %s lists them)", name, ifname, s + 8, ifname);
				return -1;
			}
			return ethtool_setfail(name, ifname, value, err, cause);
		}
		/* A feature can be refused silently (fixed, or needs another one): check. */
		if ((o != NULL ? offload_get(ifname, o, &got, &err) :
		    feature_get(ifname, s + 8, &got, &err)) == 0 && got != on) {
			util_cause(cause, "cannot set '%s' to '%s': the driver kept it %s", name, value,
			    got ? "on" : "off");
			return -1;
		}
		return 0;
	}
	util_cause(cause, "unknown interface setting '%s'", name);
	return -1;
}

/* ---- cpu.governor ---- */

static size_t
governor_paths(struct os_ctx *ctx, char (**paths)[PATH_MAX])
{
	char dir[PATH_MAX], p[PATH_MAX];
	DIR *d;
	struct dirent *de;
	size_t n = 0;
	struct stat st;

	*paths = NULL;
	rpath(ctx, dir, sizeof dir, "/sys/devices/system/cpu");
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)de->d_name[3]))
			continue;
		if (snprintf(p, sizeof p, "%s/%s/cpufreq/scaling_governor", dir, de->d_name) >=
		    (int)sizeof p || stat(p, &st) != 0)
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof **paths);
		os_strlcpy((*paths)[n++], p, PATH_MAX);
	}
	closedir(d);
	return n;
}

static int
governor_get(struct os_ctx *ctx, char **value, char **cause)
{
	char (*paths)[PATH_MAX], buf[64];
	size_t n;

	if ((n = governor_paths(ctx, &paths)) == 0) {
		free(paths);
		util_cause(cause, "cannot read 'cpu.governor': no CPU frequency scaling (cpufreq) here");
		return -1;
	}
	if (readval(paths[0], buf, sizeof buf) != 0) {
		util_cause(cause, "cannot read '%s': %s", paths[0], strerror(errno));
		free(paths);
		return -1;
	}
	free(paths);
	*value = xstrdup(buf);
	return 0;
}

static int
governor_set(struct os_ctx *ctx, const char *value, char **cause)
{
	char (*paths)[PATH_MAX];
	size_t n, i;

	if ((n = governor_paths(ctx, &paths)) == 0) {
		free(paths);
		util_cause(cause, "cannot set 'cpu.governor': no CPU frequency scaling (cpufreq) here");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (writeval(paths[i], value, cause, "cpu.governor") != 0) {
			free(paths);
			return -1;
		}
	free(paths);
	return 0;
}

/* ---- sysctl via /proc/sys ---- */

static int
sysctl_path(struct os_ctx *ctx, const char *name, char *buf, size_t len, char **cause)
{
	char rel[PATH_MAX], *comp, *save;
	size_t i, n = strlen(name);

	if (n == 0 || n >= sizeof rel - 1 || name[0] == '.' || name[n - 1] == '.')
		goto bad;
	for (i = 0; i < n; i++) {
		if (name[i] == '.')
			rel[i] = '/';
		else if (name[i] == '/')
			rel[i] = '.';
		else if (isspace((unsigned char)name[i]) || name[i] == '=')
			goto bad;
		else
			rel[i] = name[i];
	}
	rel[n] = '\0';
	{
		char tmp[PATH_MAX];

		os_strlcpy(tmp, rel, sizeof tmp);
		for (comp = strtok_r(tmp, "/", &save); comp != NULL; comp = strtok_r(NULL, "/", &save))
			if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
				goto bad;
		if (strstr(rel, "//") != NULL)
			goto bad;
	}
	rpath(ctx, buf, len, "/proc/sys/%s", rel);
	return 0;
bad:
	util_cause(cause, "invalid sysctl name '%s'", name);
	return -1;
}

static void
normalize_value(char *s)
{
	char *r, *w;
	int sp = 0;

	for (r = w = s; *r != '\0'; r++) {
		if (*r == '\t' || *r == ' ' || *r == '\n') {
			sp = 1;
			continue;
		}
		if (sp && w != s)
			*w++ = ' ';
		sp = 0;
		*w++ = *r;
	}
	*w = '\0';
}

static int
sysctl_read(const char *path, char **value)
{
	char *data;
	size_t len;

	if (util_read_file(path, &data, &len, NULL) != 0)
		return -1;
	normalize_value(data);
	*value = data;
	return 0;
}

static int
sysctl_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	if (sysctl_path(ctx, name, path, sizeof path, cause) != 0)
		return -1;
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
		util_cause(cause, "unknown sysctl '%s'", name);
		return -1;
	}
	if (sysctl_read(path, value) != 0) {
		util_cause(cause, "cannot read sysctl '%s': %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

static int
sysctl_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	if (sysctl_path(ctx, name, path, sizeof path, cause) != 0)
		return -1;
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
		util_cause(cause, "unknown sysctl '%s'", name);
		return -1;
	}
	if (!live(ctx)) {
		util_cause(cause, "cannot set '%s': a captured tree is read-only", name);
		return -1;
	}
	return writeval(path, value, cause, name);
}

static int
linux_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	*value = NULL;
	if (strcmp(name, "cpu.governor") == 0)
		return governor_get(ctx, value, cause);
	if (strncmp(name, "if.", 3) == 0)
		return if_get(ctx, name, value, cause);
	return sysctl_get(ctx, name, value, cause);
}

static int
linux_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	if (strcmp(name, "cpu.governor") == 0)
		return governor_set(ctx, value, cause);
	if (strncmp(name, "if.", 3) == 0)
		return if_set(ctx, name, value, cause);
	return sysctl_set(ctx, name, value, cause);
}

static int
linux_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *kind,
    char **cause)
{
	char path[PATH_MAX], *v = NULL;
	struct stat st;

	*kind = OS_TUNABLE_NONE;
	if (strcmp(name, "cpu.governor") == 0 || strncmp(name, "if.", 3) == 0) {
		if (linux_tunable_get(ctx, name, &v, NULL) == 0)
			*kind = OS_TUNABLE_RUNTIME;
		free(v);
		return 0;
	}
	if (sysctl_path(ctx, name, path, sizeof path, cause) != 0)
		return -1;
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return 0;
	*kind = (st.st_mode & 0222) && live(ctx) ? OS_TUNABLE_RUNTIME : OS_TUNABLE_READONLY;
	if (!live(ctx) && (st.st_mode & 0222))
		*kind = OS_TUNABLE_RUNTIME;
	return 0;
}

struct walk {
	int	(*fn)(const char *, const char *, void *);
	void	*arg;
	const char *prefix;
	int	 stop;
};

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
walk_dir(struct walk *w, const char *dir, const char *name, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, path[PATH_MAX], sub[1024], *v;
	size_t n = 0, i, k;
	struct stat st;

	if (depth > 16 || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmpstr);
	for (i = 0; i < n && !w->stop; i++) {
		size_t l;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		l = (size_t)snprintf(sub, sizeof sub, "%s%s", name, name[0] ? "." : "");
		for (k = 0; names[i][k] != '\0' && l + 1 < sizeof sub; k++)
			sub[l++] = names[i][k] == '.' ? '/' : names[i][k];
		sub[l] = '\0';
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk_dir(w, path, sub, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode) || (st.st_mode & 0444) == 0)
			continue;
		if (strncmp(sub, w->prefix, strlen(w->prefix)) != 0)
			continue;
		if (sysctl_read(path, &v) != 0)
			continue;
		if (w->fn(sub, v, w->arg) != 0)
			w->stop = 1;
		free(v);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int
linux_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *, const char *, void *), void *arg, char **cause)
{
	struct walk w = { fn, arg, prefix, 0 };
	char dir[PATH_MAX], name[1024];
	const char *dot;
	size_t n, i;

	/* Start at the deepest directory the prefix names completely. */
	dot = strrchr(prefix, '.');
	n = dot != NULL ? (size_t)(dot - prefix) : 0;
	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, prefix, n);
	name[n] = '\0';
	if (n > 0 && sysctl_path(ctx, name, dir, sizeof dir, NULL) != 0) {
		util_cause(cause, "invalid sysctl prefix '%s'", prefix);
		return -1;
	}
	if (n == 0)
		rpath(ctx, dir, sizeof dir, "/proc/sys");
	for (i = 0; i < n; i++)
		if (name[i] == '/')
			name[i] = '.';
	{
		struct stat st;
		char top[PATH_MAX];

		rpath(ctx, top, sizeof top, "/proc/sys");
		if (stat(top, &st) != 0) {
			util_cause(cause, "cannot read '%s': %s", top, strerror(errno));
			return -1;
		}
	}
	/* name must be the dotted form as walk_dir builds it */
	memcpy(name, prefix, n);
	name[n] = '\0';
	walk_dir(&w, dir, name, 0);
	return 0;
}

/* ---- system, CPU ---- */

static int
current_netns(char *buf, size_t len)
{
	static const char *const dirs[] = { "/run/netns", "/var/run/netns" };
	struct stat self, st;
	DIR *d;
	struct dirent *de;
	char path[PATH_MAX];
	size_t i;

	buf[0] = '\0';
	if (stat("/proc/self/ns/net", &self) != 0)
		return -1;
	if (stat("/proc/1/ns/net", &st) == 0 && st.st_ino == self.st_ino && st.st_dev == self.st_dev)
		return 0;
	for (i = 0; i < nitems(dirs); i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
			if (stat(path, &st) == 0 && st.st_ino == self.st_ino &&
			    st.st_dev == self.st_dev) {
				os_strlcpy(buf, de->d_name, len);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	return 0;
}

static int
linux_system(struct os_ctx *ctx, struct os_system *sys, char **cause)
{
	char path[PATH_MAX], *data, *line, *save;
	size_t len;

	memset(sys, 0, sizeof *sys);
	os_strlcpy(sys->os, "Linux", sizeof sys->os);
	rpath(ctx, path, sizeof path, "/proc/sys/kernel/osrelease");
	if (readval(path, sys->version, sizeof sys->version) != 0) {
		util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	rpath(ctx, path, sizeof path, "/proc/sys/kernel/hostname");
	readval(path, sys->hostname, sizeof sys->hostname);
	rpath(ctx, path, sizeof path, "/etc/os-release");
	if (util_read_file(path, &data, &len, NULL) == 0) {
		for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
				char *v = line + 12;
				size_t l = strlen(v);

				if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
					v[l - 1] = '\0';
					v++;
				}
				os_strlcpy(sys->distro, v, sizeof sys->distro);
			}
		}
		free(data);
	}
	if (live(ctx))
		current_netns(sys->netns, sizeof sys->netns);
	return 0;
}

static int
linux_cpu(struct os_ctx *ctx, struct os_cpu *cpu, char **cause)
{
	char path[PATH_MAX], buf[256], *data, *line, *save;
	unsigned char set[OS_MAXCPU];
	size_t len;
	int i, n = 0, *pkg, k, j, npkg = 0, ncore = 0;
	DIR *d;
	struct dirent *de;

	memset(cpu, 0, sizeof *cpu);
	cpu->smt = OS_UNKNOWN;
	rpath(ctx, path, sizeof path, "/proc/cpuinfo");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (colon == NULL)
			continue;
		*colon = '\0';
		util_trim(line);
		if (strcmp(line, "model name") == 0 || strcmp(line, "Model") == 0 ||
		    strcmp(line, "cpu model") == 0 || strcmp(line, "cpu") == 0) {
			if (cpu->model[0] == '\0' || strcmp(line, "model name") == 0)
				os_strlcpy(cpu->model, util_trim(colon + 1), sizeof cpu->model);
		}
	}
	free(data);
	rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/online");
	if (readval(path, buf, sizeof buf) != 0 || os_cpulist_parse(buf, set, NULL) != 0) {
		util_cause(cause, "cannot read '%s'", path);
		return -1;
	}
	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			n = i + 1;
	cpu->threads = n;
	cpu->cpu_numa = xcalloc((size_t)n, sizeof(int));
	cpu->cpu_core = xcalloc((size_t)n, sizeof(int));
	pkg = xcalloc((size_t)n, sizeof(int));
	for (i = 0; i < n; i++) {
		rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
		pkg[i] = (int)readlong(path, 0);
		rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", i);
		cpu->cpu_core[i] = (int)readlong(path, i);
		cpu->cpu_numa[i] = 0;
		rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d", i);
		if ((d = opendir(path)) != NULL) {
			while ((de = readdir(d)) != NULL)
				if (strncmp(de->d_name, "node", 4) == 0 &&
				    isdigit((unsigned char)de->d_name[4]))
					cpu->cpu_numa[i] = atoi(de->d_name + 4);
			closedir(d);
		}
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && pkg[j] != pkg[i]; j++)
			;
		if (j == i)
			npkg++;
		for (k = 0; k < i && (pkg[k] != pkg[i] || cpu->cpu_core[k] != cpu->cpu_core[i]); k++)
			;
		if (k == i)
			ncore++;
	}
	free(pkg);
	cpu->packages = npkg;
	cpu->cores = ncore;
	cpu->smt = n > ncore ? OS_ON : OS_OFF;
	rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/smt/control");
	if (readval(path, buf, sizeof buf) == 0 && strcmp(buf, "on") == 0 && n == ncore)
		cpu->smt = OS_OFF;
	cpu->numa_nodes = 0;
	rpath(ctx, path, sizeof path, "/sys/devices/system/node");
	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strncmp(de->d_name, "node", 4) == 0 && isdigit((unsigned char)de->d_name[4]))
				cpu->numa_nodes++;
		closedir(d);
	}
	if (cpu->numa_nodes == 0)
		cpu->numa_nodes = 1;
	if (governor_get(ctx, &data, NULL) == 0) {
		os_strlcpy(cpu->governor, data, sizeof cpu->governor);
		free(data);
	}
	return 0;
}

/* ---- NICs ---- */

static void
nic_pci(struct os_ctx *ctx, struct os_nic *nic)
{
	static const char *const devs[] = { "device", "device/.." };
	char path[PATH_MAX], ven[32], dev[32], link[PATH_MAX], sub[64];
	size_t i = 0;

	/* virtio and other bus devices sit below their PCI function */
	rpath(ctx, path, sizeof path, "/sys/class/net/%s/device/subsystem", nic->name);
	if (basename_of_link(path, sub, sizeof sub) != NULL && strcmp(sub, "pci") != 0)
		i = 1;
	for (; i < nitems(devs); i++) {
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/vendor", nic->name, devs[i]);
		if (readval(path, ven, sizeof ven) != 0)
			continue;
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/device", nic->name, devs[i]);
		if (readval(path, dev, sizeof dev) != 0)
			continue;
		if (snprintf(nic->pci_id, sizeof nic->pci_id, "%.8s:%.8s",
		    strncmp(ven, "0x", 2) == 0 ? ven + 2 : ven,
		    strncmp(dev, "0x", 2) == 0 ? dev + 2 : dev) < 0)
			nic->pci_id[0] = '\0';
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", nic->name, devs[i]);
		if (realpath(path, link) != NULL) {
			const char *b = strrchr(link, '/');

			os_strlcpy(nic->bus, b != NULL ? b + 1 : link, sizeof nic->bus);
		}
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s/numa_node", nic->name, devs[i]);
		nic->numa_node = (int)readlong(path, -1);
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

	if (ethtool(nic->name, &di, &err) == 0) {
		if (nic->driver[0] == '\0')
			os_strlcpy(nic->driver, di.driver, sizeof nic->driver);
		os_strlcpy(nic->driver_version, di.version, sizeof nic->driver_version);
		os_strlcpy(nic->firmware, di.fw_version, sizeof nic->firmware);
		if (nic->bus[0] == '\0' && strcmp(di.bus_info, "N/A") != 0)
			os_strlcpy(nic->bus, di.bus_info, sizeof nic->bus);
	} else
		nic_note(nic, "driver info", err);
	if (ethtool(nic->name, &ch, &err) == 0) {
		nic->rx_queues = (int)ch.rx_count;
		nic->tx_queues = (int)ch.tx_count;
		nic->combined_queues = (int)ch.combined_count;
		nic->max_rx_queues = (int)ch.max_rx;
		nic->max_tx_queues = (int)ch.max_tx;
		nic->max_combined_queues = (int)ch.max_combined;
	} else
		nic_note(nic, "channels", err);
	if (ethtool(nic->name, &r, &err) == 0) {
		nic->rx_ring = (int)r.rx_pending;
		nic->tx_ring = (int)r.tx_pending;
		nic->max_rx_ring = (int)r.rx_max_pending;
		nic->max_tx_ring = (int)r.tx_max_pending;
	} else
		nic_note(nic, "rings", err);
	if (ethtool(nic->name, &c, &err) == 0) {
		nic->coalesce_rx_usecs = (int)c.rx_coalesce_usecs;
		nic->adaptive_rx = c.use_adaptive_rx_coalesce != 0;
	} else
		nic_note(nic, "coalescing", err);
	for (i = 0; i < nitems(offs); i++) {
		if (offload_get(nic->name, find_offload(offs[i]), &on, &err) == 0)
			*dst[i] = on;
		else if (err != EOPNOTSUPP)
			nic_note(nic, offs[i], err);
	}
}

static void
queue_irq_info(struct os_ctx *ctx, struct os_queue *q, const struct nic_irq *ni)
{
	char path[PATH_MAX], buf[OS_NAME_MAX];

	q->irq = ni->irq;
	os_strlcpy(q->irq_name, ni->desc, sizeof q->irq_name);
	q->interrupts = ni->total;
	rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", ni->irq);
	if (readval(path, buf, sizeof buf) == 0)
		os_strlcpy(q->irq_affinity, buf, sizeof q->irq_affinity);
	rpath(ctx, path, sizeof path, "/proc/irq/%d/effective_affinity_list", ni->irq);
	if (readval(path, buf, sizeof buf) == 0 && buf[0] != '\0')
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

	nrx = count_queues(ctx, nic->name, "rx");
	ntx = count_queues(ctx, nic->name, "tx");
	nirq = nic_queue_irqs(ctx, nic->name, &ni);
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
			rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/rx-%zu/rps_cpus",
			    nic->name, idx);
			readval(path, q->rps_cpus, sizeof q->rps_cpus);
		}
		if (strcmp(kind, "rx") != 0) {
			rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/tx-%zu/xps_cpus",
			    nic->name, idx);
			readval(path, q->xps_cpus, sizeof q->xps_cpus);
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

static int
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
	rpath(ctx, dir, sizeof dir, "/sys/class/net");
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
	qsort(v, n, sizeof *v, cmp_nic);
	rpath(ctx, path, sizeof path, "/proc/interrupts");
	irq_err = access(path, R_OK) == 0 ? 0 : errno;
	for (nic = v; nic < v + n; nic++) {
		if (irq_err != 0)
			nic_note(nic, "its queue interrupts ('/proc/interrupts')", irq_err);
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/device/driver", nic->name);
		basename_of_link(path, nic->driver, sizeof nic->driver);
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/address", nic->name);
		readval(path, nic->mac, sizeof nic->mac);
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/mtu", nic->name);
		nic->mtu = (int)readlong(path, -1);
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/flags", nic->name);
		flags = readlong(path, 0);
		nic->up = (flags & IFF_UP) != 0;
		rpath(ctx, path, sizeof path, "/sys/class/net/%s/speed", nic->name);
		if (readval(path, buf, sizeof buf) == 0 && atol(buf) > 0)
			nic->speed_mbps = atol(buf);
		nic_pci(ctx, nic);
		nic_pci_name(nic);
		if (live(ctx))
			nic_ethtool(nic);
		nic_queues(ctx, nic);
	}
	*out = v;
	*nout = n;
	return 0;
}

/* ---- counters ---- */

static int
linux_cpu_times(struct os_ctx *ctx, struct os_cpu_times **out, size_t *n, char **cause)
{
	char path[PATH_MAX], *data, *line, *save;
	size_t len;
	struct os_cpu_times *v = NULL;
	size_t cnt = 0;
	unsigned long long f[8];
	int idx;

	*out = NULL;
	*n = 0;
	rpath(ctx, path, sizeof path, "/proc/stat");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char)line[3]))
			continue;
		memset(f, 0, sizeof f);
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &idx, &f[0], &f[1],
		    &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) < 5 || idx < 0 || idx >= OS_MAXCPU)
			continue;
		if ((size_t)idx >= cnt) {
			v = xreallocarray(v, (size_t)idx + 1, sizeof *v);
			memset(v + cnt, 0, ((size_t)idx + 1 - cnt) * sizeof *v);
			cnt = (size_t)idx + 1;
		}
		v[idx].user = f[0];
		v[idx].nice = f[1];
		v[idx].system = f[2];
		v[idx].idle = f[3];
		v[idx].iowait = f[4];
		v[idx].interrupt = f[5];
		v[idx].softirq = f[6];
		v[idx].steal = f[7];
	}
	free(data);
	if (cnt == 0) {
		free(v);
		util_cause(cause, "'%s': no per-CPU lines", path);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static int
linux_if_counters(struct os_ctx *ctx, struct os_if_counters **out, size_t *n, char **cause)
{
	char path[PATH_MAX], *data, *line, *save, *colon;
	size_t len, cnt = 0;
	struct os_if_counters *v = NULL, *c;
	unsigned long long f[16];

	*out = NULL;
	*n = 0;
	rpath(ctx, path, sizeof path, "/proc/net/dev");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if ((colon = strchr(line, ':')) == NULL || strchr(line, '|') != NULL)
			continue;
		*colon = '\0';
		if (sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
		    "%llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
		    &f[8], &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15]) != 16)
			continue;
		v = xreallocarray(v, cnt + 1, sizeof *v);
		c = &v[cnt++];
		memset(c, 0, sizeof *c);
		os_strlcpy(c->name, util_trim(line), sizeof c->name);
		c->ibytes = f[0];
		c->ipackets = f[1];
		c->ierrors = f[2];
		c->idrops = f[3] + f[4];
		c->obytes = f[8];
		c->opackets = f[9];
		c->oerrors = f[10];
		c->odrops = f[11];
	}
	free(data);
	*out = v;
	*n = cnt;
	return 0;
}

static int
linux_irqs(struct os_ctx *ctx, struct os_irq **out, size_t *nout, char **cause)
{
	char path[PATH_MAX], *data, *line, *save, *p, *end;
	size_t len, ncpu = 0, n = 0, i;
	struct os_irq *v = NULL, *q;

	*out = NULL;
	*nout = 0;
	rpath(ctx, path, sizeof path, "/proc/interrupts");
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
linux_close(struct os_ctx *ctx)
{
	(void)ctx;
}

int
os_linux_init(struct os_ctx *ctx, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	rpath(ctx, path, sizeof path, "/proc");
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

const struct os_ops os_linux_ops = {
	.name = "linux",
	.system = linux_system,
	.cpu = linux_cpu,
	.nics = linux_nics,
	.cpu_times = linux_cpu_times,
	.if_counters = linux_if_counters,
	.irqs = linux_irqs,
	.tunable_get = linux_tunable_get,
	.tunable_set = linux_tunable_set,
	.tunable_kind = linux_tunable_kind,
	.tunable_list = linux_tunable_list,
	.close = linux_close,
};

int
os_linux_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause)
{
	struct ifreq ifr;
	int s, rc = -1;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		util_cause(cause, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	os_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	if (ioctl(s, SIOCGIFHWADDR, &ifr) == 0) {
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
		rc = 0;
	} else
		util_cause(cause, "cannot read the address of '%s': %s", ifname, strerror(errno));
	close(s);
	return rc;
}
