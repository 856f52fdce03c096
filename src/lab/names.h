/*
 * The lab's names and settings: modes, roles, prefixes, namespace names, fixed
 * addresses and where its state file is (names.c). Portable: bench and tune use
 * them on every system.
 */
#ifndef NTUNE_LAB_NAMES_H
#define NTUNE_LAB_NAMES_H

#include <stddef.h>

enum lab_role { LAB_GEN, LAB_DUT, LAB_SINK, LAB_NROLES };
enum lab_mode { LAB_ROUTE, LAB_NAT, LAB_BRIDGE };
/* A misconfiguration planted in the DUT at `lab up --impair NAME`. */
enum lab_impair {
	LAB_IMPAIR_NONE,
	LAB_IMPAIR_RP_FILTER,	/* "rp-filter": strict reverse-path filter, asymmetric return route */
	LAB_IMPAIR_NAPI_SENDER,	/* "napi-on-sender": dut0's NAPI thread pinned to CPU 0, the sender's */
	LAB_IMPAIR_CONNTRACK_SMALL,	/* "conntrack-small": NAT mode, host nf_conntrack_max 128 */
	LAB_IMPAIR_BACKLOG_RPS,	/* "backlog-rps": RPS on dut0, host netdev_max_backlog 64 */
};

#define LAB_PREFIX_DEFAULT	"ntune"
#define LAB_PREFIX_MAX		32
#define LAB_NSNAME_MAX		(LAB_PREFIX_MAX + 8)
#define LAB_STATE_DIR		"/run/ntune/lab"	/* $NTUNE_LAB_DIR overrides */
/*
 * The host-wide sysctl an impairment holds (one lab at a time, whatever its
 * state directory): its original value, put back when that lab goes down.
 */
#define LAB_HOST_STATE		"/run/ntune/lab-host-sysctl.json"

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
#define LAB_MAC_PREFIX	"02:4e:54:"	/* what marks an interface as the lab's */

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
/* The state file that records that ntune made lab prefix's namespaces. */
const char *lab_state_dir(void);
void	 lab_state_path(const char *prefix, char *buf, size_t len);

#endif
