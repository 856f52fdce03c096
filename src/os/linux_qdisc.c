/*
 * The root qdisc: read through rtnetlink, set with tc(8).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/netlink.h"
#include "util/run.h"
#include "util/util.h"

/* What root_qdisc looks for and finds. */
struct root_qdisc {
	int	 ifindex;
	char	*kind;
	size_t	 len;
	bool	 found;
};

static int
root_qdisc(const struct nlmsghdr *nh, void *arg)
{
	struct root_qdisc *q = arg;
	const struct tcmsg *tc = NLMSG_DATA(nh);
	const struct rtattr *rta;
	size_t l;
	int alen;

	if (nh->nlmsg_type != RTM_NEWQDISC || tc->tcm_ifindex != q->ifindex ||
	    tc->tcm_parent != TC_H_ROOT)
		return 0;
	alen = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof *tc));
	for (rta = (const struct rtattr *)((const char *)tc + NLMSG_ALIGN(sizeof *tc));
	    RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
		if (rta->rta_type != TCA_KIND)
			continue;
		l = RTA_PAYLOAD(rta) < q->len ? RTA_PAYLOAD(rta) : q->len - 1;
		memcpy(q->kind, RTA_DATA(rta), l);
		q->kind[l] = '\0';
		/*
		 * Handle 0: is the kernel's own root qdisc; setting "default"
		 * gives it back, a named kind would not.
		 */
		if (tc->tcm_handle == 0)
			snprintf(q->kind, q->len, "default");
		q->found = true;
		return 1;
	}
	return 0;
}

int
linux_qdisc_get(const char *ifname, char *kind, size_t len, char **cause)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	struct root_qdisc q = { 0, kind, len, false };
	int fd, rc;

	if ((q.ifindex = (int)if_nametoindex(ifname)) == 0) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) == -1) {
		util_cause(cause, "netlink: %s", strerror(errno));
		return -1;
	}
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = sizeof req;
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = q.ifindex;
	rc = util_nl_talk(fd, &req.nh, root_qdisc, &q);
	if (rc == -1)
		util_cause(cause, "netlink: %s", strerror(errno));
	close(fd);
	if (rc == 0 && !q.found) {
		util_cause(cause, "no root qdisc reported for '%s'", ifname);
		return -1;
	}
	return rc;
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

int
linux_qdisc_set(const char *ifname, const char *value, char **cause)
{
	char words[16][256], cur[64];
	const char *argv[24], *tc, *p;
	struct util_child child;
	size_t n, i, k = 0;
	int status, deflt;

	n = linux_split_words(value, words, 16);
	if (n == 0) {
		util_cause(cause, "invalid value: no qdisc given");
		return -1;
	}
	for (i = 0; i < n; i++)
		for (p = words[i]; *p != '\0'; p++)
			if (!isalnum((unsigned char)*p) && strchr("_.:-/", *p) == NULL) {
				util_cause(cause, "invalid value: '%s' is not a qdisc word", words[i]);
				return -1;
			}
	if ((tc = find_tc()) == NULL) {
		util_cause(cause, "tc(8) not found (install iproute2)");
		return -1;
	}
	/* "default": delete ours, the kernel attaches its default root qdisc again. */
	deflt = n == 1 && strcmp(words[0], "default") == 0;
	if (deflt) {
		if (linux_qdisc_get(ifname, cur, sizeof cur, cause) != 0)
			return -1;
		if (strcmp(cur, "default") == 0)
			return 0;
	}
	argv[k++] = tc;
	argv[k++] = "qdisc";
	argv[k++] = deflt ? "del" : "replace";
	argv[k++] = "dev";
	argv[k++] = ifname;
	argv[k++] = "root";
	for (i = 0; i < n && !deflt; i++)
		argv[k++] = words[i];
	argv[k] = NULL;
	memset(&child, 0, sizeof child);
	child.argv = argv;
	child.null_stdout = true;
	if ((status = util_child_run(&child, cause)) == -1)
		return -1;
	if (status != 0) {
		util_cause(cause, "tc qdisc %s failed", deflt ? "del" : "replace");
		return -1;
	}
	return 0;
}
