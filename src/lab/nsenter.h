/*
 * Entering network namespaces and reading interface counters inside them
 * (netns.c, Linux-only; src/lab/lab_nolinux.c stands in elsewhere).
 */
#ifndef NTUNE_LAB_NETNS_H
#define NTUNE_LAB_NETNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/names.h"

/* One interface of a namespace. */
struct lab_ifstat {
	char		name[16];
	char		mac[18];	/* "02:4e:54:12:00:01", "" if none */
	bool		up;
	uint64_t	rx_packets, rx_bytes, rx_dropped;
	uint64_t	tx_packets, tx_bytes, tx_dropped;
};

/* True if /run/netns/<name> exists. */
bool	 lab_netns_exists(const char *name);
/* True if namespace nsname belongs to ntune lab prefix (state file or ntune's MACs inside). */
bool	 lab_netns_is_lab(const char *prefix, const char *nsname);
/* True if namespace nsname holds an interface with the lab's MAC prefix. */
bool	 lab_netns_is_ours(const char *nsname);
/* Moves the calling thread into namespace name (CLONE_NEWNET only). */
int	 lab_netns_enter(const char *name, char **cause);
/* Runs fn(arg) in a child process inside name; returns fn's return value, -1 + cause on failure. */
int	 lab_netns_run(const char *name, int (*fn)(void *), void *arg, char **cause);
/*
 * Runs argv in name like `ip netns exec` (own mount namespace, /sys remounted)
 * and waits for it; returns its exit status (128+signal), -1 + cause if it could not start.
 */
int	 lab_netns_exec(const char *name, char *const argv[], char **cause);
/* Replaces the current process with argv running in name (for `ntune lab exec`). */
int	 lab_netns_execv(const char *name, char *const argv[], char **cause);
/*
 * Which lab the calling process is in: compares /proc/self/ns/net with
 * /run/netns/<prefix>-<role>. 0 and fills prefix/role, -1 + cause if none.
 */
int	 lab_find_self(char *prefix, size_t len, enum lab_role *role, char **cause);

/* Interface counters inside a namespace (NULL: the current one). */
int	 lab_if_stats(const char *nsname, struct lab_ifstat *ifs, int max, int *n, char **cause);
int	 lab_if_stat(const char *nsname, const char *ifname, struct lab_ifstat *, char **cause);

/* Whether we may change network namespaces (CAP_NET_ADMIN and CAP_SYS_ADMIN). */
int	 lab_check_privileges(char **cause);

#endif
