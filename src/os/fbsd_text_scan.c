/*
 * FreeBSD text parsers (see fbsd_text.h), and the Linux text a user may paste
 * instead of a snapshot (ethtool -l, -g, -i and /proc/interrupts). Every line is
 * classified by its own shape, so outputs pasted one after another in a file are
 * taken apart; what is cut short is reported as "path:line: ..." and the rest is
 * still used.
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

enum mode { M_NONE, M_SYSCTL, M_PCICONF, M_IFCONFIG, M_NETSTAT_I, M_NETSTAT_Q, M_VMSTAT,
    M_TOP_PROCS };

/* The state of one file's scan: the section we are in and what was counted. */
struct scan {
	const char	*path;
	size_t		 lineno, recognized, conf, linux, reported;
	enum mode	 mode;
	int		 in_vmstat, last_ok;
	int		 sysctl_a;	/* the whole text is `sysctl -a`: every other line continues a value */
	char		*last_sysctl;
};

enum { ARM_NO, ARM_YES, ARM_OTHER };	/* no match; a recognized line; handled, not counted */

static int
netstat_i_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	return strncmp(line, "Name ", 5) == 0 && strstr(line, " Mtu ") != NULL &&
	    strstr(line, "Ipkts") != NULL;
}

static int
netstat_q_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	return strncmp(line, "Configuration:", 14) == 0;
}

static int
vmstat_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	if (strncmp(line, "interrupt ", 10) != 0 || strstr(line, "total") == NULL ||
	    strstr(line, "rate") == NULL)
		return ARM_NO;
	s->in_vmstat = 1;
	return ARM_YES;
}

static int
netstat_i_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_netstat_i_row(t, line);
}

static int
netstat_q_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_netstat_q_row(t, line) || isalpha((unsigned char)line[0]) ||
	    line[0] == ' ';
}

static int
pciconf_entry(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_pciconf_entry(t, line);
}

static int
pciconf_prop(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_pciconf_prop(t, line);
}

static int
ifconfig_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_ifconfig_head(t, line);
}

static int
ifconfig_prop(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_ifconfig_prop(t, line);
}

static int
cpuset_line(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_cpuset_line(t, line);
}

static int
top_procs_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	return strncmp(line, "  PID ", 6) == 0 && strstr(line, "COMMAND") != NULL;
}

static int
top_procs_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	return isdigit((unsigned char)line[strspn(line, " ")]);
}

static int
top_cpu_line(struct fbsd_text *t, const char *line, struct scan *s)
{
	int cut;

	if (!fbsd_text_top_line(t, line, &cut))
		return ARM_NO;
	if (cut) {
		s->last_ok = 0;
		t->load_complete = 0;
		fbsd_text_error(t, "%s:%zu: top -P line cut short: '%s'", s->path, s->lineno, line);
		s->reported = s->lineno;
	}
	return ARM_YES;
}

static int
top_head(struct fbsd_text *t, const char *line, struct scan *s)
{
	return strncmp(line, "last pid:", 9) == 0 || strncmp(line, "CPU:", 4) == 0 ||
	    strncmp(line, "Mem:", 4) == 0 || strncmp(line, "ARC:", 4) == 0 ||
	    strncmp(line, "Swap:", 5) == 0 || strstr(line, " processes:") != NULL ||
	    strstr(line, " threads: ") != NULL;
}

static int
vmstat_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	int cut;

	if (fbsd_text_vmstat_line(t, line, s->in_vmstat, &cut))
		return ARM_YES;
	if (!cut)
		return ARM_NO;
	s->last_ok = 0;
	fbsd_text_error(t, "%s:%zu: vmstat -i line cut short: '%s'", s->path, s->lineno, line);
	s->reported = s->lineno;
	return ARM_OTHER;
}

static int
sysctl_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	char name[256];
	const char *value;

	if (!fbsd_text_sysctl_line(line, name, sizeof name, &value))
		return ARM_NO;
	fbsd_text_sysctl(t, name, value);
	if (strcmp(name, "kern.sched.topology_spec") == 0)
		os_strlcpy(t->topology_from, s->path, sizeof t->topology_from);
	free(s->last_sysctl);
	s->last_sysctl = xstrdup(name);
	return ARM_YES;
}

static int
conf_row(struct fbsd_text *t, const char *line, struct scan *s)
{
	if (line[0] == '#' || !fbsd_text_conf_line(line))
		return ARM_NO;
	s->conf++;
	return ARM_OTHER;
}

/* A multi-line value (kern.sched.topology_spec, kern.version...). */
static int
sysctl_more(struct fbsd_text *t, const char *line, struct scan *s)
{
	const char *last;
	char *v;

	if (s->last_sysctl == NULL)
		return ARM_NO;
	last = fbsd_text_value(t, s->last_sysctl);
	if (!s->sysctl_a && !isspace((unsigned char)line[0]) && line[0] != '<' &&
	    (last == NULL || last[0] != '<') && strcmp(s->last_sysctl, "kern.version") != 0)
		return ARM_NO;
	xasprintf(&v, "%s\n%s", last != NULL ? last : "", line);
	fbsd_text_sysctl(t, s->last_sysctl, v);
	free(v);
	return ARM_YES;
}

static int
dmesg_line(struct fbsd_text *t, const char *line, struct scan *s)
{
	return fbsd_text_dmesg_line(t, line);
}

static int
linux_line(struct fbsd_text *t, const char *line, struct scan *s)
{
	if (!fbsd_text_linux_line(line))
		return ARM_NO;
	s->linux++;
	return ARM_OTHER;
}

static int
comment(struct fbsd_text *t, const char *line, struct scan *s)
{
	if (line[0] != '#' && line[0] != ' ' && line[0] != '\t')
		return ARM_NO;
	return s->mode != M_NONE ? ARM_YES : ARM_OTHER;
}

#define M_KEEP	M_NONE	/* as a mode to switch to: stay */

/*
 * Every shape of line, tried in order: a header that starts a section, a row
 * that belongs to one (only in that section), or a line that stands alone.
 * When it matches (ARM_YES) the scan switches to mode `then` and the file shows
 * `kind`.
 */
static const struct arm {
	enum mode	 in;		/* only in this section (M_NONE: anywhere) */
	int		(*match)(struct fbsd_text *, const char *line, struct scan *);
	enum mode	 then;
	const char	*kind;
} arms[] = {
	{ M_NONE, netstat_i_head, M_NETSTAT_I, "netstat-i" },
	{ M_NONE, netstat_q_head, M_NETSTAT_Q, "netstat-Q" },
	{ M_NONE, vmstat_head, M_VMSTAT, "vmstat-i" },
	{ M_NETSTAT_I, netstat_i_row, M_KEEP, NULL },
	{ M_NETSTAT_Q, netstat_q_row, M_KEEP, NULL },
	{ M_NONE, pciconf_entry, M_PCICONF, "pciconf" },
	{ M_PCICONF, pciconf_prop, M_KEEP, NULL },
	{ M_NONE, ifconfig_head, M_IFCONFIG, "ifconfig" },
	{ M_IFCONFIG, ifconfig_prop, M_KEEP, NULL },
	{ M_NONE, cpuset_line, M_KEEP, "cpuset" },
	{ M_NONE, top_procs_head, M_TOP_PROCS, NULL },
	{ M_TOP_PROCS, top_procs_row, M_KEEP, NULL },
	{ M_NONE, top_cpu_line, M_KEEP, "top-P" },
	{ M_NONE, top_head, M_KEEP, NULL },
	{ M_NONE, vmstat_row, M_VMSTAT, "vmstat-i" },
	{ M_NONE, sysctl_row, M_SYSCTL, "sysctl" },
	{ M_NONE, conf_row, M_KEEP, NULL },
	{ M_SYSCTL, sysctl_more, M_KEEP, NULL },
	{ M_NONE, dmesg_line, M_KEEP, "dmesg" },
	{ M_NONE, linux_line, M_KEEP, NULL },
	{ M_NONE, comment, M_KEEP, NULL },
};

/* One line through the arms; 0 when none knows it. */
static int
scan_line(struct fbsd_text *t, const char *line, struct scan *s)
{
	const struct arm *a;
	int rc;

	for (a = arms; a < arms + nitems(arms); a++) {
		if ((a->in != M_NONE && s->mode != a->in) ||
		    (rc = a->match(t, line, s)) == ARM_NO)
			continue;
		if (rc == ARM_YES) {
			if (a->then != M_KEEP)
				s->mode = a->then;
			if (a->kind != NULL)
				fbsd_text_kind(t, a->kind);
			s->recognized++;
		}
		return 1;
	}
	return 0;
}

/* A whole file that is not command output: Linux text, or a bare topology_spec. */
static int
whole_file(struct fbsd_text *t, char *copy, const char *path)
{
	const char *p;

	if (fbsd_text_is_linux(copy)) {
		fbsd_text_linux_file(t, copy, path);
		return 1;
	}
	for (p = copy; isspace((unsigned char)*p); p++)
		;
	if (*p != '<')
		return 0;
	/* a bare kern.sched.topology_spec value */
	free(t->topology);
	t->topology = xstrdup(p);
	os_strlcpy(t->topology_from, path, sizeof t->topology_from);
	fbsd_text_kind(t, "topology_spec");
	return 1;
}

/* After the last line: what the file as a whole lacks. */
static void
scan_end(struct fbsd_text *t, const struct scan *s, size_t unknown, size_t first_unknown,
    int ends_nl, const char *last_line)
{
	const char *path = s->path;

	if (!ends_nl && !s->last_ok && s->lineno > 0 && s->reported != s->lineno &&
	    s->recognized > 0)
		fbsd_text_error(t, "%s:%zu: last line cut short: '%s'", path, s->lineno, last_line);
	if (s->recognized == 0) {
		if (s->conf > 0)
			fbsd_text_error(t, "%s: a loader.conf/sysctl.conf profile, not the output of a command "
			    "(check it with `ntune check`)", path);
		else if (s->linux > 0)
			fbsd_text_error(t, "%s: Linux ethtool or /proc/interrupts text; run `ntune snapshot` on "
			    "that machine instead", path);
		else
			fbsd_text_error(t, "%s: unrecognized content (expected sysctl -a, pciconf -lv, vmstat -i, "
			    "ifconfig -a, dmesg, top -P, netstat -ibnd or netstat -Q output)", path);
	} else if (unknown > (!s->last_ok && !ends_nl ? 1u : 0u) && !strstr(t->kinds, "dmesg"))
		fbsd_text_error(t, "%s:%zu: unrecognized line%s (%zu in all)", path, first_unknown,
		    unknown > 1 ? "s" : "", unknown);
}

/*
 * sysctl_a: the text is known to be `sysctl -a` (a capture's sysctl-a.txt), so a line
 * that is not "name: value" continues the value above it (kern.conftxt, kern.geom.confdot,
 * vm.phys_segs...) instead of being another output's; an empty line is skipped.
 */
static void
add_text(struct fbsd_text *t, const char *data, size_t len, const char *path, int sysctl_a)
{
	struct scan s = { .path = path, .mode = M_NONE, .last_ok = 1, .sysctl_a = sysctl_a };
	char *copy, *line, *next, last_line[80] = "", name[256];
	const char *value;
	size_t unknown = 0, first_unknown = 0, l;
	int ends_nl;

	copy = xstrndup(data, len);
	fbsd_text_utf8_clean((unsigned char *)copy);
	len = strlen(copy);
	if (whole_file(t, copy, path)) {
		free(copy);
		return;
	}
	ends_nl = len > 0 && copy[len - 1] == '\n';
	for (line = copy; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else if (*line == '\0')
			break;
		s.lineno++;
		l = strlen(line);
		if (l > 0 && line[l - 1] == '\r')
			line[--l] = '\0';
		s.last_ok = 1;
		if (sysctl_a && s.last_sysctl != NULL && l > 0 && strspn(line, " \t") != l &&
		    !fbsd_text_sysctl_line(line, name, sizeof name, &value)) {
			sysctl_more(t, line, &s);
			continue;
		}
		if (l == 0 || strspn(line, " \t") == l) {
			if (s.mode != M_NETSTAT_Q)
				s.mode = M_NONE;
			continue;
		}
		if (scan_line(t, line, &s))
			continue;
		if (unknown++ == 0)
			first_unknown = s.lineno;
		s.last_ok = 0;
		os_strlcpy(last_line, line, sizeof last_line);
	}
	scan_end(t, &s, unknown, first_unknown, ends_nl, last_line);
	free(s.last_sysctl);
	free(copy);
}

void
fbsd_text_add(struct fbsd_text *t, const char *data, size_t len, const char *path)
{
	add_text(t, data, len, path, 0);
}

void
fbsd_text_add_sysctl_a(struct fbsd_text *t, const char *data, size_t len, const char *path)
{
	add_text(t, data, len, path, 1);
}
