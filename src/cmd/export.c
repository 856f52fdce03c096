/*
 * ntune export: a profile in the form another tool reads: loader.conf,
 * sysctl.conf, /etc/sysctl.d, OPNsense/pfSense config.xml <sysctl> items, a
 * shell script, or an Ansible playbook; of a profile, or of what a journal entry applied (here
 * or on a DUT, --dut).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/dut_apply.h"
#include "apply/remote_script.h"
#include "cli/cli.h"
#include "cli/dut_write_opts.h"
#include "kb/kb.h"
#include "os/ifset.h"
#include "util/util.h"

extern const struct ntune_cmd cmd_export;

enum fmt { F_LOADER, F_SYSCTL, F_OPNSENSE, F_PFSENSE, F_SYSCTLD, F_SH, F_ANSIBLE };
/* The file formats by name; the opnsense and pfsense formats are named by their platform. */
static const char *const fmt_names[] = {
	"loader", "sysctl", NULL, NULL, "sysctl.d", "sh", "ansible",
};

static int
parse_format(const char *s)
{
	size_t i;

	for (i = 0; i < nitems(fmt_names); i++) {
		if (fmt_names[i] != NULL && strcmp(s, fmt_names[i]) == 0)
			return (int)i;
	}
	switch (os_platform_parse(s)) {
	case OS_PLATFORM_OPNSENSE:
		return F_OPNSENSE;
	case OS_PLATFORM_PFSENSE:
		return F_PFSENSE;
	default:
		return -1;
	}
}

static const char *
format_name(enum fmt f)
{
	if (f == F_OPNSENSE)
		return os_platform_name(OS_PLATFORM_OPNSENSE);
	if (f == F_PFSENSE)
		return os_platform_name(OS_PLATFORM_PFSENSE);
	return fmt_names[f];
}

struct ctx {
	const struct kb *kb;
	const struct kb_profile *p;
	const char *os;
	bool	bsd;
	size_t	skipped;
	size_t	plain;		/* =>/=< entries the format turned into a plain set */
};

static const struct kb_knob *
knob(struct ctx *c, const char *name)
{
	return kb_find(c->kb, name, c->os);
}

static bool
boot_only(struct ctx *c, const char *name)
{
	const struct kb_knob *k = knob(c, name);

	return k != NULL && k->placement == KB_PLACE_LOADER;
}

static bool
not_sysctl(const char *name)
{
	return util_startswith(name, "if.") || util_startswith(name, "cpu.");
}

static void
xml_escaped(const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", stdout);
			break;
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		default:
			putchar(*s);
		}
	}
}

/* YAML double-quoted scalar. */
static void
yq(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static const char *
descr(struct ctx *c, const struct kb_entry *e, char *buf, size_t len)
{
	const struct kb_knob *k = knob(c, e->name);
	const char *dot;

	if (e->comment != NULL) {
		snprintf(buf, len, "%s", e->comment);
		return buf;
	}
	if (k == NULL)
		return "";
	/* The first sentence of the effect. */
	dot = strstr(k->effect, ". ");
	snprintf(buf, len, "%.*s", dot ? (int)(dot - k->effect) : (int)strlen(k->effect), k->effect);
	return buf;
}

/* Appends s single-quoted for sh (a ' becomes '\''); n: its length. */
static void
qw(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addc(out, '\'');
	for (; n > 0; s++, n--) {
		if (*s == '\'')
			strbuf_adds(out, "'\\''");
		else
			strbuf_addc(out, *s);
	}
	strbuf_addc(out, '\'');
}

/* The words of value (a qdisc and its options), each single-quoted. */
static void
qwords(struct strbuf *out, const char *value)
{
	size_t n;
	bool first = true;

	for (;;) {
		value += strspn(value, " ");
		if (*value == '\0')
			return;
		n = strcspn(value, " ");
		if (!first)
			strbuf_addc(out, ' ');
		qw(out, value, n);
		value += n;
		first = false;
	}
}

/* A row's sh command: %i the interface (quoted by the row), %v the value's words, %o on/off. */
static void
sh_expand(struct strbuf *out, const char *tmpl, const char *ifn, const char *value)
{
	bool on = strcmp(value, "on") == 0 || strcmp(value, "1") == 0;
	const char *p;

	for (p = tmpl; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'i')
			strbuf_addf(out, "%s", ifn), p++;
		else if (p[0] == '%' && p[1] == 'v')
			qwords(out, value), p++;
		else if (p[0] == '%' && p[1] == 'o')
			strbuf_addf(out, "%s", on ? "on" : "off"), p++;
		else
			strbuf_addf(out, "%c", *p);
	}
}

/* One shell command for an entry; false when there is none. */
static bool
sh_command(struct ctx *c, const struct kb_entry *e, struct strbuf *out)
{
	char ifn[128], dir[3];
	const char *set, *attr;
	const struct os_ifset *r;
	int queue;

	if (strcmp(e->name, "cpu.governor") == 0) {
		strbuf_adds(out, "for f in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo ");
		qw(out, e->value, strlen(e->value));
		strbuf_adds(out, " > \"$f\"; done");
		return true;
	}
	if (!util_startswith(e->name, "if.")) {
		struct strbuf kv;

		strbuf_init(&kv);
		strbuf_addf(&kv, "%s=%s", e->name, e->value);
		strbuf_addf(out, "sysctl %s", c->bsd ? "" : "-w ");
		qw(out, kv.buf, kv.len);
		strbuf_free(&kv);
		return true;
	}
	/* The if.settings row says what to print (names may contain dots: vlans). */
	if (os_if_split(e->name, ifn, sizeof ifn, &set, NULL) == -1 || strchr(ifn, '\'') != NULL ||
	    (r = os_ifset_lookup(set)) == NULL || r->sh == NULL)
		return false;
	if (os_ifset_queue(set, dir, &queue, &attr) == 0) {
		/* if.eth0.rx-3.rps_cpus: one queue, /sys/class/net/eth0/queues/rx-3/rps_cpus. */
		strbuf_adds(out, "echo ");
		qw(out, e->value, strlen(e->value));
		strbuf_addf(out, " > /sys/class/net/'%s'/queues/", ifn);
		qw(out, set, (size_t)(attr - set - 1));
		strbuf_adds(out, "/");
		qw(out, attr, strlen(attr));
		return true;
	}
	sh_expand(out, r->sh, ifn, e->value);
	return true;
}

/* A format that can only set: say so in the output and on stderr. */
static void
cannot_compare(struct ctx *c, const struct kb_entry *e, const char *format, const char *comment)
{
	const char *what = e->op == KB_OP_RAISE ? "only raise" : "only lower";

	printf("%s %s%s%s (%s): %s cannot compare with the current value, it sets %s\n",
	    comment, e->name, kb_op_text(e->op), e->value, what, format, e->value);
	cmd_error(&cmd_export, 0, "%s:%d: '%s%s%s' (%s) becomes a plain set in %s", e->file,
	    e->line, e->name, kb_op_text(e->op), e->value, what, format);
	c->plain++;
}

static void
export_lines(struct ctx *c, enum fmt f)
{
	const struct kb_entry *e;
	char *risk;
	size_t i;

	for (i = 0; i < c->p->nentries; i++) {
		e = &c->p->entries[i];
		if (kb_profile_get(c->p, e->name) != e)
			continue;
		if (not_sysctl(e->name) || (f == F_LOADER && !boot_only(c, e->name) &&
		    knob(c, e->name) != NULL && knob(c, e->name)->placement != KB_PLACE_BOTH) ||
		    (f != F_LOADER && boot_only(c, e->name))) {
			cmd_error(&cmd_export, 0, "%s:%d: '%s' does not belong in %s, left out",
			    e->file, e->line, e->name, format_name(f));
			c->skipped++;
			continue;
		}
		if (e->comment != NULL)
			printf("# %s\n", e->comment);
		/* issue 36: a boot-risk line says it was not proven by a one-boot trial */
		if ((risk = kb_risk_comment(c->kb, e, c->os, f == F_LOADER || f == F_OPNSENSE ?
		    KB_TARGET_LOADER : f == F_SH || f == F_ANSIBLE ? KB_TARGET_ANY :
		    KB_TARGET_SYSCTL)) != NULL)
			printf("# %s\n", risk);
		free(risk);
		if (e->op != KB_OP_SET)
			cannot_compare(c, e, format_name(f), "#");
		if (f == F_LOADER)
			printf("%s=\"%s\"\n", e->name, e->value);
		else if (f == F_SYSCTLD)
			printf("%s = %s\n", e->name, e->value);
		else
			printf("%s=%s\n", e->name, e->value);
	}
}

static void
export_xml(struct ctx *c, enum fmt f)
{
	const struct kb_entry *e;
	char buf[512];
	size_t i;

	printf("<sysctl%s>\n", f == F_OPNSENSE ? " version=\"1.0.2\"" : "");
	for (i = 0; i < c->p->nentries; i++) {
		e = &c->p->entries[i];
		if (kb_profile_get(c->p, e->name) != e)
			continue;
		if (not_sysctl(e->name)) {
			cmd_error(&cmd_export, 0, "%s:%d: '%s' is not a tunable, left out",
			    e->file, e->line, e->name);
			c->skipped++;
			continue;
		}
		if (f == F_PFSENSE && boot_only(c, e->name)) {
			/* pfSense sets System Tunables at runtime: boot-time ones go to loader.conf.local. */
			printf("  <!-- boot-time tunable: put %s=\"", e->name);
			xml_escaped(e->value);
			printf("\" in /boot/loader.conf.local -->\n");
			c->skipped++;
			continue;
		}
		if (e->op != KB_OP_SET) {
			printf("  <!--");
			cannot_compare(c, e, format_name(f), "");
			printf("  -->\n");
		}
		printf("  <item>\n    <tunable>");
		xml_escaped(e->name);
		printf("</tunable>\n    <value>");
		xml_escaped(e->value);
		printf("</value>\n    <descr>");
		xml_escaped(descr(c, e, buf, sizeof buf));
		printf("</descr>\n  </item>\n");
	}
	printf("</sysctl>\n");
}

/* A single-quoted shell word (a ' becomes '\''), valid until the next call. */
static const char *
sh_quote(const char *s)
{
	static struct strbuf sb;

	strbuf_free(&sb);
	strbuf_init(&sb);
	qw(&sb, s, strlen(s));
	return sb.buf;
}

/* name=>value / name=<value: set only when the current value is smaller / larger. */
static void
sh_compare(struct ctx *c, const struct kb_entry *e)
{
	struct strbuf set;

	strbuf_init(&set);
	strbuf_addf(&set, "%s=%s", e->name, e->value);
	printf("# %s%s%s: only %s\n", e->name, kb_op_text(e->op), e->value,
	    e->op == KB_OP_RAISE ? "raise" : "lower");
	printf("if cur=$(sysctl -n %s); then ", sh_quote(e->name));
	printf("[ \"$cur\" %s %s ] && ", e->op == KB_OP_RAISE ? "-lt" : "-gt", sh_quote(e->value));
	/* One sh_quote() a statement: it returns its own buffer. */
	printf("try sysctl %s%s; ", c->bsd ? "" : "-w ", sh_quote(set.buf));
	printf("else fail %s; fi\n", sh_quote(e->name));
	strbuf_free(&set);
}

static void
export_sh(struct ctx *c)
{
	const struct kb_entry *e;
	struct strbuf cmd;
	size_t i;

	/* Every command runs; each failure is reported; the exit status says whether any failed. */
	printf("#!/bin/sh\n# Generated by `ntune export --format sh` from %s.\n"
	    "# Runtime settings only; `ntune apply` does the same with a journal and revert.\n"
	    "# Every setting is tried; each failure is reported and the script exits 1 if any failed.\n"
	    "failed=0\n"
	    "fail() { echo \"ntune export: failed: $*\" >&2; failed=$((failed + 1)); }\n"
	    "try() { \"$@\" || fail \"$*\"; }\n",
	    c->p->path);
	for (i = 0; i < c->p->nentries; i++) {
		e = &c->p->entries[i];
		if (kb_profile_get(c->p, e->name) != e)
			continue;
		if (boot_only(c, e->name)) {
			printf("# boot-time tunable, add to /boot/loader.conf.local: %s=\"%s\"\n",
			    e->name, e->value);
			continue;
		}
		strbuf_init(&cmd);
		if (e->op != KB_OP_SET && !not_sysctl(e->name))
			sh_compare(c, e);
		else if (e->op != KB_OP_SET) {
			cannot_compare(c, e, "sh", "#");
			c->skipped++;
		} else if (sh_command(c, e, &cmd) && strpbrk(cmd.buf, ">;") == NULL)
			printf("try %s\n", cmd.buf);
		else if (cmd.buf != NULL && *cmd.buf != '\0') {
			printf("{ %s; } || fail ", cmd.buf);
			printf("%s\n", sh_quote(e->name));
		}
		else {
			printf("# %s=%s: use `ntune apply` (needs the queue IRQs)\n", e->name, e->value);
			c->skipped++;
		}
		strbuf_free(&cmd);
	}
	printf("[ \"$failed\" -eq 0 ] || { echo \"ntune export: $failed setting(s) failed\" >&2; "
	    "exit 1; }\n");
}

static void
export_ansible(struct ctx *c)
{
	const struct kb_entry *e;
	struct strbuf cmd;
	char re[512], *w;
	const char *r;
	size_t i;

	printf("# Generated by `ntune export --format ansible` from %s.\n", c->p->path);
	printf("- name: ntune profile %s\n  hosts: all\n  become: true\n  tasks:\n", c->p->path);
	for (i = 0; i < c->p->nentries; i++) {
		e = &c->p->entries[i];
		if (kb_profile_get(c->p, e->name) != e)
			continue;
		if (e->op != KB_OP_SET)
			cannot_compare(c, e, "ansible", "    #");
		if (boot_only(c, e->name)) {
			for (r = e->name, w = re; *r != '\0' && w < re + sizeof re - 3; r++) {
				if (*r == '.')
					*w++ = '\\';
				*w++ = *r;
			}
			*w = '\0';
			printf("    - name: %s (boot time, needs a reboot)\n", e->name);
			printf("      ansible.builtin.lineinfile:\n        path: /boot/loader.conf.local\n");
			printf("        create: true\n        regexp: '^%s='\n        line: ", re);
			printf("'%s=\"%s\"'\n", e->name, e->value);
			continue;
		}
		if (!not_sysctl(e->name)) {
			printf("    - name: %s\n      ansible.posix.sysctl:\n        name: %s\n", e->name,
			    e->name);
			printf("        value: ");
			yq(e->value);
			printf("\n        sysctl_file: %s\n        reload: true\n",
			    c->bsd ? "/etc/sysctl.conf.local" : "/etc/sysctl.d/90-ntune.conf");
			continue;
		}
		strbuf_init(&cmd);
		if (sh_command(c, e, &cmd)) {
			printf("    - name: %s\n      ansible.builtin.shell: ", e->name);
			yq(cmd.buf);
			printf("\n");
		} else {
			cmd_error(&cmd_export, 0, "%s:%d: '%s' needs `ntune apply`, left out",
			    e->file, e->line, e->name);
			c->skipped++;
		}
		strbuf_free(&cmd);
	}
}

/*
 * A script runs as root: a value the apply engine would refuse (outside letters, digits,
 * single spaces and _ . , : / + = @ % -) stops the export, --force or not.
 */
static int
refuse_unsafe(struct ctx *c, enum fmt f)
{
	const struct kb_entry *e;
	char *cause = NULL;
	size_t i, bad = 0;

	if (f != F_SH && f != F_ANSIBLE)
		return 0;
	for (i = 0; i < c->p->nentries; i++) {
		e = &c->p->entries[i];
		if (rscript_check_value(e->name, e->value, "the", &cause) == -1) {
			fprintf(stderr, "%s:%d: error: %s\n", e->file, e->line, cause);
			free(cause);
			cause = NULL;
			bad++;
		}
	}
	if (bad == 0)
		return 0;
	cmd_error(&cmd_export, 0, "%zu value%s cannot go into a %s script; nothing written (--force "
	    "does not change this)", bad, bad == 1 ? "" : "s", format_name(f));
	return -1;
}

/* What check calls an error stops the export (exit 1) unless --force, as for apply. */
static int
lint(struct ctx *c, enum os_platform pf, bool force)
{
	struct kb_system sys;
	struct kb_diag *d;
	size_t n, i;
	int errors;

	memset(&sys, 0, sizeof sys);
	sys.platform = pf;
	sys.smt = -1;
	sys.rss_kernel = -1;
	errors = kb_check(c->kb, c->p, &sys, KB_TARGET_ANY, &d, &n);
	for (i = 0; i < n; i++) {
		if (d[i].severity == KB_ERROR)
			fprintf(stderr, "%s:%d: error: %s\n", d[i].file, d[i].line, d[i].message);
	}
	kb_diags_free(d, n);
	if (errors > 0 && !force) {
		cmd_error(&cmd_export, 0, "%d error%s (as `ntune check` reports); nothing written, "
		    "--force exports anyway", errors, errors == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "os", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "root", required_argument, NULL, 'r' },
	DUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/*
 * The profile: a file, or a journal entry's (here, or on the DUT of --dut, whose OS is then
 * the default --os); 0, or the exit status after saying why not.
 */
static int
load(struct cmd_agentless *d, const char *arg, enum os_platform *pf, struct kb_profile **p,
    struct kb **kb)
{
	char *cause = NULL;
	int rc;

	if (d->opts.url == NULL && (d->o.root != NULL || dut_opts_ssh_given(&d->opts)))
		return cmd_error(&cmd_export, 2, "--root, --ssh-config and --ssh-accept-new go with --dut");
	if ((rc = cmd_agentless_open(&cmd_export, d)) != 0)
		return rc;
	if (d->opts.url != NULL && *pf == OS_PLATFORM_UNKNOWN)
		*pf = d->o.os == OS_PLATFORM_FREEBSD ? OS_PLATFORM_FREEBSD : OS_PLATFORM_LINUX;
	*p = apply_profile_or_entry(arg, &d->o, &cause);
	cmd_agentless_close(d);
	if (*p == NULL)
		return cmd_fail(&cmd_export, &cause, 2);
	if (kb_load(NULL, kb, &cause) == -1) {
		kb_profile_free(*p);
		return cmd_fail(&cmd_export, &cause, 2);
	}
	return 0;
}

static int
run(struct cmd_args *args)
{
	bool force = false;
	struct cmd_agentless d;
	struct ctx c;
	struct kb_profile *p = NULL;
	struct kb *kb;
	enum os_platform pf = OS_PLATFORM_UNKNOWN;
	char *arg, *cause = NULL;
	int ch, f = -1;

	memset(&c, 0, sizeof c);
	memset(&d, 0, sizeof d);
	while ((ch = cmd_next(args, &arg)) != -1) {
		if (cmd_agentless_option(&d, ch, arg))
			continue;
		switch (ch) {
		case 'r':
			d.o.root = arg;
			break;
		case 'F':
			force = true;
			break;
		case 'f':
			if ((f = parse_format(arg)) == -1)
				return cmd_error(&cmd_export, 2, "bad --format '%s' (loader, sysctl, "
				    "opnsense, pfsense, sysctl.d, sh, ansible)", arg);
			break;
		case 'o':
			if (cmd_parse_os(&cmd_export, arg, &pf) == -1)
				return 2;
			break;
		}
	}
	if (f == -1)
		return cmd_usage_error(&cmd_export, "--format is needed");
	if ((ch = load(&d, args->argv[0], &pf, &p, &kb)) != 0)
		return ch;
	/* Its if.* lines say what sh and ansible print: no table, no export. */
	if (os_ifsets_table(NULL, &cause) == NULL) {
		kb_profile_free(p);
		kb_free(kb);
		return cmd_fail(&cmd_export, &cause, 2);
	}
	c.kb = kb;
	c.p = p;
	if (pf == OS_PLATFORM_UNKNOWN) {
		/* The format says the family; the profile's knobs may say the distribution. */
		enum os_platform guess = kb_os_guess(kb, p);

		pf = f == F_OPNSENSE ? OS_PLATFORM_OPNSENSE : f == F_PFSENSE ? OS_PLATFORM_PFSENSE :
		    f == F_SYSCTLD ? OS_PLATFORM_LINUX : f == F_LOADER ? OS_PLATFORM_FREEBSD : guess;
		if (f == F_LOADER && os_platform_family(guess) == OS_PLATFORM_FREEBSD)
			pf = guess;
	}
	if (pf == OS_PLATFORM_UNKNOWN)
		pf = OS_PLATFORM_LINUX;
	c.os = os_platform_name(pf);
	c.bsd = os_platform_family(pf) == OS_PLATFORM_FREEBSD;
	if (refuse_unsafe(&c, (enum fmt)f) == -1 || lint(&c, pf, force) == -1) {
		kb_profile_free(p);
		kb_free(kb);
		return 1;
	}
	switch (f) {
	case F_LOADER:
	case F_SYSCTL:
	case F_SYSCTLD:
		printf("# Generated by `ntune export --format %s` from %s.\n", format_name((enum fmt)f),
		    p->path);
		export_lines(&c, (enum fmt)f);
		break;
	case F_OPNSENSE:
	case F_PFSENSE:
		export_xml(&c, (enum fmt)f);
		break;
	case F_SH:
		export_sh(&c);
		break;
	case F_ANSIBLE:
		export_ansible(&c);
		break;
	}
	kb_profile_free(p);
	kb_free(kb);
	return 0;
}

const struct ntune_cmd cmd_export = {
	.name = "export",
	.summary = "write a profile for loader.conf, sysctl.conf, OPNsense, pfSense, ansible...",
	.usage = "export PROFILE|ID --format loader|sysctl|opnsense|pfsense|sysctl.d|sh|ansible\n"
	    "      [--os freebsd|opnsense|pfsense|linux] [--force] [--dut ssh://[user@]host[:port]\n"
	    "      [--root|--dut-root DIR] [--ssh-config FILE] [--ssh-accept-new]]",
	.optstring = "f:o:F",
	.longopts = longopts,
	.min_args = 1,
	.max_args = 1,
	.run = run,
};
