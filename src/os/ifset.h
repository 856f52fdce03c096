/*
 * The if.<ifname>.<setting> vocabulary, as data: share/knobs/if.settings has one
 * line per setting saying what value it takes, how the Linux backend reads and
 * writes it (one of the methods below and its argument), whether FreeBSD has it
 * and what `ntune export --format sh` prints for it (doc/interfaces.md, "Adding
 * a NIC setting"). Besides the lines: rx-N.<attr> / tx-N.<attr> (one queue of a
 * queues: line) and offload.<ethtool -k feature name>. The methods stay C.
 */
#ifndef NTUNE_OS_IFSET_H
#define NTUNE_OS_IFSET_H

#include <stdbool.h>
#include <stddef.h>

enum os_ifset_value {
	OS_IFSET_COUNT,		/* a non-negative integer */
	OS_IFSET_ONOFF,		/* on/off (also 1/0, yes/no, true/false) */
	OS_IFSET_FLOW,		/* on, off, rx or tx */
	OS_IFSET_CPUMASK,	/* hex CPU mask, one or one per queue */
	OS_IFSET_CPULIST,	/* CPU list (0-3,8), one or one per queue interrupt */
	OS_IFSET_WORDS,		/* free words (a qdisc and its parameters) */
};

/* How the Linux backend reaches a setting; lx_arg says which field or file. */
enum os_ifset_linux {
	OS_IFSET_LX_IOCTL,	/* SIOC[GS]IFMTU / SIOC[GS]IFTXQLEN */
	OS_IFSET_LX_CHANNELS,	/* ETHTOOL_[GS]CHANNELS, field lx_arg (rx, tx, other, combined) */
	OS_IFSET_LX_RING,	/* ETHTOOL_[GS]RINGPARAM, field lx_arg (rx, tx, rx-mini, rx-jumbo) */
	OS_IFSET_LX_COALESCE,	/* ETHTOOL_[GS]COALESCE, field lx_arg (ethtool -C's name) */
	OS_IFSET_LX_PAUSE,	/* ETHTOOL_[GS]PAUSEPARAM */
	OS_IFSET_LX_OFFLOAD,	/* legacy offload flag or ethtool -k feature lx_arg */
	OS_IFSET_LX_QUEUES,	/* every /sys/class/net/IF/queues/<lx_arg>-N/<setting> */
	OS_IFSET_LX_IRQS,	/* /proc/irq/N/smp_affinity_list of the queue interrupts */
	OS_IFSET_LX_QDISC,	/* root qdisc: rtnetlink to read, tc(8) to write */
	OS_IFSET_LX_SYSFS,	/* the file /sys/class/net/IF/<lx_arg> */
	OS_IFSET_LX_NAPI_THREADS, /* CPU affinity of the device's NAPI kernel threads */
};

/* How the FreeBSD backend reaches it; bsd_arg names the capability. */
enum os_ifset_freebsd {
	OS_IFSET_BSD_NONE,	/* unsupported on FreeBSD (ifconfig or dev.* sysctls) */
	OS_IFSET_BSD_MTU,	/* SIOC[GS]IFMTU */
	OS_IFSET_BSD_CAP,	/* SIOC[GS]IFCAP bit(s) of capability bsd_arg (tso, lro...) */
};

struct os_ifset {
	char			*name;		/* "ring.rx" */
	enum os_ifset_value	 value;
	enum os_ifset_linux	 lx;
	char			*lx_arg;	/* NULL for methods without one */
	enum os_ifset_freebsd	 bsd;
	char			*bsd_arg;
	/*
	 * `export --format sh`: a command with %i (the interface), %v (the value)
	 * and %o (the value as on/off); NULL when there is none.
	 */
	char			*sh;
	int			 line;		/* in the file it came from */
};

struct os_ifsets {
	struct os_ifset	*v;
	size_t		 n;
};

/*
 * Parses the text of an if.settings file (file names it in errors); -1 with
 * "file:line: ..." in cause, nothing kept, when a line is wrong or none is there.
 */
int	 os_ifsets_parse(const char *file, const char *text, size_t len, struct os_ifsets *out,
	    char **cause);
void	 os_ifsets_free(struct os_ifsets *);
/* The default file: util_share_dir()/knobs/if.settings (caller frees). */
char	*os_ifsets_path(void);
/*
 * Makes the table of path (NULL: the default) the one every lookup below uses,
 * replacing any loaded before (its rows are freed). -1 + cause if it cannot be read
 * or parsed; the table in use is then unchanged.
 */
int	 os_ifsets_load(const char *path, char **cause);
/*
 * The table in use; the first call loads the default file. NULL + cause when it
 * cannot be loaded (then every lookup finds nothing). *missing (may be NULL) says
 * whether that is because the file does not exist.
 */
const struct os_ifsets *os_ifsets_table(bool *missing, char **cause);

/* The row of setting ("ring.rx"), or NULL (also for rx-N.* and offload.<feature>). */
const struct os_ifset *os_ifset_find(const char *setting);
/* Is setting a row, rx-N.<attr> / tx-N.<attr>, or offload.<feature>? */
int	 os_if_setting_valid(const char *setting);
/*
 * Splits "if.<ifname>.<setting>" into its interface and setting. exists(ifname)
 * (may be NULL) breaks ties for interface names that contain dots. Returns 0, or -1
 * when name is not an if.* name with a known setting.
 */
int	 os_if_split(const char *name, char *ifname, size_t len, const char **setting,
	    int (*exists)(const char *ifname));
/* "rx-3.rps_cpus": fills dir ("rx"), queue (3), attr ("rps_cpus"); -1 if not that shape. */
int	 os_ifset_queue(const char *setting, char dir[3], int *queue, const char **attr);
/* The row a per-queue or feature setting uses: rps_cpus for rx-3.rps_cpus... */
const struct os_ifset *os_ifset_lookup(const char *setting);

#endif
