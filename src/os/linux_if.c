/*
 * if.<ifname>.<setting>: reads and writes of the per-interface settings, each by
 * the Linux method its line in share/knobs/if.settings names (ifset.c checks the
 * method's argument is one the *_field functions below know).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

/* The ethtool struct fields the rows' lx_arg names (ifset.c's lx_methods[] lists them). */
static uint32_t *
channel_field(struct ethtool_channels *ch, const char *arg, uint32_t *max)
{
	if (strcmp(arg, "combined") == 0)
		return *max = ch->max_combined, &ch->combined_count;
	if (strcmp(arg, "rx") == 0)
		return *max = ch->max_rx, &ch->rx_count;
	if (strcmp(arg, "tx") == 0)
		return *max = ch->max_tx, &ch->tx_count;
	return *max = ch->max_other, &ch->other_count;
}

static uint32_t *
ring_field(struct ethtool_ringparam *r, const char *arg, uint32_t *max)
{
	if (strcmp(arg, "rx") == 0)
		return *max = r->rx_max_pending, &r->rx_pending;
	if (strcmp(arg, "tx") == 0)
		return *max = r->tx_max_pending, &r->tx_pending;
	if (strcmp(arg, "rx-mini") == 0)
		return *max = r->rx_mini_max_pending, &r->rx_mini_pending;
	return *max = r->rx_jumbo_max_pending, &r->rx_jumbo_pending;
}

static uint32_t *
coalesce_field(struct ethtool_coalesce *c, const char *arg)
{
	if (strcmp(arg, "rx-usecs") == 0)
		return &c->rx_coalesce_usecs;
	if (strcmp(arg, "tx-usecs") == 0)
		return &c->tx_coalesce_usecs;
	if (strcmp(arg, "rx-frames") == 0)
		return &c->rx_max_coalesced_frames;
	if (strcmp(arg, "tx-frames") == 0)
		return &c->tx_max_coalesced_frames;
	if (strcmp(arg, "adaptive-rx") == 0)
		return &c->use_adaptive_rx_coalesce;
	return &c->use_adaptive_tx_coalesce;
}

/* The ethtool -k name of an offload setting: the row's, or what follows "offload.". */
static const char *
feature_name(const struct os_ifset *r, const char *setting)
{
	return r->lx_arg != NULL ? r->lx_arg : setting + 8;
}

/* The queue directory ("rx"), number (-1: all) and attribute of a queue setting. */
static void
queue_of(const struct os_ifset *r, const char *setting, char dir[3], int *queue,
    const char **attr)
{
	if (os_ifset_queue(setting, dir, queue, attr) == 0)
		return;
	os_strlcpy(dir, r->lx_arg, 3);
	*queue = -1;
	*attr = r->name;
}

/* A live ethtool or ioctl setting as text: a count, on/off, or rx/tx for flow control. */
static int
ethtool_get(const char *ifname, const struct os_ifset *r, const char *setting, char *buf,
    size_t len, int *err)
{
	uint32_t max;
	int on;

	switch (r->lx) {
	case OS_IFSET_LX_IOCTL: {
		struct ifreq ifr;
		int mtu = strcmp(r->lx_arg, "mtu") == 0;

		memset(&ifr, 0, sizeof ifr);
		if (linux_ifioctl(ifname, mtu ? SIOCGIFMTU : SIOCGIFTXQLEN, &ifr, err) != 0)
			return -1;
		snprintf(buf, len, "%d", mtu ? ifr.ifr_mtu : ifr.ifr_qlen);
		return 0;
	}
	case OS_IFSET_LX_CHANNELS: {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

		if (linux_ethtool(ifname, &ch, err) != 0)
			return -1;
		snprintf(buf, len, "%ld", (long)*channel_field(&ch, r->lx_arg, &max));
		return 0;
	}
	case OS_IFSET_LX_RING: {
		struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };

		if (linux_ethtool(ifname, &rp, err) != 0)
			return -1;
		snprintf(buf, len, "%ld", (long)*ring_field(&rp, r->lx_arg, &max));
		return 0;
	}
	case OS_IFSET_LX_COALESCE: {
		struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
		uint32_t v;

		if (linux_ethtool(ifname, &c, err) != 0)
			return -1;
		v = *coalesce_field(&c, r->lx_arg);
		if (r->value == OS_IFSET_ONOFF)
			snprintf(buf, len, "%s", v != 0 ? "on" : "off");
		else
			snprintf(buf, len, "%ld", (long)v);
		return 0;
	}
	case OS_IFSET_LX_PAUSE: {
		struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };

		if (linux_ethtool(ifname, &pp, err) != 0)
			return -1;
		snprintf(buf, len, "%s", pp.rx_pause && pp.tx_pause ? "on" : pp.rx_pause ? "rx" :
		    pp.tx_pause ? "tx" : "off");
		return 0;
	}
	default: {
		const struct offload *o = linux_find_offload(feature_name(r, setting));

		if ((o != NULL ? linux_offload_get(ifname, o, &on, err) :
		    linux_feature_get(ifname, feature_name(r, setting), &on, err)) != 0)
			return -1;
		snprintf(buf, len, "%s", on ? "on" : "off");
		return 0;
	}
	}
}

/* /sys/class/net/IF/<attr>: the per-device NAPI settings. */
static int
sysfs_get(struct os_ctx *ctx, const char *ifname, const char *attr, const char *name,
    char **value, char **cause)
{
	char path[PATH_MAX], buf[64];

	if (linux_sysfs_if_check(ctx, ifname, cause) != 0)
		return -1;
	linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, attr);
	if (linux_readval(path, buf, sizeof buf) != 0) {
		util_cause(cause, "cannot read '%s': %s", name, errno == ENOENT ?
		    "this kernel has no such attribute" : strerror(errno));
		return -1;
	}
	*value = xstrdup(buf);
	return 0;
}

/* The capture's fact of a method's setting: its key and the group whose failure explains it. */
static const char *
captured_key(const struct os_ifset *r, const char *setting, char *key, size_t len)
{
	switch (r->lx) {
	case OS_IFSET_LX_CHANNELS:
		snprintf(key, len, "channels.%s", r->lx_arg);
		return "channels";
	case OS_IFSET_LX_RING:
		snprintf(key, len, "ring.%s", r->lx_arg);
		return "rings";
	case OS_IFSET_LX_COALESCE:
		snprintf(key, len, "coalesce.%s", r->lx_arg);
		return "coalescing";
	case OS_IFSET_LX_PAUSE:
		snprintf(key, len, "pause");
		return "flow control";
	case OS_IFSET_LX_QDISC:
		snprintf(key, len, "qdisc");
		return NULL;
	case OS_IFSET_LX_NAPI_THREADS:
		snprintf(key, len, "napi_thread_cpus");
		return NULL;
	default:
		snprintf(key, len, "offload.%s", feature_name(r, setting));
		return "offloads";
	}
}

/*
 * What needs the live system (ioctls, ethtool, netlink) read from a captured tree: mtu
 * and tx_queue_len from sysfs, the rest from the capture's facts (linux_captured.c).
 */
static int
captured_get(struct os_ctx *ctx, const char *ifname, const struct os_ifset *r, const char *s,
    const char *name, char **value, char **cause)
{
	char path[PATH_MAX], buf[OS_TEXT_MAX], key[128], why[OS_TEXT_MAX];
	const char *group;
	int err;

	if (r->lx == OS_IFSET_LX_IOCTL) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, r->lx_arg);
		if (linux_readval(path, buf, sizeof buf) == 0) {
			*value = xstrdup(buf);
			return 0;
		}
	} else {
		group = captured_key(r, s, key, sizeof key);
		if (linux_captured_fact(ctx, ifname, key, buf, sizeof buf) == 0) {
			if (r->lx == OS_IFSET_LX_COALESCE && r->value == OS_IFSET_ONOFF)
				snprintf(buf, sizeof buf, "%s", strcmp(buf, "0") != 0 ? "on" : "off");
			*value = xstrdup(buf);
			return 0;
		}
		err = group != NULL ? linux_captured_failed(ctx, ifname, group, why, sizeof why) : 0;
		if (err == EOPNOTSUPP) {
			util_cause(cause, "cannot read '%s': driver of '%s' does not support it", name,
			    ifname);
			return -1;
		}
		if (err != 0) {
			util_cause(cause, "cannot read '%s': %s", name, why);
			return -1;
		}
		if (r->lx == OS_IFSET_LX_OFFLOAD && linux_captured_fact(ctx, ifname, "offload.gro",
		    buf, sizeof buf) == 0) {
			util_cause(cause, "cannot read '%s': '%s' has no feature '%s' "
			    "(ethtool -k %s lists them)", name, ifname, feature_name(r, s), ifname);
			return -1;
		}
	}
	util_cause(cause, "cannot read '%s': not available from a captured tree", name);
	return -1;
}

/* The interface and row of knob name (a live system breaks ties between dotted names). */
static const struct os_ifset *
if_lookup(struct os_ctx *ctx, const char *name, char *ifname, size_t len, const char **s,
    char **cause)
{
	const struct os_ifset *r = NULL;

	if ((os_if_split(name, ifname, len, s, linux_live(ctx) ? linux_if_exists : NULL) != 0 ||
	    (r = os_ifset_lookup(*s)) == NULL) && os_ifsets_table(NULL, cause) != NULL)
		util_cause(cause, "unknown interface setting '%s'", name);
	return r;
}

int
linux_if_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	char ifname[IFNAMSIZ + 8];
	const char *s;
	const struct os_ifset *r;

	if ((r = if_lookup(ctx, name, ifname, sizeof ifname, &s, cause)) == NULL)
		return -1;
	return linux_ifset_get(ctx, ifname, r, s, name, value, cause);
}

int
linux_ifset_get(struct os_ctx *ctx, const char *ifname, const struct os_ifset *r, const char *s,
    const char *name, char **value, char **cause)
{
	char buf[64], dir[3];
	const char *attr;
	int err = 0, queue;

	switch (r->lx) {
	case OS_IFSET_LX_QUEUES:
		queue_of(r, s, dir, &queue, &attr);
		return linux_queue_attr_get(ctx, ifname, dir, queue, attr, value, cause);
	case OS_IFSET_LX_IRQS:
		return linux_irq_affinity_get(ctx, ifname, value, cause);
	case OS_IFSET_LX_NAPI_THREADS:
		if (!linux_live(ctx))
			return captured_get(ctx, ifname, r, s, name, value, cause);
		return linux_napi_cpus_get(ifname, value, cause);
	case OS_IFSET_LX_SYSFS:
		return sysfs_get(ctx, ifname, r->lx_arg, name, value, cause);
	default:
		break;
	}
	if (!linux_live(ctx))
		return captured_get(ctx, ifname, r, s, name, value, cause);
	if (!linux_if_exists(ifname)) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if (r->lx == OS_IFSET_LX_QDISC) {
		if (linux_qdisc_get(ifname, buf, sizeof buf, cause) != 0)
			return -1;
	} else if (ethtool_get(ifname, r, s, buf, sizeof buf, &err) != 0) {
		if (r->lx == OS_IFSET_LX_OFFLOAD && err == ENOENT)
			util_cause(cause, "cannot read '%s': '%s' has no feature '%s' "
			    "(ethtool -k %s lists them)", name, ifname, feature_name(r, s), ifname);
		else if (err == EOPNOTSUPP)
			util_cause(cause, "cannot read '%s': driver of '%s' does not support it", name,
			    ifname);
		else
			util_cause(cause, "cannot read '%s': %s", name, strerror(err));
		return -1;
	}
	*value = xstrdup(buf);
	return 0;
}

static int
ethtool_setfail(const char *ifname, int err, char **cause)
{
	if (err == EOPNOTSUPP)
		util_cause(cause, "driver of '%s' does not support it", ifname);
	else
		util_cause(cause, "%s", strerror(err));
	return -1;
}

/* Channels and rings: refused above the driver's maximum. */
static int
set_counted(const char *ifname, const struct os_ifset *r, long v, char **cause)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	int rings = r->lx == OS_IFSET_LX_RING, err = 0;
	void *data = rings ? (void *)&rp : (void *)&ch;
	uint32_t max, *field;

	if (linux_ethtool(ifname, data, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	field = rings ? ring_field(&rp, r->lx_arg, &max) : channel_field(&ch, r->lx_arg, &max);
	*field = (uint32_t)v;
	if ((uint32_t)v > max) {
		util_cause(cause, "maximum is %u", max);
		return -1;
	}
	rp.cmd = ETHTOOL_SRINGPARAM;
	ch.cmd = ETHTOOL_SCHANNELS;
	if (linux_ethtool(ifname, data, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	return 0;
}

static int
set_coalesce(const char *ifname, const struct os_ifset *r, const char *value, long v,
    char **cause)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	int err = 0, on = 0;

	if (linux_ethtool(ifname, &c, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	if (r->value == OS_IFSET_ONOFF && (on = linux_parse_onoff(value)) < 0) {
		util_cause(cause, "use on or off");
		return -1;
	}
	*coalesce_field(&c, r->lx_arg) = (uint32_t)(r->value == OS_IFSET_ONOFF ? on : v);
	c.cmd = ETHTOOL_SCOALESCE;
	if (linux_ethtool(ifname, &c, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	return 0;
}

static int
set_pause(const char *ifname, const char *value, char **cause)
{
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	int rx, tx, on, err = 0;

	if (strcmp(value, "rx") == 0)
		rx = 1, tx = 0;
	else if (strcmp(value, "tx") == 0)
		rx = 0, tx = 1;
	else if ((on = linux_parse_onoff(value)) >= 0)
		rx = tx = on;
	else {
		util_cause(cause, "use on, off, rx or tx");
		return -1;
	}
	if (linux_ethtool(ifname, &pp, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	pp.cmd = ETHTOOL_SPAUSEPARAM;
	pp.rx_pause = (uint32_t)rx;
	pp.tx_pause = (uint32_t)tx;
	if (linux_ethtool(ifname, &pp, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	return 0;
}

static int
set_offload(const char *ifname, const char *fname, const char *value, char **cause)
{
	const struct offload *o = linux_find_offload(fname);
	int on, got, err = 0;

	if ((on = linux_parse_onoff(value)) < 0) {
		util_cause(cause, "use on or off");
		return -1;
	}
	if (o != NULL ? linux_offload_set(ifname, o, on, &err) != 0 :
	    linux_feature_set(ifname, fname, on, &err) != 0) {
		if (err == ENOENT) {
			util_cause(cause, "'%s' has no feature '%s' (ethtool -k %s lists them)",
			    ifname, fname, ifname);
			return -1;
		}
		return ethtool_setfail(ifname, err, cause);
	}
	/* A feature can be refused silently (fixed, or needs another one): check. */
	if ((o != NULL ? linux_offload_get(ifname, o, &got, &err) :
	    linux_feature_get(ifname, fname, &got, &err)) == 0 && got != on) {
		util_cause(cause, "the driver kept it %s", got ? "on" : "off");
		return -1;
	}
	return 0;
}

static int
set_ioctl(const char *ifname, const struct os_ifset *r, long v, char **cause)
{
	struct ifreq ifr;
	int mtu = strcmp(r->lx_arg, "mtu") == 0, err = 0;

	memset(&ifr, 0, sizeof ifr);
	if (mtu)
		ifr.ifr_mtu = (int)v;
	else
		ifr.ifr_qlen = (int)v;
	if (linux_ifioctl(ifname, mtu ? SIOCSIFMTU : SIOCSIFTXQLEN, &ifr, &err) != 0)
		return ethtool_setfail(ifname, err, cause);
	return 0;
}

static int
set_sysfs(struct os_ctx *ctx, const char *ifname, const char *attr, const char *name,
    const char *value, char **cause)
{
	char path[PATH_MAX];
	long v;

	if (linux_parse_int(value, &v) != 0 || v < 0 || v > INT32_MAX) {
		util_cause(cause, "not a non-negative integer");
		return -1;
	}
	if (linux_sysfs_if_check(ctx, ifname, cause) != 0)
		return -1;
	linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname, attr);
	if (linux_writeval(path, value, cause) != 0) {
		/* veth and other software devices have NAPI only with GRO or XDP on. */
		if (strcmp(attr, "threaded") == 0 && errno == EIO && cause != NULL) {
			free(*cause);
			*cause = NULL;
			util_cause(cause, "'%s' has no NAPI instance now (a veth has one only "
			    "with GRO or XDP on)", ifname);
		}
		return -1;
	}
	return 0;
}

/* What a live interface does through ioctls and ethtool. */
static int
set_live(const char *ifname, const struct os_ifset *r, const char *setting, const char *value,
    char **cause)
{
	long v = 0;

	if (r->value == OS_IFSET_COUNT && (linux_parse_int(value, &v) != 0 || v < 0 ||
	    v > INT32_MAX)) {
		util_cause(cause, "not a non-negative integer");
		return -1;
	}
	switch (r->lx) {
	case OS_IFSET_LX_IOCTL:
		return set_ioctl(ifname, r, v, cause);
	case OS_IFSET_LX_CHANNELS:
	case OS_IFSET_LX_RING:
		return set_counted(ifname, r, v, cause);
	case OS_IFSET_LX_COALESCE:
		return set_coalesce(ifname, r, value, v, cause);
	case OS_IFSET_LX_PAUSE:
		return set_pause(ifname, value, cause);
	default:
		return set_offload(ifname, feature_name(r, setting), value, cause);
	}
}

int
linux_if_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	char ifname[IFNAMSIZ + 8];
	const char *s;
	const struct os_ifset *r;

	if ((r = if_lookup(ctx, name, ifname, sizeof ifname, &s, cause)) == NULL)
		return -1;
	return linux_ifset_set(ctx, ifname, r, s, name, value, cause);
}

int
linux_ifset_set(struct os_ctx *ctx, const char *ifname, const struct os_ifset *r, const char *s,
    const char *name, const char *value, char **cause)
{
	char dir[3];
	const char *attr;
	int queue;

	if (r->lx == OS_IFSET_LX_QUEUES) {
		queue_of(r, s, dir, &queue, &attr);
		return linux_queue_attr_set(ctx, ifname, dir, queue, attr, value,
		    r->value == OS_IFSET_CPUMASK, cause);
	}
	if (r->lx == OS_IFSET_LX_IRQS)
		return linux_irq_affinity_set(ctx, ifname, value, cause);
	if (!linux_live(ctx)) {
		util_cause(cause, "a captured tree is read-only");
		return -1;
	}
	if (r->lx == OS_IFSET_LX_NAPI_THREADS)
		return linux_napi_cpus_set(ifname, value, cause);
	if (r->lx == OS_IFSET_LX_SYSFS)
		return set_sysfs(ctx, ifname, r->lx_arg, name, value, cause);
	if (!linux_if_exists(ifname)) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if (r->lx == OS_IFSET_LX_QDISC)
		return linux_qdisc_set(ifname, value, cause);
	return set_live(ifname, r, s, value, cause);
}
