/*
 * Profiles: the `name=value` text users paste (sysctl.conf, loader.conf with
 * its quoting, sysctl.d with `-name` and `;` comments, tuned's `=>`/`=<`), and
 * the <sysctl><item> list of an OPNsense/pfSense config.xml.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "util/util.h"

#define PROFILE_MAX_ENTRIES	100000

void
kb_profile_free(struct kb_profile *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nentries; i++) {
		free(p->entries[i].name);
		free(p->entries[i].value);
		free(p->entries[i].comment);
	}
	free(p->entries);
	free(p->path);
	free(p);
}

const char *
kb_op_text(enum kb_op op)
{
	switch (op) {
	case KB_OP_RAISE:
		return "=>";
	case KB_OP_LOWER:
		return "=<";
	default:
		return "=";
	}
}

const struct kb_entry *
kb_profile_get(const struct kb_profile *p, const char *name)
{
	size_t i;

	for (i = p->nentries; i > 0; i--) {
		if (strcmp(p->entries[i - 1].name, name) == 0)
			return &p->entries[i - 1];
	}
	return NULL;
}

static int
add_entry(struct kb_profile *p, int line, const char *name, enum kb_op op, const char *value,
    const char *comment, char **cause)
{
	struct kb_entry *e;

	if (p->nentries >= PROFILE_MAX_ENTRIES) {
		util_cause(cause, "%s:%d: too many entries", p->path, line);
		return -1;
	}
	p->entries = xreallocarray(p->entries, p->nentries + 1, sizeof *p->entries);
	e = &p->entries[p->nentries++];
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
	return isalnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '%';
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
	char *s = line, *name, *value, *q, *trail = NULL;
	size_t namelen;
	enum kb_op op = KB_OP_SET;
	char quote;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-')		/* sysctl.d: ignore a failure to set this one */
		s++;
	name = s;
	while (name_char((unsigned char)*s))
		s++;
	if (s == name) {
		util_cause(cause, "%s:%d: expected name=value, got '%.40s'", p->path, lineno, line);
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
		util_cause(cause, "%s:%d: expected name=value, got '%.40s'", p->path, lineno, name);
		return -1;
	} else if (isspace((unsigned char)name[namelen])) {
		util_cause(cause, "%s:%d: expected '=' after '%.*s'", p->path, lineno, (int)namelen, name);
		return -1;
	} else {
		util_cause(cause, "%s:%d: bad character '%c' in name", p->path, lineno, *s);
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
			util_cause(cause, "%s:%d: unterminated quote in value of '%s'", p->path, lineno, name);
			return -1;
		}
		*q++ = '\0';
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '#' || *q == ';')
			trail = q + 1;
		else if (*q != '\0') {
			util_cause(cause, "%s:%d: text after the quoted value of '%s'", p->path, lineno, name);
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
		if (*value == '\0') {
			util_cause(cause, "%s:%d: no value for '%s'", p->path, lineno, name);
			return -1;
		}
	}
	collapse(value);
	util_trim(value);
	normalize_name(name);
	if (trail != NULL)
		trail = util_trim(trail);
	return add_entry(p, lineno, name, op, value, trail != NULL && *trail ? trail : comment, cause);
}

static struct kb_profile *
parse_text(struct kb_profile *p, const char *text, size_t len, char **cause)
{
	const char *s = text, *end = text + len, *nl;
	char *line, *c, *comment = NULL;
	int lineno = 0;

	while (s < end) {
		if ((nl = memchr(s, '\n', end - s)) == NULL)
			nl = end;
		line = xstrndup(s, nl - s);
		s = nl + 1;
		lineno++;
		if (strlen(line) > 0 && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		c = util_trim(line);
		if (*c == '\0') {
			free(comment);
			comment = NULL;
		} else if (*c == '#' || *c == ';') {
			free(comment);
			comment = xstrdup(util_trim(c + 1));
		} else if (parse_line(p, lineno, c, comment, cause) == -1) {
			free(line);
			free(comment);
			kb_profile_free(p);
			return NULL;
		} else {
			free(comment);
			comment = NULL;
		}
		free(line);
	}
	free(comment);
	return p;
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
parse_xml(struct kb_profile *p, const char *text, size_t len, char **cause)
{
	const char *end = text + len, *s = text, *item, *iend, *at = NULL, *sect, *send;
	char *name, *value, *descr;
	const char *scope_end = end;

	p->xml = true;
	/* Only <item>s of <sysctl> sections count when there is one; a pasted item list otherwise. */
	if ((sect = memmem(text, len, "<sysctl", 7)) != NULL) {
		s = sect;
		if ((send = memmem(sect, end - sect, "</sysctl>", 9)) != NULL)
			scope_end = send;
	}
	while ((item = memmem(s, scope_end - s, "<item", 5)) != NULL) {
		if ((iend = memmem(item, scope_end - item, "</item>", 7)) == NULL) {
			util_cause(cause, "%s:%d: <item> without </item>", p->path, line_of(text, item));
			kb_profile_free(p);
			return NULL;
		}
		name = xml_child(item, iend, "tunable", &at);
		value = xml_child(item, iend, "value", &at);
		descr = xml_child(item, iend, "descr", &at);
		if (name != NULL && value != NULL && *name != '\0' && strcmp(value, "default") != 0 &&
		    *value != '\0') {
			collapse(value);
			if (add_entry(p, line_of(text, item), name, KB_OP_SET, value, descr, cause) == -1) {
				free(name);
				free(value);
				free(descr);
				kb_profile_free(p);
				return NULL;
			}
		} else if (name != NULL && *name == '\0') {
			util_cause(cause, "%s:%d: <item> with an empty <tunable>", p->path, line_of(text, item));
			free(name);
			free(value);
			free(descr);
			kb_profile_free(p);
			return NULL;
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
	return p;
}

struct kb_profile *
kb_profile_parse(const char *name, const char *text, size_t len, char **cause)
{
	struct kb_profile *p = xcalloc(1, sizeof *p);
	size_t i = 0;

	p->path = xstrdup(name);
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i < len && text[i] == '<')
		return parse_xml(p, text, len, cause);
	return parse_text(p, text, len, cause);
}

struct kb_profile *
kb_profile_load(const char *path, char **cause)
{
	struct kb_profile *p;
	char *data;
	size_t len;

	if (util_read_file(path, &data, &len, cause) == -1)
		return NULL;
	p = kb_profile_parse(strcmp(path, "-") == 0 ? "<stdin>" : path, data, len, cause);
	free(data);
	return p;
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
