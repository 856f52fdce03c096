/*
 * The parsed text (struct fbsd_text, see fbsd_text.h): its lifetime, the kinds
 * of output seen, the errors, the sysctl values, and the line helpers the
 * FreeBSD and Linux parsers share. fbsd_text_scan.c classifies the lines.
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/fbsd_text_impl.h"
#include "os/os_impl.h"
#include "util/util.h"

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

void
fbsd_text_sysctl(struct fbsd_text *t, const char *name, const char *value)
{
	json_t *v;
	char *n, *c;

	if ((v = json_string(value)) == NULL) {
		c = xstrdup(value);
		fbsd_text_utf8_clean((unsigned char *)c);
		v = json_string(c);
		free(c);
	}
	n = xstrdup(name);
	fbsd_text_utf8_clean((unsigned char *)n);
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

void
fbsd_text_utf8_clean(unsigned char *s)
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
