/*
 * The kernel threads of an interface's threaded NAPI instances, and their CPU
 * affinity (if.IF.napi_thread_cpus). The threads are named napi/IF-ID, but
 * every lab has a dut0, so the name does not say whose thread it is: the
 * netdev generic netlink family does. Its NAPI_GET dump, filtered by ifindex,
 * lists the interface's NAPI instances in the caller's network namespace,
 * each with the PID of its thread when it is threaded (Linux >= 6.9;
 * include/uapi/linux/netdev.h, Documentation/netlink/specs/netdev.yaml).
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/os_impl.h"
#include "util/netlink.h"
#include "util/util.h"

/* include/uapi/linux/netdev.h (values are ABI; Debian 12's headers predate them). */
#define NAPI_FAMILY		"netdev"
#define NAPI_CMD_GET		11	/* NETDEV_CMD_NAPI_GET */
#define NAPI_A_IFINDEX		1	/* NETDEV_A_NAPI_IFINDEX */
#define NAPI_A_ID		2	/* NETDEV_A_NAPI_ID */
#define NAPI_A_PID		4	/* NETDEV_A_NAPI_PID, Linux >= 6.9 */

static int napi_list(const char *, pid_t *, uint32_t *, size_t, size_t *, char **);

struct nlreq {
	struct nlmsghdr	 nh;
	struct genlmsghdr g;
	char		 attrs[64];
};

static void
put_attr(struct nlreq *r, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* What transact calls for each attribute of each reply. */
struct attr_walk {
	void	(*fn)(void *, uint16_t, const void *, size_t);
	void	*arg;
};

static int
reply_attrs(const struct nlmsghdr *h, void *arg)
{
	const struct attr_walk *w = arg;
	const struct nlattr *a;
	int len;

	len = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	a = (const struct nlattr *)((const char *)NLMSG_DATA(h) + GENL_HDRLEN);
	for (; len >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
	    len -= NLA_ALIGN(a->nla_len),
	    a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len)))
		w->fn(w->arg, a->nla_type & NLA_TYPE_MASK, (const char *)a + NLA_HDRLEN,
		    a->nla_len - NLA_HDRLEN);
	return 0;
}

/*
 * Sends r and calls fn for each attribute of each reply until NLMSG_DONE or
 * the ACK. Returns 0, or -1 with errno (the kernel's error when it sent one).
 */
static int
transact(int fd, struct nlreq *r, void (*fn)(void *, uint16_t, const void *, size_t), void *arg)
{
	struct attr_walk w = { fn, arg };

	errno = 0;
	return util_nl_talk(fd, &r->nh, reply_attrs, &w);
}

static void
family_attr(void *arg, uint16_t type, const void *data, size_t len)
{
	if (type == CTRL_ATTR_FAMILY_ID && len >= 2)
		memcpy(arg, data, 2);
}

struct pids {
	pid_t	*v;
	uint32_t *ids;		/* NULL, or the NAPI ID of each thread */
	size_t	 n, max;
	uint32_t id;		/* the ID of the instance being read */
};

/* An instance's ID comes before its PID (netdev_nl_napi_fill_one). */
static void
napi_attr(void *arg, uint16_t type, const void *data, size_t len)
{
	struct pids *p = arg;
	uint32_t v;

	if ((type != NAPI_A_PID && type != NAPI_A_ID) || len < 4 || p->n >= p->max)
		return;
	memcpy(&v, data, 4);
	if (type == NAPI_A_ID)
		p->id = v;
	else if (v > 0) {
		if (p->ids != NULL)
			p->ids[p->n] = p->id;
		p->v[p->n++] = (pid_t)v;
	}
}

int
os_linux_napi_pids(const char *ifname, pid_t *pids, size_t max, size_t *n, char **cause)
{
	return napi_list(ifname, pids, NULL, max, n, cause);
}

static int
napi_list(const char *ifname, pid_t *pids, uint32_t *ids, size_t max, size_t *n, char **cause)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct pids p = { pids, ids, 0, max, 0 };
	struct nlreq r;
	uint32_t ifindex;
	uint16_t family = 0;
	int fd;

	*n = 0;
	if ((ifindex = if_nametoindex(ifname)) == 0) {
		util_cause(cause, "no interface '%s'", ifname);
		return -1;
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC)) == -1 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) == -1) {
		util_cause(cause, "generic netlink: %s", strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r.nh.nlmsg_type = GENL_ID_CTRL;
	r.nh.nlmsg_flags = NLM_F_REQUEST;
	r.nh.nlmsg_seq = 1;
	r.g.cmd = CTRL_CMD_GETFAMILY;
	r.g.version = 1;
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, NAPI_FAMILY, sizeof NAPI_FAMILY);
	if (transact(fd, &r, family_attr, &family) == -1 || family == 0) {
		util_cause(cause, "this kernel has no netdev netlink family (Linux >= 6.9 lists "
		    "NAPI threads): %s", strerror(errno != 0 ? errno : ENOENT));
		close(fd);
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r.nh.nlmsg_type = family;
	r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r.nh.nlmsg_seq = 2;
	r.g.cmd = NAPI_CMD_GET;
	r.g.version = 1;
	put_attr(&r, NAPI_A_IFINDEX, &ifindex, sizeof ifindex);
	if (transact(fd, &r, napi_attr, &p) == -1) {
		util_cause(cause, "cannot list the NAPI instances of '%s': %s", ifname,
		    strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	*n = p.n;
	return 0;
}

int
os_linux_pid_cpus(pid_t pid, unsigned char set[OS_MAXCPU], char **cause)
{
	cpu_set_t cs;
	int i;

	CPU_ZERO(&cs);
	if (sched_getaffinity(pid, sizeof cs, &cs) == -1) {
		util_cause(cause, "cannot read the CPU affinity of thread %d: %s", (int)pid,
		    strerror(errno));
		return -1;
	}
	memset(set, 0, OS_MAXCPU);
	for (i = 0; i < CPU_SETSIZE && i < OS_MAXCPU; i++)
		set[i] = CPU_ISSET(i, &cs) ? 1 : 0;
	return 0;
}

int
os_linux_pid_set_cpus(pid_t pid, const unsigned char set[OS_MAXCPU], char **cause)
{
	cpu_set_t cs;
	int i;

	CPU_ZERO(&cs);
	for (i = 0; i < CPU_SETSIZE && i < OS_MAXCPU; i++)
		if (set[i])
			CPU_SET(i, &cs);
	if (sched_setaffinity(pid, sizeof cs, &cs) == -1) {
		util_cause(cause, "cannot set the CPU affinity of thread %d: %s", (int)pid,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* One thread's /proc/PID/stat line into buf; 0 when it is gone. */
static int
read_proc_stat(pid_t pid, char *buf, size_t len)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n > 0;
}

/* One thread's CPU time and CPU (os_proc_stat_napi reads them); 0 when it is gone. */
static int
napi_stat(pid_t pid, unsigned long long *ticks, int *cpu)
{
	char buf[1024];

	return read_proc_stat(pid, buf, sizeof buf) && os_proc_stat_napi(buf, ticks, cpu);
}

int
os_linux_napi_thread_read(struct os_napi_thread *t)
{
	unsigned long long ticks, start;
	char buf[1024];

	if (!read_proc_stat((pid_t)t->pid, buf, sizeof buf) ||
	    !os_proc_stat_napi_start(buf, &ticks, &start) || start != t->start)
		return -1;
	t->ticks = ticks;
	return 0;
}

/*
 * Whether any thread on the host is named like one of ifname's NAPI threads
 * (napi/IF-ID, cut to the 15 bytes of a task's comm): 0 none, 1 some.
 */
static int
napi_named(const char *ifname)
{
	char want[16], path[300], comm[64];
	struct dirent *e;
	size_t len;
	DIR *d;
	FILE *f;
	int found = 0;

	snprintf(want, sizeof want, "napi/%s-", ifname);
	len = strlen(want);
	if ((d = opendir("/proc")) == NULL)
		return 1;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fgets(comm, sizeof comm, f) != NULL && strncmp(comm, want, len) == 0)
			found = 1;
		fclose(f);
	}
	closedir(d);
	return found;
}

int
os_linux_napi_threads(const char *ifname, struct os_napi_thread *t, size_t max, size_t *n,
    char **cause)
{
	unsigned long long ticks, start;
	pid_t pids[64];
	char buf[1024], *why = NULL;
	size_t i, k;

	*n = 0;
	if (napi_list(ifname, pids, NULL, max < nitems(pids) ? max : nitems(pids), &k, &why) != 0) {
		/* Without the listing, no thread of that name anywhere still says "none". */
		if (if_nametoindex(ifname) != 0 && !napi_named(ifname)) {
			free(why);
			return 0;
		}
		util_cause(cause, "%s; napi/%s-* threads exist and whose they are cannot be told",
		    why, ifname);
		free(why);
		return -1;
	}
	/* A thread that exits between the listing and its read is not listed. */
	for (i = 0; i < k; i++) {
		if (!read_proc_stat(pids[i], buf, sizeof buf) ||
		    !os_proc_stat_napi_start(buf, &ticks, &start))
			continue;
		t[*n].pid = (int)pids[i];
		t[*n].start = start;
		t[*n].ticks = ticks;
		(*n)++;
	}
	return 0;
}

/*
 * napi.IF.ID.usecs (CPU time of the thread of NAPI instance ID, a counter),
 * napi.IF.ID.cpu (the CPU it is on, a gauge), and if.IF.napi_threads (how many,
 * 0 when not threaded; absent when this kernel cannot list them). The threads
 * are found by ifindex in this network namespace (os_linux_napi_pids), not by
 * name: every lab has a dut0.
 */
void
os_linux_napi_counters(const char *ifname, struct os_counters *c)
{
	pid_t pids[64];
	uint32_t ids[64];
	size_t n, i, nthreads = 0;
	unsigned long long ticks;
	long hz = os_clock_ticks();
	int cpu;

	if (napi_list(ifname, pids, ids, nitems(pids), &n, NULL) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (!napi_stat(pids[i], &ticks, &cpu))
			continue;
		os_counters_setf(c, ticks * (1000000ULL / (unsigned long long)(hz > 0 ? hz : 100)),
		    false, "napi.%s.%u.usecs", ifname, ids[i]);
		os_counters_setf(c, (uint64_t)cpu, true, "napi.%s.%u.cpu", ifname, ids[i]);
		nthreads++;
	}
	os_counters_setf(c, nthreads, true, "if.%s.napi_threads", ifname);
}
