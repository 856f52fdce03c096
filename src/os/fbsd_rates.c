/*
 * FreeBSD outputs that are already rates, for diagnose (fbsd_counters.c calls these):
 *   netstat -w N [-I IF] [-h] [-d]  usr.bin/netstat/if.c sidewaysintpr: a banner
 *       "input (Total) output" (or the interface), a header "packets errs idrops bytes
 *       packets errs bytes colls [drops]" (older releases: no idrops), then one row per
 *       interval with the counts of that interval; -h prints them with humanize_number
 *       (show_stat: "370k", "38M"; packets with HN_DIVISOR_1000, bytes with 1024)
 *   systat -ifstat   usr.bin/systat/ifstat.c: "IF  in  12.345 KB/s  13.000 KB/s  1.039 GB"
 *       and an "out" line under it (current rate, peak, total)
 * The rates are kept as gauges per second: ifw.NAME.{ipackets,ierrors,idrops,ibytes,
 * opackets,oerrors,obytes,odrops} (NAME the interface, or "total"; the mean of the rows
 * after the first, which older releases print cumulative; the interval taken as 1 s, as in
 * `netstat -ihw 1`), ifw.NAME.rows, and ifs.IF.{ibytes,obytes} (systat, bytes/s).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

int
os_netstat_w_banner(const char *line, struct os_netstat_w *w)
{
	char name[OS_NAME_MAX];
	int k = 0;

	if (sscanf(line, " input (%63[^)]) output%n", name, &k) != 1 || k == 0 ||
	    line[k + strspn(line + k, " \t")] != '\0')
		return 0;
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "%s", strcmp(name, "Total") == 0 ? "total" : name);
	return 1;
}

int
os_netstat_w_header(const char *line, struct os_netstat_w *w)
{
	static const char *const in[][2] = { { "packets", "ipackets" }, { "errs", "ierrors" },
	    { "idrops", "idrops" }, { "bytes", "ibytes" } };
	static const char *const out[][2] = { { "packets", "opackets" }, { "errs", "oerrors" },
	    { "bytes", "obytes" }, { "colls", "" }, { "drops", "odrops" } };
	char copy[256], *save, *t;
	bool output = false;
	size_t i;

	if (w->name[0] == '\0' || strncmp(line + strspn(line, " "), "packets", 7) != 0)
		return 0;
	os_strlcpy(copy, line, sizeof copy);
	w->ncols = 0;
	for (t = strtok_r(copy, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		if (w->ncols == OS_NETSTAT_W_COLS)
			return -1;
		if (w->ncols > 0 && strcmp(t, "packets") == 0)
			output = true;
		for (i = 0; !output && i < nitems(in) && strcmp(in[i][0], t) != 0; i++)
			;
		if (!output && i == nitems(in))
			return -1;
		if (!output) {
			w->cols[w->ncols++] = in[i][1];
			continue;
		}
		for (i = 0; i < nitems(out) && strcmp(out[i][0], t) != 0; i++)
			;
		if (i == nitems(out))
			return -1;
		w->cols[w->ncols++] = out[i][1];
	}
	w->rows = 0;
	memset(w->sum, 0, sizeof w->sum);
	return w->ncols >= 6 ? 1 : -1;
}

/* A count as netstat prints it: "12345", or with -h "370k", "1.2M", "38M" (bytes: K = 1024). */
static bool
count(const char *s, bool bytes, double *v)
{
	char *end;
	const char *units = "kKMGTPE", *u;
	double mul, base = bytes ? 1024 : 1000;

	/* A count of 2^64 or more is no counter's (and has no uint64_t to become). */
	*v = strtod(s, &end);
	if (end == s || !isdigit((unsigned char)*s) || *v < 0 || !(*v < 0x1p64))
		return false;
	if (*end == '\0')
		return true;
	if (end[1] != '\0' || (u = strchr(units, *end)) == NULL)
		return false;
	/* humanize_number: "k" with HN_DIVISOR_1000, "K" with 1024 */
	mul = *end == 'k' ? 1000 : *end == 'K' ? 1024 : base;
	for (; u > units + 1; u--)
		mul *= base;
	*v *= mul;
	return *v < 0x1p64;
}

int
os_netstat_w_row(const char *line, struct os_netstat_w *w, struct os_counters *c)
{
	char copy[256], *save, *t;
	double v[OS_NETSTAT_W_COLS];
	int n = 0, i;

	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		/* "" is a column read and dropped (colls): not "?bytes", and no byte past its end. */
		if (n == w->ncols || !count(t, w->cols[n][0] != '\0' &&
		    strcmp(w->cols[n] + 1, "bytes") == 0, &v[n]))
			return -1;
		n++;
	}
	if (n != w->ncols)
		return -1;
	/* the first row of a banner may be since boot (releases before sidewaysintpr's fix) */
	if (w->rows++ == 0)
		memcpy(w->first, v, sizeof v);
	else
		for (i = 0; i < n; i++)
			w->sum[i] += v[i];
	for (i = 0; i < n; i++)
		if (w->cols[i][0] != '\0')
			os_counters_setf(c, (uint64_t)((w->rows > 1 ? w->sum[i] / (w->rows - 1) :
			    w->first[i]) + 0.5), true, "ifw.%s.%s", w->name, w->cols[i]);
	os_counters_setf(c, (uint64_t)w->rows, true, "ifw.%s.rows", w->name);
	return 1;
}

/*
 * "12.345 KB/s" or "17.271 Mb/s": bytes per second. systat's byte units are powers of
 * 1024, its bit units (":scale mbit") powers of 1000 (usr.bin/systat/convtbl.c, FreeBSD 13).
 */
static bool
rate(const char *num, const char *unit, double *v)
{
	static const char *const bytes[] = { "B/s", "KB/s", "MB/s", "GB/s", "TB/s" };
	static const char *const bits[] = { "b/s", "Kb/s", "Mb/s", "Gb/s", "Tb/s" };
	double byte_mul = 1, bit_mul = 1.0 / 8;
	char *end;
	size_t i;

	*v = strtod(num, &end);
	if (end == num || *end != '\0' || !(*v >= 0))
		return false;
	for (i = 0; i < nitems(bytes); i++, byte_mul *= 1024, bit_mul *= 1000) {
		if (strcmp(bytes[i], unit) == 0) {
			*v *= byte_mul;
			return *v < 0x1p64;
		}
		if (strcmp(bits[i], unit) == 0) {
			*v *= bit_mul;
			return *v < 0x1p64;
		}
	}
	return false;
}

int
os_systat_ifstat_line(const char *line, char *ifname, size_t len, struct os_counters *c)
{
	char copy[256], *w[10], *save, *t;
	size_t n = 0, k;
	double v;

	if (strstr(line, "/s") == NULL)
		return 0;
	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL && n < nitems(w); t = strtok_r(NULL, " \t",
	    &save))
		w[n++] = t;
	/* "ix0 in 1.2 MB/s 1.4 MB/s 9.1 GB" or, under it, "out 1.2 MB/s 1.4 MB/s 9.1 GB" */
	if (n == 8 && (strcmp(w[1], "in") == 0 || strcmp(w[1], "out") == 0)) {
		snprintf(ifname, len, "%s", w[0]);
		k = 1;
	} else if (n == 7 && (strcmp(w[0], "in") == 0 || strcmp(w[0], "out") == 0) &&
	    ifname[0] != '\0')
		k = 0;
	else
		return 0;
	if (!rate(w[k + 1], w[k + 2], &v))
		return -1;
	if (os_counters_want(c, ifname))
		os_counters_setf(c, (uint64_t)(v + 0.5), true, "ifs.%s.%s", ifname,
		    strcmp(w[k], "out") == 0 ? "obytes" : "ibytes");
	return 1;
}

int
os_systat_ifstat_head(const char *line)
{
	const char *p = line + strspn(line, " \t");

	/* "Interface           Traffic               Peak                Total", the load bar */
	return (strncmp(p, "Interface", 9) == 0 && strstr(p, "Traffic") != NULL &&
	    strstr(p, "Peak") != NULL) || strncmp(p, "Load Average", 12) == 0 ||
	    strncmp(p, "/0 ", 3) == 0;
}
