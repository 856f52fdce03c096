/*
 * FreeBSD top(1) text, one line at a time: the per-CPU states of `top -P` ("CPU 3:
 * 0.4% user, 0.0% nice, 70.2% system, 29.0% interrupt, 0.4% idle", usr.bin/top/machine.c
 * cpustatenames), the header lines around them, and the thread rows of `top -HSP`,
 * `top -SHPn`, `top -aSH` (PID USERNAME PRI NICE SIZE RES STATE C TIME WCPU COMMAND).
 * Shared by inspect (fbsd_text_scan.c) and diagnose (fbsd_counters.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

/* "a% user, b% nice, c% system, d% interrupt, e% idle" at p: how many of the five were read. */
static int
cpu_fields(const char *p, double v[5])
{
	static const char *const keys[] = { "user", "nice", "system", "interrupt", "idle" };
	char *end;
	int i;

	for (i = 0; i < 5; i++)
		v[i] = -1;
	for (i = 0; i < 5; i++) {
		while (*p == ' ' || *p == ',')
			p++;
		v[i] = strtod(p, &end);
		if (end == p || *end != '%' || !(v[i] >= 0 && v[i] <= 100)) {	/* not NaN either */
			v[i] = -1;
			return i;
		}
		for (p = end + 1; *p == ' '; p++)
			;
		if (strncmp(p, keys[i], strlen(keys[i])) != 0) {
			v[i] = -1;
			return i;
		}
		p += strlen(keys[i]);
	}
	return 5;
}

int
os_top_cpu_line(const char *line, int *cpu, double v[5])
{
	const char *p;

	if (strncmp(line, "CPU ", 4) != 0)
		return 0;
	for (p = line + 4; *p == ' '; p++)
		;
	if (!isdigit((unsigned char)*p))
		return 0;
	*cpu = atoi(p);
	if ((p = strchr(p, ':')) == NULL || *cpu < 0 || *cpu >= OS_MAXCPU)
		return 0;
	return cpu_fields(p + 1, v) == 5 ? 1 : -1;
}

int
os_top_cpu_all(const char *line, double v[5])
{
	/* "CPU states:" is the same line in top before FreeBSD 7 (usr.bin/top/display.c) */
	if (strncmp(line, "CPU states:", 11) == 0)
		return cpu_fields(line + 11, v) == 5 ? 1 : -1;
	if (strncmp(line, "CPU:", 4) != 0)
		return 0;
	return cpu_fields(line + 4, v) == 5 ? 1 : -1;
}

int
os_top_header_line(const char *line)
{
	static const char *const starts[] = { "last pid:", "CPU:", "Mem:", "ARC:", "Swap:",
	    "Displaying " };

	size_t i;

	for (i = 0; i < nitems(starts); i++)
		if (strncmp(line, starts[i], strlen(starts[i])) == 0)
			return 1;
	/* "158 threads:   7 running, ...", "120 processes: 3 running, ..." */
	if (isdigit((unsigned char)line[0]) && (strstr(line, " processes:") != NULL ||
	    strstr(line, " threads:") != NULL))
		return 1;
	/* the ARC line's continuation: "     2145M Compressed, 9339M Uncompressed, 4.35:1 Ratio" */
	return line[0] == ' ' && strstr(line, " Compressed, ") != NULL;
}

int
os_top_thread_head(const char *line, struct os_top_cols *cols)
{
	char copy[256], *save, *t;
	int n = 0;

	if (strstr(line, "PID ") == NULL || strstr(line, "COMMAND") == NULL)
		return 0;
	memset(cols, 0, sizeof *cols);
	cols->c = cols->wcpu = -1;
	os_strlcpy(copy, line, sizeof copy);
	for (t = strtok_r(copy, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save), n++) {
		if (strcmp(t, "C") == 0)
			cols->c = n;
		else if (strcmp(t, "WCPU") == 0 || (strcmp(t, "CPU") == 0 && cols->wcpu < 0))
			cols->wcpu = n;	/* top -C shows the raw CPU instead of the weighted one */
		else if (strcmp(t, "COMMAND") == 0)
			break;
	}
	if (t == NULL || cols->wcpu < 0)
		return 0;
	cols->command = n;
	return 1;
}

int
os_top_thread_row(const char *line, const struct os_top_cols *cols, struct os_top_thread *th)
{
	const char *p = line, *w;
	char *end;
	int n;

	memset(th, 0, sizeof *th);
	th->cpu = -1;
	for (n = 0; n < cols->command; n++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return -1;
		w = p;
		p += strcspn(p, " \t");
		if (n == 0 && !isdigit((unsigned char)*w))
			return -1;
		if (n == cols->c)
			th->cpu = isdigit((unsigned char)*w) ? atoi(w) : -1;
		if (n == cols->wcpu) {
			/* a process of many threads may pass 100%, never all the CPUs' (nor NaN) */
			th->pct = strtod(w, &end);
			if (end == w || *end != '%' || !(th->pct >= 0 && th->pct <= 100.0 * OS_MAXCPU))
				return -1;
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return -1;
	os_strlcpy(th->command, p, sizeof th->command);
	return 1;
}

/* "[intr{irq264: ix0:rxq0}]" (top -a) or "intr{irq264: ix0:rxq0}": the part in braces. */
static bool
braces(const char *cmd, const char *proc, char *in, size_t len)
{
	const char *open, *close;

	if (*cmd == '[')
		cmd++;
	if (strncmp(cmd, proc, strlen(proc)) != 0 || cmd[strlen(proc)] != '{')
		return false;
	open = cmd + strlen(proc) + 1;
	/* a name top cut before its brace is used as far as it goes */
	if ((close = strchr(open, '}')) == NULL)
		close = open + strlen(open);
	if ((size_t)(close - open) >= len)
		return false;
	memcpy(in, open, (size_t)(close - open));
	in[close - open] = '\0';
	return true;
}

/*
 * A queue's name as vmstat -i prints it, without blanks ("que 0" -> "que0", sys/dev/e1000/
 * if_igb.c before iflib: "%s:que %d"); top cuts long names ("igb2:que"): without a number
 * the queue is named by its interrupt ("irq262"), so one NIC's queues stay apart.
 */
static void
queue_name(const char *q, const char *irq, char *b, size_t blen)
{
	size_t k = 0;

	for (; *q != '\0' && k + 1 < blen; q++)
		if (*q != ' ')
			b[k++] = *q;
	b[k] = '\0';
	if (strpbrk(b, "0123456789") == NULL)
		snprintf(b, blen, "%s", irq);
}

int
os_top_thread_kind(const char *command, char *a, size_t alen, char *b, size_t blen)
{
	char in[OS_NAME_MAX * 2], *colon;

	if (braces(command, "intr", in, sizeof in)) {
		/* "irq264: ix0:rxq0" (a NIC queue's interrupt thread), "irq28: virtio_pci1" */
		if (strncmp(in, "irq", 3) == 0 && (colon = strchr(in, ':')) != NULL &&
		    colon[1] == ' ') {
			*colon = '\0';
			if ((colon = strchr(colon + 2, ':')) != NULL) {
				*colon = '\0';
				snprintf(a, alen, "%s", in + strlen(in) + 2);
				queue_name(colon + 1, in, b, blen);
			} else {
				snprintf(a, alen, "%s", in + strlen(in) + 2);
				snprintf(b, blen, "%s", in);
			}
			return a[0] != '\0' && strchr(a, ' ') == NULL && strchr(b, ' ') == NULL ?
			    OS_TOP_QUEUE : 0;
		}
		/* "swi1: netisr 3" (sys/net/netisr.c netisr_start_swi: "netisr %u") */
		if (strncmp(in, "swi", 3) == 0 && (colon = strstr(in, ": netisr ")) != NULL) {
			snprintf(a, alen, "%s", colon + 9);
			b[0] = '\0';
			return isdigit((unsigned char)a[0]) ? OS_TOP_NETISR : 0;
		}
		return 0;
	}
	if (!braces(command, "kernel", in, sizeof in))
		return 0;
	/* "kernel{if_io_tqg_3}" (sys/net/iflib.c: the receive and transmit tasks of iflib NICs) */
	if (strncmp(in, "if_io_tqg_", 10) == 0 && isdigit((unsigned char)in[10])) {
		snprintf(a, alen, "%s", in + 10);
		b[0] = '\0';
		return OS_TOP_IFLIB;
	}
	/*
	 * "kernel{igb0 que}", "kernel{em1 taskq}": a driver's own queue taskqueue before iflib
	 * ("%s que" and "%s taskq", sys/dev/e1000/if_igb.c and if_em.c of FreeBSD 10/11)
	 */
	if ((colon = strchr(in, ' ')) != NULL && colon > in && isdigit((unsigned char)colon[-1]) &&
	    (strcmp(colon, " que") == 0 || strcmp(colon, " taskq") == 0)) {
		*colon = '\0';
		snprintf(a, alen, "%s", in);
		snprintf(b, blen, "%s", colon + 1);
		return OS_TOP_QUEUE;
	}
	return 0;
}
