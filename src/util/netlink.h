/* Linux netlink requests (rtnetlink, generic netlink): one request, its replies. Linux-only. */
#ifndef NTUNE_UTIL_NETLINK_H
#define NTUNE_UTIL_NETLINK_H

#include <linux/netlink.h>

#include <stddef.h>

/*
 * Sends the request req (req->nlmsg_len bytes) on the netlink socket fd and
 * calls cb on each reply message until the dump ends (NLMSG_DONE), the kernel
 * acknowledges, or a reply is not part of a dump. A cb returning non-zero is
 * not called again (the replies are still read to their end). 0, or -1 with
 * errno: the kernel's error when it sent one, EPROTO when the replies stopped
 * early.
 */
int	 util_nl_talk(int fd, const struct nlmsghdr *req,
	    int (*cb)(const struct nlmsghdr *, void *), void *arg);

#endif
