/* Internals of the platform layer shared by its backends (not for use outside src/os/). */
#ifndef NTUNE_OS_IMPL_H
#define NTUNE_OS_IMPL_H

#include <sys/types.h>

#include <stdint.h>

#include "os/ifset.h"
#include "os/os.h"

#ifdef __linux__
extern const struct os_ops os_linux_ops;
int	 os_linux_init(struct os_ctx *, char **cause);
/* linux_napi.c: the PIDs of ifname's NAPI threads (none when not threaded), in this netns. */
int	 os_linux_napi_pids(const char *ifname, pid_t *pids, size_t max, size_t *n, char **cause);
int	 os_linux_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause);
/* linux_napi.c: counters of ifname's NAPI threads (napi.IF.ID.usecs, .cpu; if.IF.napi_threads). */
void	 os_linux_napi_counters(const char *ifname, struct os_counters *);
/* linux_napi.c: os_napi_threads and os_napi_thread_read on Linux. */
int	 os_linux_napi_threads(const char *ifname, struct os_napi_thread *, size_t max, size_t *n,
	    char **cause);
int	 os_linux_napi_thread_read(struct os_napi_thread *);
#endif
/* Declared everywhere: tests/shim compiles freebsd.c on Linux. */
extern const struct os_ops os_freebsd_ops;
int	 os_freebsd_init(struct os_ctx *, char **cause);
int	 os_freebsd_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause);
extern const struct os_ops os_snapshot_ops;

/* The live backend's own counters (os.c picks; linux_counters.c, fbsd_counters.c). */
int	 os_backend_counters(struct os_ctx *, struct os_counters *, char **cause);
#ifdef __linux__
int	 os_linux_counters(struct os_ctx *, struct os_counters *, char **cause);
#endif
int	 os_fbsd_counters(struct os_ctx *, struct os_counters *, char **cause);
/*
 * A /proc/PID/stat line (fs/proc/array.c do_task_stat: "(comm)" is field 2, utime and
 * stime fields 14 and 15 in clock ticks, processor field 39) of a napi/IF-ID kernel
 * thread: 1 with its CPU time and CPU; 0 when it is not one or the line is short or bad.
 */
int	 os_proc_stat_napi(const char *text, unsigned long long *ticks, int *cpu);
/* The same with the thread's start time (field 22, clock ticks after boot) instead of its CPU. */
int	 os_proc_stat_napi_start(const char *text, unsigned long long *ticks,
	    unsigned long long *start);
/* os_counters_set with a printf-made name (cut to the name's size). */
void	 os_counters_setf(struct os_counters *, uint64_t value, bool gauge, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* CPU lists ("0-3,8") and hex masks ("ff", "00000000,000000ff"), as sets of CPUs. */
#define OS_MAXCPU	1024
int	 os_cpulist_parse(const char *, unsigned char set[OS_MAXCPU], char **cause);
void	 os_cpulist_format(const unsigned char set[OS_MAXCPU], char *buf, size_t len);
int	 os_cpumask_parse(const char *, unsigned char set[OS_MAXCPU], char **cause);
void	 os_cpumask_format(const unsigned char set[OS_MAXCPU], int ncpu, char *buf, size_t len);
int	 os_cpulist_first(const char *);
#ifdef __linux__
/* linux_napi.c: a thread's CPU affinity as a set of CPUs. */
int	 os_linux_pid_cpus(pid_t, unsigned char set[OS_MAXCPU], char **cause);
int	 os_linux_pid_set_cpus(pid_t, const unsigned char set[OS_MAXCPU], char **cause);
#endif


/*
 * top(1) text (fbsd_top.c). A `top -P` CPU line: 1 with the CPU and its user, nice, system,
 * interrupt, idle percentages; 0 when it is not one; -1 when it is one cut short.
 */
int	 os_top_cpu_line(const char *line, int *cpu, double v[5]);
/*
 * The aggregate "CPU:  a% user, ..." line of top without -P: 1, 0 not one, -1 cut short.
 * Cut short (as os_top_cpu_line), v holds what was read and -1 for the rest.
 */
int	 os_top_cpu_all(const char *line, double v[5]);
/* A line of top's header ("last pid:", "158 threads:", "Mem:", "ARC:", "Swap:"...). */
int	 os_top_header_line(const char *line);
/* The columns of top's process/thread list, from its header ("PID USERNAME ... COMMAND"). */
struct os_top_cols {
	int	 c;		/* the CPU column "C", -1 when absent (no -P on a uniprocessor) */
	int	 wcpu;		/* "WCPU" */
	int	 command;	/* "COMMAND": the rest of the line */
};
int	 os_top_thread_head(const char *line, struct os_top_cols *);
struct os_top_thread {
	int	 cpu;		/* the C column, -1 unknown */
	double	 pct;		/* WCPU: % of one CPU */
	char	 command[OS_TEXT_MAX];
};
/* One row under that header: 1, or -1 when it does not have the columns. */
int	 os_top_thread_row(const char *line, const struct os_top_cols *, struct os_top_thread *);
/*
 * The kernel threads diagnose looks at, from a row's COMMAND: OS_TOP_QUEUE for a NIC
 * queue's interrupt thread ("intr{irq264: ix0:rxq0}": a "ix0", b "rxq0"; without a queue
 * "intr{irq28: virtio_pci1}": a "virtio_pci1", b "irq28"; a name top cut, "intr{irq262:
 * igb2:que}": b "irq262"; "igb0:que 0": b "que0"; a driver's queue task before iflib
 * "kernel{igb0 que}", "kernel{em1 taskq}": a "igb0", b "que"), OS_TOP_NETISR ("intr{swi1:
 * netisr 3}": a "3"), OS_TOP_IFLIB ("kernel{if_io_tqg_3}": a "3"); 0 for any other.
 */
enum { OS_TOP_QUEUE = 1, OS_TOP_NETISR, OS_TOP_IFLIB };
int	 os_top_thread_kind(const char *command, char *a, size_t alen, char *b, size_t blen);

/*
 * Outputs that are rates already (fbsd_rates.c). netstat -w: the banner "input (Total)
 * output" starts a stream (1), its header names the columns (1, -1 unknown), each row
 * updates the gauges ifw.NAME.COUNTER (1, -1 when it does not match the header).
 */
#define OS_NETSTAT_W_COLS	10
struct os_netstat_w {
	char	 name[OS_NAME_MAX];	/* the interface, "total" for (Total) */
	const char *cols[OS_NETSTAT_W_COLS];	/* counter of each column, "" to skip */
	int	 ncols, rows;
	double	 sum[OS_NETSTAT_W_COLS], first[OS_NETSTAT_W_COLS];
};
int	 os_netstat_w_banner(const char *line, struct os_netstat_w *);
int	 os_netstat_w_header(const char *line, struct os_netstat_w *);
int	 os_netstat_w_row(const char *line, struct os_netstat_w *, struct os_counters *);
/*
 * systat -ifstat: an "IF in RATE UNIT PEAK UNIT TOTAL UNIT" line (ifname set) or the "out"
 * line under it: 1 and the gauge ifs.IF.ibytes|obytes (bytes/s); 0 not one; -1 bad rate.
 */
int	 os_systat_ifstat_line(const char *line, char *ifname, size_t len, struct os_counters *);
/* systat -ifstat's own header lines (the load bar, "Interface Traffic Peak Total"). */
int	 os_systat_ifstat_head(const char *line);

/*
 * Tolerant reading of pasted text (paste.c): one account per file of what was used,
 * skipped (a line it cannot read) or used in part (a row cut short); os_paste_end adds
 * the file's one note to c, or fails naming the file and what was expected when
 * nothing was used.
 */
struct os_paste {
	const char *path;
	size_t	 lineno, used, skipped, cut;
	bool	 last;		/* the line being read is the last and has no newline */
	bool	 final;		/* the line being read is the file's last with text */
	char	*shown[4];	/* the first ones, "path:line why 'text'" */
	size_t	 nshown;
};
/* A shell prompt or command line ("[root@fw]~# top -P", "vmstat -i | grep igb"): the command, else NULL. */
const char *os_paste_command(const char *line);
/* The line without the "> " marks of a quoting mail or forum reply. */
char	*os_paste_unquote(char *line);
void	 os_paste_skip(struct os_paste *, const char *why, const char *line);
void	 os_paste_cut(struct os_paste *, const char *what, const char *line);
/*
 * A reader of pasted text: line(arg, line) gives 0 for a line read, else skipped (noted) or
 * blank; end(arg) runs after the last line when a line was read; expected says what a file of
 * that kind holds. os_paste_text reads data with it and adds the file's note to c; -1 (cause)
 * for binary data or when nothing could be read.
 */
struct os_paste_reader {
	int	(*line)(void *, char *);
	void	(*end)(void *);
	const char *expected;
};
int	 os_paste_text(struct os_paste *, const char *data, size_t len, const struct os_paste_reader *,
	    void *arg, struct os_counters *, char **cause);
void	 os_paste_note(struct os_counters *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Linux lines read alike live and pasted (text_linux.c). /proc/stat's "cpuN ..." (cpu -1 for
 * the "cpu" line of all): 1 with user nice system idle iowait irq softirq steal (0 where
 * absent), 0 not one, -1 cut before idle. A softnet_stat row: its hex words (>= 3), else 0.
 * A /proc/net/dev row "IF: 16 numbers": 1 (fifo drops counted in idrops), else 0.
 */
/*
 * Linux network outputs pasted (text_linux_net.c): ip -s link, ethtool -S, nstat, sar -n DEV and
 * EDEV. os_lnet_command learns from a command line ("ethtool -S eth0": the interface of the
 * block that follows); os_lnet_line reads a line: 0 read, 1 skipped (noted), -1 not one of them;
 * os_lnet_blank at a blank line; os_lnet_end sets sar's means and frees.
 */
enum os_lnet_mode { LN_NONE, LN_IPLINK, LN_ETHTOOL, LN_NSTAT, LN_SAR };
struct os_lnet_if;
struct os_lnet {
	enum os_lnet_mode mode;
	char	 ifname[OS_NAME_MAX];		/* ip -s link: the block's interface */
	char	 ethtool_if[OS_NAME_MAX];	/* the last "ethtool -S IF" command line's */
	int	 ip_next;			/* 1: a line of numbers under an ip -s link header */
	bool	 ip_rx;
	char	 ip_cols[8][12];
	size_t	 ip_ncols;
	uint64_t dropped, missed;		/* ip -s link: rx_dropped, rx_missed_errors */
	int	 sar_col[20];			/* sar: the value of each column after IFACE, -1 none */
	int	 sar_ncols;
	struct os_lnet_if *ifs;			/* sar: each interface's sums */
	size_t	 nifs;
};
void	 os_lnet_command(struct os_lnet *, const char *cmd);
int	 os_lnet_line(struct os_lnet *, struct os_paste *, struct os_counters *, const char *line);
void	 os_lnet_blank(struct os_lnet *);
void	 os_lnet_end(struct os_lnet *, struct os_counters *);
/* An ethtool -S counter diagnose keeps (its name says miss, drop, discard, fifo, no buffer). */
bool	 os_ethtool_stat_kept(const char *name);

int	 os_proc_stat_cpu(const char *line, int *cpu, unsigned long long f[8]);
int	 os_softnet_row(const char *line, unsigned long long f[16]);
int	 os_proc_net_dev_row(const char *line, struct os_if_counters *);

void	 os_strlcpy(char *dst, const char *src, size_t len);
/* The text readers' words: line split in place at blanks and tabs, at most max of them. */
size_t	 os_words(char *line, char **w, size_t max);
/* s is a whole decimal number, in *v. */
bool	 os_number(const char *s, uint64_t *v);
void	 os_nic_init(struct os_nic *);

#endif
