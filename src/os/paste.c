/*
 * What people paste: the text readers of counters (fbsd_counters.c, text_linux.c) skip a
 * line they cannot read, use a cut row as far as it goes, and say so once per file as a
 * note naming file:line (os_counters.notes, shown by diagnose and doctor in text and JSON).
 * A shell prompt line ("[root@fw]~# netstat -iw 1", "root@OpenWrt:~# top",
 * "[2.7.2-RELEASE][admin@pfSense.home.arpa]/root: top -aSH") or a bare command line
 * ("vmstat -i | grep igb") is skipped too; the command it names is a hint to the reader.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "util/util.h"

/* The commands whose output ntune reads, and the shell's own helpers people paste with them. */
static const char *const commands[] = { "top", "netstat", "vmstat", "sysctl", "systat", "pfctl",
    "cat", "mpstat", "sar", "ethtool", "ip", "nstat", "grep", "egrep", "iostat", "ifconfig",
    "dmesg", "uname", "sudo", "doas", "su", "tail", "head", "cpuset", "procstat", "ps", "watch",
    "uptime", "date", "echo", "awk", "sed", "less", "more", "pciconf", "freebsd-version",
    "opnsense-version", "ntune", "tc", "ss", "sh", "for", "while", "exit", "clear", "busybox" };

/* The command at s, if it is one of ours followed by nothing, a space or a pipe; its length. */
static size_t
command_at(const char *s)
{
	size_t i, l;

	for (i = 0; i < nitems(commands); i++) {
		l = strlen(commands[i]);
		if (strncmp(s, commands[i], l) == 0 && (s[l] == '\0' || s[l] == ' ' || s[l] == '\t' ||
		    s[l] == '|'))
			return l;
	}
	return 0;
}

/*
 * A prompt: text without a blank before a '#', '$', '%' or '>' (or a ':' after a user@host or
 * a [..] part), then the command; "root@OPNsense:~ # top" has one blank before its '#'.
 */
static const char *
after_prompt(const char *line)
{
	const char *p;
	size_t blanks = 0;

	for (p = line; *p != '\0' && p - line < 96; p++) {
		if (*p == ' ' && ++blanks > 1)
			return NULL;
		if (strchr("#$%>", *p) == NULL && !(*p == ':' && p[1] == ' ' &&
		    (memchr(line, '@', (size_t)(p - line)) != NULL || memchr(line, ']',
		    (size_t)(p - line)) != NULL)))
			continue;
		if (p[1] != ' ' && p[1] != '\0')
			continue;
		for (p++; *p == ' '; p++)
			;
		return p;
	}
	return NULL;
}

const char *
os_paste_command(const char *line)
{
	const char *p = line, *rest;
	size_t l;

	while (*p == ' ' || *p == '\t')
		p++;
	if ((rest = after_prompt(p)) != NULL && (*rest == '\0' || command_at(rest) > 0))
		return rest;
	/* a bare command: "vmstat -i", "cat /proc/stat", "top" (not netstat -Q's "ip  1  1000" row) */
	if (p != line || (l = command_at(p)) == 0)
		return NULL;
	for (rest = p + l; *rest == ' '; rest++)
		;
	/* an option, a path or a pipe; not procps top's "top - 10:23:03 up 3 days" */
	return *rest == '\0' || (*rest == '-' && isalnum((unsigned char)rest[1])) || *rest == '/' ||
	    *rest == '|' ? p : NULL;
}

char *
os_paste_unquote(char *line)
{
	/* "> CPU states: ..." quoted in a mail or forum reply, "> > " quoted twice */
	while (line[0] == '>' && (line[1] == ' ' || line[1] == '\0'))
		line += line[1] == '\0' ? 1 : 2;
	return line;
}

static int os_paste_end(struct os_paste *, struct os_counters *, const char *, char **);

static void
remember(struct os_paste *pa, const char *why, const char *line)
{
	char *e;
	char text[61];
	size_t i;

	if (pa->nshown < nitems(pa->shown)) {
		/* the line as text a note (and JSON) can hold: no control or non-ASCII bytes */
		for (i = 0; line[i] != '\0' && i < sizeof text - 1; i++)
			text[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
		text[i] = '\0';
		xasprintf(&e, "%s:%zu %s: '%s'", pa->path, pa->lineno, why, text);
		pa->shown[pa->nshown++] = e;
	}
}

void
os_paste_skip(struct os_paste *pa, const char *why, const char *line)
{
	pa->skipped++;
	remember(pa, why, line);
}

void
os_paste_cut(struct os_paste *pa, const char *what, const char *line)
{
	pa->cut++;
	remember(pa, what, line);
}

void
os_paste_note(struct os_counters *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	c->notes = util_strv_vaddf(c->notes, &c->nnotes, fmt, ap);
	va_end(ap);
}

int
os_paste_text(struct os_paste *pa, const char *data, size_t len, const struct os_paste_reader *rd,
    void *arg, struct os_counters *c, char **cause)
{
	char *copy, *line, *next;
	size_t skipped;

	if (memchr(data, '\0', len) != NULL) {
		util_cause(cause, "%s: binary data, not command output", pa->path);
		return -1;
	}
	copy = xstrndup(data, len);
	for (line = copy; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		pa->lineno++;
		pa->last = next == NULL;
		/* the last line with text: where a paste cut short is cut */
		pa->final = next == NULL || next[strspn(next, " \t\r\n")] == '\0';
		skipped = pa->skipped;
		if (rd->line(arg, line) == 0 && pa->skipped == skipped)
			pa->used++;
	}
	free(copy);
	if (pa->used > 0 && rd->end != NULL)
		rd->end(arg);
	return os_paste_end(pa, c, rd->expected, cause);
}

static int
os_paste_end(struct os_paste *pa, struct os_counters *c, const char *expected, char **cause)
{
	struct strbuf sb;
	size_t i;
	int rc = 0;

	strbuf_init(&sb);
	for (i = 0; i < pa->nshown; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? "; " : "", pa->shown[i]);
	if (pa->skipped + pa->cut > pa->nshown)
		strbuf_addf(&sb, "; and %zu more", pa->skipped + pa->cut - pa->nshown);
	if (pa->used == 0) {
		util_cause(cause, "%s: nothing could be read: expected %s%s%s%s", pa->path, expected,
		    sb.len > 0 ? " (skipped: " : "", sb.len > 0 ? sb.buf : "", sb.len > 0 ? ")" : "");
		rc = -1;
	} else if (pa->skipped > 0 || pa->cut > 0)
		os_paste_note(c, "%s: %zu line%s skipped, %zu used in part (%s)", pa->path,
		    pa->skipped, pa->skipped == 1 ? "" : "s", pa->cut, sb.buf);
	for (i = 0; i < pa->nshown; i++)
		free(pa->shown[i]);
	pa->nshown = 0;
	strbuf_free(&sb);
	return rc;
}
