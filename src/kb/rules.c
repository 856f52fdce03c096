/*
 * Advice rules as data: share/knobs/advice/NAME.advice, one rule a stanza (format in
 * share/knobs/advice/system.advice). A rule has a condition on the system
 * ("ncpu > 1 and rss") and a value and reason with {placeholders}.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

static const char *const certainties[] = { "safe", "usually helps", "measure it" };
static const char *const roles[] = { "router", "firewall", "host" };
static const char *const goals[] = { "forwarding", "throughput", "latency" };
static const char *const placeholders[] = {
	"ncpu", "ncores", "log2ncpu", "cpumask", "role", "rssbits", "goal",
};

static void
rule_free(struct kb_rule *r)
{
	free(r->knob);
	free(r->os);
	free(r->when);
	free(r->value);
	free(r->reason);
	free(r->source);
	memset(r, 0, sizeof *r);
}

void
kb_rules_free(struct kb_rules *rs)
{
	size_t i;

	if (rs == NULL)
		return;
	for (i = 0; i < rs->n; i++)
		rule_free(&rs->r[i]);
	free(rs->r);
	free(rs);
}

static bool
in_list(const char *list, const char *word)
{
	char *copy = xstrdup(list), *tok, *save;
	bool found = false;

	for (tok = strtok_r(copy, "| \t", &save); tok != NULL && !found;
	    tok = strtok_r(NULL, "| \t", &save))
		found = strcmp(tok, word) == 0;
	free(copy);
	return found;
}

/* Every word of a '|' list is one of names. */
static bool
list_valid(const char *list, const char *const *names, size_t n)
{
	char *copy = xstrdup(list), *tok, *save;
	size_t i;
	bool ok = true, any = false;

	for (tok = strtok_r(copy, "|", &save); tok != NULL && ok; tok = strtok_r(NULL, "|", &save)) {
		any = true;
		for (i = 0; i < n && strcmp(names[i], tok) != 0; i++)
			;
		ok = i < n;
	}
	free(copy);
	return ok && any;
}

/* Every word of a '|' list is a platform name (os_platform_parse). */
static bool
platforms_valid(const char *list)
{
	char *copy = xstrdup(list), *tok, *save;
	bool ok = true, any = false;

	for (tok = strtok_r(copy, "|", &save); tok != NULL && ok; tok = strtok_r(NULL, "|", &save)) {
		any = true;
		ok = os_platform_parse(tok) != OS_PLATFORM_UNKNOWN;
	}
	free(copy);
	return ok && any;
}

/*
 * One term of a condition. With sys NULL only the syntax is checked.
 * Returns 1 true, 0 false, -1 bad syntax.
 */
static int
term(const char *t, const struct kb_rule_ctx *c)
{
	char what[16], op[3], rest[128];
	long long n, v;
	int k;

	if (strcmp(t, "smt") == 0)
		return c == NULL ? 1 : c->sys->smt == 1;
	if (strcmp(t, "rss") == 0)
		return c == NULL ? 1 : (os_platform_parse(c->os) == OS_PLATFORM_OPNSENSE ||
		    c->sys->rss_kernel == 1);
	if (sscanf(t, "%15s %127s", what, rest) == 2 && strchr(t + strlen(what) + 1, ' ') == NULL &&
	    (strcmp(what, "role") == 0 || strcmp(what, "goal") == 0 || strcmp(what, "os") == 0)) {
		if (strcmp(what, "role") == 0) {
			if (!list_valid(rest, roles, nitems(roles)))
				return -1;
			return c == NULL ? 1 : in_list(rest, roles[c->role]);
		}
		if (strcmp(what, "goal") == 0) {
			if (!list_valid(rest, goals, nitems(goals)))
				return -1;
			return c == NULL ? 1 : in_list(rest, goals[c->goal]);
		}
		if (!platforms_valid(rest))
			return -1;
		return c == NULL ? 1 : in_list(rest, c->os);
	}
	k = 0;
	if (sscanf(t, "%15s %2s %127s%n", what, op, rest, &k) != 3 || t[k] != '\0' ||
	    kb_parse_number(rest, &n) == -1 ||
	    (strcmp(what, "ncpu") != 0 && strcmp(what, "ncores") != 0))
		return -1;
	if (kb_compare(0, op, 0) == -1)
		return -1;
	if (c == NULL)
		return 1;
	v = strcmp(what, "ncpu") == 0 ? c->sys->ncpu : c->sys->ncores;
	return kb_compare((double)v, op, (double)n);
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

static int
rule_term(const char *t, void *c)
{
	return term(t, c);
}

/* A condition on the system; c NULL: syntax only. */
static int
condition(const char *when, const struct kb_rule_ctx *c)
{
	return kb_condition(when, rule_term, (void *)c);
}

/* Expands {placeholders}; with c NULL only checks them (returns NULL when fine). */
static char *
expand(const char *text, const struct kb_rule_ctx *c, bool *bad)
{
	struct strbuf sb;
	const char *p, *close;
	char name[16];
	size_t i, len;

	*bad = false;
	strbuf_init(&sb);
	for (p = text; *p != '\0'; p++) {
		if (*p != '{') {
			strbuf_addc(&sb, *p);
			continue;
		}
		if ((close = strchr(p, '}')) == NULL || (len = (size_t)(close - p - 1)) >= sizeof name) {
			*bad = true;
			break;
		}
		memcpy(name, p + 1, len);
		name[len] = '\0';
		for (i = 0; i < nitems(placeholders) && strcmp(placeholders[i], name) != 0; i++)
			;
		if (i == nitems(placeholders)) {
			*bad = true;
			break;
		}
		if (c != NULL) {
			switch (i) {
			case 0:
				strbuf_addf(&sb, "%d", c->sys->ncpu);
				break;
			case 1:
				strbuf_addf(&sb, "%d", c->sys->ncores > 0 ? c->sys->ncores :
				    c->sys->ncpu);
				break;
			case 2:
				strbuf_addf(&sb, "%d", c->log2ncpu);
				break;
			case 3:
				strbuf_adds(&sb, c->cpumask);
				break;
			case 4:
				strbuf_adds(&sb, roles[c->role]);
				break;
			case 5:
				strbuf_addf(&sb, "%d", c->rssbits);
				break;
			default:
				strbuf_adds(&sb, goals[c->goal]);
			}
		}
		p = close;
	}
	if (*bad || c == NULL) {
		strbuf_free(&sb);
		return NULL;
	}
	return sb.buf != NULL ? strbuf_detach(&sb) : xstrdup("");
}

static int
finish(struct kb_rules *rs, struct kb_rule *r, const char *file, char **cause)
{
	const char *missing = NULL;
	bool bad;

	if (r->knob == NULL)
		missing = "knob";
	else if (r->value == NULL)
		missing = "value";
	else if (r->certainty < 0)
		missing = "certainty";
	else if (r->reason == NULL)
		missing = "reason";
	else if (r->source == NULL)
		missing = "source";
	if (missing != NULL) {
		util_cause(cause, "%s:%d: rule has no '%s'", file, r->line, missing);
		return -1;
	}
	if (condition(r->when, NULL) == -1) {
		util_cause(cause, "%s:%d: bad condition '%s'", file, r->line, r->when);
		return -1;
	}
	expand(r->value, NULL, &bad);
	if (!bad)
		expand(r->reason, NULL, &bad);
	if (!bad)
		expand(r->knob, NULL, &bad);
	if (bad) {
		util_cause(cause, "%s:%d: unknown {placeholder} in rule for '%s'", file, r->line,
		    r->knob);
		return -1;
	}
	rs->r = xreallocarray(rs->r, rs->n + 1, sizeof *rs->r);
	rs->r[rs->n++] = *r;
	memset(r, 0, sizeof *r);
	r->certainty = -1;
	return 0;
}

static char **
field(struct kb_rule *r, const char *key)
{
	static const struct kb_stanza_key keys[] = {
		{ "knob", offsetof(struct kb_rule, knob) },
		{ "os", offsetof(struct kb_rule, os) },
		{ "when", offsetof(struct kb_rule, when) },
		{ "value", offsetof(struct kb_rule, value) },
		{ "reason", offsetof(struct kb_rule, reason) },
		{ "source", offsetof(struct kb_rule, source) },
	};

	return kb_stanza_slot(r, keys, nitems(keys), key);
}

/* kb_rules_parse's reading state: the rules so far, the one being read, the value a continuation extends. */
struct rule_reader {
	struct kb_rules *rs;
	const char *file;
	struct kb_rule r;
	char	**last;
};

static bool
rule_empty(const struct kb_rule *r)
{
	return r->knob == NULL && r->os == NULL && r->when == NULL && r->value == NULL &&
	    r->reason == NULL && r->source == NULL && r->certainty < 0;
}

static int
rule_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct rule_reader *rd = arg;

	if (rule_empty(&rd->r))
		rd->r.line = line;
	rd->last = NULL;
	if (strcmp(key, "certainty") == 0)
		return kb_stanza_choice(&rd->r.certainty, certainties, nitems(certainties), rd->file,
		    line, key, value, cause);
	if (kb_stanza_set(field(&rd->r, key), rd->file, line, key, value, cause) == -1)
		return -1;
	rd->last = field(&rd->r, key);
	return 0;
}

static char **
rule_last(void *arg)
{
	return ((struct rule_reader *)arg)->last;
}

static int
rule_end(void *arg, char **cause)
{
	struct rule_reader *rd = arg;

	rd->last = NULL;
	if (!rule_empty(&rd->r) && finish(rd->rs, &rd->r, rd->file, cause) == -1)
		return -1;
	return 0;
}

int
kb_rules_parse(const char *file, const char *text, size_t len, struct kb_rules **out,
    char **cause)
{
	static const struct kb_stanza_ops ops = { rule_field, rule_last, rule_end };
	struct rule_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.rs = xcalloc(1, sizeof *rd.rs);
	rd.file = file;
	rd.r.certainty = -1;
	*out = NULL;
	if (kb_stanzas_read(file, text, len, &ops, &rd, cause) == -1) {
		rule_free(&rd.r);
		kb_rules_free(rd.rs);
		return -1;
	}
	*out = rd.rs;
	return 0;
}

int
kb_rules_load(const char *path, struct kb_rules **out, char **cause)
{
	char *data;
	size_t len;
	int rc;

	if (util_read_file(path, &data, &len, cause) == -1)
		return -1;
	rc = kb_rules_parse(path, data, len, out, cause);
	free(data);
	return rc;
}

int
kb_rule_eval(const struct kb_rule *r, const struct kb_rule_ctx *c, char **name, char **value,
    char **reason)
{
	bool bad;

	if (r->os != NULL && !in_list(r->os, c->os))
		return 0;
	if (condition(r->when, c) != 1)
		return 0;
	*name = expand(r->knob, c, &bad);
	*value = expand(r->value, c, &bad);
	*reason = expand(r->reason, c, &bad);
	return 1;
}
