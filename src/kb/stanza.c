/*
 * The text formats the knowledge base files share: the stanza reader of
 * .knob, .advice, .rules, .drivers and os.prefixes files, numbers with K/M/G
 * suffixes, and the "a and b" conditions of advice and diagnosis rules.
 * Everything else in kb (and diag) reads its files through these.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "util/util.h"

int
kb_parse_number(const char *s, long long *out)
{
	char *end;
	long long v, mul = 1;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		v = strtoll(s, &end, 16);
	else
		v = strtoll(s, &end, 10);
	if (end == s || errno != 0)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		mul = 1024LL;
		end++;
		break;
	case 'm': case 'M':
		mul = 1024LL * 1024;
		end++;
		break;
	case 'g': case 'G':
		mul = 1024LL * 1024 * 1024;
		end++;
		break;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -1;
	if (mul != 1 && (v > LLONG_MAX / mul || v < LLONG_MIN / mul))
		return -1;
	*out = v * mul;
	return 0;
}

int
kb_stanzas_read(const char *file, const char *text, size_t len, const struct kb_stanza_ops *ops,
    void *arg, char **cause)
{
	const char *p = text, *end = text + len, *nl;
	char *line = NULL, *colon, *key, *value, **last, *joined;
	int lineno = 0, rc = -1;

	while (p < end) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			nl = end;
		free(line);
		line = xstrndup(p, nl - p);
		p = nl + 1;
		lineno++;
		if (line[0] == '#')
			continue;
		if ((line[0] == ' ' || line[0] == '\t') && *util_trim(line) != '\0') {
			if ((last = ops->last(arg)) == NULL || *last == NULL) {
				util_cause(cause, "%s:%d: continuation line without a key", file, lineno);
				goto out;
			}
			xasprintf(&joined, "%s %s", *last, util_trim(line));
			free(*last);
			*last = joined;
			continue;
		}
		util_trim(line);
		if (line[0] == '\0') {
			if (ops->end(arg, cause) == -1)
				goto out;
			continue;
		}
		if ((colon = strchr(line, ':')) == NULL) {
			util_cause(cause, "%s:%d: expected 'key: value'", file, lineno);
			goto out;
		}
		*colon = '\0';
		key = util_trim(line);
		value = util_trim(colon + 1);
		if (*value == '\0') {
			util_cause(cause, "%s:%d: key '%s' has no value", file, lineno, key);
			goto out;
		}
		if (ops->field(arg, key, value, lineno, cause) == -1)
			goto out;
	}
	rc = ops->end(arg, cause);
out:
	free(line);
	return rc;
}

char **
kb_stanza_slot(void *rec, const struct kb_stanza_key *keys, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(keys[i].key, key) == 0)
			return (char **)(void *)((char *)rec + keys[i].off);
	return NULL;
}

int
kb_stanza_set(char **slot, const char *file, int line, const char *key, const char *value,
    char **cause)
{
	if (slot == NULL) {
		util_cause(cause, "%s:%d: unknown key '%s'", file, line, key);
		return -1;
	}
	if (*slot != NULL) {
		util_cause(cause, "%s:%d: key '%s' given twice", file, line, key);
		return -1;
	}
	*slot = xstrdup(value);
	return 0;
}

char **
kb_stanza_last(void *arg)
{
	return ((struct kb_stanza_state *)arg)->last;
}

int
kb_stanza_single(struct kb_stanza_state *st, void *rec, const struct kb_stanza_key *keys, size_t n,
    const char *key, const char *value, int line, char **cause)
{
	char **slot = kb_stanza_slot(rec, keys, n, key);

	st->last = NULL;
	if (kb_stanza_set(slot, st->file, line, key, value, cause) == -1)
		return -1;
	st->last = slot;
	return 0;
}

int
kb_stanza_choice(int *choice, const char *const *names, size_t n, const char *file, int line,
    const char *key, const char *value, char **cause)
{
	struct strbuf sb;
	size_t i;

	for (i = 0; i < n && strcmp(names[i], value) != 0; i++)
		;
	if (i < n && *choice < 0) {
		*choice = (int)i;
		return 0;
	}
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		strbuf_adds(&sb, i > 0 ? ", " : "");
		strbuf_adds(&sb, names[i]);
	}
	util_cause(cause, "%s:%d: bad %s '%s' (%s)", file, line, key, value, sb.buf);
	strbuf_free(&sb);
	return -1;
}

int
kb_compare(double v, const char *op, double n)
{
	if (strcmp(op, ">") == 0)
		return v > n;
	if (strcmp(op, ">=") == 0)
		return v >= n;
	if (strcmp(op, "<") == 0)
		return v < n;
	if (strcmp(op, "<=") == 0)
		return v <= n;
	if (strcmp(op, "==") == 0)
		return v == n;
	if (strcmp(op, "!=") == 0)
		return v != n;
	return -1;
}

int
kb_condition(const char *when, int (*term_fn)(const char *, void *), void *arg)
{
	const char *p = when, *and;
	char t[200];
	size_t len;
	int v, result = 1;

	if (when == NULL)
		return 1;
	for (;;) {
		and = strstr(p, " and ");
		len = and != NULL ? (size_t)(and - p) : strlen(p);
		if (len == 0 || len >= sizeof t)
			return -1;
		memcpy(t, p, len);
		t[len] = '\0';
		if ((v = term_fn(util_trim(t), arg)) == -1)
			return -1;
		result = result && v;
		if (and == NULL)
			break;
		p = and + 5;
	}
	return result;
}
