/*
 * Linux network outputs a router owner pastes, read for text_linux.c (builds on every system):
 *   ip -s [-s] link  iproute2 ip/ipaddress.c print_link_stats64: "N: IF[@PEER]: <FLAGS> ...",
 *                    then "RX: bytes packets errors dropped overrun mcast" (iproute2 before 5.x;
 *                    later "RX:  bytes packets errors dropped  missed   mcast"), "TX: bytes packets
 *                    errors dropped carrier collsns", with -s -s "RX errors: length crc frame fifo
 *                    missed" (later "... fifo overrun"), each header over a line of numbers
 *                    (struct rtnl_link_stats64, include/uapi/linux/if_link.h). if.IF.* as
 *                    /proc/net/dev's: idrops is rx_dropped + rx_missed_errors
 *                    (net/core/net-procfs.c dev_seq_printf_stats), missed also nic.IF.rx_missed_errors
 *   ethtool -S IF    "NIC statistics:" then "     name: value" (ethtool's dump_stats); the interface is
 *                    only on the command line, "ethtool -S IF", which the paste must hold; the drop
 *                    and miss counters are kept as nic.IF.name, as the live backend keeps them
 *   nstat            "#kernel" then "Name value rate" (iproute2 misc/nstat.c dump_kern_db): snmp.Name
 *   sar -n DEV|EDEV  sysstat: "TIME IFACE rxpck/s txpck/s rxkB/s txkB/s ..." (EDEV: "rxerr/s txerr/s
 *                    coll/s rxdrop/s txdrop/s ..."), a row per interface and interval, "Average:"
 *                    rows last; already rates, kept as netstat -w's are (fbsd_rates.c): gauges
 *                    ifw.IF.{ipackets,opackets,ibytes,obytes,ierrors,oerrors,idrops,odrops} per
 *                    second (kB of 1024 bytes, sysstat pr_stats.c print_net_dev_stats), the mean
 *                    of the Average rows, else of the rows, and ifw.IF.rows
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

#define SAR_VALS	8
static const char *const sar_names[SAR_VALS][2] = { { "rxpck/s", "ipackets" },
    { "txpck/s", "opackets" }, { "rxkB/s", "ibytes" }, { "txkB/s", "obytes" },
    { "rxerr/s", "ierrors" }, { "txerr/s", "oerrors" }, { "rxdrop/s", "idrops" },
    { "txdrop/s", "odrops" } };

struct os_lnet_if {
	char	 name[OS_NAME_MAX];
	double	 sum[SAR_VALS], avg[SAR_VALS];
	bool	 has[SAR_VALS];
	int	 rows, avg_rows;
};

bool
os_ethtool_stat_kept(const char *name)
{
	static const char *const marks[] = { "miss", "drop", "discard", "fifo", "no_buf", "nobuf",
	    "no_dma", "out_of_buffer" };
	size_t i;

	for (i = 0; i < nitems(marks); i++)
		if (strstr(name, marks[i]) != NULL)
			return true;
	return false;
}

void
os_lnet_command(struct os_lnet *n, const char *cmd)
{
	char copy[256], *words[8], **w = words;
	size_t k, nw;

	os_strlcpy(copy, cmd, sizeof copy);
	nw = os_words(copy, words, nitems(words));
	if (nw >= 2 && (strcmp(w[0], "sudo") == 0 || strcmp(w[0], "doas") == 0))
		w++, nw--;
	n->mode = nw >= 1 && strcmp(w[0], "nstat") == 0 ? LN_NSTAT : LN_NONE;
	/* "ethtool -S eth0", "ethtool -S eth0 | grep drop": the interface of the block that follows */
	for (k = 1; nw >= 1 && strcmp(w[0], "ethtool") == 0 && k + 1 < nw; k++)
		if ((strcmp(w[k], "-S") == 0 || strcmp(w[k], "--statistics") == 0) &&
		    strcmp(w[k + 1], "|") != 0 && strlen(w[k + 1]) < sizeof n->ethtool_if)
			os_strlcpy(n->ethtool_if, w[k + 1], sizeof n->ethtool_if);
}

/* "6: eth4: <BROADCAST,...> mtu 1500 ..." (a veth: "3: veth0@if2: <...>"): the block's interface. */
static bool
iplink_head(struct os_lnet *n, const char *line)
{
	char name[OS_NAME_MAX + 8];
	int k = 0;

	if (!isdigit((unsigned char)line[0]) || sscanf(line, "%*d: %71[^:@ ]%n", name, &k) != 1 ||
	    strncmp(line + k + strcspn(line + k, " "), " <", 2) != 0 || strlen(name) >= OS_NAME_MAX)
		return false;
	os_strlcpy(n->ifname, name, sizeof n->ifname);
	n->mode = LN_IPLINK;
	n->ip_next = 0;
	n->missed = n->dropped = 0;
	return true;
}

/* "RX: bytes packets ...": the counter of each column of the numbers line under it. */
static bool
iplink_header(struct os_lnet *n, const char *line)
{
	static const char *const kinds[] = { "RX errors:", "TX errors:", "RX:", "TX:" };
	char copy[160], *w[12];
	const char *p = line + strspn(line, " ");
	size_t k, nw, l;

	for (k = 0; k < nitems(kinds); k++)
		if (strncmp(p, kinds[k], strlen(kinds[k])) == 0)
			break;
	if (k == nitems(kinds))
		return false;
	l = strlen(kinds[k]);
	os_strlcpy(copy, p + l, sizeof copy);
	nw = os_words(copy, w, nitems(w));
	n->ip_ncols = 0;
	n->ip_rx = p[0] == 'R';
	for (k = 0; k < nw && k < nitems(n->ip_cols); k++)
		os_strlcpy(n->ip_cols[n->ip_ncols++], w[k], sizeof n->ip_cols[0]);
	n->ip_next = 1;
	return true;
}

static void
iplink_value(struct os_lnet *n, struct os_counters *c, const char *col, uint64_t v)
{
	static const char *const rx[][2] = { { "bytes", "ibytes" }, { "packets", "ipackets" },
	    { "errors", "ierrors" } };
	static const char *const tx[][2] = { { "bytes", "obytes" }, { "packets", "opackets" },
	    { "errors", "oerrors" }, { "dropped", "odrops" } };
	size_t i;

	if (n->ip_rx && strcmp(col, "dropped") == 0)
		n->dropped = v;
	else if (n->ip_rx && strcmp(col, "missed") == 0) {
		n->missed = v;
		os_counters_setf(c, v, false, "nic.%s.rx_missed_errors", n->ifname);
	}
	for (i = 0; n->ip_rx && i < nitems(rx); i++)
		if (strcmp(col, rx[i][0]) == 0)
			os_counters_setf(c, v, false, "if.%s.%s", n->ifname, rx[i][1]);
	for (i = 0; !n->ip_rx && i < nitems(tx); i++)
		if (strcmp(col, tx[i][0]) == 0)
			os_counters_setf(c, v, false, "if.%s.%s", n->ifname, tx[i][1]);
	if (n->ip_rx)
		os_counters_setf(c, n->dropped + n->missed, false, "if.%s.idrops", n->ifname);
}

/* The numbers under an ip -s link header, as far as they go. */
static int
iplink_numbers(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	char copy[256], *w[12];
	size_t nw, k;
	uint64_t v;

	os_strlcpy(copy, line, sizeof copy);
	nw = os_words(copy, w, nitems(w));
	n->ip_next = 0;
	if (n->ifname[0] == '\0') {
		os_paste_skip(pa, "ip -s link counters before the 'N: IF:' line naming their interface",
		    line);
		return 1;
	}
	for (k = 0; k < nw && k < n->ip_ncols; k++) {
		if (!os_number(w[k], &v))
			break;
		if (os_counters_want(c, n->ifname))
			iplink_value(n, c, n->ip_cols[k], v);
	}
	if (k < n->ip_ncols)
		os_paste_cut(pa, "ip -s link counters cut short (those before the cut used)", line);
	return 0;
}

static int
iplink_line(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	const char *p = line + strspn(line, " ");

	if (iplink_head(n, line))
		return 0;
	if (iplink_header(n, line)) {
		if (n->ifname[0] != '\0')
			return 0;
		os_paste_skip(pa, "ip -s link counters before the 'N: IF:' line naming their interface",
		    line);
		return 1;
	}
	if (n->mode != LN_IPLINK && n->ip_next == 0)
		return -1;
	if (n->ip_next == 1 && isdigit((unsigned char)*p))
		return iplink_numbers(n, pa, c, p);
	/* the lines of a block that carry no counter */
	if (n->mode == LN_IPLINK && (strncmp(p, "link/", 5) == 0 || strncmp(p, "altname ", 8) == 0 ||
	    strncmp(p, "alias ", 6) == 0 || strncmp(p, "prop ", 5) == 0))
		return 0;
	return -1;
}

/* "     rx_missed_errors: 4954" under "NIC statistics:". */
static int
ethtool_line(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	const char *colon = strrchr(line, ':'), *name = line + strspn(line, " \t");
	char stat[64];
	uint64_t v;
	size_t l;

	if (strncmp(name, "NIC statistics:", 15) == 0 && name[15 + strspn(name + 15, " \t")] == '\0') {
		n->mode = LN_ETHTOOL;
		if (n->ethtool_if[0] == '\0')
			os_paste_skip(pa, "ethtool -S without its 'ethtool -S IF' line (the interface "
			    "unknown: its counters skipped)", line);
		return n->ethtool_if[0] == '\0';
	}
	if (n->mode != LN_ETHTOOL || line[0] != ' ')
		return -1;
	if (n->ethtool_if[0] == '\0') {
		os_paste_skip(pa, "ethtool -S counter of an unknown interface", line);
		return 1;
	}
	if (colon == NULL) {
		if (!pa->final && !pa->last)
			return -1;
		os_paste_cut(pa, "ethtool -S row cut short", line);
		return 0;
	}
	l = (size_t)(colon - name);
	if (!os_number(colon + 1 + strspn(colon + 1, " "), &v)) {
		if (pa->final || pa->last) {
			os_paste_cut(pa, "ethtool -S row cut short", line);
			return 0;
		}
		return -1;
	}
	if (l > 0 && l < sizeof stat) {
		memcpy(stat, name, l);
		stat[l] = '\0';
		if (strpbrk(stat, " :") == NULL && os_ethtool_stat_kept(stat) &&
		    os_counters_want(c, n->ethtool_if))
			os_counters_setf(c, v, false, "nic.%s.%s", n->ethtool_if, stat);
	}
	return 0;
}

/* "IpInReceives   510275104   0.0" under "#kernel". */
static int
nstat_line(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	char copy[160], *w[4];
	size_t nw, i;
	uint64_t v;

	if (strncmp(line, "#kernel", 7) == 0 && line[7 + strspn(line + 7, " ")] == '\0') {
		n->mode = LN_NSTAT;
		return 0;
	}
	if (n->mode != LN_NSTAT || !isalpha((unsigned char)line[0]))
		return -1;
	os_strlcpy(copy, line, sizeof copy);
	nw = os_words(copy, w, nitems(w));
	for (i = 0; w[0][i] != '\0' && isalnum((unsigned char)w[0][i]); i++)
		;
	if (w[0][i] != '\0' || strlen(w[0]) > 60)
		return -1;
	if (nw < 2 || !os_number(w[1], &v)) {
		if (!pa->final && !pa->last)
			return -1;
		os_paste_cut(pa, "nstat row cut short", line);
		return 0;
	}
	os_counters_setf(c, v, false, "snmp.%s", w[0]);
	return 0;
}

/* sar's header: "01:15:25 PM     IFACE   rxpck/s   txpck/s ..." */
static bool
sar_header(struct os_lnet *n, const char *line)
{
	char copy[256], *w[24];
	size_t nw, k, j, i;

	if (strstr(line, " IFACE ") == NULL || (strstr(line, "rxpck/s") == NULL &&
	    strstr(line, "rxerr/s") == NULL))
		return false;
	os_strlcpy(copy, line, sizeof copy);
	nw = os_words(copy, w, nitems(w));
	for (k = 0; k < nw && strcmp(w[k], "IFACE") != 0; k++)
		;
	if (k == nw)
		return false;
	n->sar_ncols = 0;
	for (j = k + 1; j < nw && n->sar_ncols < (int)nitems(n->sar_col); j++) {
		for (i = 0; i < SAR_VALS && strcmp(sar_names[i][0], w[j]) != 0; i++)
			;
		n->sar_col[n->sar_ncols++] = i < SAR_VALS ? (int)i : -1;
	}
	n->mode = LN_SAR;
	return true;
}

static struct os_lnet_if *
sar_if(struct os_lnet *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nifs; i++)
		if (strcmp(n->ifs[i].name, name) == 0)
			return &n->ifs[i];
	n->ifs = xreallocarray(n->ifs, n->nifs + 1, sizeof *n->ifs);
	memset(&n->ifs[n->nifs], 0, sizeof *n->ifs);
	os_strlcpy(n->ifs[n->nifs].name, name, sizeof n->ifs[0].name);
	return &n->ifs[n->nifs++];
}

/* "01:15:27 PM  em1  14211.86 ..." or "Average:  em1  ..." : the interface the column before the values. */
static int
sar_row(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	char copy[256], *w[24], *end;
	double v[24];
	size_t nw, first, k;
	struct os_lnet_if *f;
	bool avg;

	os_strlcpy(copy, line, sizeof copy);
	nw = os_words(copy, w, nitems(w));
	avg = nw >= 1 && strcmp(w[0], "Average:") == 0;
	if (n->mode == LN_SAR && avg && nw < (size_t)n->sar_ncols + 2 && (pa->final || pa->last)) {
		os_paste_cut(pa, "sar row cut short", line);
		return 0;
	}
	if (n->mode != LN_SAR || nw < (size_t)n->sar_ncols + 2)
		return -1;
	if (!avg && (!isdigit((unsigned char)w[0][0]) || strchr(w[0], ':') == NULL))
		return -1;
	first = nw - (size_t)n->sar_ncols;
	for (k = first; k < nw; k++) {
		v[k - first] = strtod(w[k], &end);
		if (*end != '\0' || !isfinite(v[k - first]) || v[k - first] < 0)
			return -1;
	}
	if (strlen(w[first - 1]) >= OS_NAME_MAX || !os_counters_want(c, w[first - 1]))
		return 0;
	f = sar_if(n, w[first - 1]);
	for (k = 0; k < (size_t)n->sar_ncols; k++) {
		if (n->sar_col[k] < 0)
			continue;
		f->has[n->sar_col[k]] = true;
		if (avg)
			f->avg[n->sar_col[k]] += v[k];
		else
			f->sum[n->sar_col[k]] += v[k];
	}
	if (avg)
		f->avg_rows++;
	else
		f->rows++;
	return 0;
}

int
os_lnet_line(struct os_lnet *n, struct os_paste *pa, struct os_counters *c, const char *line)
{
	int rc;

	if ((rc = iplink_line(n, pa, c, line)) >= 0 || (rc = ethtool_line(n, pa, c, line)) >= 0 ||
	    (rc = nstat_line(n, pa, c, line)) >= 0)
		return rc;
	if (sar_header(n, line))
		return 0;
	return sar_row(n, pa, c, line);
}

void
os_lnet_blank(struct os_lnet *n)
{
	/* sar's blocks are apart by blanks, its header stays; the other outputs end there */
	if (n->mode != LN_SAR)
		n->mode = LN_NONE;
	n->ip_next = 0;
	n->ifname[0] = '\0';
}

void
os_lnet_end(struct os_lnet *n, struct os_counters *c)
{
	struct os_lnet_if *f;
	double v;
	size_t i;
	int k, rows;

	for (i = 0; i < n->nifs; i++) {
		f = &n->ifs[i];
		rows = f->avg_rows > 0 ? f->avg_rows : f->rows;
		for (k = 0; k < SAR_VALS && rows > 0; k++) {
			if (!f->has[k])
				continue;
			v = (f->avg_rows > 0 ? f->avg[k] : f->sum[k]) / rows;
			if (k == 2 || k == 3)
				v *= 1024;	/* rxkB/s, txkB/s */
			if (!(v >= 0 && v < 0x1p64))
				continue;	/* a figure no counter holds (a damaged row) */
			os_counters_setf(c, (uint64_t)(v + 0.5), true, "ifw.%s.%s", f->name,
			    sar_names[k][1]);
		}
		if (rows > 0)
			os_counters_setf(c, (uint64_t)rows, true, "ifw.%s.rows", f->name);
	}
	free(n->ifs);
	n->ifs = NULL;
	n->nifs = 0;
}
