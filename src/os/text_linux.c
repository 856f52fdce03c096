/*
 * Linux counters for `diagnose --os linux --from` and doctor, from pasted text (builds on
 * every system). Each block is known by its content; a file may hold several:
 *   /proc/stat          "cpuN user nice system idle iowait irq softirq steal ..." in USER_HZ
 *                       ticks (fs/proc/stat.c show_stat): cpu.N.*, as the live backend reads
 *   /proc/net/softnet_stat  hex rows, column 13 the CPU since 5.10 (net/core/net-procfs.c)
 *   /proc/net/dev       "IF: rx bytes packets errs drop fifo frame compressed multicast tx ..."
 *                       (net/core/net-procfs.c dev_seq_printf_stats): if.IF.*
 *   /proc/interrupts    "N: count per CPU ... chip IF-TxRx-Q" (fs/proc/interrupts.c,
 *                       kernel/irq/proc.c show_interrupts): irq.IF.KINDQ[.cpuN]
 *   procps top          "%Cpu(s):  1.0 us,  0.5 sy,  0.0 ni, 98.0 id,  0.0 wa,  0.0 hi,  0.5 si,
 *                       0.0 st" and with `1` "%Cpu0  : ..." (procps-ng src/top/top.c; procps 3.2:
 *                       "Cpu0  :  1.0%us, ..."), a rate already: top.cpu.N.* gauges
 *   BusyBox top         "CPU:   0% usr   0% sys   0% nic  99% idle   0% io   0% irq   0% sirq"
 *                       (procps/top.c display_cpus; "CPU0:" per CPU), a rate already
 *   mpstat -P ALL N     "TIME CPU %usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle"
 *                       then a row per CPU and "all" (sysstat mpstat.c); Average: rows last
 * A top or mpstat display without per-CPU lines gives its aggregate as the box's one CPU.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

enum lmode { L_NONE, L_PROCS, L_MPSTAT, L_NETDEV, L_INTR };

/* the top.cpu.N.NAME gauges, tenths of a percent (as fbsd_counters.c's top -P) */
static const char *const states[] = { "user", "nice", "system", "interrupt", "softirq", "idle",
    "iowait", "steal" };
#define NSTATES	8

struct lreader {
	struct os_counters *c;
	struct os_paste pa;
	enum lmode mode;
	int	 mp_cpu;		/* mpstat: the CPU column */
	int	 mp_col[24];		/* mpstat: the state of each column after it, -1 none */
	int	 mp_ncols;
	int	 softnet_row;
	int	 intr_ncpu;		/* /proc/interrupts: CPUs in its header */
	int	 proc_cpu, proc_cmd;	/* top's process list: the %CPU and COMMAND columns */
	double	 agg[NSTATES];		/* a display's aggregate line, percent */
	bool	 has_agg;
	unsigned long long agg_ticks[NSTATES];	/* /proc/stat's "cpu" line */
	bool	 has_agg_ticks;
	struct os_lnet net;		/* ip -s link, ethtool -S, nstat, sar (text_linux_net.c) */
};

static int
state_index(const char *name)
{
	static const char *const alias[][2] = { { "us", "user" }, { "usr", "user" },
	    { "%usr", "user" }, { "%user", "user" }, { "sy", "system" }, { "sys", "system" },
	    { "%sys", "system" }, { "%system", "system" }, { "ni", "nice" }, { "nic", "nice" },
	    { "%nice", "nice" }, { "id", "idle" }, { "idle", "idle" }, { "%idle", "idle" },
	    { "wa", "iowait" }, { "io", "iowait" }, { "%iowait", "iowait" }, { "hi", "interrupt" },
	    { "irq", "interrupt" }, { "%irq", "interrupt" }, { "si", "softirq" },
	    { "sirq", "softirq" }, { "%soft", "softirq" }, { "st", "steal" }, { "%steal", "steal" } };
	size_t i, k;

	for (i = 0; i < nitems(alias); i++)
		if (strcmp(alias[i][0], name) == 0)
			for (k = 0; k < NSTATES; k++)
				if (strcmp(states[k], alias[i][1]) == 0)
					return (int)k;
	return -1;
}

/* A new display (top's "top - " line, a new mpstat header): what the last one showed goes. */
static void
new_display(struct lreader *r)
{
	size_t i, k = 0;

	for (i = 0; i < r->c->n; i++)
		if (strncmp(r->c->v[i].name, "top.", 4) != 0)
			r->c->v[k++] = r->c->v[i];
	r->c->n = k;
	r->has_agg = false;
}

static void
set_cpu(struct lreader *r, int cpu, const double v[NSTATES])
{
	int k;

	if (cpu < 0) {
		memcpy(r->agg, v, sizeof r->agg);
		r->has_agg = true;
		return;
	}
	for (k = 0; k < NSTATES; k++)
		if (v[k] >= 0)
			os_counters_setf(r->c, (uint64_t)(v[k] * 10 + 0.5), true, "top.cpu.%d.%s",
			    cpu, states[k]);
}

/* "1.0 us,  0.5 sy" (procps), "1.0%us," (procps 3.2), "0% usr   0% sys" (BusyBox): how many read. */
static int
top_states(const char *p, double v[NSTATES])
{
	char key[16], *end;
	double x;
	size_t k;
	int n = 0, i;

	for (i = 0; i < NSTATES; i++)
		v[i] = -1;
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		x = strtod(p, &end);
		if (end == p || !(x >= 0 && x <= 100))
			return n;
		for (p = end; *p == '%' || *p == ' '; p++)
			;
		for (k = 0; isalpha((unsigned char)*p) && k + 1 < sizeof key; p++)
			key[k++] = *p;
		key[k] = '\0';
		if ((i = state_index(key)) < 0)
			return n;
		v[i] = x;
		n++;
	}
}

/* "%Cpu(s):", "%Cpu3  :", "Cpu(s):", "CPU:", "CPU3:": the CPU (-1 the aggregate), 1; else 0. */
static int
top_cpu(struct lreader *r, const char *line)
{
	const char *p = line;
	double v[NSTATES];
	int cpu = -1;

	if (*p == '%')
		p++;
	if (strncmp(p, "Cpu", 3) != 0 && strncmp(p, "CPU", 3) != 0)
		return 0;
	p += 3;
	if (strncmp(p, "(s)", 3) == 0)
		p += 3;
	else if (isdigit((unsigned char)*p))
		cpu = atoi(p);
	p += strspn(p, "0123456789 ");
	if (*p != ':' || cpu >= OS_MAXCPU)
		return 0;
	if (top_states(p + 1, v) < 4 || v[5] < 0) {
		os_paste_skip(&r->pa, "top CPU line without its idle share", line);
		return 1;
	}
	set_cpu(r, cpu, v);
	return 1;
}

static bool
starts(const char *line, const char *const *heads, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strncmp(line, heads[i], strlen(heads[i])) == 0)
			return true;
	return false;
}

/* The process list's header: which column is %CPU and which COMMAND (procps, BusyBox). */
static void
proc_head(struct lreader *r, const char *line)
{
	char copy[256], *save, *t;
	int n = 0;

	r->mode = L_PROCS;
	r->proc_cpu = r->proc_cmd = -1;
	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save), n++) {
		if (strcmp(t, "%CPU") == 0)
			r->proc_cpu = n;
		else if (strcmp(t, "COMMAND") == 0)
			r->proc_cmd = n;
	}
}

/*
 * A row of the process list: the softirq thread of CPU N, "ksoftirqd/N" ("[ksoftirqd/N]" in
 * BusyBox), runs the softirq work CPU N could not finish in the interrupt's tail
 * (kernel/softirq.c __do_softirq, wakeup_softirqd): near 100% it says CPU N is full of it,
 * which top's average line hides. kthr.ksoftirqd.N.pct10 and .cpu, as FreeBSD's threads.
 */
static void
proc_row(struct lreader *r, const char *line)
{
	char copy[512], *w[32], *save, *t, *end;
	double pct;
	int n = 0, cpu;

	if (r->proc_cpu < 0 || r->proc_cmd <= r->proc_cpu)
		return;
	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL && n < 32; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	if (n <= r->proc_cmd)
		return;
	t = w[r->proc_cmd] + (w[r->proc_cmd][0] == '[');
	if (strncmp(t, "ksoftirqd/", 10) != 0 || !isdigit((unsigned char)t[10]) ||
	    (cpu = atoi(t + 10)) >= OS_MAXCPU)
		return;
	pct = strtod(w[r->proc_cpu], &end);
	if (end == w[r->proc_cpu] || (*end != '\0' && *end != '%') || !(pct >= 0 && pct <= 100))
		return;
	os_counters_setf(r->c, (uint64_t)(pct * 10 + 0.5), true, "kthr.ksoftirqd.%d.pct10", cpu);
	os_counters_setf(r->c, (uint64_t)cpu, true, "kthr.ksoftirqd.%d.cpu", cpu);
}

/* top's other header lines and its process list (procps and BusyBox). */
static int
top_line(struct lreader *r, const char *line)
{
	static const char *const heads[] = { "Tasks:", "Threads:", "MiB Mem", "KiB Mem", "GiB Mem",
	    "MiB Swap", "KiB Swap", "GiB Swap", "Mem:", "Swap:", "Load average:" };
	const char *p = line + strspn(line, " ");

	if (strncmp(line, "top - ", 6) == 0) {
		new_display(r);
		r->mode = L_NONE;
		return 1;
	}
	if (starts(line, heads, nitems(heads)) || (line[0] == ' ' && strstr(line, " avail Mem") !=
	    NULL))
		return 1;
	if (strncmp(p, "PID ", 4) == 0 && strstr(line, "CPU") != NULL) {
		proc_head(r, line);
		return 1;
	}
	if (r->mode == L_PROCS && isdigit((unsigned char)*p)) {
		proc_row(r, line);
		return 1;
	}
	return top_cpu(r, line);
}

/* mpstat's header: "10:23:03 AM  CPU    %usr ... %idle". */
static int
mpstat_head(struct lreader *r, const char *line)
{
	char copy[512], *w[32], *save, *t;
	int n = 0, i;

	if (strstr(line, " CPU ") == NULL || strstr(line, "%idle") == NULL)
		return 0;
	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL && n < 32; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	for (i = 0; i < n && strcmp(w[i], "CPU") != 0; i++)
		;
	if (n - i - 1 > (int)nitems(r->mp_col) || n - i - 1 < 4)
		return 0;
	r->mp_cpu = i;
	r->mp_ncols = n - i - 1;
	for (i = 0; i < r->mp_ncols; i++)
		r->mp_col[i] = state_index(w[r->mp_cpu + 1 + i]);
	r->mode = L_MPSTAT;
	return 1;
}

static int
mpstat_row(struct lreader *r, const char *line)
{
	char copy[512], *w[40], *save, *t, *end;
	double v[NSTATES];
	int n = 0, i, cpu;

	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL && n < 40; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	if (n < r->mp_ncols + 1)
		return 0;
	t = w[n - r->mp_ncols - 1];
	if (strcmp(t, "all") == 0)
		cpu = -1;
	else if (isdigit((unsigned char)*t) && (cpu = atoi(t)) < OS_MAXCPU)
		;
	else
		return 0;
	for (i = 0; i < NSTATES; i++)
		v[i] = -1;
	for (i = 0; i < r->mp_ncols; i++) {
		t = w[n - r->mp_ncols + i];
		if (r->mp_col[i] < 0)
			continue;
		v[r->mp_col[i]] = strtod(t, &end);
		if (end == t || !(v[r->mp_col[i]] >= 0 && v[r->mp_col[i]] <= 100))
			return 0;
	}
	set_cpu(r, cpu, v);
	return 1;
}

/* /proc/stat: "cpu3 1 2 3 4 5 6 7 8 9 10"; the other keys of the file are known and not used. */
static int
proc_stat(struct lreader *r, const char *line)
{
	static const char *const keys[] = { "intr ", "ctxt ", "btime ", "processes ",
	    "procs_running ", "procs_blocked ", "softirq " };
	unsigned long long f[NSTATES];
	int cpu = -1, n;

	if (starts(line, keys, nitems(keys)))
		return 1;
	if ((n = os_proc_stat_cpu(line, &cpu, f)) == 0)
		return 0;
	if (n < 0) {
		os_paste_skip(&r->pa, "/proc/stat CPU line cut short", line);
		return 1;
	}
	if (cpu < 0) {
		memcpy(r->agg_ticks, f, sizeof f);
		r->has_agg_ticks = true;
		return 1;
	}
	os_counters_setf(r->c, f[0], false, "cpu.%d.user", cpu);
	os_counters_setf(r->c, f[1], false, "cpu.%d.nice", cpu);
	os_counters_setf(r->c, f[2], false, "cpu.%d.system", cpu);
	os_counters_setf(r->c, f[3], false, "cpu.%d.idle", cpu);
	os_counters_setf(r->c, f[4], false, "cpu.%d.iowait", cpu);
	os_counters_setf(r->c, f[5], false, "cpu.%d.interrupt", cpu);
	os_counters_setf(r->c, f[6], false, "cpu.%d.softirq", cpu);
	os_counters_setf(r->c, f[7], false, "cpu.%d.steal", cpu);
	return 1;
}

/* The last line of a paste cut inside a softnet_stat row: its whole words, said in the note. */
static int
cut_softnet(const char *line, unsigned long long f[16])
{
	char copy[256], *sp;

	os_strlcpy(copy, line, sizeof copy);
	if ((sp = strrchr(copy, ' ')) == NULL)
		return 0;
	*sp = '\0';
	return os_softnet_row(copy, f);
}

/* /proc/net/softnet_stat: a row of 8-digit hex words. */
static int
softnet(struct lreader *r, const char *line)
{
	unsigned long long f[16];
	int n;

	if ((n = os_softnet_row(line, f)) == 0) {
		/* the last line cut short: used as far as it goes */
		if (!r->pa.final || (n = cut_softnet(line, f)) < 3)
			return 0;
		os_paste_cut(&r->pa, "softnet_stat row cut short, its whole words used", line);
	}
	if (n >= 13)
		r->softnet_row = (int)f[12];
	os_counters_setf(r->c, f[0], false, "softnet.cpu%d.processed", r->softnet_row);
	os_counters_setf(r->c, f[1], false, "softnet.cpu%d.dropped", r->softnet_row);
	os_counters_setf(r->c, f[2], false, "softnet.cpu%d.squeezed", r->softnet_row);
	if (n >= 10)
		os_counters_setf(r->c, f[9], false, "softnet.cpu%d.received_rps", r->softnet_row);
	r->softnet_row++;
	return 1;
}

/* /proc/net/dev: its two header lines, then "  eth0: 16 numbers". */
static int
netdev(struct lreader *r, const char *line)
{
	struct os_if_counters ic;

	if (strncmp(line, "Inter-|", 7) == 0 || strncmp(line, " face |", 7) == 0) {
		r->mode = L_NETDEV;
		return 1;
	}
	if (os_proc_net_dev_row(line, &ic) != 1)
		return 0;
	if (!os_counters_want(r->c, ic.name))
		return 1;
	os_counters_setf(r->c, ic.ipackets, false, "if.%s.ipackets", ic.name);
	os_counters_setf(r->c, ic.ibytes, false, "if.%s.ibytes", ic.name);
	os_counters_setf(r->c, ic.ierrors, false, "if.%s.ierrors", ic.name);
	os_counters_setf(r->c, ic.idrops, false, "if.%s.idrops", ic.name);
	os_counters_setf(r->c, ic.opackets, false, "if.%s.opackets", ic.name);
	os_counters_setf(r->c, ic.obytes, false, "if.%s.obytes", ic.name);
	os_counters_setf(r->c, ic.oerrors, false, "if.%s.oerrors", ic.name);
	os_counters_setf(r->c, ic.odrops, false, "if.%s.odrops", ic.name);
	return 1;
}

/* /proc/interrupts: "CPU0 CPU1 ..." then "  45:  12  34  IR-PCI-MSI 1-edge  eth0-TxRx-0". */
static int
interrupts_row(struct lreader *r, char *line)
{
	char *w[OS_MAXCPU + 8], *save, *t, name[OS_NAME_MAX], qk[8];
	size_t n = 0, i;
	uint64_t sum = 0;
	int idx;

	if (strncmp(util_trim(line), "CPU0", 4) == 0) {
		for (t = line; (t = strstr(t, "CPU")) != NULL; t += 3)
			r->intr_ncpu++;
		r->mode = L_INTR;
		return 1;
	}
	for (t = strtok_r(line, " \t", &save); t != NULL && n < nitems(w); t = strtok_r(NULL, " \t",
	    &save))
		w[n++] = t;
	if (n < 3 || w[0][strlen(w[0]) - 1] != ':' || !isdigit((unsigned char)w[1][0]))
		return 0;
	/* rows without the header (grep eth0 /proc/interrupts): the counts before the chip's name */
	if (r->mode != L_INTR) {
		if (!isdigit((unsigned char)w[0][0]))
			return 0;
		for (r->intr_ncpu = 0; (size_t)r->intr_ncpu + 1 < n &&
		    strspn(w[1 + r->intr_ncpu], "0123456789") == strlen(w[1 + r->intr_ncpu]);)
			r->intr_ncpu++;
		r->mode = L_INTR;
		os_paste_note(r->c, "%s: /proc/interrupts rows without the CPU header: %d CPUs taken "
		    "from the first row", r->pa.path, r->intr_ncpu);
	}
	if (n < (size_t)r->intr_ncpu + 2 || !isdigit((unsigned char)w[0][0]))
		return 1;	/* NMI, LOC... and the rows of IRQs without a device name */
	if (fbsd_text_irq_ifname(w[n - 1], name, sizeof name, &idx, qk, sizeof qk) != 0 ||
	    !os_counters_want(r->c, name))
		return 1;
	for (i = 0; i < (size_t)r->intr_ncpu; i++) {
		sum += strtoull(w[1 + i], NULL, 10);
		os_counters_setf(r->c, strtoull(w[1 + i], NULL, 10), false, "irq.%s.%s%d.cpu%zu",
		    name, qk, idx, i);
	}
	os_counters_setf(r->c, sum, false, "irq.%s.%s%d", name, qk, idx);
	return 1;
}

/* A /proc/interrupts line has a column per CPU: longer than the other lines, read from a copy. */
static int
interrupts(struct lreader *r, const char *text)
{
	char *line = xstrdup(text);
	int rc = interrupts_row(r, line);

	free(line);
	return rc;
}

static int
banner(const char *line)
{
	/* mpstat's first line: "Linux 5.15.0-91-generic (host) 	01/02/24 	_x86_64_	(4 CPU)" */
	return strncmp(line, "Linux ", 6) == 0 && strstr(line, " CPU)") != NULL;
}

/* One line: 0 read, 1 skipped (noted), 2 blank. */
static int
one_line(void *arg, char *line)
{
	struct lreader *r = arg;
	const char *cmd;
	size_t l;
	int rc;

	line = os_paste_unquote(line);
	l = strlen(line);
	if (l > 0 && line[l - 1] == '\r')
		line[--l] = '\0';
	if (l == 0 || strspn(line, " \t") == l) {
		/* a blank in /proc/interrupts or under top's process header is pasted, not an end */
		if (r->mode != L_INTR && r->mode != L_PROCS)
			r->mode = L_NONE;
		os_lnet_blank(&r->net);
		return 2;
	}
	if ((cmd = os_paste_command(line)) != NULL) {
		r->mode = L_NONE;
		os_lnet_command(&r->net, cmd);
		os_paste_skip(&r->pa, "a prompt or command line", line);
		return 1;
	}
	if ((rc = os_lnet_line(&r->net, &r->pa, r->c, line)) >= 0)
		return rc;
	/* a line of another output ends sar's columns (an mpstat row may have as many) */
	if (r->net.mode == LN_SAR)
		r->net.mode = LN_NONE;
	if (banner(line) || proc_stat(r, line) || softnet(r, line) || netdev(r, line) ||
	    interrupts(r, line))
		return 0;
	if (mpstat_head(r, line) || (r->mode == L_MPSTAT && mpstat_row(r, line)))
		return 0;
	if (top_line(r, line))
		return 0;
	os_paste_skip(&r->pa, "not a line of the outputs read", line);
	return 1;
}

/* A display with only its aggregate line (top without `1`, /proc/stat's "cpu" line): one CPU. */
static void
aggregate(void *arg)
{
	struct lreader *r = arg;
	static const char *const f[] = { "user", "nice", "system", "idle", "iowait", "interrupt",
	    "softirq", "steal" };
	size_t k;

	if (r->has_agg && os_counters_get(r->c, "top.cpu.0.idle") == NULL) {
		set_cpu(r, 0, r->agg);
		os_paste_note(r->c, "%s: no per-CPU lines: the CPU line of all CPUs (%.1f%% idle) read "
		    "as the box's one CPU (top: press 1; mpstat -P ALL)", r->pa.path, r->agg[5]);
	}
	os_lnet_end(&r->net, r->c);
	if (r->has_agg_ticks && os_counters_get(r->c, "cpu.0.idle") == NULL) {
		for (k = 0; k < NSTATES; k++)
			os_counters_setf(r->c, r->agg_ticks[k], false, "cpu.0.%s", f[k]);
		os_paste_note(r->c, "%s: /proc/stat without cpuN lines: all CPUs read as one",
		    r->pa.path);
	}
}

static const struct os_paste_reader linux_reader = { one_line, aggregate,
	"Linux output: /proc/stat, /proc/net/softnet_stat, /proc/net/dev, /proc/interrupts, top "
	"(procps or BusyBox), mpstat -P ALL, ip -s link, ethtool -S IF, nstat or sar -n DEV" };

int
os_counters_text_linux(const char *data, size_t len, const char *path, struct os_counters *c,
    char **cause)
{
	struct lreader r;

	memset(&r, 0, sizeof r);
	r.c = c;
	r.pa.path = path;
	return os_paste_text(&r.pa, data, len, &linux_reader, &r, c, cause);
}

int
os_counters_paste(const char *data, size_t len, const char *path, const char *os,
    struct os_counters *c, char **cause)
{
	if (os != NULL && strcmp(os, "linux") == 0)
		return os_counters_text_linux(data, len, path, c, cause);
	return os_counters_text(data, len, path, c, cause);
}

/* The line readers the live Linux backend shares (linux.c, linux_counters.c). */

int
os_proc_stat_cpu(const char *line, int *cpu, unsigned long long f[8])
{
	const char *p;
	char *end;
	int n;

	if (strncmp(line, "cpu", 3) != 0 || (line[3] != ' ' && !isdigit((unsigned char)line[3])))
		return 0;
	*cpu = line[3] == ' ' ? -1 : atoi(line + 3);
	if (*cpu >= OS_MAXCPU)
		return 0;
	p = line + 3 + strspn(line + 3, "0123456789");
	memset(f, 0, 8 * sizeof *f);
	for (n = 0; n < 8; n++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		f[n] = strtoull(p, &end, 10);
		p = end;
	}
	if (n == 0 && *p != '\0')
		return 0;
	return n >= 4 ? 1 : -1;
}

int
os_softnet_row(const char *line, unsigned long long f[16])
{
	const char *p = line;
	char *end;
	int n = 0;

	while (n < 16) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if (strspn(p, "0123456789abcdefABCDEF") != 8 || (p[8] != ' ' && p[8] != '\0'))
			return 0;
		f[n++] = strtoull(p, &end, 16);
		p = end;
	}
	return n >= 3 && *p == '\0' ? n : 0;
}

int
os_proc_net_dev_row(const char *line, struct os_if_counters *ic)
{
	unsigned long long f[16];
	const char *colon = strchr(line, ':'), *p;
	char *end;
	size_t l;
	int i;

	if (colon == NULL || strchr(line, '|') != NULL)
		return 0;
	for (p = line; *p == ' '; p++)
		;
	l = (size_t)(colon - p);
	/* not a /proc/interrupts row ("  66:  0  0 ...": an IRQ number, not an interface) */
	if (l == 0 || l >= sizeof ic->name || memchr(p, ' ', l) != NULL || strspn(p, "0123456789") >= l)
		return 0;
	for (i = 0, p = colon + 1; i < 16; i++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		f[i] = strtoull(p, &end, 10);
		p = end;
	}
	memset(ic, 0, sizeof *ic);
	memcpy(ic->name, line + strspn(line, " "), l);
	ic->ibytes = f[0];
	ic->ipackets = f[1];
	ic->ierrors = f[2];
	ic->idrops = f[3] + f[4];
	ic->obytes = f[8];
	ic->opackets = f[9];
	ic->oerrors = f[10];
	ic->odrops = f[11];
	return 1;
}
