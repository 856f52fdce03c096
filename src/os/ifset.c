/* The if.<ifname>.<setting> table (ifset.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "os/ifset.h"
#include "util/util.h"

#define ETHTOOL_K(name, arg, bsd, bsdarg, sh) \
	{ "offload." name, OS_IFSET_ONOFF, OS_IFSET_LX_OFFLOAD, arg, bsd, bsdarg, sh }
#define QUEUES(name, value, dir, sh) \
	{ name, value, OS_IFSET_LX_QUEUES, dir, OS_IFSET_BSD_NONE, NULL, sh }

const struct os_ifset os_ifsets[] = {
	{ "channels.combined", OS_IFSET_COUNT, OS_IFSET_LX_CHANNELS, "combined", OS_IFSET_BSD_NONE,
	    NULL, "ethtool -L '%i' combined %v" },
	{ "channels.rx", OS_IFSET_COUNT, OS_IFSET_LX_CHANNELS, "rx", OS_IFSET_BSD_NONE, NULL,
	    "ethtool -L '%i' rx %v" },
	{ "channels.tx", OS_IFSET_COUNT, OS_IFSET_LX_CHANNELS, "tx", OS_IFSET_BSD_NONE, NULL,
	    "ethtool -L '%i' tx %v" },
	{ "channels.other", OS_IFSET_COUNT, OS_IFSET_LX_CHANNELS, "other", OS_IFSET_BSD_NONE, NULL,
	    NULL },
	{ "ring.rx", OS_IFSET_COUNT, OS_IFSET_LX_RING, "rx", OS_IFSET_BSD_NONE, NULL,
	    "ethtool -G '%i' rx %v" },
	{ "ring.tx", OS_IFSET_COUNT, OS_IFSET_LX_RING, "tx", OS_IFSET_BSD_NONE, NULL,
	    "ethtool -G '%i' tx %v" },
	{ "ring.rx-mini", OS_IFSET_COUNT, OS_IFSET_LX_RING, "rx-mini", OS_IFSET_BSD_NONE, NULL,
	    NULL },
	{ "ring.rx-jumbo", OS_IFSET_COUNT, OS_IFSET_LX_RING, "rx-jumbo", OS_IFSET_BSD_NONE, NULL,
	    NULL },
	ETHTOOL_K("gro", "gro", OS_IFSET_BSD_NONE, NULL, "ethtool -K '%i' gro %o"),
	ETHTOOL_K("tso", "tso", OS_IFSET_BSD_CAP, "tso", "ethtool -K '%i' tso %o"),
	ETHTOOL_K("gso", "gso", OS_IFSET_BSD_NONE, NULL, "ethtool -K '%i' gso %o"),
	ETHTOOL_K("lro", "lro", OS_IFSET_BSD_CAP, "lro", "ethtool -K '%i' lro %o"),
	ETHTOOL_K("rxcsum", "rxcsum", OS_IFSET_BSD_CAP, "rxcsum", "ethtool -K '%i' rx %o"),
	ETHTOOL_K("txcsum", "txcsum", OS_IFSET_BSD_CAP, "txcsum", "ethtool -K '%i' tx %o"),
	ETHTOOL_K("sg", "sg", OS_IFSET_BSD_NONE, NULL, NULL),
	ETHTOOL_K("rxhash", "rxhash", OS_IFSET_BSD_NONE, NULL, NULL),
	ETHTOOL_K("rxvlan", "rxvlan", OS_IFSET_BSD_NONE, NULL, NULL),
	ETHTOOL_K("txvlan", "txvlan", OS_IFSET_BSD_NONE, NULL, NULL),
	ETHTOOL_K("ntuple", "ntuple", OS_IFSET_BSD_NONE, NULL, NULL),
	{ "coalesce.rx-usecs", OS_IFSET_COUNT, OS_IFSET_LX_COALESCE, "rx-usecs", OS_IFSET_BSD_NONE,
	    NULL, "ethtool -C '%i' rx-usecs %v" },
	{ "coalesce.tx-usecs", OS_IFSET_COUNT, OS_IFSET_LX_COALESCE, "tx-usecs", OS_IFSET_BSD_NONE,
	    NULL, NULL },
	{ "coalesce.rx-frames", OS_IFSET_COUNT, OS_IFSET_LX_COALESCE, "rx-frames",
	    OS_IFSET_BSD_NONE, NULL, NULL },
	{ "coalesce.tx-frames", OS_IFSET_COUNT, OS_IFSET_LX_COALESCE, "tx-frames",
	    OS_IFSET_BSD_NONE, NULL, NULL },
	{ "coalesce.adaptive-rx", OS_IFSET_ONOFF, OS_IFSET_LX_COALESCE, "adaptive-rx",
	    OS_IFSET_BSD_NONE, NULL, "ethtool -C '%i' adaptive-rx %o" },
	{ "coalesce.adaptive-tx", OS_IFSET_ONOFF, OS_IFSET_LX_COALESCE, "adaptive-tx",
	    OS_IFSET_BSD_NONE, NULL, NULL },
	{ "flow-control", OS_IFSET_FLOW, OS_IFSET_LX_PAUSE, NULL, OS_IFSET_BSD_NONE, NULL,
	    "ethtool -A '%i' rx %o tx %o" },
	{ "mtu", OS_IFSET_COUNT, OS_IFSET_LX_IOCTL, "mtu", OS_IFSET_BSD_MTU, NULL,
	    "ip link set dev '%i' mtu %v" },
	{ "txqueuelen", OS_IFSET_COUNT, OS_IFSET_LX_IOCTL, "tx_queue_len", OS_IFSET_BSD_NONE, NULL,
	    "ip link set dev '%i' txqueuelen %v" },
	QUEUES("rps_cpus", OS_IFSET_CPUMASK, "rx",
	    "for q in /sys/class/net/'%i'/queues/rx-*/rps_cpus; do echo %v > \"$q\"; done"),
	QUEUES("xps_cpus", OS_IFSET_CPUMASK, "tx",
	    "for q in /sys/class/net/'%i'/queues/tx-*/xps_cpus; do echo %v > \"$q\"; done"),
	QUEUES("rps_flow_cnt", OS_IFSET_COUNT, "rx",
	    "for q in /sys/class/net/'%i'/queues/rx-*/rps_flow_cnt; do echo %v > \"$q\"; done"),
	/* irq_affinity needs the IRQ numbers: ntune apply, no sh line. */
	{ "irq_affinity", OS_IFSET_CPULIST, OS_IFSET_LX_IRQS, NULL, OS_IFSET_BSD_NONE, NULL, NULL },
	{ "qdisc", OS_IFSET_WORDS, OS_IFSET_LX_QDISC, NULL, OS_IFSET_BSD_NONE, NULL,
	    "tc qdisc replace dev '%i' root %v" },
	/* Per-device NAPI attributes (kernel >= 5.12 for threaded). */
	{ "napi_threaded", OS_IFSET_COUNT, OS_IFSET_LX_SYSFS, "threaded", OS_IFSET_BSD_NONE, NULL,
	    NULL },
	{ "gro_flush_timeout", OS_IFSET_COUNT, OS_IFSET_LX_SYSFS, "gro_flush_timeout",
	    OS_IFSET_BSD_NONE, NULL, NULL },
	{ "napi_defer_hard_irqs", OS_IFSET_COUNT, OS_IFSET_LX_SYSFS, "napi_defer_hard_irqs",
	    OS_IFSET_BSD_NONE, NULL, NULL },
	{ "napi_thread_cpus", OS_IFSET_CPULIST, OS_IFSET_LX_NAPI_THREADS, NULL, OS_IFSET_BSD_NONE,
	    NULL, NULL },
};
const size_t os_nifsets = nitems(os_ifsets);

/* offload.<any ethtool -k feature name>: lx_arg NULL means the name after "offload.". */
static const struct os_ifset feature_row = ETHTOOL_K("*", NULL, OS_IFSET_BSD_NONE, NULL, NULL);

const struct os_ifset *
os_ifset_find(const char *setting)
{
	size_t i;

	for (i = 0; i < os_nifsets; i++)
		if (strcmp(setting, os_ifsets[i].name) == 0)
			return &os_ifsets[i];
	return NULL;
}

/* "offload." and an ethtool -k feature name (rx-udp-gro-forwarding, tx-gso-list...). */
static int
feature_setting(const char *s)
{
	if (strncmp(s, "offload.", 8) != 0 || s[8] == '\0')
		return 0;
	for (s += 8; *s != '\0'; s++) {
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return 0;
	}
	return 1;
}

int
os_ifset_queue(const char *s, char dir[3], int *queue, const char **attr)
{
	const struct os_ifset *r;
	const char *p;

	if ((strncmp(s, "rx-", 3) != 0 && strncmp(s, "tx-", 3) != 0) ||
	    !isdigit((unsigned char)s[3]))
		return -1;
	for (p = s + 3; isdigit((unsigned char)*p); p++)
		;
	if (*p != '.' || (r = os_ifset_find(p + 1)) == NULL || r->lx != OS_IFSET_LX_QUEUES ||
	    strncmp(r->lx_arg, s, 2) != 0)
		return -1;
	memcpy(dir, s, 2);
	dir[2] = '\0';
	*queue = atoi(s + 3);
	*attr = p + 1;
	return 0;
}

const struct os_ifset *
os_ifset_lookup(const char *s)
{
	const struct os_ifset *r;
	const char *attr;
	char dir[3];
	int q;

	if ((r = os_ifset_find(s)) != NULL)
		return r;
	if (os_ifset_queue(s, dir, &q, &attr) == 0)
		return os_ifset_find(attr);
	return feature_setting(s) ? &feature_row : NULL;
}

int
os_if_setting_valid(const char *s)
{
	return os_ifset_lookup(s) != NULL;
}

int
os_if_split(const char *name, char *ifname, size_t len, const char **setting,
    int (*exists)(const char *))
{
	const char *rest, *p, *first = NULL;
	size_t n;

	if (strncmp(name, "if.", 3) != 0)
		return -1;
	rest = name + 3;
	for (p = strchr(rest, '.'); p != NULL; p = strchr(p + 1, '.')) {
		if (p == rest || !os_if_setting_valid(p + 1))
			continue;
		n = (size_t)(p - rest);
		if (n >= len)
			continue;
		if (first == NULL)
			first = p;
		memcpy(ifname, rest, n);
		ifname[n] = '\0';
		if (exists == NULL || exists(ifname)) {
			*setting = p + 1;
			return 0;
		}
	}
	if (first == NULL)
		return -1;
	n = (size_t)(first - rest);
	memcpy(ifname, rest, n);
	ifname[n] = '\0';
	*setting = first + 1;
	return 0;
}
