/*
 * if.<ifname>.<setting>: reads and writes of the per-interface settings.
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

static int
queue_number(const char *setting, const char *dir)
{
	return atoi(setting + strlen(dir) + 1);
}

int
linux_if_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	char ifname[IFNAMSIZ + 8], buf[64];
	const char *s, *attr;
	const struct offload *o;
	int err = 0, on;
	long v = -1;

	if (os_if_split(name, ifname, sizeof ifname, &s, linux_live(ctx) ? linux_if_exists : NULL) != 0) {
		util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	if (strcmp(s, "rps_cpus") == 0)
		return linux_queue_attr_get(ctx, ifname, "rx", -1, "rps_cpus", name, value, cause);
	if (strcmp(s, "rps_flow_cnt") == 0)
		return linux_queue_attr_get(ctx, ifname, "rx", -1, "rps_flow_cnt", name, value, cause);
	if (strcmp(s, "xps_cpus") == 0)
		return linux_queue_attr_get(ctx, ifname, "tx", -1, "xps_cpus", name, value, cause);
	if (strncmp(s, "rx-", 3) == 0)
		return linux_queue_attr_get(ctx, ifname, "rx", queue_number(s, "rx"),
		    strchr(s, '.') + 1, name, value, cause);
	if (strncmp(s, "tx-", 3) == 0)
		return linux_queue_attr_get(ctx, ifname, "tx", queue_number(s, "tx"),
		    strchr(s, '.') + 1, name, value, cause);
	if (strcmp(s, "irq_affinity") == 0)
		return linux_irq_affinity_get(ctx, ifname, name, value, cause);
	if (strcmp(s, "napi_thread_cpus") == 0) {
		if (!linux_live(ctx)) {
			util_cause(cause, "cannot read '%s': not available from a captured tree", name);
			return -1;
		}
		return linux_napi_cpus_get(ifname, name, value, cause);
	}
	if ((attr = linux_dev_attr(s)) != NULL) {
		char path[PATH_MAX];

		if (linux_sysfs_if_check(ctx, ifname, name, cause) != 0)
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
	if (!linux_live(ctx)) {
		char path[PATH_MAX];

		/* A captured tree has sysfs copies of mtu and tx_queue_len only. */
		if (strcmp(s, "mtu") == 0 || strcmp(s, "txqueuelen") == 0) {
			linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/%s", ifname,
			    strcmp(s, "mtu") == 0 ? "mtu" : "tx_queue_len");
			if (linux_readval(path, buf, sizeof buf) == 0) {
				*value = xstrdup(buf);
				return 0;
			}
		}
		util_cause(cause, "cannot read '%s': not available from a captured tree", name);
		return -1;
	}
	if (!linux_if_exists(ifname)) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if (strcmp(s, "qdisc") == 0) {
		if (linux_qdisc_get(ifname, buf, sizeof buf, cause, name) != 0)
			return -1;
		*value = xstrdup(buf);
		return 0;
	}
	if (strcmp(s, "mtu") == 0 || strcmp(s, "txqueuelen") == 0) {
		struct ifreq ifr;

		memset(&ifr, 0, sizeof ifr);
		if (linux_ifioctl(ifname, strcmp(s, "mtu") == 0 ? SIOCGIFMTU : SIOCGIFTXQLEN, &ifr,
		    &err) != 0)
			goto fail;
		v = strcmp(s, "mtu") == 0 ? ifr.ifr_mtu : ifr.ifr_qlen;
	} else if (strncmp(s, "channels.", 9) == 0) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

		if (linux_ethtool(ifname, &ch, &err) != 0)
			goto fail;
		s += 9;
		v = strcmp(s, "combined") == 0 ? ch.combined_count : strcmp(s, "rx") == 0 ?
		    ch.rx_count : strcmp(s, "tx") == 0 ? ch.tx_count : ch.other_count;
	} else if (strncmp(s, "ring.", 5) == 0) {
		struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };

		if (linux_ethtool(ifname, &r, &err) != 0)
			goto fail;
		s += 5;
		v = strcmp(s, "rx") == 0 ? r.rx_pending : strcmp(s, "tx") == 0 ? r.tx_pending :
		    strcmp(s, "rx-mini") == 0 ? r.rx_mini_pending : r.rx_jumbo_pending;
	} else if (strncmp(s, "coalesce.", 9) == 0) {
		struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };

		if (linux_ethtool(ifname, &c, &err) != 0)
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

		if (linux_ethtool(ifname, &pp, &err) != 0)
			goto fail;
		*value = xstrdup(pp.rx_pause && pp.tx_pause ? "on" : pp.rx_pause ? "rx" :
		    pp.tx_pause ? "tx" : "off");
		return 0;
	} else if (strncmp(s, "offload.", 8) == 0) {
		if ((o = linux_find_offload(s + 8)) != NULL ? linux_offload_get(ifname, o, &on, &err) != 0 :
		    linux_feature_get(ifname, s + 8, &on, &err) != 0) {
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
		util_cause(cause, "driver of '%s' does not support it", ifname);
	else
		util_cause(cause, "%s", strerror(err));
	return -1;
}

int
linux_if_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	char ifname[IFNAMSIZ + 8];
	const char *s, *attr;
	const struct offload *o;
	int err = 0, on, got;
	long v = 0;
	int numeric;

	if (os_if_split(name, ifname, sizeof ifname, &s, linux_live(ctx) ? linux_if_exists : NULL) != 0) {
		util_cause(cause, "unknown interface setting '%s'", name);
		return -1;
	}
	if (strcmp(s, "rps_cpus") == 0)
		return linux_queue_attr_set(ctx, ifname, "rx", -1, "rps_cpus", name, value, 1, cause);
	if (strcmp(s, "rps_flow_cnt") == 0)
		return linux_queue_attr_set(ctx, ifname, "rx", -1, "rps_flow_cnt", name, value, 0, cause);
	if (strcmp(s, "xps_cpus") == 0)
		return linux_queue_attr_set(ctx, ifname, "tx", -1, "xps_cpus", name, value, 1, cause);
	if (strncmp(s, "rx-", 3) == 0 || strncmp(s, "tx-", 3) == 0) {
		attr = strchr(s, '.') + 1;
		return linux_queue_attr_set(ctx, ifname, s[0] == 'r' ? "rx" : "tx",
		    queue_number(s, "rx"), attr, name, value, strcmp(attr, "rps_flow_cnt") != 0,
		    cause);
	}
	if (strcmp(s, "irq_affinity") == 0)
		return linux_irq_affinity_set(ctx, ifname, name, value, cause);
	if (!linux_live(ctx)) {
		util_cause(cause, "a captured tree is read-only");
		return -1;
	}
	if (strcmp(s, "napi_thread_cpus") == 0)
		return linux_napi_cpus_set(ifname, name, value, cause);
	if ((attr = linux_dev_attr(s)) != NULL) {
		char path[PATH_MAX];

		if (linux_parse_int(value, &v) != 0 || v < 0 || v > INT32_MAX) {
			util_cause(cause, "not a non-negative integer");
			return -1;
		}
		if (linux_sysfs_if_check(ctx, ifname, name, cause) != 0)
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
	if (!linux_if_exists(ifname)) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if (strcmp(s, "qdisc") == 0)
		return linux_qdisc_set(ifname, value, cause, name);
	numeric = strncmp(s, "offload.", 8) != 0 && strcmp(s, "flow-control") != 0 &&
	    strncmp(s, "coalesce.adaptive", 17) != 0;
	if (numeric && (linux_parse_int(value, &v) != 0 || v < 0 || v > INT32_MAX)) {
		util_cause(cause, "not a non-negative integer");
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
		if (linux_ifioctl(ifname, mtu ? SIOCSIFMTU : SIOCSIFTXQLEN, &ifr, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "channels.", 9) == 0) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
		uint32_t max;

		if (linux_ethtool(ifname, &ch, &err) != 0)
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
			util_cause(cause, "maximum is %u", max);
			return -1;
		}
		ch.cmd = ETHTOOL_SCHANNELS;
		if (linux_ethtool(ifname, &ch, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "ring.", 5) == 0) {
		struct ethtool_ringparam r = { .cmd = ETHTOOL_GRINGPARAM };
		uint32_t max;

		if (linux_ethtool(ifname, &r, &err) != 0)
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
			util_cause(cause, "maximum is %u", max);
			return -1;
		}
		r.cmd = ETHTOOL_SRINGPARAM;
		if (linux_ethtool(ifname, &r, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "coalesce.", 9) == 0) {
		struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };

		if (linux_ethtool(ifname, &c, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		s += 9;
		if (strncmp(s, "adaptive-", 9) == 0) {
			if ((on = linux_parse_onoff(value)) < 0) {
				util_cause(cause, "use on or off");
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
		if (linux_ethtool(ifname, &c, &err) != 0)
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
		else if ((on = linux_parse_onoff(value)) >= 0)
			rx = tx = on;
		else {
			util_cause(cause, "use on, off, rx or tx");
			return -1;
		}
		if (linux_ethtool(ifname, &pp, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		pp.cmd = ETHTOOL_SPAUSEPARAM;
		pp.rx_pause = (uint32_t)rx;
		pp.tx_pause = (uint32_t)tx;
		if (linux_ethtool(ifname, &pp, &err) != 0)
			return ethtool_setfail(name, ifname, value, err, cause);
		return 0;
	}
	if (strncmp(s, "offload.", 8) == 0) {
		if ((on = linux_parse_onoff(value)) < 0) {
			util_cause(cause, "use on or off");
			return -1;
		}
		o = linux_find_offload(s + 8);
		if (o != NULL ? linux_offload_set(ifname, o, on, &err) != 0 :
		    linux_feature_set(ifname, s + 8, on, &err) != 0) {
			if (err == ENOENT) {
				util_cause(cause, "'%s' has no feature '%s' (ethtool -k %s lists them)",
				    ifname, s + 8, ifname);
				return -1;
			}
			return ethtool_setfail(name, ifname, value, err, cause);
		}
		/* A feature can be refused silently (fixed, or needs another one): check. */
		if ((o != NULL ? linux_offload_get(ifname, o, &got, &err) :
		    linux_feature_get(ifname, s + 8, &got, &err)) == 0 && got != on) {
			util_cause(cause, "the driver kept it %s", got ? "on" : "off");
			return -1;
		}
		return 0;
	}
	util_cause(cause, "unknown interface setting '%s'", name);
	return -1;
}
