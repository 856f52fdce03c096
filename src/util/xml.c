/*
 * A well-formedness check of XML 1.0 text (https://www.w3.org/TR/xml/ section 2.1 and
 * the well-formedness constraints that need no DTD): what OPNsense's and pfSense's
 * config.xml readers (PHP's SimpleXML / libxml2) refuse, ntune refuses too, naming the line.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/xml.h"

struct xml_scan {
	const char	*text, *end;
	struct xml_open {
		const char	*name;
		int		 len;
	}		*open;		/* the open elements, outermost first */
	size_t		 nopen;
	size_t		 nroots;	/* top-level elements seen */
	int		 line;		/* the fault's */
	char		*why;
};

static int
line_at(const char *text, const char *at)
{
	int n = 1;

	for (; text < at; text++)
		if (*text == '\n')
			n++;
	return n;
}

static int fault(struct xml_scan *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

/* The fault at position at: -1. */
static int
fault(struct xml_scan *x, const char *at, const char *fmt, ...)
{
	va_list ap;

	x->line = line_at(x->text, at);
	va_start(ap, fmt);
	xvasprintf(&x->why, fmt, ap);
	va_end(ap);
	return -1;
}

static bool
name_start(unsigned char c)
{
	return isalpha(c) || c == '_' || c == ':' || c >= 0x80;
}

/* The end of the XML Name at p (p itself when there is none). */
static const char *
name_end(const char *p, const char *end)
{
	if (p >= end || !name_start((unsigned char)*p))
		return p;
	for (p++; p < end; p++)
		if (!name_start((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-' &&
		    *p != '.')
			break;
	return p;
}

/* A reference at p ('&'): its end, or NULL. */
static const char *
reference(const char *p, const char *end)
{
	static const char *const ents[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
	const char *q = p + 1;
	size_t i;

	if (q < end && *q == '#') {
		bool hex = q + 1 < end && q[1] == 'x';
		const char *d = q + (hex ? 2 : 1), *e = d;

		while (e < end && (hex ? isxdigit((unsigned char)*e) : isdigit((unsigned char)*e)))
			e++;
		return e > d && e < end && *e == ';' ? e + 1 : NULL;
	}
	for (i = 0; i < nitems(ents); i++)
		if ((size_t)(end - q) >= strlen(ents[i]) && memcmp(q, ents[i], strlen(ents[i])) == 0)
			return q + strlen(ents[i]);
	return NULL;
}

static const char *
find(const char *p, const char *end, const char *s)
{
	return memmem(p, (size_t)(end - p), s, strlen(s));
}

/* Skips a comment, a processing instruction, CDATA or a DOCTYPE at p; its end or NULL. */
static const char *
special(struct xml_scan *x, const char *p)
{
	static const struct {
		const char *open, *close, *what;
	} kinds[] = {
		{ "<!--", "-->", "a comment without its -->" },
		{ "<?", "?>", "a processing instruction without its ?>" },
		{ "<![CDATA[", "]]>", "a CDATA section without its ]]>" },
		{ "<!DOCTYPE", ">", "a DOCTYPE without its >" },
	};
	const char *q;
	size_t i;

	for (i = 0; i < nitems(kinds); i++) {
		if ((size_t)(x->end - p) < strlen(kinds[i].open) ||
		    memcmp(p, kinds[i].open, strlen(kinds[i].open)) != 0)
			continue;
		q = find(p + strlen(kinds[i].open), x->end, kinds[i].close);
		if (q == NULL) {
			fault(x, p, "%s", kinds[i].what);
			return NULL;
		}
		return q + strlen(kinds[i].close);
	}
	fault(x, p, "'<!' that starts no comment, CDATA or DOCTYPE");
	return NULL;
}

static const char *
skip_blank(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* The attributes of a start tag from p to its '>' or "/>": the position of that, or NULL. */
static const char *
attributes(struct xml_scan *x, const char *p, const char *tag, int tlen)
{
	const char *n, *v;
	char quote;

	for (;;) {
		n = skip_blank(p, x->end);
		if (n < x->end && (*n == '>' || (*n == '/' && n + 1 < x->end && n[1] == '>')))
			return n;
		if (n == p || (v = name_end(n, x->end)) == n) {
			fault(x, tag - 1, "<%.*s> without its closing >", tlen, tag);
			return NULL;
		}
		v = skip_blank(v, x->end);
		if (v >= x->end || *v != '=') {
			fault(x, v, "an attribute of <%.*s> without '=\"value\"'", tlen, tag);
			return NULL;
		}
		v = skip_blank(v + 1, x->end);
		if (v >= x->end || (*v != '"' && *v != '\'')) {
			fault(x, v, "an attribute value of <%.*s> without quotes", tlen, tag);
			return NULL;
		}
		for (quote = *v++; v < x->end && *v != quote; v++) {
			if (*v == '<' || (*v == '&' && reference(v, x->end) == NULL)) {
				fault(x, v, "'%c' in an attribute value of <%.*s>", *v, tlen, tag);
				return NULL;
			}
		}
		if (v >= x->end) {
			fault(x, n, "an attribute value of <%.*s> without its closing quote", tlen, tag);
			return NULL;
		}
		p = v + 1;
	}
}

/* A start or end tag at p ('<'): its end, or NULL. */
static const char *
tag(struct xml_scan *x, const char *p)
{
	bool close = p + 1 < x->end && p[1] == '/';
	const char *n = p + (close ? 2 : 1), *e = name_end(n, x->end);
	struct xml_open *top;
	int nl = (int)(e - n);

	if (e == n)
		return fault(x, p, "'<' that starts no tag (write &lt;)"), NULL;
	if (close) {
		e = skip_blank(e, x->end);
		if (e >= x->end || *e != '>')
			return fault(x, p, "</%.*s without its closing >", nl, n), NULL;
		if (x->nopen == 0)
			return fault(x, p, "</%.*s> without <%.*s>", nl, n, nl, n), NULL;
		top = &x->open[x->nopen - 1];
		if (top->len != nl || memcmp(top->name, n, (size_t)nl) != 0)
			return fault(x, top->name - 1, "<%.*s> without </%.*s>", top->len, top->name,
			    top->len, top->name), NULL;
		x->nopen--;
		return e + 1;
	}
	if ((e = attributes(x, e, n, nl)) == NULL)
		return NULL;
	if (x->nopen == 0)
		x->nroots++;
	if (*e == '/')
		return e + 2;
	x->open = xreallocarray(x->open, x->nopen + 1, sizeof *x->open);
	x->open[x->nopen].name = n;
	x->open[x->nopen++].len = nl;
	return e + 1;
}

static int
scan(struct xml_scan *x, bool document)
{
	const char *p = x->text, *q;

	while (p < x->end) {
		if (*p == '<') {
			q = p + 1 < x->end && (p[1] == '!' || p[1] == '?') ? special(x, p) : tag(x, p);
			if (q == NULL)
				return -1;
			if (document && x->nroots > 1)
				return fault(x, p, "a second root element <%.*s>",
				    (int)(name_end(p + 1, x->end) - p - 1), p + 1);
			p = q;
			continue;
		}
		if (*p == '&' && reference(p, x->end) == NULL)
			return fault(x, p, "'&' that starts no reference (write &amp;)");
		if (document && x->nopen == 0 && !isspace((unsigned char)*p))
			return fault(x, p, "text outside the root element");
		p++;
	}
	if (x->nopen > 0)
		return fault(x, x->open[x->nopen - 1].name - 1, "<%.*s> without </%.*s>",
		    x->open[x->nopen - 1].len, x->open[x->nopen - 1].name,
		    x->open[x->nopen - 1].len, x->open[x->nopen - 1].name);
	return 0;
}

int
util_xml_check(const char *text, size_t len, int *line, char **why)
{
	struct xml_scan x;
	const char *p;
	int rc;

	memset(&x, 0, sizeof x);
	x.text = text;
	x.end = text + len;
	p = skip_blank(text, x.end);
	rc = scan(&x, (size_t)(x.end - p) >= 5 && memcmp(p, "<?xml", 5) == 0);
	free(x.open);
	if (rc == -1) {
		if (line != NULL)
			*line = x.line;
		if (why != NULL)
			*why = x.why;
		else
			free(x.why);
	}
	return rc;
}
