/*
 * FreeBSD / OPNsense counters for `diagnose`, from the text of the commands a user
 * pastes (or the live freebsd backend runs): sysctl, vmstat -i, netstat -Q,
 * netstat -m, pfctl -si, pfctl -sm, in any order in one file. Formats, from the
 * programs that print them (FreeBSD 14):
 *   sysctl        "name: value"; kern.cp_times is 5 ticks a CPU (user nice sys intr idle,
 *                 sys/kern/kern_clock.c sysctl_kern_cp_times)
 *   vmstat -i     "interrupt total rate" header, "irqN: desc   total   rate" rows
 *                 (usr.bin/vmstat/vmstat.c dointr)
 *   netstat -Q    "Workstreams:" then WSID CPU Name Len WMark Disp'd HDisp'd QDrops Queued
 *                 Handled rows (usr.bin/netstat/netisr.c netisr_print_workstream)
 *   netstat -m    "a/b/c requests for mbufs denied (mbufs/clusters/mbuf+clusters)"
 *                 (usr.bin/netstat/mbuf.c mbpr)
 *   netstat -i    "Name Mtu Network Address Ipkts Ierrs Idrop [Ibytes] Opkts Oerrs [Obytes]
 *                 Coll [Drop]" (-b adds the bytes, -d the drops; usr.bin/netstat/if.c intpr);
 *                 the <Link#N> row of each interface carries its counters, a '*' after
 *                 the name says it is down; names may have dots (vlan0.10, igb0.100)
 *   top -P        "CPU N: a% user, b% nice, c% system, d% interrupt, e% idle" (usr.bin/top/machine.c);
 *                 already rates, over top's own interval: gauges, the last display wins
 *   top -HSP      the thread list under "PID USERNAME ... C TIME WCPU COMMAND": interrupt
 *                 threads of NIC queues "intr{irq264: ix0:rxq0}", netisr "intr{swi1: netisr 3}"
 *                 (sys/net/netisr.c), iflib's "kernel{if_io_tqg_3}" (sys/net/iflib.c); with -a
 *                 in brackets
 *   vmstat -i N   the first block since boot, each later block (after a "Total" row) the
 *                 interval's counts and their rate per second: irqrate.<nic>.<queue>, gauges
 *   netstat -w, systat -ifstat: rates already (fbsd_rates.c)
 *   pfctl -si     "Status: ..." then indented "name  value [rate]" rows; "current entries"
 *                 under State Table, "memory" under Counters (sbin/pfctl/pfctl_parser.c
 *                 print_status); pfctl -sm: "states        hard limit    N"
 *                 (sbin/pfctl/pfctl.c pfctl_show_limits)
 * Counter names: cpu.N.user|nice|system|interrupt|idle, irq.<nic>.<queue> (vmstat -i
 * "ix0:rxq0" gives irq.ix0.rxq0), netisr.<proto>.cpuN.qdrops|queued|handled,
 * netisr.<proto>.qlimit, ip.intr_queue_drops, mbuf.denied, mbuf.jumbo_denied,
 * kern.stathz (kern.clockrate's stathz, a gauge),
 * pf.states, pf.states_limit, pf.memory, nic.<drv><unit>.<rest of the dev.drv.unit sysctl>,
 * if.<name>.ipackets|ierrors|idrops|ibytes|opackets|oerrors|obytes|odrops (netstat -i),
 * top.cpu.N.user|nice|system|interrupt|idle (top -P, tenths of a percent), ithr.<nic>.<queue>,
 * kthr.netisr.N, kthr.if_io_tqg.N .pct10|.cpu (top -HS: tenths of a percent of one CPU, the CPU).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

enum cmode { C_NONE, C_SYSCTL, C_VMSTAT, C_NETISR, C_NETISR_WS, C_PF, C_MBUF, C_NETSTAT_I,
    C_TOP, C_NETSTAT_W, C_SYSTAT };

struct creader {
	struct os_counters *c;
	struct os_paste pa;	/* the file, its line number, what was used and skipped */
	enum cmode mode;
	char	 orig[80];	/* the line as read, for messages */
	bool	 block;		/* a sysctl whose value starts on the next line (vm.phys_segs) */
	const char *icols[12];	/* netstat -i: the counter names of the columns after Address */
	size_t	 nicols;
	struct os_top_cols tcols;	/* top -H: the columns of the thread list */
	struct os_netstat_w nsw;	/* netstat -w: the stream being read */
	char	 systat_if[OS_NAME_MAX];	/* systat -ifstat: the interface of an "out" line */
	int	 vmstat_blocks;	/* vmstat -i N: blocks ended by "Total" (later ones: per interval) */
	double	 agg[5];	/* top without -P: the display's aggregate "CPU:" line */
	bool	 has_agg;
};

/* A line that cannot be read is skipped and named in the file's note (1: dealt with). */
static int
bad(struct creader *r, const char *what, const char *line)
{
	(void)line;	/* the whole line is shown, not the word that failed */
	os_paste_skip(&r->pa, r->pa.last ? "last line cut short" : what, r->orig);
	return 1;
}

static void
cp_times(struct creader *r, const char *value)
{
	static const char *const f[] = { "user", "nice", "system", "interrupt", "idle" };
	char *copy = xstrdup(value), *w[5 * OS_MAXCPU];
	size_t n = os_words(copy, w, nitems(w)), i;
	uint64_t v;

	for (i = 0; i < n - n % 5; i++) {
		if (!os_number(w[i], &v)) {
			n = i - i % 5;	/* the CPUs before it */
			break;
		}
		os_counters_setf(r->c, v, false, "cpu.%zu.%s", i / 5, f[i % 5]);
	}
	if (n % 5 != 0 || i < n)
		os_paste_cut(&r->pa, "kern.cp_times cut short or with a non-number (the whole CPUs "
		    "before it used)", value);
	free(copy);
}

/* "dev.ix.0.mac_stats.rx_missed_packets" -> "nic.ix0.mac_stats.rx_missed_packets" */
static void
dev_sysctl(struct creader *r, const char *name, uint64_t v)
{
	char drv[OS_NAME_MAX], ifname[OS_NAME_MAX + 16];
	int unit, k = 0;

	if (sscanf(name, "dev.%63[a-z_]%*[.]%d.%n", drv, &unit, &k) < 2 || k == 0 ||
	    name[k] == '\0' || name[k] == '%')
		return;
	snprintf(ifname, sizeof ifname, "%s%d", drv, unit);
	if (!os_counters_want(r->c, ifname))
		return;
	os_counters_setf(r->c, v, false, "nic.%s%d.%s", drv, unit, name + k);
}

/*
 * kern.clockrate, "{ hz = 1000, tick = 1000, profhz = 8128, stathz = 127 }" (sbin/sysctl/
 * sysctl.c S_clockinfo): stathz, the rate of kern.cp_times' ticks, as the gauge kern.stathz.
 */
static void
clockrate(struct creader *r, const char *value)
{
	const char *p = strstr(value, "stathz = ");
	uint64_t v;
	char *end;

	if (p == NULL || !isdigit((unsigned char)p[9]))
		return;
	v = strtoull(p + 9, &end, 10);
	/* a clock rate, not an overflowed or absurd figure */
	if (v > 0 && v <= 1000000 && (*end == ' ' || *end == ',' || *end == '}' || *end == '\0'))
		os_counters_setf(r->c, v, true, "kern.stathz");
}

static void
sysctl_value(struct creader *r, const char *name, const char *value)
{
	uint64_t v;

	if (strcmp(name, "kern.cp_times") == 0) {
		cp_times(r, value);
		return;
	}
	if (strcmp(name, "kern.clockrate") == 0) {
		clockrate(r, value);
		return;
	}
	if (!os_number(value, &v))
		return;
	if (strcmp(name, "hw.ncpu") == 0)
		os_counters_set(r->c, "ncpu", v, true);
	else if (strcmp(name, "net.inet.ip.intr_queue_drops") == 0)
		os_counters_set(r->c, "ip.intr_queue_drops", v, false);
	else if (strcmp(name, "net.inet.ip.intr_queue_maxlen") == 0)
		os_counters_set(r->c, "ip.intr_queue_maxlen", v, true);
	else if (strcmp(name, "net.isr.numthreads") == 0)
		os_counters_set(r->c, "netisr.threads", v, true);
	else if (strncmp(name, "dev.", 4) == 0)
		dev_sysctl(r, name, v);
}

/* "name: value" with a lower-case dotted name; 1 if it is one. */
static int
sysctl_line(struct creader *r, char *line)
{
	char *colon = strstr(line, ": "), *p;

	if (!islower((unsigned char)line[0]) || (colon == NULL && (colon = strchr(line, ':')) == NULL))
		return 0;
	for (p = line; p < colon; p++)
		if (!isalnum((unsigned char)*p) && strchr("._%-", *p) == NULL)
			return 0;
	if (memchr(line, '.', (size_t)(colon - line)) == NULL)
		return 0;
	*colon = '\0';
	r->block = *util_trim(colon + 1) == '\0';
	sysctl_value(r, line, util_trim(colon + 1));
	return 1;
}

static void
append(char *dst, const char *src, size_t len)
{
	size_t l = strlen(dst);

	snprintf(dst + l, len - l, "%s", src);
}

static int
vmstat_row(struct creader *r, char *line)
{
	char *w[16], *desc, *colon, queue[OS_NAME_MAX];
	size_t n, i;
	uint64_t total, rate;

	if (strncmp(line, "Total ", 6) == 0) {
		r->vmstat_blocks++;
		return 0;
	}
	n = os_words(line, w, nitems(w));
	if (n < 3 || !os_number(w[n - 2], &total) || !os_number(w[n - 1], &rate))
		return bad(r, "vmstat -i row without its total and rate", w[0]);
	if (strncmp(w[0], "irq", 3) != 0 || n < 4)
		return 0;		/* cpuN:timer, swi..., stray: not a queue */
	desc = w[1];
	queue[0] = '\0';
	if ((colon = strchr(desc, ':')) != NULL) {
		*colon = '\0';
		/* "irq264: igb0:que 0": the queue's name is every word before the counts, joined */
		for (i = 1; i + 2 < n; i++)
			append(queue, i == 1 ? colon + 1 : w[i], sizeof queue);
	}
	if (!os_counters_want(r->c, desc))
		return 0;
	/*
	 * vmstat -i N: the first block counts since boot, each later one the interval's
	 * interrupts and their rate per second (usr.bin/vmstat/vmstat.c dointr, print_intrcnts)
	 */
	if (r->vmstat_blocks > 0)
		os_counters_setf(r->c, rate, true, "irqrate.%s.%s", desc, colon != NULL ? queue :
		    "irq");
	else if (colon == NULL)
		os_counters_setf(r->c, total, false, "irq.%s", desc);
	else
		os_counters_setf(r->c, total, false, "irq.%s.%s", desc, queue);
	return 0;
}

static int
netisr_line(struct creader *r, char *line)
{
	static const char *const ws_head = "WSID CPU";
	char *w[12];
	size_t n;
	uint64_t v[10];
	size_t i;

	if (strncmp(line, ws_head, strlen(ws_head)) == 0) {
		r->mode = C_NETISR_WS;
		return 0;
	}
	if (strcmp(line, "Workstreams:") == 0 || strcmp(line, "Protocols:") == 0)
		return 0;
	n = os_words(line, w, nitems(w));
	if (r->mode == C_NETISR_WS) {
		if (n != 10)
			return bad(r, "netstat -Q workstream row needs 10 columns", w[0]);
		for (i = 0; i < 10; i++)
			if (i != 2 && !os_number(w[i], &v[i]))
				return bad(r, "netstat -Q workstream row with a non-number", w[i]);
		os_counters_setf(r->c, v[7], false, "netisr.%s.cpu%" PRIu64 ".qdrops", w[2], v[1]);
		os_counters_setf(r->c, v[8], false, "netisr.%s.cpu%" PRIu64 ".queued", w[2], v[1]);
		os_counters_setf(r->c, v[9], false, "netisr.%s.cpu%" PRIu64 ".handled", w[2], v[1]);
		return 0;
	}
	/* Protocols rows: Name Proto QLimit Policy Dispatch Flags */
	if (n == 6 && os_number(w[1], &v[1]) && os_number(w[2], &v[2]))
		os_counters_setf(r->c, v[2], true, "netisr.%s.qlimit", w[0]);
	else if (n >= 3 && strcmp(w[0], "Thread") == 0 && os_number(w[2], &v[0]))
		os_counters_set(r->c, "netisr.threads", v[0], true);
	return 0;
}

static int
mbuf_line(struct creader *r, const char *line)
{
	uint64_t a = 0, b = 0, c = 0;

	if (strstr(line, "requests for mbufs denied") != NULL) {
		if (sscanf(line, "%" SCNu64 "/%" SCNu64 "/%" SCNu64, &a, &b, &c) != 3)
			return bad(r, "netstat -m line without its three counts", line);
		os_counters_set(r->c, "mbuf.denied", a + b + c, false);
	} else if (strstr(line, "requests for jumbo clusters denied") != NULL) {
		if (sscanf(line, "%" SCNu64 "/%" SCNu64 "/%" SCNu64, &a, &b, &c) != 3)
			return bad(r, "netstat -m line without its three counts", line);
		os_counters_set(r->c, "mbuf.jumbo_denied", a + b + c, false);
	}
	return 0;
}

static bool
mbuf_text(const char *line)
{
	/* usr.bin/netstat/mbuf.c mbpr: the mbuf lines, then (FreeBSD 11+) its sendfile statistics */
	static const char *const marks[] = { " in use (", " denied", " delayed", " allocated to network",
	    " by sendfile", " drain routines", " sfbufs ", " sendfile ", " bogus page", " read ahead " };
	size_t i;

	if (!isdigit((unsigned char)line[0]))
		return false;
	for (i = 0; i < nitems(marks); i++)
		if (strstr(line, marks[i]) != NULL)
			return true;
	return false;
}

static int
pf_line(struct creader *r, char *line)
{
	char *w[8];
	size_t n;
	uint64_t v;

	n = os_words(line, w, nitems(w));
	if (n >= 3 && strcmp(w[0], "current") == 0 && strcmp(w[1], "entries") == 0) {
		if (!os_number(w[2], &v))
			return bad(r, "pfctl -si 'current entries' without a number", w[2]);
		os_counters_set(r->c, "pf.states", v, true);
	} else if (n >= 2 && strcmp(w[0], "memory") == 0) {
		if (!os_number(w[1], &v))
			return bad(r, "pfctl -si 'memory' without a number", w[1]);
		os_counters_set(r->c, "pf.memory", v, false);
	} else if (n >= 2 && strcmp(w[0], "state-limit") == 0 && os_number(w[1], &v))
		os_counters_set(r->c, "pf.state_limit", v, false);
	return 0;
}

/* pfctl -sm: "states        hard limit    10000" */
static bool
pf_limit(struct creader *r, char *line)
{
	char name[32];
	unsigned long long v;
	int k = 0;

	if (sscanf(line, "%31s hard limit %llu%n", name, &v, &k) != 2 || line[k] != '\0')
		return false;
	if (strcmp(name, "states") == 0)
		os_counters_set(r->c, "pf.states_limit", v, true);
	return true;
}

/* "Name Mtu Network Address Ipkts ..." : the counter each later column holds. */
static int
netstat_i_head(struct creader *r, char *line)
{
	static const char *const map[][2] = { { "Ipkts", "ipackets" }, { "Ierrs", "ierrors" },
	    { "Idrop", "idrops" }, { "Ibytes", "ibytes" }, { "Opkts", "opackets" },
	    { "Oerrs", "oerrors" }, { "Obytes", "obytes" }, { "Coll", "" }, { "Time", "" },
	    { "Drop", "odrops" } };
	char copy[256], *w[16];
	size_t n, i, k;

	if (strncmp(line, "Name ", 5) != 0 || strstr(line, " Ipkts ") == NULL)
		return 0;
	os_strlcpy(copy, line, sizeof copy);
	n = os_words(copy, w, nitems(w));
	if (n < 8 || strcmp(w[1], "Mtu") != 0 || strcmp(w[3], "Address") != 0)
		return bad(r, "netstat -i header without Name Mtu Network Address", line);
	r->nicols = 0;
	for (i = 4; i < n && r->nicols < nitems(r->icols); i++) {
		for (k = 0; k < nitems(map) && strcmp(map[k][0], w[i]) != 0; k++)
			;
		if (k == nitems(map))
			return bad(r, "netstat -i header with an unknown column", w[i]);
		r->icols[r->nicols++] = map[k][1];
	}
	r->mode = C_NETSTAT_I;
	return 1;
}

/* One netstat -i row: the <Link#N> row of an interface has its counters; address rows do not. */
static int
netstat_i_row(struct creader *r, char *line)
{
	char *w[24], *name;
	size_t n, i, first;
	uint64_t v;

	n = os_words(line, w, nitems(w));
	if (n < 3 || strncmp(w[2], "<Link#", 6) != 0)
		return 0;
	/* the Address of a link row can be empty: the counters are the last columns */
	if (n < 3 + r->nicols)
		return bad(r, "netstat -i row with fewer columns than its header", w[0]);
	first = n - r->nicols;
	name = w[0];
	if (name[0] != '\0' && name[strlen(name) - 1] == '*')
		name[strlen(name) - 1] = '\0';
	for (i = 0; i < r->nicols; i++)
		if (!os_number(w[first + i], &v))
			return bad(r, "netstat -i row with a non-number (capture it without -h)",
			    w[first + i]);
	if (!os_counters_want(r->c, name))
		return 0;
	for (i = 0; i < r->nicols; i++)
		if (r->icols[i][0] != '\0' && os_number(w[first + i], &v))
			os_counters_setf(r->c, v, false, "if.%s.%s", name, r->icols[i]);
	return 0;
}

/* A new top display ("last pid:" line): what the previous one showed is replaced. */
static void
top_display(struct creader *r)
{
	size_t i, k = 0;

	for (i = 0; i < r->c->n; i++)
		if (strncmp(r->c->v[i].name, "top.", 4) != 0 && strncmp(r->c->v[i].name, "ithr.", 5) != 0 &&
		    strncmp(r->c->v[i].name, "kthr.", 5) != 0)
			r->c->v[k++] = r->c->v[i];
	r->c->n = k;
}

/*
 * A top CPU line cut short: with user, nice, system and interrupt read, idle is the rest
 * of 100% (used in part); with less, the line is skipped.
 */
static bool
cut_cpu(struct creader *r, const char *line, double v[5])
{
	if (v[3] < 0) {
		bad(r, "top CPU line cut short before its interrupt share", line);
		return false;
	}
	v[4] = 100 - v[0] - v[1] - v[2] - v[3];
	if (v[4] < 0)
		v[4] = 0;
	os_paste_cut(&r->pa, "top CPU line cut short, idle taken as the rest of 100%", line);
	return true;
}

/* top without -P: the aggregate line, kept until the display ends (display_end). */
static int
top_all(struct creader *r, const char *line)
{
	double v[5];
	int rc;

	if ((rc = os_top_cpu_all(line, v)) == 0)
		return 0;
	if (rc < 0 && !cut_cpu(r, line, v))
		return 1;
	memcpy(r->agg, v, sizeof v);
	r->has_agg = true;
	return 1;
}

/*
 * The end of the file: a display with the aggregate CPU line and no per-CPU lines (top
 * -aSH without -P) gives the box's CPU as one CPU, said in a note.
 */
static void
display_end(void *arg)
{
	struct creader *r = arg;
	static const char *const f[] = { "user", "nice", "system", "interrupt", "idle" };
	int i;

	if (!r->has_agg || os_counters_get(r->c, "top.cpu.0.idle") != NULL)
		return;
	for (i = 0; i < 5; i++)
		os_counters_setf(r->c, (uint64_t)(r->agg[i] * 10 + 0.5), true, "top.cpu.0.%s", f[i]);
	os_paste_note(r->c, "%s: top without -P: its CPU: line (%.1f%% idle, the average of all "
	    "CPUs) read as the box's one CPU; top -P shows each CPU", r->pa.path, r->agg[4]);
}

/* top -P: each CPU's states in tenths of a percent (gauges: top shows rates already). */
static int
top_cpu(struct creader *r, const char *line)
{
	static const char *const f[] = { "user", "nice", "system", "interrupt", "idle" };
	double v[5];
	int cpu, rc, i;

	if ((rc = os_top_cpu_line(line, &cpu, v)) == 0)
		return 0;
	if (rc < 0 && !cut_cpu(r, line, v))
		return 1;
	for (i = 0; i < 5; i++)
		os_counters_setf(r->c, (uint64_t)(v[i] * 10 + 0.5), true, "top.cpu.%d.%s", cpu, f[i]);
	return 1;
}

/*
 * top -HS: the kernel threads that carry the receive path, their share of a CPU in
 * tenths of a percent and the CPU they last ran on: ithr.NIC.QUEUE.pct10 (a queue's
 * interrupt thread), kthr.netisr.N.pct10, kthr.if_io_tqg.N.pct10 (with .cpu each).
 */
static int
top_thread(struct creader *r, const char *line)
{
	struct os_top_thread th;
	char a[OS_NAME_MAX], b[OS_NAME_MAX], name[2 * OS_NAME_MAX + 16];
	char key[2 * OS_NAME_MAX + 24];
	const struct os_counter *old;
	uint64_t pct;
	size_t base;
	int n;

	if (os_top_thread_row(line, &r->tcols, &th) != 1)
		return -1;	/* not a row: maybe the next output (one_line goes on) */
	pct = (uint64_t)(th.pct * 10 + 0.5);
	switch (os_top_thread_kind(th.command, a, sizeof a, b, sizeof b)) {
	case OS_TOP_QUEUE:
		if (!os_counters_want(r->c, a))
			return 0;
		snprintf(name, sizeof name, "ithr.%s.%s", a, b);
		break;
	case OS_TOP_NETISR:
		snprintf(name, sizeof name, "kthr.netisr.%s", a);
		break;
	case OS_TOP_IFLIB:
		snprintf(name, sizeof name, "kthr.if_io_tqg.%s", a);
		break;
	default:
		return 0;
	}
	/*
	 * Several threads of one name in one display ("kernel{ix0 que}": a driver's task per
	 * queue, top does not number them) are as many threads: que, que_b, que_c... (letters:
	 * the queue number stays unknown). Past 26, the busiest one stands for the rest.
	 */
	base = strlen(name);
	for (n = 0; n < 26; n++) {
		if (n > 0)
			snprintf(name + base, sizeof name - base, "_%c", 'a' + n);
		snprintf(key, sizeof key, "%s.pct10", name);
		if (os_counters_get(r->c, key) == NULL)
			break;
	}
	if ((old = os_counters_get(r->c, key)) != NULL && old->value >= pct)
		return 0;
	os_counters_set(r->c, key, pct, true);
	/* top's display without a C column: one active CPU (usr.bin/top/machine.c up_header) */
	if (th.cpu >= 0 || r->tcols.c < 0)
		os_counters_setf(r->c, (uint64_t)(th.cpu >= 0 ? th.cpu : 0), true, "%s.cpu", name);
	return 0;
}

static int
top_line(struct creader *r, const char *line)
{
	int rc;

	if (top_all(r, line))
		return 1;
	if (os_top_header_line(line)) {
		if (strncmp(line, "last pid:", 9) == 0) {
			top_display(r);
			r->has_agg = false;
		}
		r->mode = C_NONE;
		return 1;
	}
	if ((rc = top_cpu(r, line)) != 0)
		return rc;
	if (os_top_thread_head(line, &r->tcols)) {
		r->mode = C_TOP;
		/*
		 * No C column: top shows it only while kern.smp.active is set
		 * (usr.bin/top/machine.c, format_header: up_header vs smp_header), so one CPU runs.
		 */
		if (r->tcols.c < 0 && os_counters_get(r->c, "ncpu") == NULL) {
			os_counters_set(r->c, "ncpu", 1, true);
			os_paste_note(r->c, "%s: top's thread list has no C column: one active CPU (top "
			    "shows C only on SMP)", r->pa.path);
		}
		return 1;
	}
	return 0;
}

/* netstat -w: the banner's header, then rows; systat -ifstat rows. */
static int
rate_line(struct creader *r, const char *line)
{
	int rc;

	if (r->mode == C_NETSTAT_W && r->nsw.ncols == 0) {
		if ((rc = os_netstat_w_header(line, &r->nsw)) == 0)
			return bad(r, "netstat -w banner without its header", line);
		return rc < 0 ? bad(r, "netstat -w header with an unknown column", line) : 1;
	}
	if (r->mode == C_NETSTAT_W) {
		if (os_netstat_w_row(line, &r->nsw, r->c) < 0)
			return bad(r, "netstat -w row that does not match its header", line);
		return 1;
	}
	if ((rc = os_systat_ifstat_line(line, r->systat_if, sizeof r->systat_if, r->c)) != 0) {
		r->mode = C_SYSTAT;
		return rc < 0 ? bad(r, "systat -ifstat line with a bad rate", line) : 1;
	}
	return 0;
}

static int
head_line(struct creader *r, char *line)
{
	struct os_netstat_w w;

	if (strncmp(line, "interrupt ", 10) == 0 && strstr(line, "total") != NULL) {
		r->mode = C_VMSTAT;
		r->vmstat_blocks = 0;
		return 1;
	}
	if (os_netstat_w_banner(line, &w)) {
		/* the banner comes again every 21 rows: the same stream goes on */
		if (strcmp(w.name, r->nsw.name) != 0)
			r->nsw = w;
		r->nsw.ncols = 0;
		r->mode = C_NETSTAT_W;
		return 1;
	}
	if (os_systat_ifstat_head(line)) {
		r->mode = C_SYSTAT;
		return 1;
	}
	if (strcmp(line, "Configuration:") == 0) {
		r->mode = C_NETISR;
		return 1;
	}
	if (strncmp(line, "Status: ", 8) == 0) {
		r->mode = C_PF;
		return 1;
	}
	return netstat_i_head(r, line);
}

/* A prompt or command line: skipped; `vmstat -i | grep igb` says headerless vmstat rows follow. */
static bool
prompt_line(struct creader *r, const char *line)
{
	const char *cmd = os_paste_command(line);

	if (cmd == NULL)
		return false;
	r->mode = C_NONE;
	if (strncmp(cmd, "vmstat", 6) == 0 && strstr(cmd, "-i") != NULL) {
		r->mode = C_VMSTAT;
		r->vmstat_blocks = 0;
	}
	os_paste_skip(&r->pa, "a prompt or command line", line);
	return true;
}

/* "irq264: ix0:rxq0   123   4" without the header (vmstat -i | grep ix0) */
static bool
irq_row(const char *line)
{
	return strncmp(line, "irq", 3) == 0 && isdigit((unsigned char)line[3]) &&
	    line[3 + strspn(line + 3, "0123456789")] == ':';
}

static int
mode_line(struct creader *r, char *line)
{
	switch (r->mode) {
	case C_TOP:
		return top_thread(r, line);
	case C_VMSTAT:
		return vmstat_row(r, line);
	case C_NETSTAT_I:
		return netstat_i_row(r, line);
	case C_NETISR:
	case C_NETISR_WS:
		/* a sysctl line right after netstat -Q's tables is not one of their rows */
		if (islower((unsigned char)line[0]) && strchr(line, ':') != NULL)
			break;
		return netisr_line(r, line);
	case C_PF:
		if (line[0] == ' ' || isupper((unsigned char)line[0]))
			return pf_line(r, line);
		break;
	default:
		break;
	}
	return -1;
}

/* One line: 0 read (or known and not needed), 1 skipped or used in part (noted), 2 blank. */
static int
one_line(void *arg, char *line)
{
	struct creader *r = arg;
	size_t l;
	int rc;

	line = os_paste_unquote(line);
	l = strlen(line);
	if (l > 0 && line[l - 1] == '\r')
		line[--l] = '\0';
	if (l == 0 || strspn(line, " \t") == l) {
		if (r->mode != C_NETISR && r->mode != C_NETISR_WS && r->mode != C_PF)
			r->mode = C_NONE;
		return 2;
	}
	os_strlcpy(r->orig, line, sizeof r->orig);
	if (prompt_line(r, line))
		return 1;
	if ((rc = head_line(r, line)) != 0)
		return rc < 0 ? 1 : 0;
	if (mbuf_text(line)) {
		r->mode = C_MBUF;
		return mbuf_line(r, line);
	}
	if (pf_limit(r, line))
		return 0;
	if ((rc = top_line(r, line)) != 0 || (rc = rate_line(r, line)) != 0)
		return rc < 0 ? 1 : 0;
	if ((rc = mode_line(r, line)) >= 0)
		return rc;
	if (irq_row(line)) {
		r->mode = C_VMSTAT;
		return vmstat_row(r, line);
	}
	if (sysctl_line(r, line)) {
		r->mode = C_SYSCTL;
		return 0;
	}
	/* the rest of a multi-line sysctl value (topology_spec XML, kern.conftxt, vm.phys_segs) */
	if (r->mode == C_SYSCTL && !r->pa.last && (isspace((unsigned char)line[0]) ||
	    line[0] == '<' || strchr(line, '\t') != NULL || r->block))
		return 0;
	return bad(r, r->mode == C_TOP ? "top thread row without the columns of its header" :
	    "not a line of the outputs read", line);
}

static const struct os_paste_reader fbsd_reader = { one_line, display_end,
	"FreeBSD/OPNsense/pfSense output: sysctl, vmstat -i, netstat -Q, netstat -i[bdw], netstat "
	"-m, systat -ifstat, top -P, top -HSP/-aSH/-C, pfctl -si or pfctl -sm" };

int
os_counters_text(const char *data, size_t len, const char *path, struct os_counters *c,
    char **cause)
{
	struct creader r;

	memset(&r, 0, sizeof r);
	r.c = c;
	r.pa.path = path;
	return os_paste_text(&r.pa, data, len, &fbsd_reader, &r, c, cause);
}

/* The live freebsd backend: the same commands, read the same way. */
int
os_fbsd_counters(struct os_ctx *ctx, struct os_counters *c, char **cause)
{
	static const char cmd[] = "{ " OS_FBSD_SAMPLE("; ") "; } 2>/dev/null";
	struct strbuf sb;
	char buf[8192];
	size_t n;
	FILE *p;
	int rc;

	(void)ctx;
	if ((p = popen(cmd, "r")) == NULL) {
		util_cause(cause, "cannot run sysctl, vmstat, netstat and pfctl");
		return -1;
	}
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		strbuf_add(&sb, buf, n);
	pclose(p);
	rc = sb.len > 0 ? os_counters_text(sb.buf, sb.len, "(live)", c, cause) : 0;
	strbuf_free(&sb);
	return rc;
}
