/*
 * Emptying the conntrack table of a lab namespace between measured runs: a
 * ctnetlink IPCTNL_MSG_CT_DELETE without a tuple deletes every entry of the
 * namespace (include/uapi/linux/netfilter/nfnetlink_conntrack.h;
 * ctnetlink_del_conntrack in net/netfilter/nf_conntrack_netlink.c flushes
 * when no tuple is given), what `conntrack -F` sends.
 */
#include <sys/socket.h>

#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netlink.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "util/util.h"

/* In the namespace (lab_netns_run's child): 0 flushed, 1 not. */
static int
flush_here(void *arg)
{
	struct {
		struct nlmsghdr nh;
		struct nfgenmsg nf;
	} req;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[512];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	ssize_t n;
	int fd, rc = 1;

	(void)arg;
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = sizeof req;
	req.nh.nlmsg_type = (NFNL_SUBSYS_CTNETLINK << 8) | IPCTNL_MSG_CT_DELETE;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	req.nf.nfgen_family = AF_UNSPEC;
	req.nf.version = NFNETLINK_V0;
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER)) == -1)
		return 1;
	if (sendto(fd, &req, sizeof req, 0, (struct sockaddr *)&sa, sizeof sa) == (ssize_t)sizeof req &&
	    (n = recv(fd, buf, sizeof buf, 0)) >= (ssize_t)sizeof(struct nlmsghdr) &&
	    nh->nlmsg_type == NLMSG_ERROR &&
	    ((struct nlmsgerr *)NLMSG_DATA(nh))->error == 0)
		rc = 0;
	close(fd);
	return rc;
}

int
lab_conntrack_flush(const char *ns, char **cause)
{
	if (lab_netns_run(ns, flush_here, NULL, cause) != 0) {
		if (cause != NULL && *cause == NULL)
			util_cause(cause, "cannot empty the conntrack table in '%s'", ns);
		return -1;
	}
	return 0;
}
