/*
 * The platform layer: what the rest of ntune needs to know about, and change on,
 * a machine. Three backends fill struct os_ops: linux.c (live /proc, /sys,
 * ethtool), freebsd.c (sysctl(3), getifaddrs(3)) and snapshot.c (a JSON snapshot
 * or pasted FreeBSD text). A capability a backend lacks is a NULL op; callers
 * report it as "unsupported on '<backend name>'".
 *
 * Conventions: every op returns 0 on success, -1 on failure with a malloc'd
 * message in *cause. Arrays returned through pointers are malloc'd; free them
 * with the matching os_*_free().
 */
#ifndef NTUNE_OS_H
#define NTUNE_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OS_NAME_MAX	64
#define OS_TEXT_MAX	256

/* Tri-state for things that may be unknown (offload flags, SMT...). */
enum os_tristate { OS_UNKNOWN = -1, OS_OFF = 0, OS_ON = 1 };

struct os_system {
	char	os[OS_NAME_MAX];	/* "Linux", "FreeBSD", "OPNsense", "pfSense" */
	char	version[OS_TEXT_MAX];	/* kernel release, e.g. "6.1.0-18-amd64", "14.1-RELEASE-p5" */
	char	distro[OS_TEXT_MAX];	/* "Debian GNU/Linux 12", "OPNsense 24.1" or "" */
	char	hostname[OS_TEXT_MAX];
	char	netns[OS_NAME_MAX];	/* Linux: name of the network namespace we run in, "" for the host's */
	char	platform[OS_NAME_MAX];	/* os_platform_name() when evidence names it, else "" */
	char	platform_why[OS_TEXT_MAX];	/* the evidence: "net.inet.rss.enabled exists (OPNsense kernels only)" */
};

struct os_cpu {
	char	model[OS_TEXT_MAX];
	int	packages;
	int	cores;			/* physical cores in all packages */
	int	threads;		/* logical CPUs online */
	int	smt;			/* enum os_tristate */
	int	numa_nodes;
	int	*cpu_numa;		/* [threads]: NUMA node of each CPU, or NULL */
	int	*cpu_core;		/* [threads]: core id (SMT siblings share one), or NULL */
	char	governor[OS_NAME_MAX];	/* CPU frequency governor, "" if none */
};

struct os_queue {
	int	index;			/* queue number within the NIC */
	char	kind[8];		/* "rx", "tx" or "rxtx" (combined) */
	int	irq;			/* interrupt vector, -1 if none/unknown */
	char	irq_name[OS_NAME_MAX];	/* e.g. "ix0:rxq0", "virtio0-input.0" */
	int	irq_cpu;		/* CPU its interrupt lands on (first CPU of its affinity), -1 unknown */
	char	irq_affinity[OS_NAME_MAX]; /* CPU list, e.g. "0-3" */
	char	rps_cpus[OS_NAME_MAX];	/* Linux RPS mask (hex) for rx queues, "" if none */
	char	xps_cpus[OS_NAME_MAX];	/* Linux XPS mask for tx queues, "" if none */
	uint64_t interrupts;		/* total interrupt count, if known */
};

struct os_nic {
	char	name[OS_NAME_MAX];
	char	driver[OS_NAME_MAX];
	char	driver_version[OS_NAME_MAX];
	char	firmware[OS_TEXT_MAX];
	char	bus[OS_NAME_MAX];	/* "0000:03:00.0", "pci0:3:0:0" */
	char	pci_id[32];		/* "8086:1528" (vendor:device), "" if not PCI */
	char	pci_name[OS_TEXT_MAX];	/* "Intel Corporation Ethernet Controller 10-Gigabit X540-AT2" */
	char	mac[24];
	long	speed_mbps;		/* -1 unknown */
	int	mtu;
	int	up;			/* enum os_tristate: link up, down, unknown */
	int	numa_node;		/* -1 unknown */
	int	rx_queues, tx_queues, combined_queues;		/* current, -1 unknown */
	int	max_rx_queues, max_tx_queues, max_combined_queues;
	int	rx_ring, tx_ring, max_rx_ring, max_tx_ring;	/* descriptors, -1 unknown */
	int	tso, lro, gro, gso, rxcsum, txcsum;		/* enum os_tristate */
	int	coalesce_rx_usecs, adaptive_rx;			/* -1 unknown */
	struct os_queue *queues;
	size_t	nqueues;
	char	unsupported[OS_TEXT_MAX];	/* what the driver does not report: "rings, coalescing" */
	char	unread[OS_TEXT_MAX];	/* what failed to be read, with why ("" = all read) */
};

/* Cumulative per-CPU time in clock ticks (like kern.cp_times and /proc/stat). */
struct os_cpu_times {
	uint64_t user, nice, system, interrupt, softirq, idle, iowait, steal;
};

/*
 * CPU busy from tick counters, the one computation (cpu_ticks.c): t holds a CPU's states in
 * the order of struct os_cpu_times (counts, their growth, or rates; a negative one is
 * absent). os_cpu_ticks returns their sum, the CPU's ticks, and the busy ones in *busy (all
 * but idle and iowait); os_cpu_busy_pct the % busy between readings a and b (0 when no tick
 * passed).
 */
#define OS_CPU_STATES	8
#define OS_CPU_IDLE	5
#define OS_CPU_IOWAIT	6
double	 os_cpu_ticks(const double t[OS_CPU_STATES], double *busy);
/* The same for counts (modulo 2^64, so that a difference of two readings is right, as they wrap). */
uint64_t os_cpu_times_ticks(const struct os_cpu_times *, uint64_t *busy);
void	 os_cpu_times_vec(const struct os_cpu_times *, double t[OS_CPU_STATES]);
double	 os_cpu_busy_pct(const struct os_cpu_times *a, const struct os_cpu_times *b);

/* Cumulative interface counters (like netstat -ibnd and /proc/net/dev). */
struct os_if_counters {
	char	name[OS_NAME_MAX];
	uint64_t ipackets, ibytes, ierrors, idrops;
	uint64_t opackets, obytes, oerrors, odrops;
};

/* One interrupt source with its per-CPU counts (like vmstat -i and /proc/interrupts). */
struct os_irq {
	char	 name[OS_NAME_MAX];	/* "irq264: ix0:rxq0" or "42" */
	char	 desc[OS_TEXT_MAX];	/* device/queue description, e.g. "ix0:rxq0", "virtio0-input.0" */
	uint64_t total;
	uint64_t *per_cpu;		/* [ncpu] or NULL when only the total is known (FreeBSD) */
	size_t	 ncpu;
};

/*
 * Where a tunable lives, as the backend sees it. Names are sysctl names
 * ("net.inet.ip.forwarding", "net.core.netdev_budget") or ntune's names for
 * non-sysctl settings:
 *   if.<ifname>.<setting>            per interface (ethtool / ifconfig / sysfs):
 *       if.eth0.channels.combined, if.eth0.channels.rx, if.eth0.ring.rx, if.eth0.ring.tx,
 *       if.eth0.offload.gro (on|off; also tso gso lro rxcsum txcsum, and on Linux any
 *       ethtool -k feature: if.eth0.offload.rx-gro-list), if.eth0.coalesce.rx-usecs,
 *       if.eth0.coalesce.adaptive-rx, if.eth0.flow-control (on|off), if.eth0.mtu, if.eth0.txqueuelen,
 *       if.eth0.rps_cpus (hex mask, all rx queues), if.eth0.rx-<N>.rps_cpus, if.eth0.xps_cpus,
 *       if.eth0.tx-<N>.xps_cpus, if.eth0.rps_flow_cnt, if.eth0.irq_affinity (CPU list of all
 *       queue IRQs, "spread" = one CPU per queue round-robin), if.eth0.qdisc (root qdisc kind),
 *       if.eth0.napi_threaded (0|1), if.eth0.gro_flush_timeout (ns),
 *       if.eth0.napi_defer_hard_irqs (Linux sysfs device attributes)
 *   cpu.governor                      CPU frequency governor of all CPUs
 * FreeBSD loader tunables that are not visible as sysctls are read from kenv.
 */
enum os_tunable_kind {
	OS_TUNABLE_NONE = 0,	/* does not exist here */
	OS_TUNABLE_RUNTIME,	/* writable now (sysctl CTLFLAG_RW, /proc/sys, ethtool) */
	OS_TUNABLE_LOADER,	/* boot time only (CTLFLAG_RDTUN, kenv) */
	OS_TUNABLE_BOTH,	/* CTLFLAG_RWTUN: loader and runtime */
	OS_TUNABLE_READONLY,	/* exists but cannot be set */
};

struct os_ctx;

struct os_ops {
	const char *name;	/* "linux", "freebsd", "snapshot" */

	int	(*system)(struct os_ctx *, struct os_system *, char **cause);
	int	(*cpu)(struct os_ctx *, struct os_cpu *, char **cause);
	int	(*nics)(struct os_ctx *, struct os_nic **, size_t *, char **cause);
	int	(*cpu_times)(struct os_ctx *, struct os_cpu_times **, size_t *ncpu, char **cause);
	int	(*if_counters)(struct os_ctx *, struct os_if_counters **, size_t *, char **cause);
	int	(*irqs)(struct os_ctx *, struct os_irq **, size_t *, char **cause);

	/* Tunables by name (see above). get: value as text, without trailing newline. */
	int	(*tunable_get)(struct os_ctx *, const char *name, char **value, char **cause);
	int	(*tunable_set)(struct os_ctx *, const char *name, const char *value, char **cause);
	int	(*tunable_kind)(struct os_ctx *, const char *name, enum os_tunable_kind *, char **cause);
	/* Calls fn for every sysctl under prefix ("" = all); stops when fn returns non-zero. */
	int	(*tunable_list)(struct os_ctx *, const char *prefix,
		    int (*fn)(const char *name, const char *value, void *arg), void *arg, char **cause);

	/* Frees the backend state in ctx->priv (called by os_close); may be NULL. */
	void	(*close)(struct os_ctx *);
};

struct os_ctx {
	const struct os_ops *ops;
	const char *root;	/* linux: prefix for /proc and /sys ("" = live); tests point it at a captured tree */
	void	*priv;		/* backend state (snapshot: parsed document) */
	/* Called by os_close after the backend's close (a capture's tree is removed so), or NULL. */
	void	(*on_close)(void *arg);
	void	*on_close_arg;
};

/* The backend for the machine we run on (linux or freebsd), root "" = live. */
struct os_ctx *os_open_live(const char *root, char **cause);
/* The snapshot backend over one or more files: a JSON snapshot, or FreeBSD text dumps. */
struct os_ctx *os_open_files(const char *const *paths, size_t n, char **cause);
/*
 * The system a command looks at, decided in this one place: the files of from
 * when there are any (n > 0), else this machine, read under os_target_root().
 */
struct os_ctx *os_open_target(const char *const *from, size_t n, char **cause);
/* Where this machine is read: $NTUNE_ROOT (a captured /proc + /sys tree), else "" (live). */
const char *os_target_root(void);
void	 os_close(struct os_ctx *);

/*
 * The operations of ctx's backend (ops.c), to be called instead of ctx->ops:
 * an operation the backend lacks fails with cause "<what> is unsupported on
 * '<backend>'" (e.g. "setting tunables is unsupported on 'snapshot'").
 */
const char *os_backend_name(const struct os_ctx *);	/* "linux", "freebsd", "snapshot" */
int	 os_system_info(struct os_ctx *, struct os_system *, char **cause);
int	 os_cpu_info(struct os_ctx *, struct os_cpu *, char **cause);
int	 os_nics(struct os_ctx *, struct os_nic **, size_t *, char **cause);
int	 os_cpu_times(struct os_ctx *, struct os_cpu_times **, size_t *ncpu, char **cause);
int	 os_if_counters(struct os_ctx *, struct os_if_counters **, size_t *, char **cause);
int	 os_irqs(struct os_ctx *, struct os_irq **, size_t *, char **cause);
int	 os_tunable_get(struct os_ctx *, const char *name, char **value, char **cause);
int	 os_tunable_set(struct os_ctx *, const char *name, const char *value, char **cause);
int	 os_tunable_kind(struct os_ctx *, const char *name, enum os_tunable_kind *, char **cause);
int	 os_tunable_list(struct os_ctx *, const char *prefix,
	    int (*fn)(const char *name, const char *value, void *arg), void *arg, char **cause);
/*
 * The Ethernet address of interface ifname in the calling thread's network
 * namespace, read live (SIOCGIFHWADDR on Linux, getifaddrs(3) AF_LINK on FreeBSD).
 */
int	 os_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause);

/*
 * A kernel thread of an interface's threaded NAPI (Linux: napi/IF-ID), with
 * its CPU time so far: utime + stime of /proc/PID/stat (fields 14 and 15, in
 * clock ticks: os_clock_ticks() a second) and its start time (field 22), which
 * tells the thread from a later one that got the same PID.
 */
struct os_napi_thread {
	int	 pid;
	uint64_t start;
	uint64_t ticks;
};
/*
 * The NAPI threads of ifname in the calling thread's network namespace (at most
 * max; *n = 0 when it is not threaded), found by ifindex through the netdev
 * netlink family, not by name (every lab has a dut0). Where the kernel cannot
 * list them (Linux < 6.9), "none" is still known when no thread on the host has
 * such a name. -1 + cause otherwise (no such interface, threads of that name
 * whose owner cannot be told, not Linux).
 */
int	 os_napi_threads(const char *ifname, struct os_napi_thread *, size_t max, size_t *n,
	    char **cause);
/* Reads t->ticks again: 0, or -1 when the thread is gone (its PID free or another thread's). */
int	 os_napi_thread_read(struct os_napi_thread *t);
/* Clock ticks a second of process CPU times (sysconf(_SC_CLK_TCK)). */
long	 os_clock_ticks(void);

void	 os_cpu_free(struct os_cpu *);
void	 os_nics_free(struct os_nic *, size_t);
void	 os_irqs_free(struct os_irq *, size_t);

/*
 * Named counters for `diagnose`, beyond the ops above (names in doc/interfaces.md):
 * cpu.N.softirq, if.X.idrops, irq.X.rx0, softnet.cpuN.dropped, conntrack.count,
 * qdisc.X.overlimits, netisr.ip.cpuN.qdrops, ip.intr_queue_drops, mbuf.denied,
 * pf.states, nic.X.rx_missed... A gauge is a level (conntrack.count), the rest are
 * cumulative counts whose rate is what matters.
 */
struct os_counter {
	char	 name[96];
	uint64_t value;
	bool	 gauge;
};

struct os_counters {
	struct os_counter *v;
	size_t	n;
	/* When nonly > 0, only these interfaces' counters are collected (diagnose -i). */
	const char *const *only;
	size_t	nonly;
	/* What the text readers skipped or used in part, one note per file ("top.txt: ...") */
	char	**notes;
	size_t	nnotes;
};

/* Adds (or replaces) one counter; summing is the caller's business. */
void	 os_counters_set(struct os_counters *, const char *name, uint64_t value, bool gauge);
const struct os_counter *os_counters_get(const struct os_counters *, const char *name);
/* Are ifname's counters wanted (no -i list, or ifname is in it)? */
bool	 os_counters_want(const struct os_counters *, const char *ifname);
void	 os_counters_free(struct os_counters *);
/*
 * Everything the backend of ctx can count: CPU times, interface counters, every
 * interrupt by number (irqn.N, irqn.N.cpuM), and on a live Linux or FreeBSD system
 * the backend's own counters (softnet, conntrack, qdiscs; netisr, mbufs, pf). With
 * topology, also the gauges that need the NIC list (the costly part: once per
 * diagnosis is enough): if.X.rxqueues, if.X.rps, queue.X.Q.irq (the queue's IRQ number).
 */
int	 os_counters_collect(struct os_ctx *, struct os_counters *, bool topology, char **cause);
/*
 * One FreeBSD sample, defined here once: what os_counters_text reads, as the sh commands that
 * print it, SEP between them. The CPU ticks (OS_FBSD_SAMPLE_TICKS) and the interface counters
 * (OS_FBSD_SAMPLE_IF), the interrupts, netisr's workstreams, then (OS_FBSD_SAMPLE_MORE, one sh
 * list: an oid, pf or netstat the box lacks is left out) the NIC (dev.X.N), ip queue, mbuf
 * and pf counters. Live diagnose (fbsd_counters.c) and doctor's capture (src/remote/capture.c
 * bsd_counters: before.txt, after.txt) run all of it, bench's per-run counters of a DUT
 * (src/remote/host.c) its first two.
 */
#define OS_FBSD_SAMPLE_TICKS	"sysctl kern.cp_times"
#define OS_FBSD_SAMPLE_IF	"netstat -ibnd"
#define OS_FBSD_SAMPLE_MORE	"sysctl hw.ncpu net.inet.ip.intr_queue_drops " \
	"net.inet.ip.intr_queue_maxlen net.isr dev 2>/dev/null; netstat -m 2>/dev/null; " \
	"pfctl -si 2>/dev/null; pfctl -sm 2>/dev/null"
/*
 * One Linux sample, defined here once: the files os_counters_text_linux reads, which the live
 * backend reads under its root (linux.c, linux_counters.c); doctor's capture (capture.c
 * linux_counters: before.txt, after.txt) prints them, the optional ones when readable.
 */
#define OS_LINUX_SAMPLE_FILES	"/proc/stat /proc/net/dev /proc/interrupts"
#define OS_LINUX_SAMPLE_OPTIONAL	"/proc/net/softnet_stat"	/* one file */
#define OS_FBSD_SAMPLE(SEP)	OS_FBSD_SAMPLE_TICKS SEP OS_FBSD_SAMPLE_IF SEP "vmstat -i" SEP \
	"netstat -Q" SEP OS_FBSD_SAMPLE_MORE
/*
 * Pasted FreeBSD/OPNsense text: sysctl (kern.cp_times, dev.X.N.mac_stats.*, iflib
 * queue counters...), vmstat -i, netstat -Q, netstat -m, pfctl -si and pfctl -sm,
 * top, netstat -w, systat -ifstat, in any order in one file. A line it cannot read (a
 * prompt, a command, a row cut short) is skipped or used as far as it goes and named
 * in one note of c->notes ("path:line ..."); -1 only when nothing in the file could be read.
 */
int	 os_counters_text(const char *data, size_t len, const char *path, struct os_counters *,
	    char **cause);
/*
 * The same for pasted Linux text (text_linux.c): /proc/stat, /proc/net/softnet_stat,
 * /proc/net/dev, procps top (with or without %CpuN lines), BusyBox top, mpstat -P ALL.
 */
int	 os_counters_text_linux(const char *data, size_t len, const char *path,
	    struct os_counters *, char **cause);
/* CPU cpu's tick counters in c (cpu.N.user ... cpu.N.steal, 0 for those c lacks); false without cpu.N.idle. */
bool	 os_counters_cpu(const struct os_counters *c, size_t cpu, struct os_cpu_times *t);
/* The reader for os ("linux" reads Linux text, any other name FreeBSD's). */
int	 os_counters_paste(const char *data, size_t len, const char *path, const char *os,
	    struct os_counters *, char **cause);

#endif
