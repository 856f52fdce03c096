/*
 * JSON text for --json: jansson writes a real with one precision for the whole
 * document (%.17g by default: 87.8 becomes 87.799999999999997). Here every real
 * is written as the shortest text that strtod(3) reads back to the same double.
 */
#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util_json.h"

/* The shortest %.Ng of x that reads back to x, kept a real (".0" added when needed). */
static void
shortest(double x, char buf[40])
{
	char *e;
	int p;

	for (p = 1; p <= 17; p++) {
		snprintf(buf, 40, "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	/* 90, not 9e1: enough digits for the integer part below 1e17 (%g's exponent form starts at p). */
	if ((e = strchr(buf, 'e')) != NULL && fabs(x) >= 1 && fabs(x) < 1e17) {
		p = (int)floor(log10(fabs(x))) + 1;
		snprintf(buf, 40, "%.*g", p, x);
	}
	if ((e = strchr(buf, 'e')) != NULL) {	/* jansson's exponent: 2.5e-5, not 2.5e-05 */
		char *d = e + 1;

		if (*d == '+')
			memmove(d, d + 1, strlen(d));
		else if (*d == '-')
			d++;
		while (*d == '0' && d[1] != '\0')
			memmove(d, d + 1, strlen(d));
	} else if (strchr(buf, '.') == NULL && strchr(buf, 'n') == NULL)
		strcat(buf, ".0");	/* "5": still a real to a reader ("5.0") */
}

/* Copies text, each number token outside strings that is a real written shortest. */
static char *
rewrite(const char *text)
{
	struct strbuf sb;
	const char *s = text;
	char num[40];
	bool in_string = false;

	strbuf_init(&sb);

	while (*s != '\0') {
		if (in_string) {
			if (*s == '\\' && s[1] != '\0') {
				strbuf_add(&sb, s, 2);
				s += 2;
				continue;
			}
			if (*s == '"')
				in_string = false;
			strbuf_addc(&sb, *s++);
		} else if (*s == '"') {
			in_string = true;
			strbuf_addc(&sb, *s++);
		} else if (*s == '-' || (*s >= '0' && *s <= '9')) {
			size_t n = strspn(s, "-+0123456789.eE");

			if (memchr(s, '.', n) != NULL || memchr(s, 'e', n) != NULL ||
			    memchr(s, 'E', n) != NULL) {
				shortest(strtod(s, NULL), num);
				strbuf_adds(&sb, num);
			} else
				strbuf_add(&sb, s, n);
			s += n;
		} else
			strbuf_addc(&sb, *s++);
	}
	return strbuf_detach(&sb);
}

char *
util_json_dumps(const json_t *doc, size_t flags)
{
	char *text, *out;

	/* Any precision given is replaced: 17 digits always read back, then each is cut. */
	flags &= ~(size_t)JSON_REAL_PRECISION(31);
	if ((text = json_dumps(doc, flags | JSON_REAL_PRECISION(17))) == NULL)
		return NULL;
	out = rewrite(text);
	free(text);
	return out;
}

int
util_json_print(const json_t *doc, FILE *fp, size_t flags)
{
	char *text;
	int rc;

	if ((text = util_json_dumps(doc, flags)) == NULL)
		return -1;
	rc = fputs(text, fp) == EOF ? -1 : 0;
	free(text);
	return rc;
}
