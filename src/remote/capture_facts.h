/*
 * What a Linux box tells only through ioctls and netlink (ethtool facts, the root qdisc,
 * the CPUs of threaded NAPI), read agentless from the text of its base tools: the
 * capture sections ethtool-i.txt, ethtool-g.txt, ethtool-l.txt, ethtool-c.txt,
 * ethtool-k.txt, ethtool-a.txt (`ethtool -i|-g|-l|-c|-k|-a IF` for every interface,
 * each block "::IF NAME STATUS" then what ethtool printed, stderr included),
 * tc-qdisc.txt (`tc qdisc show`) and napi-threads.txt ("COMM CPULIST" of every
 * napi/... kernel thread). Parsed on the controller into facts per interface, the
 * lines "KEY VALUE" that capture_linux.c writes as ROOT/ntune/if/IF for the Linux
 * backend (linux_captured.c), doc/interfaces.md "Captures".
 */
#ifndef NTUNE_REMOTE_CAPTURE_FACTS_H
#define NTUNE_REMOTE_CAPTURE_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

#define CAPTURE_IFNAME_MAX	15	/* IFNAMSIZ - 1 */
#define CAPTURE_IF_MAX		4096	/* interfaces a capture's facts hold (more: an error) */
#define CAPTURE_IF_MAX_S	"4096"
#define CAPTURE_THREADS_MAX	65536	/* napi threads */

struct capture_if_facts {
	char		 name[CAPTURE_IFNAME_MAX + 1];
	struct strbuf	 text;		/* "KEY VALUE\n" lines */
};

struct capture_napi_thread {
	char	 comm[32];		/* "napi/eth0-8193" (the kernel cuts it at 15 characters) */
	char	 cpus[256];		/* its Cpus_allowed_list */
};

struct capture_facts {
	struct capture_if_facts		*v;
	size_t				 n;
	struct capture_napi_thread	*threads;
	size_t				 nthreads;
};

/* Is s an interface name the capture script passes to ethtool ([A-Za-z0-9_.@+-], not "-..", ".", "..")? */
bool	 capture_ifname_ok(const char *s, size_t n);

/*
 * One ethtool section (opt: 'i', 'g', 'l', 'c', 'k' or 'a'), where "ORIGIN:NAME" for
 * messages. A block that failed (its STATUS not 0) is "unsupported GROUP" when ethtool said
 * "Operation not supported" or "Invalid argument", else "unread GROUP: WHAT IT SAID".
 * A line that is not of ethtool's output, a bad block line, an interface given twice:
 * -1 with "WHERE:LINE: ..." in cause.
 */
int	 capture_facts_ethtool(struct capture_facts *, char opt, const char *where,
	    const char *text, size_t len, char **cause);
/* tc-qdisc.txt: the root qdisc of each interface ("qdisc KIND HANDLE: dev IF root ..."). */
int	 capture_facts_qdisc(struct capture_facts *, const char *where, const char *text,
	    size_t len, char **cause);
/* napi-threads.txt: "COMM CPULIST" lines. */
int	 capture_facts_napi(struct capture_facts *, const char *where, const char *text,
	    size_t len, char **cause);
/*
 * netns.txt ("self INODE", "init INODE", "ns INODE NAME" of /run/netns): the name of the
 * box's network namespace into name, "" in the host's (as linux_system.c tells it).
 */
int	 capture_facts_netns(const char *where, const char *text, size_t len, char *name,
	    size_t nlen, char **cause);
/*
 * sysctl-modes.txt (`ls -ld` of the files of /proc/sys whose mode is not 0644, as
 * "./PATH"): fn(arg, "/proc/sys/PATH", MODE) for each, MODE its read and write bits;
 * fn's -1 stops. A line that is not ls's: -1 + cause.
 */
int	 capture_facts_modes(const char *where, const char *text, size_t len,
	    int (*fn)(void *arg, const char *path, int mode), void *arg, char **cause);
/*
 * The if.IF.napi_thread_cpus of ifname: the CPU lists of its napi/IF-ID threads (one
 * when all agree), or online when it has none or threaded is "0" (malloc'd, NULL when a
 * list does not parse).
 */
char	*capture_facts_napi_cpus(const struct capture_facts *, const char *ifname,
	    const char *threaded, const char *online);
/* The facts of ifname, made when absent. */
struct capture_if_facts *capture_facts_if(struct capture_facts *, const char *ifname);
void	 capture_facts_free(struct capture_facts *);

#endif
