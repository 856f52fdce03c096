/*
 * Helpers the backends and the document code share: freeing what they return,
 * a NIC's "unknown" state, bounded copies, CPU lists and masks. Nothing here
 * calls a backend, so every backend can use it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/os_impl.h"
#include "util/util.h"

void
os_cpu_free(struct os_cpu *cpu)
{
	if (cpu == NULL)
		return;
	free(cpu->cpu_numa);
	free(cpu->cpu_core);
	cpu->cpu_numa = cpu->cpu_core = NULL;
}

void
os_nics_free(struct os_nic *nics, size_t n)
{
	size_t i;

	if (nics == NULL)
		return;
	for (i = 0; i < n; i++)
		free(nics[i].queues);
	free(nics);
}

void
os_irqs_free(struct os_irq *irqs, size_t n)
{
	size_t i;

	if (irqs == NULL)
		return;
	for (i = 0; i < n; i++)
		free(irqs[i].per_cpu);
	free(irqs);
}

void
os_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (len == 0)
		return;
	n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
os_nic_init(struct os_nic *nic)
{
	memset(nic, 0, sizeof *nic);
	nic->speed_mbps = -1;
	nic->mtu = -1;
	nic->numa_node = -1;
	nic->rx_queues = nic->tx_queues = nic->combined_queues = -1;
	nic->max_rx_queues = nic->max_tx_queues = nic->max_combined_queues = -1;
	nic->rx_ring = nic->tx_ring = nic->max_rx_ring = nic->max_tx_ring = -1;
	nic->tso = nic->lro = nic->gro = nic->gso = OS_UNKNOWN;
	nic->rxcsum = nic->txcsum = OS_UNKNOWN;
	nic->coalesce_rx_usecs = nic->adaptive_rx = -1;
}

int
os_cpulist_parse(const char *s, unsigned char set[OS_MAXCPU], char **cause)
{
	const char *p = s;
	char *end;
	long a, b, i;

	memset(set, 0, OS_MAXCPU);
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return 0;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b >= OS_MAXCPU)
			goto bad;
		for (i = a; i <= b; i++)
			set[i] = 1;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p != ',')
			goto bad;
		p++;
	}
bad:
	util_cause(cause, "invalid CPU list '%s'", s);
	return -1;
}

void
os_cpulist_format(const unsigned char set[OS_MAXCPU], char *buf, size_t len)
{
	struct strbuf sb;
	int i, j;

	strbuf_init(&sb);
	for (i = 0; i < OS_MAXCPU; i++) {
		if (!set[i])
			continue;
		for (j = i; j + 1 < OS_MAXCPU && set[j + 1]; j++)
			;
		if (sb.len > 0)
			strbuf_addc(&sb, ',');
		if (j == i)
			strbuf_addf(&sb, "%d", i);
		else
			strbuf_addf(&sb, "%d-%d", i, j);
		i = j;
	}
	os_strlcpy(buf, sb.len > 0 ? sb.buf : "", len);
	strbuf_free(&sb);
}

int
os_cpumask_parse(const char *s, unsigned char set[OS_MAXCPU], char **cause)
{
	size_t n = strlen(s), i;
	int bit = 0, v, k;
	const char *p;

	memset(set, 0, OS_MAXCPU);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	p = s;
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	if (n == 0)
		goto bad;
	for (i = n; i-- > 0;) {
		if (p[i] == ',')
			continue;
		if (!isxdigit((unsigned char)p[i]))
			goto bad;
		v = isdigit((unsigned char)p[i]) ? p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10);
		for (k = 0; k < 4; k++, bit++) {
			if ((v & (1 << k)) == 0)
				continue;
			if (bit >= OS_MAXCPU)
				goto bad;
			set[bit] = 1;
		}
	}
	return 0;
bad:
	util_cause(cause, "invalid CPU mask '%s'", s);
	return -1;
}

void
os_cpumask_format(const unsigned char set[OS_MAXCPU], int ncpu, char *buf, size_t len)
{
	int top = 0, i, nib, words, w, k, v;
	struct strbuf sb;

	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			top = i + 1;
	if (ncpu > top)
		top = ncpu;
	if (top == 0)
		top = 1;
	words = (top + 31) / 32;
	strbuf_init(&sb);
	for (w = words - 1; w >= 0; w--) {
		nib = (w == words - 1 && words == 1) ? (top + 3) / 4 : 8;
		for (k = nib - 1; k >= 0; k--) {
			v = 0;
			for (i = 0; i < 4; i++) {
				int cpu = w * 32 + k * 4 + i;

				if (cpu < OS_MAXCPU && set[cpu])
					v |= 1 << i;
			}
			strbuf_addc(&sb, "0123456789abcdef"[v]);
		}
		if (w > 0)
			strbuf_addc(&sb, ',');
	}
	os_strlcpy(buf, sb.buf, len);
	strbuf_free(&sb);
}

int
os_cpulist_first(const char *s)
{
	unsigned char set[OS_MAXCPU];
	int i;

	if (os_cpulist_parse(s, set, NULL) != 0)
		return -1;
	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			return i;
	return -1;
}

/* Fields 14, 15 (utime, stime), 22 (starttime) and 39 (processor) of a napi/ thread's line. */
static int
proc_stat_napi(const char *text, unsigned long long *ticks, int *cpu, unsigned long long *start)
{
	char buf[1024], *open, *close, *p, *save, *end;
	unsigned long long ut = 0, st = 0, t0 = 0;
	int field;

	os_strlcpy(buf, text, sizeof buf);
	if ((open = strchr(buf, '(')) == NULL || (close = strrchr(buf, ')')) == NULL ||
	    close < open || strncmp(open + 1, "napi/", 5) != 0)
		return 0;
	*cpu = -1;
	for (field = 3, p = strtok_r(close + 1, " \n", &save); p != NULL && field <= 39;
	    p = strtok_r(NULL, " \n", &save), field++) {
		if (field == 14)
			ut = strtoull(p, &end, 10);
		else if (field == 15)
			st = strtoull(p, &end, 10);
		else if (field == 22)
			t0 = strtoull(p, &end, 10);
		else if (field == 39)
			*cpu = (int)strtol(p, &end, 10);
		else
			continue;
		if (*end != '\0' || *p == '-')
			return 0;
	}
	if (*cpu < 0 || field <= 39)
		return 0;
	*ticks = ut + st;
	*start = t0;
	return 1;
}

int
os_proc_stat_napi(const char *text, unsigned long long *ticks, int *cpu)
{
	unsigned long long start;

	return proc_stat_napi(text, ticks, cpu, &start);
}

int
os_proc_stat_napi_start(const char *text, unsigned long long *ticks, unsigned long long *start)
{
	int cpu;

	return proc_stat_napi(text, ticks, &cpu, start);
}

long
os_clock_ticks(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? hz : 100;
}

size_t
os_words(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *save, *t;

	for (t = strtok_r(line, " \t", &save); t != NULL && n < max; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	return n;
}

bool
os_number(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	*v = strtoull(s, &end, 10);
	return *end == '\0';
}
