/*
 * Profiles: the `name=value` text users paste (sysctl.conf, loader.conf with
 * its quoting, sysctl.d with `-name` and `;` comments, tuned's `=>`/`=<`), and
 * the <sysctl><item> list of an OPNsense/pfSense config.xml.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "kb/kb.h"
#include "kb/profile_impl.h"
#include "os/os.h"
#include "util/util.h"
#include "util/xml.h"

#define PROFILE_MAX_ENTRIES	100000

static int
notecmp(const void *x, const void *y)
{
	const struct kb_input_note *a = x, *b = y;
	int c;

	/* The profile's own lines first, then each included file's. */
	if (a->file != b->file) {
		if (a->file == NULL || b->file == NULL)
			return a->file == NULL ? -1 : 1;
		if ((c = strcmp(a->file, b->file)) != 0)
			return c;
	}
	return (a->line > b->line) - (a->line < b->line);
}

/* Strict readers fail on any line not read, naming all of them; check keeps them as notes. */
static struct kb_profile *
finish(struct kb_profile *p, bool all, char **cause)
{
	struct strbuf sb;
	size_t i;

	if (p->nnotes > 1)
		qsort(p->notes, p->nnotes, sizeof *p->notes, notecmp);
	if (all)
		return p;
	strbuf_init(&sb);
	for (i = 0; i < p->nnotes; i++) {
		if (p->notes[i].severity == KB_ERROR)
			strbuf_addf(&sb, "%s%s:%d: %s", sb.len ? "\n" : "", p->notes[i].file != NULL ?
			    p->notes[i].file : p->path, p->notes[i].line, p->notes[i].message);
	}
	if (sb.len == 0)
		return p;
	if (cause != NULL)
		*cause = strbuf_detach(&sb);
	else
		strbuf_free(&sb);
	kb_profile_free(p);
	return NULL;
}

static int
add_entry(struct kb_profile *p, int line, const char *name, enum kb_op op, const char *value,
    const char *comment, char **cause)
{
	struct kb_entry *e;

	if (p->nentries >= PROFILE_MAX_ENTRIES) {
		util_cause(cause, "too many entries (more than %d)", PROFILE_MAX_ENTRIES);
		(void)line;
		return -1;
	}
	if (p->dump && p->nentries > 0 && strcmp(p->entries[p->nentries - 1].name, name) == 0) {
		/* `sysctl -a` prints each line of a multi-line value as "name = line". */
		char *v;

		e = &p->entries[p->nentries - 1];
		xasprintf(&v, "%s%s%s", e->value, *e->value && *value ? " " : "", value);
		free(e->value);
		e->value = v;
		return 0;
	}
	p->entries = xreallocarray(p->entries, p->nentries + 1, sizeof *p->entries);
	e = &p->entries[p->nentries++];
	memset(e, 0, sizeof *e);
	e->file = p->path;
	e->line = line;
	e->name = xstrdup(name);
	e->op = op;
	e->value = xstrdup(value);
	e->comment = comment != NULL && *comment != '\0' ? xstrdup(comment) : NULL;
	return 0;
}

static bool
name_char(int c)
{
	/* '*' and '?': sysctl.d(5) globs (net.ipv4.conf.*.rp_filter) */
	return isalnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '%' || c == '*' ||
	    c == '?';
}

/*
 * Text for a message: at most 40 bytes of s, a UTF-8 character shown as <U+XXXX> (an
 * invisible zero-width space or no-break space pasted from a web page is what breaks the
 * line, and '?' would hide it), anything else unprintable as '?'.
 */
/* The length of a whole UTF-8 sequence of 2 to 4 bytes at u, its code point in *cp; else 0. */
static size_t
utf8_seq(const unsigned char *u, unsigned long *cp)
{
	size_t n = *u >= 0xf0 && *u < 0xf8 ? 4 : *u >= 0xe0 && *u < 0xf0 ? 3 :
	    *u >= 0xc0 && *u < 0xe0 ? 2 : 0, k;

	*cp = n > 0 ? *u & (0x7f >> n) : 0;
	for (k = 1; k < n && (u[k] & 0xc0) == 0x80; k++)
		*cp = *cp << 6 | (u[k] & 0x3f);
	return n > 0 && k == n ? n : 0;
}

static const char *
shown_text(const char *s, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, n;
	unsigned long cp;

	while (u[i] != '\0' && i < 40 && o + 10 < len) {
		if ((n = utf8_seq(u + i, &cp)) > 0) {
			o += (size_t)snprintf(buf + o, len - o, "<U+%04lX>", cp);
			i += n;
		} else {
			buf[o++] = isprint(u[i]) ? (char)u[i] : '?';
			i++;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* sysctl.conf(5) on Linux: a name whose first separator is '/' uses '/' for levels. */
static void
normalize_name(char *name)
{
	char *slash = strchr(name, '/'), *dot = strchr(name, '.'), *p;

	if (slash == NULL || (dot != NULL && dot < slash))
		return;
	for (p = name; *p != '\0'; p++) {
		if (*p == '/')
			*p = '.';
		else if (*p == '.')
			*p = '/';
	}
}

/* Collapses runs of white space into one space, in place. */
static void
collapse(char *s)
{
	char *w = s, *start = s;
	bool space = false;

	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s)) {
			space = true;
			continue;
		}
		if (space && w != start)
			*w++ = ' ';
		space = false;
		*w++ = *s;
	}
	*w = '\0';
}

static int
parse_line(struct kb_profile *p, int lineno, char *line, const char *comment, char **cause)
{
	char *s = line, *name, *value, *q, *trail = NULL, buf[64];
	size_t namelen, n;
	unsigned long cp;
	enum kb_op op = KB_OP_SET;
	char quote = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-')		/* sysctl.d: ignore a failure to set this one */
		s++;
	name = s;
	while (name_char((unsigned char)*s))
		s++;
	if (s == name) {
		util_cause(cause, "expected name=value, got '%s'", shown_text(line, buf, sizeof buf));
		return -1;
	}
	namelen = s - name;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '=') {
		s++;
		if (*s == '>') {
			op = KB_OP_RAISE;
			s++;
		} else if (*s == '<') {
			op = KB_OP_LOWER;
			s++;
		}
	} else if (*s == ':') {
		s++;	/* `sysctl -a` output form */
	} else if (*s == '\0') {
		util_cause(cause, "expected name=value, got '%s'", shown_text(name, buf, sizeof buf));
		return -1;
	} else if (isspace((unsigned char)name[namelen])) {
		util_cause(cause, "expected '=' after '%.*s'", (int)namelen, name);
		return -1;
	} else if ((n = utf8_seq((const unsigned char *)s, &cp)) > 0) {
		/* a UTF-8 character (a no-break space pasted from a web page): its code point */
		char one[5] = { 0 };

		memcpy(one, s, n);
		util_cause(cause, "bad character '%s' in name", shown_text(one, buf, sizeof buf));
		return -1;
	} else {
		util_cause(cause, "bad character '%s' in name", shown_text((char[]){ *s, '\0' }, buf, sizeof buf));
		return -1;
	}
	name[namelen] = '\0';
	/* name is NUL-terminated now (separator overwritten). */
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '"' || *s == '\'') {
		quote = *s++;
		value = s;
		if ((q = strchr(s, quote)) == NULL) {
			util_cause(cause, "unterminated quote in value of '%s'", name);
			return -1;
		}
		*q++ = '\0';
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '#' || *q == ';')
			trail = q + 1;
		else if (*q != '\0') {
			util_cause(cause, "text after the quoted value of '%s'", name);
			return -1;
		}
	} else {
		value = s;
		for (q = s; *q != '\0'; q++) {
			if (*q == '#' && (q == s || isspace((unsigned char)q[-1]))) {
				*q = '\0';
				trail = q + 1;
				break;
			}
		}
		util_trim(value);
		if (*value == '\0' && !p->dump) {
			util_cause(cause, "no value for '%s'", name);
			return -1;
		}
	}
	collapse(value);
	util_trim(value);
	normalize_name(name);
	if (trail != NULL)
		trail = util_trim(trail);
	n = p->nentries;
	if (add_entry(p, lineno, name, op, value, trail != NULL && *trail ? trail : comment,
	    cause) == -1)
		return -1;
	/* a new entry (a `sysctl -a` continuation joins the last); TuneD unquotes its own */
	if (p->nentries > n && p->tuned == NULL)
		p->entries[n].quoted = quote;
	return 0;
}

static void
note(struct kb_profile *p, int line, enum kb_severity sev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
note(struct kb_profile *p, int line, enum kb_severity sev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kb_profile_vnote(p, NULL, line, sev, fmt, ap);
	va_end(ap);
}

/* "sysctl -w name=value", "sysctl name=value": the setting, or NULL for another command. */
static char *
sysctl_command(char *c)
{
	if (strncmp(c, "sysctl", 6) != 0 || !isspace((unsigned char)c[6]))
		return NULL;
	c += 6;
	for (;;) {
		while (isspace((unsigned char)*c))
			c++;
		if (*c != '-')
			return c;
		while (*c != '\0' && !isspace((unsigned char)*c))
			c++;
	}
}

/* "• name: value (alt?) - comment" -> "name=value"; the rest goes to *rest. */
static bool
bullet(char *c, char **rest)
{
	char *s = c, *v, *end;

	while (*s != '\0' && (isalnum((unsigned char)*s) || strchr("._-%/", *s) != NULL))
		s++;
	/* A sysctl has levels: "http://..." and "6 core, ..." are prose. */
	if (s == c || (*s != ':' && *s != '=') || memchr(c, '.', (size_t)(s - c)) == NULL)
		return false;
	v = s + 1;
	while (isspace((unsigned char)*v))
		v++;
	if (*v == '\0')
		return false;
	for (end = v; *end != '\0' && !isspace((unsigned char)*end); end++)
		;
	*rest = *end != '\0' ? util_trim(end + 1) : end;
	*s = '=';
	memmove(s + 1, v, (size_t)(end - v));
	s[1 + (end - v)] = '\0';
	return true;
}

struct reader {
	char	*comment;
};

/*
 * The release of a base-system file's version tag in a comment: "$FreeBSD:
 * releng/10.4/etc/sysctl.conf ...$" states 10.4, "stable/11/" 11. NULL for none.
 */
static char *
tag_release(const char *c)
{
	const char *t = strstr(c, "$FreeBSD: "), *v;
	size_t n;

	if (t == NULL)
		return NULL;
	t += strlen("$FreeBSD: ");
	if (util_startswith(t, "releng/"))
		v = t + strlen("releng/");
	else if (util_startswith(t, "stable/"))
		v = t + strlen("stable/");
	else
		return NULL;
	n = strspn(v, "0123456789.");
	if (n == 0 || v[n] != '/' || v[0] == '.')
		return NULL;
	return xstrndup(v, n);
}

static int
read_line(struct kb_profile *p, struct reader *r, int lineno, char *c, char **cause)
{
	char *setting, *rest = NULL;
	const char *bul = "\xe2\x80\xa2";	/* U+2022 BULLET */

	if (kb_tuned_line(p, lineno, c))
		return 0;
	if (util_startswith(c, bul)) {
		c = util_trim(c + strlen(bul));
		if (!bullet(c, &rest)) {
			note(p, lineno, KB_WARNING, "a bulleted line that is not a setting: skipped");
			return 0;
		}
		note(p, lineno, KB_WARNING, "read from a bulleted paste as '%s'%s%s%s", c,
		    *rest ? "; '" : "", rest, *rest ? "' ignored" : "");
		return parse_line(p, lineno, c, *rest ? rest : r->comment, cause);
	}
	if ((setting = sysctl_command(c)) != NULL) {
		size_t n = p->nentries;
		char *cmd;

		if (strchr(setting, '=') == NULL) {
			note(p, lineno, KB_WARNING, "a sysctl command that sets nothing: skipped");
			return 0;
		}
		/* Whether it is a setting depends on the file's reader: kb_check says. */
		cmd = xstrndup(c, (size_t)(strchr(setting, '=') - c));
		util_trim(cmd);
		if (parse_line(p, lineno, setting, r->comment, cause) == -1) {
			free(cmd);
			return -1;
		}
		if (p->nentries > n)
			p->entries[p->nentries - 1].command = cmd;
		else
			free(cmd);
		return 0;
	}
	return parse_line(p, lineno, c, r->comment, cause);
}

static void
parse_text(struct kb_profile *p, const char *text, size_t len)
{
	const char *s = text, *end = text + len, *nl;
	char *line, *c, *why = NULL;
	struct reader r;
	int lineno = 0;
	bool indented;

	memset(&r, 0, sizeof r);
	p->tuned = kb_tuned_scan(text, len);
	while (s < end) {
		if ((nl = memchr(s, '\n', end - s)) == NULL)
			nl = end;
		line = xstrndup(s, nl - s);
		s = nl + 1;
		lineno++;
		if (strlen(line) > 0 && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		indented = isspace((unsigned char)line[0]);
		c = util_trim(line);
		/* "#!/bin/sh", "#!/usr/bin/env bash": a script, whose sysctl commands run. */
		if (lineno == 1 && util_startswith(c, "#!") && strstr(c, "sh") != NULL)
			p->shell = true;
		if (*c == '\0') {
			free(r.comment);
			r.comment = NULL;
		} else if (indented && *c != '#' && *c != ';' && kb_tuned_continuation(p, lineno, c)) {
			/* a tuned profile's continuation line: joined to its option */
		} else if (*c == '#' || *c == ';') {
			free(r.comment);
			r.comment = xstrdup(util_trim(c + 1));
			if (p->release == NULL)
				p->release = tag_release(c);
		} else {
			if (read_line(p, &r, lineno, c, &why) == -1) {
				note(p, lineno, KB_ERROR, "%s", why);
				free(why);
				why = NULL;
			}
			free(r.comment);
			r.comment = NULL;
		}
		free(line);
		if (p->nentries >= PROFILE_MAX_ENTRIES)
			break;
	}
	free(r.comment);
	p->nlines = lineno;
}

static char *
xml_unescape(const char *s, size_t len)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
	};
	struct strbuf sb;
	size_t i, j;
	char *out;

	strbuf_init(&sb);
	for (i = 0; i < len; i++) {
		for (j = 0; j < nitems(ents); j++) {
			size_t el = strlen(ents[j].ent);

			if (len - i >= el && strncmp(s + i, ents[j].ent, el) == 0) {
				strbuf_addc(&sb, ents[j].c);
				i += el - 1;
				break;
			}
		}
		if (j == nitems(ents))
			strbuf_addc(&sb, s[i]);
	}
	out = strbuf_detach(&sb);
	return out != NULL ? out : xstrdup("");
}

/* The text of <tag>...</tag> within [s, end), unescaped and trimmed; NULL if absent. */
static char *
xml_child(const char *s, const char *end, const char *tag, const char **at)
{
	char open[64], close[64], *v, *t;
	const char *a, *b;
	size_t ol;

	snprintf(open, sizeof open, "<%s", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	ol = strlen(open);
	for (a = s; (a = memmem(a, end - a, open, ol)) != NULL; a += ol) {
		if (a + ol < end && (a[ol] == '>' || a[ol] == ' ' || a[ol] == '/'))
			break;
	}
	if (a == NULL)
		return NULL;
	*at = a;
	if ((b = memchr(a, '>', end - a)) == NULL)
		return NULL;
	if (b[-1] == '/')	/* <descr/> */
		return xstrdup("");
	b++;
	if ((a = memmem(b, end - b, close, strlen(close))) == NULL)
		return NULL;
	v = xml_unescape(b, a - b);
	t = xstrdup(util_trim(v));
	free(v);
	return t;
}

static int
line_of(const char *text, const char *at)
{
	int n = 1;

	for (; text < at; text++) {
		if (*text == '\n')
			n++;
	}
	return n;
}

static struct kb_profile *
parse_xml(struct kb_profile *p, const char *text, size_t len, bool all, char **cause)
{
	char *why = NULL;
	const char *end = text + len, *s = text, *item, *iend, *at = NULL, *sect, *send;
	char *name, *value, *descr;
	const char *scope_end = end;
	struct strbuf defaults;
	int ndefault = 0, first_default = 0;

	strbuf_init(&defaults);
	p->xml = true;
	/* Only <item>s of <sysctl> sections count when there is one; a pasted item list otherwise. */
	if ((sect = memmem(text, len, "<sysctl", 7)) != NULL) {
		s = sect;
		if ((send = memmem(sect, end - sect, "</sysctl>", 9)) != NULL)
			scope_end = send;
	}
	while ((item = memmem(s, scope_end - s, "<item", 5)) != NULL) {
		if ((iend = memmem(item, scope_end - item, "</item>", 7)) == NULL) {
			note(p, line_of(text, item), KB_ERROR, "<item> without </item>");
			break;
		}
		name = xml_child(item, iend, "tunable", &at);
		value = xml_child(item, iend, "value", &at);
		descr = xml_child(item, iend, "descr", &at);
		if (name != NULL && value != NULL && *name != '\0' && strcmp(value, "default") != 0 &&
		    *value != '\0') {
			collapse(value);
			if (add_entry(p, line_of(text, item), name, KB_OP_SET, value, descr, &why) == -1) {
				note(p, line_of(text, item), KB_ERROR, "%s", why);
				free(why);
				free(name);
				free(value);
				free(descr);
				break;
			}
		} else if (name != NULL && *name == '\0')
			note(p, line_of(text, item), KB_ERROR, "<item> with an empty <tunable>");
		else if (name != NULL && value != NULL) {
			/* the appliance's default (OPNsense's and pfSense's own tables set some, such
			 * as tcp.blackhole, to other values than the kernel's): not ours to judge,
			 * but never dropped without a word; one note for them all, at the first */
			if (ndefault++ == 0)
				first_default = line_of(text, item);
			if (ndefault <= 4)
				strbuf_addf(&defaults, "%s%s", ndefault > 1 ? ", " : "", name);
		}
		free(name);
		free(value);
		free(descr);
		s = iend + 7;
		if (sect != NULL && scope_end != end && s >= scope_end) {
			/* Another <sysctl> section further down? */
			if ((sect = memmem(s, end - s, "<sysctl", 7)) == NULL)
				break;
			s = sect;
			send = memmem(sect, end - sect, "</sysctl>", 9);
			scope_end = send != NULL ? send : end;
		}
	}
	if (ndefault > 0)
		note(p, first_default, KB_NOTE, "%d <item>%s with the value 'default' or none (%s%s) "
		    "%s left to the appliance's default: not checked", ndefault, ndefault == 1 ? "" :
		    "s", defaults.buf != NULL ? defaults.buf : "", ndefault > 4 ? ", ..." : "",
		    ndefault == 1 ? "is" : "are");
	strbuf_free(&defaults);
	p->nlines = line_of(text, end);
	return finish(p, all, cause);
}

/* XML comments blanked out (newlines kept, so line numbers stay). */
static char *
xml_uncomment(const char *text, size_t len)
{
	char *t = xmalloc(len + 1), *a, *b;

	memcpy(t, text, len);
	t[len] = '\0';
	for (a = t; (a = memmem(a, len - (size_t)(a - t), "<!--", 4)) != NULL; a = b) {
		b = memmem(a + 4, len - (size_t)(a + 4 - t), "-->", 3);
		b = b != NULL ? b + 3 : t + len;
		for (char *q = a; q < b; q++) {
			if (*q != '\n')
				*q = ' ';
		}
	}
	return t;
}

static struct kb_profile *parse(const char *, const char *, size_t,
    const struct kb_profile_reader *, bool, bool, bool, char **);

/* An included tuned profile: every line read, its own includes left to tuned.c. */
static struct kb_profile *
parse_one(const char *name, const char *text, size_t len, char **cause)
{
	return parse(name, text, len, NULL, true, false, true, cause);
}

/* One file's text; rd: how a tuned profile's includes are read (NULL: not followed). */
static struct kb_profile *
parse(const char *name, const char *text, size_t len, const struct kb_profile_reader *rd,
    bool all, bool dump, bool one, char **cause)
{
	struct kb_profile *p;
	size_t i = 0;
	char *t, *why;
	bool bom;
	int line;

	if (memchr(text, '\0', len) != NULL) {
		util_cause(cause, "%s: a binary file (it holds NUL bytes), not a profile", name);
		return NULL;
	}
	if ((bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)) {	/* UTF-8 BOM */
		text += 3;
		len -= 3;
	}
	p = xcalloc(1, sizeof *p);
	p->path = xstrdup(name);
	p->dump = dump;
	p->shell = strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".sh") == 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i < len && text[i] == '<') {
		if (util_xml_check(text, len, &line, &why) == -1) {
			util_cause(cause, "%s:%d: %s: not well-formed XML, which OPNsense and pfSense "
			    "do not read", name, line, why);
			free(why);
			kb_profile_free(p);
			return NULL;
		}
		t = xml_uncomment(text, len);
		p = parse_xml(p, t, len, all, cause);
		free(t);
		return p;
	}
	parse_text(p, text, len);
	if (bom)
		kb_tuned_bom(p);
	if (one)
		return p;
	if (p->tuned != NULL)
		kb_tuned_resolve(p, rd, parse_one);
	return finish(p, all, cause);
}

struct kb_profile *
kb_profile_parse(const char *name, const char *text, size_t len, char **cause)
{
	return parse(name, text, len, NULL, false, false, false, cause);
}

struct kb_profile *
kb_profile_parse_dump(const char *name, const char *text, size_t len, char **cause)
{
	return parse(name, text, len, NULL, false, true, false, cause);
}

struct kb_profile *
kb_profile_parse_all(const char *name, const char *text, size_t len, char **cause)
{
	return parse(name, text, len, NULL, true, false, false, cause);
}

struct kb_profile *
kb_profile_parse_from(const char *name, const char *text, size_t len,
    const struct kb_profile_reader *rd, bool all, char **cause)
{
	return parse(name, text, len, rd, all, false, false, cause);
}


/* An included profile's tuned.conf: a regular file (TuneD: os.path.isfile, locator.py:40). */
static int
read_regular(void *arg, const char *path, char **text, size_t *len)
{
	struct stat st;

	(void)arg;
	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return -1;
	return util_read_file(path, text, len, NULL);
}

const struct kb_profile_reader *
kb_profile_files(void)
{
	static struct kb_profile_reader rd = { read_regular, NULL, NULL };

	rd.root = os_target_root();
	return &rd;
}

static struct kb_profile *
load(const char *path, bool all, char **cause)
{
	struct kb_profile *p;
	bool in = strcmp(path, "-") == 0;
	char *data;
	size_t len;

	if (util_read_file(path, &data, &len, cause) == -1)
		return NULL;
	p = parse(in ? "<stdin>" : path, data, len, kb_profile_files(), all, false, false, cause);
	free(data);
	return p;
}

struct kb_profile *
kb_profile_load(const char *path, char **cause)
{
	return load(path, false, cause);
}

struct kb_profile *
kb_profile_load_all(const char *path, char **cause)
{
	return load(path, true, cause);
}

static void
fold(const char *s, char *out, size_t outlen)
{
	size_t n = 0;
	bool space = false;

	while (isspace((unsigned char)*s))
		s++;
	for (; *s != '\0' && n + 2 < outlen; s++) {
		if (isspace((unsigned char)*s)) {
			space = true;
			continue;
		}
		if (space && n > 0)
			out[n++] = ' ';
		space = false;
		out[n++] = *s;
	}
	out[n] = '\0';
}

static int
boolval(const char *v)
{
	if (strcmp(v, "1") == 0 || strcasecmp(v, "on") == 0 || strcasecmp(v, "yes") == 0 ||
	    strcasecmp(v, "true") == 0)
		return 1;
	if (strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0 || strcasecmp(v, "no") == 0 ||
	    strcasecmp(v, "false") == 0)
		return 0;
	return -1;
}

static void
hexnorm(const char *s, char *out, size_t outlen)
{
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s != '\0' && n + 1 < outlen; s++) {
		if (*s == ',' || (*s == '0' && n == 0))
			continue;
		out[n++] = (char)tolower((unsigned char)*s);
	}
	if (n == 0)
		out[n++] = '0';
	out[n] = '\0';
}

bool
kb_value_equal(const struct kb_knob *k, const char *a, const char *b)
{
	char fa[512], fb[512];
	long long na, nb;
	int ba, bb;

	fold(a, fa, sizeof fa);
	fold(b, fb, sizeof fb);
	if (strcmp(fa, fb) == 0)
		return true;
	if (k != NULL && k->type == KB_TYPE_BOOL && (ba = boolval(fa)) != -1 && (bb = boolval(fb)) != -1)
		return ba == bb;
	if (k != NULL && k->type == KB_TYPE_CPUMASK) {
		hexnorm(fa, fa, sizeof fa);
		hexnorm(fb, fb, sizeof fb);
		return strcmp(fa, fb) == 0;
	}
	if (kb_parse_number(fa, &na) == 0 && kb_parse_number(fb, &nb) == 0)
		return na == nb;
	if (k == NULL || k->type == KB_TYPE_BOOL) {
		if ((ba = boolval(fa)) != -1 && (bb = boolval(fb)) != -1)
			return ba == bb;
	}
	return strcasecmp(fa, fb) == 0 && k != NULL && k->type == KB_TYPE_ENUM;
}
