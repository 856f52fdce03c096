/* Next-hop resolution with rtnetlink: a route lookup, then the neighbour table. */
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/traffic.h"
#include "os/os.h"
#include "util/netlink.h"
#include "util/util.h"

struct nlreq {
	struct nlmsghdr	nh;
	union {
		struct rtmsg	rt;
		struct ndmsg	nd;
	} u;
	char		attrs[64];
};

struct route_ans {
	int		family;
	int		oif;
	bool		has_gw, has_src;
	union lab_addr	gw, src;
};

static int
route_cb(const struct nlmsghdr *h, void *arg)
{
	struct route_ans *a = arg;
	struct rtmsg *rt = NLMSG_DATA(h);
	struct rtattr *at;
	int len = (int)RTM_PAYLOAD(h);
	size_t alen = a->family == AF_INET6 ? 16 : 4;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return 0;
	for (at = RTM_RTA(rt); RTA_OK(at, len); at = RTA_NEXT(at, len)) {
		if (at->rta_type == RTA_OIF)
			memcpy(&a->oif, RTA_DATA(at), sizeof(int));
		else if (at->rta_type == RTA_GATEWAY && RTA_PAYLOAD(at) == alen) {
			memcpy(&a->gw, RTA_DATA(at), alen);
			a->has_gw = true;
		} else if (at->rta_type == RTA_PREFSRC && RTA_PAYLOAD(at) == alen) {
			memcpy(&a->src, RTA_DATA(at), alen);
			a->has_src = true;
		}
	}
	return 1;
}

struct neigh_ans {
	int		family;
	int		ifindex;
	union lab_addr	ip;
	bool		found;
	uint8_t		mac[6];
};

static int
neigh_cb(const struct nlmsghdr *h, void *arg)
{
	struct neigh_ans *a = arg;
	struct ndmsg *nd = NLMSG_DATA(h);
	struct rtattr *at;
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*nd)));
	size_t alen = a->family == AF_INET6 ? 16 : 4;
	bool match = false, mac = false;
	uint8_t m[6];

	if (h->nlmsg_type != RTM_NEWNEIGH || nd->ndm_ifindex != a->ifindex ||
	    (nd->ndm_state & (NUD_FAILED | NUD_INCOMPLETE | NUD_NOARP)) || a->found)
		return 0;
	for (at = (struct rtattr *)((char *)nd + NLMSG_ALIGN(sizeof(*nd))); RTA_OK(at, len);
	    at = RTA_NEXT(at, len)) {
		if (at->rta_type == NDA_DST && RTA_PAYLOAD(at) == alen)
			match = memcmp(RTA_DATA(at), &a->ip, alen) == 0;
		else if (at->rta_type == NDA_LLADDR && RTA_PAYLOAD(at) == 6) {
			memcpy(m, RTA_DATA(at), 6);
			mac = true;
		}
	}
	if (match && mac) {
		memcpy(a->mac, m, 6);
		a->found = true;
	}
	return 0;
}

int
lab_nexthop(int family, const union lab_addr *dst, char *ifname, size_t iflen,
    union lab_addr *src, uint8_t src_mac[6], uint8_t dst_mac[6], char **cause)
{
	struct route_ans ra;
	struct neigh_ans na;
	struct nlreq req;
	struct rtattr *at;
	char name[IF_NAMESIZE], text[INET6_ADDRSTRLEN];
	size_t alen = family == AF_INET6 ? 16 : 4;
	int fd, rc;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) == -1) {
		util_cause(cause, "netlink socket: %s", strerror(errno));
		return -1;
	}
	inet_ntop(family, dst, text, sizeof(text));
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.u.rt.rtm_family = (unsigned char)family;
	req.u.rt.rtm_dst_len = (unsigned char)(alen * 8);
	at = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	at->rta_type = RTA_DST;
	at->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(at), dst, alen);
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(at->rta_len);
	memset(&ra, 0, sizeof(ra));
	ra.family = family;
	if ((rc = util_nl_talk(fd, &req.nh, route_cb, &ra)) == -1 || ra.oif == 0) {
		if (rc == -1)
			util_cause(cause, "no route to %s: %s", text, strerror(errno));
		else
			util_cause(cause, "no route to %s", text);
		close(fd);
		return -1;
	}
	if (if_indextoname((unsigned)ra.oif, name) == NULL) {
		util_cause(cause, "route to %s: unknown interface %d", text, ra.oif);
		close(fd);
		return -1;
	}
	memset(&na, 0, sizeof(na));
	na.family = family;
	na.ifindex = ra.oif;
	na.ip = ra.has_gw ? ra.gw : *dst;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct ndmsg));
	req.nh.nlmsg_type = RTM_GETNEIGH;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.u.nd.ndm_family = (unsigned char)family;
	req.u.nd.ndm_ifindex = ra.oif;
	if (util_nl_talk(fd, &req.nh, neigh_cb, &na) == -1) {
		util_cause(cause, "netlink: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(ifname, iflen, "%s", name);
	if (ra.has_src && src != NULL)
		*src = ra.src;
	(void)os_if_hwaddr(name, src_mac, NULL);
	if (!na.found) {
		inet_ntop(family, &na.ip, text, sizeof(text));
		util_cause(cause, "no neighbour entry for %s on '%s' (give --dst-mac)", text, name);
		return 1;
	}
	memcpy(dst_mac, na.mac, 6);
	return 0;
}
