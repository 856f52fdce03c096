/*
 * Fuzzes the line readers of top -P / top -HSP (fbsd_top.c) and of netstat -w / systat
 * -ifstat (fbsd_rates.c) directly, one input line after another, with the state they keep.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
one(const char *line, struct os_top_cols *cols, bool *have_cols, struct os_netstat_w *w,
    char *ifname, size_t iflen, struct os_counters *c)
{
	struct os_top_thread th;
	char a[64], b[64];
	double v[5];
	int cpu;

	(void)os_top_cpu_line(line, &cpu, v);
	(void)os_top_header_line(line);
	if (os_top_thread_head(line, cols))
		*have_cols = true;
	else if (*have_cols && os_top_thread_row(line, cols, &th) == 1)
		(void)os_top_thread_kind(th.command, a, sizeof a, b, sizeof b);
	(void)os_top_thread_kind(line, a, sizeof a, b, sizeof b);
	if (!os_netstat_w_banner(line, w) && os_netstat_w_header(line, w) == 0 && w->ncols > 0)
		(void)os_netstat_w_row(line, w, c);
	(void)os_systat_ifstat_head(line);
	(void)os_systat_ifstat_line(line, ifname, iflen, c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_top_cols cols;
	struct os_netstat_w w;
	char *text = xstrndup((const char *)data, len), *line, *next, ifname[64] = "";
	bool have_cols = false;

	memset(&w, 0, sizeof w);
	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		one(line, &cols, &have_cols, &w, ifname, sizeof ifname, &c);
	}
	os_counters_free(&c);
	free(text);
	return 0;
}
