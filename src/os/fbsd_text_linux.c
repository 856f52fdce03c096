/*
 * Linux text a user may paste instead of a snapshot: ethtool -l, -g, -i and
 * /proc/interrupts (see fbsd_text.c).
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

int
fbsd_text_linux_line(const char *line)
{
	return strncmp(line, "Channel parameters for ", 23) == 0 ||
	    strncmp(line, "Ring parameters for ", 20) == 0 ||
	    strncmp(line, "driver: ", 8) == 0 || strncmp(line, "Features for ", 13) == 0 ||
	    (strstr(line, "CPU0") != NULL && strstr(line, "CPU1") != NULL && line[0] == ' ') ||
	    strstr(line, "-edge ") != NULL || strstr(line, "PCI-MSI") != NULL;
}

static struct lnic *
lnic_get(struct fbsd_text *t, const char *name)
{
	struct lnic *n;
	size_t i;

	for (i = 0; i < t->nlnics; i++)
		if (strcmp(t->lnics[i].name, name) == 0)
			return &t->lnics[i];
	t->lnics = xreallocarray(t->lnics, t->nlnics + 1, sizeof *t->lnics);
	n = &t->lnics[t->nlnics++];
	memset(n, 0, sizeof *n);
	os_strlcpy(n->name, name, sizeof n->name);
	memset(n->ch, -1, sizeof n->ch);
	memset(n->ring, -1, sizeof n->ring);
	return n;
}

/* "  30:  3551364829  0  1   PCI-MSI 262144-edge  eth0-0" */
static int
is_irq_row(const char *line)
{
	const char *p = line;

	const char *s;

	while (*p == ' ')
		p++;
	/* a number, or a three-letter counter (NMI, LOC, RES...) */
	for (s = p; isdigit((unsigned char)*p); p++)
		;
	if (p == s) {
		for (; isupper((unsigned char)*p); p++)
			;
		if (p - s != 3)
			return 0;
	}
	if (*p != ':')
		return 0;
	p++;
	while (*p == ' ')
		p++;
	return isdigit((unsigned char)*p);
}

int
fbsd_text_is_linux(const char *text)
{
	const char *p = text;

	while (isspace((unsigned char)*p) && *p != '\0' && strncmp(p, " ", 1) == 0 &&
	    strncmp(p, "   ", 3) != 0)
		p++;
	while (*p == '\n')
		p++;
	return strncmp(p, "Channel parameters for ", 23) == 0 ||
	    strncmp(p, "Ring parameters for ", 20) == 0 || strncmp(p, "driver: ", 8) == 0 ||
	    strncmp(p, "Features for ", 13) == 0 ||
	    (strstr(p, "CPU0") != NULL && strstr(p, "CPU0") < strchr(p, '\n') &&
	    strspn(p, " ") > 0) || is_irq_row(p);
}

static void
irq_row(struct fbsd_text *t, const char *line, const char *path, size_t lineno, int last)
{
	char name[OS_NAME_MAX], *end;
	const char *p = line, *colon = strchr(line, ':');
	unsigned long long v[OS_MAXCPU];
	size_t n = 0, i;
	struct os_irq *q;

	while (*p == ' ')
		p++;
	if ((size_t)(colon - p) >= sizeof name)
		return;
	memcpy(name, p, (size_t)(colon - p));
	name[colon - p] = '\0';
	for (p = colon + 1; n < OS_MAXCPU; n++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v[n] = strtoull(p, &end, 10);
		p = end;
	}
	while (*p == ' ')
		p++;
	if (t->lirq_ncpu == 0)
		t->lirq_ncpu = n;	/* a fragment without its CPU header */
	if (n < t->lirq_ncpu || (*p == '\0' && isdigit((unsigned char)name[0]) && last)) {
		fbsd_text_error(t, "%s:%zu: /proc/interrupts line cut short: '%s'", path, lineno, line);
		if (n < t->lirq_ncpu)
			return;
	}
	t->lirqs = xreallocarray(t->lirqs, t->nlirqs + 1, sizeof *t->lirqs);
	q = &t->lirqs[t->nlirqs++];
	memset(q, 0, sizeof *q);
	os_strlcpy(q->name, name, sizeof q->name);
	q->ncpu = t->lirq_ncpu;
	q->per_cpu = xcalloc(q->ncpu + 1, sizeof *q->per_cpu);
	for (i = 0; i < q->ncpu; i++) {
		q->per_cpu[i] = v[i];
		q->total += v[i];
	}
	/* "chip hwirq-type device": the device is the last word */
	if ((end = strrchr(p, ' ')) != NULL && isdigit((unsigned char)name[0]))
		p = end + 1;
	os_strlcpy(q->desc, p, sizeof q->desc);
}

void
fbsd_text_linux_file(struct fbsd_text *t, char *text, const char *path)
{
	char *line, *next, key[64];
	const char *v, *colon;
	struct lnic *cur = NULL, info;
	int sec = 0, sub = 0, have_info = 0, val;
	size_t lineno = 0, k;
	static const char *const chkeys[] = { "RX", "TX", "Other", "Combined" };

	memset(&info, 0, sizeof info);
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		if (strncmp(line, "Channel parameters for ", 23) == 0 ||
		    strncmp(line, "Ring parameters for ", 20) == 0) {
			char nm[OS_NAME_MAX];

			sec = line[0] == 'C' ? 1 : 2;
			os_strlcpy(nm, strstr(line, " for ") + 5, sizeof nm);
			if (strlen(nm) > 0 && nm[strlen(nm) - 1] == ':')
				nm[strlen(nm) - 1] = '\0';
			cur = lnic_get(t, nm);
			fbsd_text_kind(t, sec == 1 ? "ethtool-l" : "ethtool-g");
			continue;
		}
		if (strncmp(line, "Pre-set maximums:", 17) == 0) {
			sub = 0;
			continue;
		}
		if (strncmp(line, "Current hardware settings:", 26) == 0) {
			sub = 1;
			continue;
		}
		if (strstr(line, "CPU0") != NULL && !is_irq_row(line)) {
			t->lirq_ncpu = 0;
			for (v = line; (v = strstr(v, "CPU")) != NULL; v += 3)
				t->lirq_ncpu++;
			fbsd_text_kind(t, "interrupts");
			continue;
		}
		if (is_irq_row(line)) {
			size_t nerr = json_array_size(t->errors);

			irq_row(t, line, path, lineno, next == NULL || *next == '\0');
			fbsd_text_kind(t, "interrupts");
			/* cat /proc/interrupts ends with a newline: without one, the paste was cut */
			if (next == NULL && json_array_size(t->errors) == nerr)
				fbsd_text_error(t, "%s:%zu: /proc/interrupts text ends without a newline: its last line "
				    "may be cut short", path, lineno);
			continue;
		}
		if ((colon = strchr(line, ':')) == NULL || (size_t)(colon - line) >= sizeof key)
			continue;
		memcpy(key, line, (size_t)(colon - line));
		key[colon - line] = '\0';
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		val = isdigit((unsigned char)*v) ? atoi(v) : -1;
		if (cur != NULL && sec == 1) {
			for (k = 0; k < nitems(chkeys); k++)
				if (strcmp(key, chkeys[k]) == 0)
					cur->ch[sub][k] = val;
		} else if (cur != NULL && sec == 2) {
			if (strcmp(key, "RX") == 0)
				cur->ring[sub][0] = val;
			else if (strcmp(key, "TX") == 0)
				cur->ring[sub][1] = val;
		}
		if (strcmp(key, "driver") == 0) {
			os_strlcpy(info.driver, v, sizeof info.driver);
			have_info = 1;
			fbsd_text_kind(t, "ethtool-i");
		} else if (strcmp(key, "version") == 0)
			os_strlcpy(info.version, v, sizeof info.version);
		else if (strcmp(key, "firmware-version") == 0)
			os_strlcpy(info.firmware, v, sizeof info.firmware);
		else if (strcmp(key, "bus-info") == 0)
			os_strlcpy(info.bus, v, sizeof info.bus);
	}
	if (have_info) {
		/* ethtool -i does not print the interface's name */
		struct lnic *n = NULL;

		if (t->nlnics == 1 && t->lnics[0].driver[0] == '\0')
			n = &t->lnics[0];
		else {
			char nm[OS_NAME_MAX];

			snprintf(nm, sizeof nm, "(%.48s)", info.bus[0] != '\0' ? info.bus : "unnamed");
			n = lnic_get(t, nm);
		}
		os_strlcpy(n->driver, info.driver, sizeof n->driver);
		os_strlcpy(n->version, info.version, sizeof n->version);
		os_strlcpy(n->firmware, info.firmware, sizeof n->firmware);
		os_strlcpy(n->bus, info.bus, sizeof n->bus);
	}
}

/* The interface an IRQ's name belongs to: "eth0-0", "i40e-enP1s15-TxRx-3" -> enP1s15. */
int
fbsd_text_irq_ifname(const char *desc, char *name, size_t len, int *index, char *qkind, size_t klen)
{
	char buf[OS_NAME_MAX], *tok[8], *save, *w;
	size_t n = 0, i;

	os_strlcpy(buf, desc, sizeof buf);
	for (w = strtok_r(buf, "-", &save); w != NULL && n < nitems(tok); w = strtok_r(NULL, "-", &save))
		tok[n++] = w;
	if (n < 2 || strspn(tok[n - 1], "0123456789") != strlen(tok[n - 1]) ||
	    strchr(desc, ':') != NULL)
		return -1;
	*index = atoi(tok[n - 1]);
	for (i = 1; i + 1 < n; i++)
		if (strcasecmp(tok[i], "TxRx") == 0 || strcasecmp(tok[i], "rxtx") == 0 ||
		    strcasecmp(tok[i], "rx") == 0 || strcasecmp(tok[i], "tx") == 0) {
			os_strlcpy(name, tok[i - 1], len);
			os_strlcpy(qkind, strcasecmp(tok[i], "rx") == 0 ? "rx" :
			    strcasecmp(tok[i], "tx") == 0 ? "tx" : "rxtx", klen);
			return 0;
		}
	if (n == 2) {
		os_strlcpy(name, tok[0], len);
		os_strlcpy(qkind, "rxtx", klen);
		return 0;
	}
	return -1;
}

void
fbsd_text_linux_nic(struct fbsd_text *t, const char *name, struct os_nic *nic)
{
	struct lnic *l = NULL;
	size_t i, k;
	char nm[OS_NAME_MAX], qk[8];
	int idx;

	os_nic_init(nic);
	os_strlcpy(nic->name, name, sizeof nic->name);
	for (i = 0; i < t->nlnics; i++)
		if (strcmp(t->lnics[i].name, name) == 0)
			l = &t->lnics[i];
	if (l != NULL) {
		os_strlcpy(nic->driver, l->driver, sizeof nic->driver);
		os_strlcpy(nic->driver_version, l->version, sizeof nic->driver_version);
		os_strlcpy(nic->firmware, l->firmware, sizeof nic->firmware);
		os_strlcpy(nic->bus, l->bus, sizeof nic->bus);
		nic->max_rx_queues = l->ch[0][0];
		nic->max_tx_queues = l->ch[0][1];
		nic->max_combined_queues = l->ch[0][3];
		nic->rx_queues = l->ch[1][0];
		nic->tx_queues = l->ch[1][1];
		nic->combined_queues = l->ch[1][3];
		nic->max_rx_ring = l->ring[0][0];
		nic->max_tx_ring = l->ring[0][1];
		nic->rx_ring = l->ring[1][0];
		nic->tx_ring = l->ring[1][1];
	}
	for (i = 0; i < t->nlirqs; i++) {
		struct os_queue *q;
		const struct os_irq *r = &t->lirqs[i];
		uint64_t best = 0;

		if (fbsd_text_irq_ifname(r->desc, nm, sizeof nm, &idx, qk, sizeof qk) != 0 ||
		    strcmp(nm, name) != 0)
			continue;
		nic->queues = xreallocarray(nic->queues, nic->nqueues + 1, sizeof *nic->queues);
		q = &nic->queues[nic->nqueues++];
		memset(q, 0, sizeof *q);
		q->index = idx;
		os_strlcpy(q->kind, qk, sizeof q->kind);
		q->irq = atoi(r->name);
		os_strlcpy(q->irq_name, r->desc, sizeof q->irq_name);
		q->interrupts = r->total;
		/* the text has no affinity: the CPU that took most of them */
		q->irq_cpu = -1;
		for (k = 0; k < r->ncpu; k++)
			if (r->per_cpu[k] > best) {
				best = r->per_cpu[k];
				q->irq_cpu = (int)k;
			}
	}
}
