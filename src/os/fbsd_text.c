/*
 * FreeBSD text parsers (see fbsd_text.h), and the Linux text a user may paste
 * instead of a snapshot (ethtool -l, -g, -i and /proc/interrupts). Every line is classified by its own
 * shape, so outputs pasted one after another in a file are taken apart; what is
 * cut short is reported as "path:line: ..." and the rest is still used.
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

enum mode { M_NONE, M_SYSCTL, M_PCICONF, M_IFCONFIG, M_NETSTAT_I, M_NETSTAT_Q, M_VMSTAT,
    M_TOP_PROCS };

struct fbsd_text *
fbsd_text_new(void)
{
	struct fbsd_text *t = xcalloc(1, sizeof *t);

	t->sysctls = json_object();
	t->errors = json_array();
	t->d_ncpu = t->d_pkgs = t->d_cores = t->d_threads = -1;
	return t;
}

void
fbsd_text_free(struct fbsd_text *t)
{
	if (t == NULL)
		return;
	json_decref(t->sysctls);
	json_decref(t->errors);
	free(t->pci);
	free(t->irq);
	free(t->ifs);
	free(t->dn);
	free(t->load);
	free(t->topology);
	free(t->masks);
	free(t->lnics);
	os_irqs_free(t->lirqs, t->nlirqs);
	free(t);
}

void
fbsd_text_kind(struct fbsd_text *t, const char *k)
{
	char pat[64];

	snprintf(pat, sizeof pat, " %s ", k);
	{
		char cur[260];

		snprintf(cur, sizeof cur, " %s ", t->kinds);
		if (strstr(cur, pat) != NULL)
			return;
	}
	if (t->kinds[0] != '\0')
		strncat(t->kinds, " ", sizeof t->kinds - strlen(t->kinds) - 1);
	strncat(t->kinds, k, sizeof t->kinds - strlen(t->kinds) - 1);
}

const char *
fbsd_text_kinds(struct fbsd_text *t)
{
	return t->kinds;
}

void
fbsd_text_error(struct fbsd_text *t, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	json_array_append_new(t->errors, json_string(msg));
	free(msg);
}

static void utf8_clean(unsigned char *);

void
fbsd_text_sysctl(struct fbsd_text *t, const char *name, const char *value)
{
	json_t *v;
	char *n, *c;

	if ((v = json_string(value)) == NULL) {
		c = xstrdup(value);
		utf8_clean((unsigned char *)c);
		v = json_string(c);
		free(c);
	}
	n = xstrdup(name);
	utf8_clean((unsigned char *)n);
	json_object_set_new(t->sysctls, n, v);
	free(n);
}

const char *
fbsd_text_value(struct fbsd_text *t, const char *name)
{
	json_t *v = json_object_get(t->sysctls, name);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

long
fbsd_text_value_long(struct fbsd_text *t, const char *name, long def)
{
	const char *v = fbsd_text_value(t, name);
	char *end;
	long l;

	if (v == NULL)
		return def;
	l = strtol(v, &end, 10);
	return end == v ? def : l;
}

static int
is_sysctl_name(const char *s, size_t n)
{
	size_t i;
	int dot = 0;

	if (n == 0 || !isalpha((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dot = 1;
		else if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '%' && s[i] != '-')
			return 0;
	}
	return dot && s[n - 1] != '.';
}

/* "name: value" with a dotted name: a sysctl line. */
int
fbsd_text_sysctl_line(const char *line, char *name, size_t nlen, const char **value)
{
	const char *colon = strstr(line, ": ");
	size_t n;

	if (colon == NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] == ':' && is_sysctl_name(line, n - 1)) {
			os_strlcpy(name, line, n < nlen ? n : nlen);
			*value = line + n;
			return 1;
		}
		return 0;
	}
	n = (size_t)(colon - line);
	if (!is_sysctl_name(line, n) || n >= nlen)
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	*value = colon + 2;
	return 1;
}

/* "name=value" (loader.conf / sysctl.conf). */
int
fbsd_text_conf_line(const char *line)
{
	const char *eq = strchr(line, '=');

	return eq != NULL && is_sysctl_name(line, (size_t)(eq - line));
}

int
fbsd_text_is_devname(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (islower((unsigned char)s[i]) || s[i] == '_'))
		i++;
	if (i == 0 || i == n)
		return 0;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	return i == n && isdigit((unsigned char)s[n - 1]);
}

void
fbsd_text_split_driver(const char *name, char *drv, size_t len, int *unit)
{
	size_t n = strlen(name);

	while (n > 0 && isdigit((unsigned char)name[n - 1]))
		n--;
	os_strlcpy(drv, name, n + 1 < len ? n + 1 : len);
	*unit = name[n] != '\0' ? atoi(name + n) : -1;
}

int
fbsd_text_two_ints(const char *line, uint64_t *a, uint64_t *b, size_t *start)
{
	const char *p = line + strlen(line), *e2, *s2, *e1, *s1;

	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	e2 = p;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	s2 = p;
	if (s2 == e2 || p == line || !isspace((unsigned char)p[-1]))
		return 0;
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	e1 = p;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	s1 = p;
	if (s1 == e1 || p == line || !isspace((unsigned char)p[-1]))
		return 0;
	*a = strtoull(s1, NULL, 10);
	*b = strtoull(s2, NULL, 10);
	*start = (size_t)(s1 - line);
	return 1;
}

/* Replaces bytes that are not valid UTF-8 (JSON strings must be) with '?'. */
static void
utf8_clean(unsigned char *s)
{
	size_t n, i;

	while (*s != '\0') {
		if (*s < 0x80) {
			s++;
			continue;
		}
		n = (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : 0;
		if (*s == 0xc0 || *s == 0xc1 || *s > 0xf4)
			n = 0;
		for (i = 1; i <= n; i++)
			if ((s[i] & 0xc0) != 0x80)
				break;
		if (n == 0 || i <= n) {
			*s++ = '?';
			continue;
		}
		s += n + 1;
	}
}

void
fbsd_text_add(struct fbsd_text *t, const char *data, size_t len, const char *path)
{
	char *copy, *line, *next, *last_sysctl = NULL, name[256], last_line[80] = "";
	const char *value, *p;
	enum mode mode = M_NONE;
	size_t lineno = 0, recognized = 0, unknown = 0, first_unknown = 0, conf = 0, linux = 0;
	size_t reported = 0;
	int cut, last_ok = 1, in_vmstat = 0, ends_nl;

	copy = xstrndup(data, len);
	utf8_clean((unsigned char *)copy);
	len = strlen(copy);
	if (fbsd_text_is_linux(copy)) {
		fbsd_text_linux_file(t, copy, path);
		free(copy);
		return;
	}
	for (p = copy; isspace((unsigned char)*p); p++)
		;
	if (*p == '<') {
		/* a bare kern.sched.topology_spec value */
		free(t->topology);
		t->topology = xstrdup(p);
		os_strlcpy(t->topology_from, path, sizeof t->topology_from);
		fbsd_text_kind(t, "topology_spec");
		free(copy);
		return;
	}
	ends_nl = len > 0 && copy[len - 1] == '\n';
	for (line = copy; line != NULL; line = next) {
		size_t l;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else if (*line == '\0')
			break;
		lineno++;
		l = strlen(line);
		if (l > 0 && line[l - 1] == '\r')
			line[--l] = '\0';
		last_ok = 1;
		if (l == 0 || strspn(line, " \t") == l) {
			if (mode != M_NETSTAT_Q)
				mode = M_NONE;
			continue;
		}
		if (strncmp(line, "Name ", 5) == 0 && strstr(line, " Mtu ") != NULL &&
		    strstr(line, "Ipkts") != NULL) {
			mode = M_NETSTAT_I;
			fbsd_text_kind(t, "netstat-i");
			recognized++;
			continue;
		}
		if (strncmp(line, "Configuration:", 14) == 0) {
			mode = M_NETSTAT_Q;
			fbsd_text_kind(t, "netstat-Q");
			recognized++;
			continue;
		}
		if (strncmp(line, "interrupt ", 10) == 0 && strstr(line, "total") != NULL &&
		    strstr(line, "rate") != NULL) {
			in_vmstat = 1;
			mode = M_VMSTAT;
			fbsd_text_kind(t, "vmstat-i");
			recognized++;
			continue;
		}
		if (mode == M_NETSTAT_I && fbsd_text_netstat_i_row(t, line)) {
			recognized++;
			continue;
		}
		if (mode == M_NETSTAT_Q) {
			if (fbsd_text_netstat_q_row(t, line) || isalpha((unsigned char)line[0]) ||
			    line[0] == ' ') {
				recognized++;
				continue;
			}
		}
		if (fbsd_text_pciconf_entry(t, line)) {
			mode = M_PCICONF;
			fbsd_text_kind(t, "pciconf");
			recognized++;
			continue;
		}
		if (mode == M_PCICONF && fbsd_text_pciconf_prop(t, line)) {
			recognized++;
			continue;
		}
		if (fbsd_text_ifconfig_head(t, line)) {
			mode = M_IFCONFIG;
			fbsd_text_kind(t, "ifconfig");
			recognized++;
			continue;
		}
		if (mode == M_IFCONFIG && fbsd_text_ifconfig_prop(t, line)) {
			recognized++;
			continue;
		}
		if (fbsd_text_cpuset_line(t, line)) {
			fbsd_text_kind(t, "cpuset");
			recognized++;
			continue;
		}
		if (strncmp(line, "  PID ", 6) == 0 && strstr(line, "COMMAND") != NULL) {
			mode = M_TOP_PROCS;
			recognized++;
			continue;
		}
		if (mode == M_TOP_PROCS && isdigit((unsigned char)line[strspn(line, " ")])) {
			recognized++;
			continue;
		}
		if (fbsd_text_top_line(t, line, &cut)) {
			fbsd_text_kind(t, "top-P");
			recognized++;
			if (cut) {
				last_ok = 0;
				t->load_complete = 0;
				fbsd_text_error(t, "%s:%zu: top -P line cut short: '%s'", path, lineno, line);
				reported = lineno;
			}
			continue;
		}
		if (strncmp(line, "last pid:", 9) == 0 || strncmp(line, "CPU:", 4) == 0 ||
		    strncmp(line, "Mem:", 4) == 0 || strncmp(line, "ARC:", 4) == 0 ||
		    strncmp(line, "Swap:", 5) == 0 || strstr(line, " processes:") != NULL ||
		    strstr(line, " threads: ") != NULL) {
			recognized++;
			continue;
		}
		if (fbsd_text_vmstat_line(t, line, in_vmstat, &cut)) {
			mode = M_VMSTAT;
			fbsd_text_kind(t, "vmstat-i");
			recognized++;
			continue;
		}
		if (cut) {
			last_ok = 0;
			fbsd_text_error(t, "%s:%zu: vmstat -i line cut short: '%s'", path, lineno, line);
			reported = lineno;
			continue;
		}
		if (fbsd_text_sysctl_line(line, name, sizeof name, &value)) {
			fbsd_text_sysctl(t, name, value);
			if (strcmp(name, "kern.sched.topology_spec") == 0)
				os_strlcpy(t->topology_from, path, sizeof t->topology_from);
			free(last_sysctl);
			last_sysctl = xstrdup(name);
			mode = M_SYSCTL;
			fbsd_text_kind(t, "sysctl");
			recognized++;
			continue;
		}
		if (line[0] != '#' && fbsd_text_conf_line(line)) {
			conf++;
			continue;
		}
		if (mode == M_SYSCTL && last_sysctl != NULL && (isspace((unsigned char)line[0]) ||
		    line[0] == '<' || (fbsd_text_value(t, last_sysctl) != NULL &&
		    fbsd_text_value(t, last_sysctl)[0] == '<') ||
		    strcmp(last_sysctl, "kern.version") == 0)) {
			/* a multi-line value (kern.sched.topology_spec, kern.version...) */
			char *v;

			xasprintf(&v, "%s\n%s", fbsd_text_value(t, last_sysctl) != NULL ?
			    fbsd_text_value(t, last_sysctl) : "", line);
			fbsd_text_sysctl(t, last_sysctl, v);
			free(v);
			recognized++;
			continue;
		}
		if (fbsd_text_dmesg_line(t, line)) {
			fbsd_text_kind(t, "dmesg");
			recognized++;
			continue;
		}
		if (fbsd_text_linux_line(line)) {
			linux++;
			continue;
		}
		if (line[0] == '#' || line[0] == ' ' || line[0] == '\t') {
			if (mode != M_NONE)
				recognized++;
			continue;
		}
		if (unknown++ == 0)
			first_unknown = lineno;
		last_ok = 0;
		os_strlcpy(last_line, line, sizeof last_line);
	}
	if (!ends_nl && !last_ok && lineno > 0 && reported != lineno && recognized > 0)
		fbsd_text_error(t, "%s:%zu: last line cut short: '%s'", path, lineno, last_line);
	if (recognized == 0) {
		if (conf > 0)
			fbsd_text_error(t, "%s: a loader.conf/sysctl.conf profile, not the output of a command "
			    "(check it with `ntune check`)", path);
		else if (linux > 0)
			fbsd_text_error(t, "%s: Linux ethtool or /proc/interrupts text; run `ntune snapshot` on "
			    "that machine instead", path);
		else
			fbsd_text_error(t, "%s: unrecognized content (expected sysctl -a, pciconf -lv, vmstat -i, "
			    "ifconfig -a, dmesg, top -P, netstat -ibnd or netstat -Q output)", path);
	} else if (unknown > (!last_ok && !ends_nl ? 1u : 0u) && !strstr(t->kinds, "dmesg"))
		fbsd_text_error(t, "%s:%zu: unrecognized line%s (%zu in all)", path, first_unknown,
		    unknown > 1 ? "s" : "", unknown);
	free(last_sysctl);
	free(copy);
}
