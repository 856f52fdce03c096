/*
 * Linux counters for `diagnose` (Linux-only file):
 *   /proc/net/softnet_stat   per CPU: processed, dropped (backlog full), time_squeeze
 *                            (net/core/net-procfs.c softnet_seq_show; hex columns,
 *                            column 13 is the CPU since Linux 5.10, offline CPUs are skipped)
 *   /proc/sys/net/netfilter/nf_conntrack_count, nf_conntrack_max   (per network namespace)
 *   /proc/net/stat/nf_conntrack   per CPU, columns named by its header line
 *                            (net/netfilter/nf_conntrack_standalone.c ct_cpu_seq_show)
 *   /proc/net/stat/arp_cache, ndisc_cache   table_fulls (net/core/neighbour.c neigh_stat_seq_show)
 *   root qdisc of every interface through rtnetlink RTM_GETQDISC: drops, overlimits,
 *   requeues, backlog (TCA_STATS, struct tc_stats in linux/pkt_sched.h)
 *   the driver's drop and miss counters of `ethtool -S` (ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS,
 *   ETHTOOL_GSTATS of linux/ethtool.h) as nic.<if>.<name>; only names that say miss, drop,
 *   discard, fifo, no_buf, no_dma or out_of_buffer (share/knobs/diagnose/nic-counters.rules
 *   maps them to one name)
 *   the CPU time of each interface's NAPI threads and their CPU (linux_napi.c)
 * With a -i list (os_counters_want) only those interfaces are read.
 * Inside a network namespace softnet_stat and CPU times are the host's.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "os/linux_impl.h"
#include "os/os_impl.h"
#include "util/netlink.h"
#include "util/util.h"

static void
rpath(struct os_ctx *ctx, char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", ctx->root, path);
}

static char *
slurp(struct os_ctx *ctx, const char *path)
{
	char p[512], *data;
	size_t len;

	rpath(ctx, p, sizeof p, path);
	if (util_read_file(p, &data, &len, NULL) != 0)
		return NULL;
	return data;
}

static void
softnet(struct os_ctx *ctx, struct os_counters *c)
{
	char *data, *line, *save;
	unsigned long long f[16];
	int row = 0, n;

	if ((data = slurp(ctx, "/proc/net/softnet_stat")) == NULL)
		return;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		/* the reader of a pasted softnet_stat (text_linux.c) */
		if ((n = os_softnet_row(line, f)) < 3)
			continue;
		if (n >= 13)
			row = (int)f[12];
		os_counters_setf(c, f[0], false, "softnet.cpu%d.processed", row);
		os_counters_setf(c, f[1], false, "softnet.cpu%d.dropped", row);
		os_counters_setf(c, f[2], false, "softnet.cpu%d.squeezed", row);
		if (n >= 10)
			os_counters_setf(c, f[9], false, "softnet.cpu%d.received_rps", row);
		row++;
	}
	free(data);
}

/* A /proc/net/stat file: a header of names, one hex row per CPU; sums the wanted columns. */
static void
stat_table(struct os_ctx *ctx, struct os_counters *c, const char *path, const char *prefix,
    const char *const *want, size_t nwant)
{
	char *data, *line, *save, *tok, *s2, *names[64];
	uint64_t sum[64];
	size_t ncol = 0, i, k;
	bool header = true;

	if ((data = slurp(ctx, path)) == NULL)
		return;
	memset(sum, 0, sizeof sum);
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0, tok = strtok_r(line, " \t", &s2); tok != NULL && i < nitems(names);
		    tok = strtok_r(NULL, " \t", &s2), i++) {
			if (header)
				names[ncol++] = tok;
			else if (i < ncol)
				sum[i] += strtoull(tok, NULL, 16);
		}
		header = false;
	}
	for (i = 0; i < ncol; i++)
		for (k = 0; k < nwant; k++)
			if (strcmp(names[i], want[k]) == 0)
				os_counters_setf(c, sum[i], false, "%s.%s", prefix, want[k]);
	free(data);
}

static void
conntrack(struct os_ctx *ctx, struct os_counters *c)
{
	static const char *const ct[] = { "drop", "early_drop", "insert_failed", "invalid" };
	static const char *const neigh[] = { "table_fulls" };
	char *v;

	if ((v = slurp(ctx, "/proc/sys/net/netfilter/nf_conntrack_count")) != NULL) {
		os_counters_set(c, "conntrack.count", strtoull(v, NULL, 10), true);
		free(v);
	}
	if ((v = slurp(ctx, "/proc/sys/net/netfilter/nf_conntrack_max")) != NULL) {
		os_counters_set(c, "conntrack.max", strtoull(v, NULL, 10), true);
		free(v);
	}
	stat_table(ctx, c, "/proc/net/stat/nf_conntrack", "conntrack", ct, nitems(ct));
	stat_table(ctx, c, "/proc/net/stat/arp_cache", "neigh.arp", neigh, nitems(neigh));
	stat_table(ctx, c, "/proc/net/stat/ndisc_cache", "neigh.ndisc", neigh, nitems(neigh));
}

static int
qdisc_msg(const struct nlmsghdr *h, void *arg)
{
	struct os_counters *c = arg;
	struct tcmsg *tc = NLMSG_DATA(h);
	struct rtattr *a;
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof *tc);
	char ifname[IF_NAMESIZE], kind[32] = "";
	struct tc_stats st;
	bool have = false;

	if (h->nlmsg_type != RTM_NEWQDISC || len < 0 || tc->tcm_parent != TC_H_ROOT ||
	    if_indextoname((unsigned)tc->tcm_ifindex, ifname) == NULL ||
	    !os_counters_want(c, ifname))
		return 0;
	for (a = (struct rtattr *)((char *)tc + NLMSG_ALIGN(sizeof *tc)); RTA_OK(a, len);
	    a = RTA_NEXT(a, len)) {
		if (a->rta_type == TCA_KIND)
			snprintf(kind, sizeof kind, "%.*s", (int)RTA_PAYLOAD(a), (char *)RTA_DATA(a));
		else if (a->rta_type == TCA_STATS && RTA_PAYLOAD(a) >= sizeof st) {
			memcpy(&st, RTA_DATA(a), sizeof st);
			have = true;
		}
	}
	if (!have)
		return 0;
	os_counters_setf(c, st.drops, false, "qdisc.%s.drops", ifname);
	os_counters_setf(c, st.overlimits, false, "qdisc.%s.overlimits", ifname);
	os_counters_setf(c, st.packets, false, "qdisc.%s.packets", ifname);
	os_counters_setf(c, st.backlog, true, "qdisc.%s.backlog", ifname);
	/* a shaper (tbf, htb, hfsc, cake with a bandwidth...) holds the rate on purpose */
	os_counters_setf(c, strcmp(kind, "tbf") == 0 || strcmp(kind, "htb") == 0 ||
	    strcmp(kind, "hfsc") == 0 || strcmp(kind, "cbq") == 0 || strcmp(kind, "cake") == 0,
	    true, "qdisc.%s.shaper", ifname);
	return 0;
}

static void
qdiscs(struct os_counters *c)
{
	struct {
		struct nlmsghdr	h;
		struct tcmsg	t;
	} req;
	int fd;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) == -1)
		return;
	memset(&req, 0, sizeof req);
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof req.t);
	req.h.nlmsg_type = RTM_GETQDISC;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	req.t.tcm_family = AF_UNSPEC;
	/* Counters are best effort: what the kernel does not answer is left out. */
	(void)util_nl_talk(fd, &req.h, qdisc_msg, c);
	close(fd);
}

static int
ethtool(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

/* One interface's ethtool -S drop counters. */
static void
nic_stats(struct os_counters *c, int fd, const char *ifname)
{
	struct ethtool_gstrings *names;
	struct ethtool_stats *vals;
	uint32_t n, i;
	char name[ETH_GSTRING_LEN + 1];
	int err;

	if (linux_ethtool_sset_len(ifname, ETH_SS_STATS, &n, &err) != 0 || n == 0 || n > 65536)
		return;
	names = xcalloc(1, sizeof *names + (size_t)n * ETH_GSTRING_LEN);
	vals = xcalloc(1, sizeof *vals + (size_t)n * sizeof(uint64_t));
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = n;
	if (ethtool(fd, ifname, names) == 0 && ethtool(fd, ifname, vals) == 0) {
		for (i = 0; i < n && i < names->len && i < vals->n_stats; i++) {
			memcpy(name, names->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
			name[ETH_GSTRING_LEN] = '\0';
			if (os_ethtool_stat_kept(name) && strchr(name, ' ') == NULL)
				os_counters_setf(c, vals->data[i], false, "nic.%s.%s", ifname,
				    name);
		}
	}
	free(names);
	free(vals);
}

static void
nics_stats(struct os_counters *c)
{
	struct if_nameindex *ifs, *p;
	int fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return;
	if ((ifs = if_nameindex()) != NULL) {
		for (p = ifs; p->if_index != 0; p++) {
			if (strcmp(p->if_name, "lo") == 0 || !os_counters_want(c, p->if_name))
				continue;
			nic_stats(c, fd, p->if_name);
			os_linux_napi_counters(p->if_name, c);
		}
		if_freenameindex(ifs);
	}
	close(fd);
}

int
os_linux_counters(struct os_ctx *ctx, struct os_counters *c, char **cause)
{
	(void)cause;
	softnet(ctx, c);
	conntrack(ctx, c);
	if (ctx->root[0] == '\0') {
		qdiscs(c);
		nics_stats(c);
	}
	return 0;
}
