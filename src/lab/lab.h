/*
 * The lab: a generator, a device under test and a sink in three Linux network
 * namespaces, joined by veth pairs (see doc/interfaces.md for names and
 * addresses). lab.c builds and tears it down, netns.c enters namespaces,
 * gen.c/sink.c send and count test traffic, rfc2544.c runs RFC 2544 on it.
 */
#ifndef NTUNE_LAB_H
#define NTUNE_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lab_role { LAB_GEN, LAB_DUT, LAB_SINK, LAB_NROLES };
enum lab_mode { LAB_ROUTE, LAB_NAT, LAB_BRIDGE };
/* A misconfiguration planted in the DUT at `lab up --impair NAME` (route mode). */
enum lab_impair {
	LAB_IMPAIR_NONE,
	LAB_IMPAIR_RP_FILTER,	/* "rp-filter": strict reverse-path filter, asymmetric return route */
	LAB_IMPAIR_NAPI_SENDER,	/* "napi-on-sender": dut0's NAPI thread pinned to CPU 0, the sender's */
};

/*
 * Building the lab, entering namespaces, gen and sink are Linux-only (the
 * top-level meson.build lists the files); elsewhere src/lab/nolinux.c stands in
 * and every such function fails with this cause.
 */
#define LAB_LINUX_ONLY	"the lab is Linux-only (network namespaces, veth, AF_PACKET); " \
	"on FreeBSD measure between machines with --dut ssh://[user@]host"

#define LAB_PREFIX_DEFAULT	"ntune"
#define LAB_PREFIX_MAX		32
#define LAB_NSNAME_MAX		(LAB_PREFIX_MAX + 8)
#define LAB_STATE_DIR		"/run/ntune/lab"	/* $NTUNE_LAB_DIR overrides */

/* Fixed addresses of the lab (doc/interfaces.md). */
#define LAB_GEN_IF	"gen0"
#define LAB_DUT_IN_IF	"dut0"
#define LAB_DUT_OUT_IF	"dut1"
#define LAB_SINK_IF	"sink0"
#define LAB_GEN_IP4	"198.18.0.1"
#define LAB_DUT_IN_IP4	"198.18.0.2"
#define LAB_DUT_OUT_IP4	"198.19.0.1"
#define LAB_SINK_IP4	"198.19.0.2"
#define LAB_GEN_IP6	"2001:2:0:1::1"
#define LAB_DUT_IN_IP6	"2001:2:0:1::2"
#define LAB_DUT_OUT_IP6	"2001:2:0:2::1"
#define LAB_SINK_IP6	"2001:2:0:2::2"
/* Locally administered MACs, fixed so that static neighbours need no lookup. */
#define LAB_GEN_MAC	"02:4e:54:12:00:01"
#define LAB_DUT_IN_MAC	"02:4e:54:12:00:02"
#define LAB_DUT_OUT_MAC	"02:4e:54:13:00:01"
#define LAB_SINK_MAC	"02:4e:54:13:00:02"

struct lab_config {
	char		prefix[LAB_PREFIX_MAX + 1];
	enum lab_mode	mode;
	int		queues;		/* veth rx/tx queues per device, >= 1 */
	int		mtu;		/* 0: kernel default */
	enum lab_impair	impair;
};

/* Fills defaults: prefix "ntune", route, 1 queue, default MTU. */
void	 lab_config_init(struct lab_config *);
/* Names: "route" "nat" "bridge"; "gen" "dut" "sink". -1 when unknown. */
int	 lab_mode_parse(const char *, enum lab_mode *);
const char *lab_mode_name(enum lab_mode);
int	 lab_impair_parse(const char *, enum lab_impair *);
const char *lab_impair_name(enum lab_impair);
int	 lab_role_parse(const char *, enum lab_role *);
const char *lab_role_name(enum lab_role);
/* A prefix is 1..32 of [A-Za-z0-9_] and '-' (not first); -1 + cause if not. */
int	 lab_prefix_valid(const char *prefix, char **cause);
/* "<prefix>-<role>" into buf (LAB_NSNAME_MAX bytes). */
void	 lab_netns_name(const char *prefix, enum lab_role, char *buf, size_t len);

/*
 * Builds the lab; on failure removes whatever it created and returns -1.
 * Refuses (-1, cause) a prefix whose namespaces already exist.
 */
int	 lab_up(const struct lab_config *, char **cause);
/*
 * Removes the lab's namespaces (and with them its veths, bridge and rules)
 * and its state file. 0 when removed or nothing was there, -1 when a
 * namespace of that name exists that ntune did not create.
 */
int	 lab_down(const char *prefix, int *removed, char **cause);

/* What exists of a lab. */
struct lab_ifstat {
	char		name[16];
	char		mac[18];	/* "02:4e:54:12:00:01", "" if none */
	bool		up;
	uint64_t	rx_packets, rx_bytes, rx_dropped;
	uint64_t	tx_packets, tx_bytes, tx_dropped;
};
struct lab_status {
	struct lab_config config;	/* from the state file, if any */
	bool		state_file;	/* ntune's state file exists */
	bool		ns_exists[LAB_NROLES];
	bool		ours[LAB_NROLES];	/* namespace holds an ntune-labelled interface */
	struct lab_ifstat ifs[LAB_NROLES][4];
	int		nifs[LAB_NROLES];
};
int	 lab_status(const char *prefix, struct lab_status *, char **cause);
/* Names of labs with a state file or namespaces "<x>-gen|dut|sink"; free with lab_list_free. */
int	 lab_list(char ***prefixes, size_t *n, char **cause);
void	 lab_list_free(char **, size_t);
/* Reads a lab's state file; -1 + cause when the lab is not up. */
int	 lab_read_config(const char *prefix, struct lab_config *, char **cause);

/* Namespaces. */
/* True if /run/netns/<name> exists. */
bool	 lab_netns_exists(const char *name);
/* True if namespace nsname belongs to ntune lab prefix (state file or ntune's MACs inside). */
bool	 lab_netns_is_lab(const char *prefix, const char *nsname);
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
