/* One netlink request and its replies, for rtnetlink and generic netlink users. */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <string.h>

#include "util/netlink.h"

int
util_nl_talk(int fd, const struct nlmsghdr *req, int (*cb)(const struct nlmsghdr *, void *),
    void *arg)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[32768];
	struct nlmsghdr *h;
	ssize_t got;
	int n, done = 0, stop = 0;

	if (sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof sa) == -1)
		return -1;
	while (!done) {
		if ((got = recv(fd, buf, sizeof buf, 0)) <= 0) {
			if (got == -1 && errno == EINTR)
				continue;
			if (got == 0)
				errno = EPROTO;
			return -1;
		}
		n = (int)got;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				if (e->error != 0) {
					errno = -e->error;
					return -1;
				}
				done = 1;
				break;
			}
			if (!stop && cb(h, arg) != 0)
				stop = 1;
			/* A dump ends with NLMSG_DONE; a plain request is one message. */
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				done = 1;
		}
	}
	return 0;
}
