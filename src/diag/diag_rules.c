/*
 * Diagnosis rules as data: share/knobs/diagnose/NAME.rules, read with the stanza
 * reader of the knowledge base (format in share/knobs/diagnose/linux.rules).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag_impl.h"
#include "kb/catalog.h"
#include "kb/kb.h"
#include "util/util.h"

const char *const diag_certainty_names[3] = { "certain", "likely", "possible" };
static const char *const eaches[] = { "if", "proto", "cpu" };

const char *
diag_certainty_name(enum diag_certainty c)
{
	return (unsigned)c < nitems(diag_certainty_names) ? diag_certainty_names[c] : "?";
}

static void
rule_free(void *p)
{
	struct diag_rule *r = p;

	free(r->finding);
	free(r->counter);
	free(r->os);
	free(r->each);
	free(r->when);
	free(r->cost);
	free(r->headroom);
	free(r->summary);
	free(r->source);
	free(r->file);
	util_strv_free(r->knobs, r->nknobs);
	util_strv_free(r->evidence, r->nevidence);
	util_strv_free(r->from, r->nfrom);
	memset(r, 0, sizeof *r);
	r->certainty = -1;
}

struct diag_rules *
diag_rules_new(void)
{
	return xcalloc(1, sizeof(struct diag_rules));
}

void
diag_rules_free(struct diag_rules *rs)
{
	if (rs == NULL)
		return;
	util_array_free(rs->r, rs->n, sizeof *rs->r, rule_free);
	free(rs);
}

bool
diag_os_match(const char *list, const char *os)
{
	char *copy, *tok, *save;
	bool found = false;

	if (list == NULL)
		return true;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL && !found; tok = strtok_r(NULL, " \t",
	    &save))
		found = strcmp(tok, os) == 0;
	free(copy);
	return found;
}

/* "ix0" -> drv "ix", unit "0"; false without a unit number, and for a VLAN ("igb0.100"): no dev.DRV.UNIT knobs. */
static bool
split_unit(const char *entity, char *drv, size_t dlen, const char **unit)
{
	if (strchr(entity, '.') != NULL || util_ifname_unit(entity, drv, dlen) < 0)
		return false;
	*unit = entity + strlen(drv);
	return true;
}

char *
diag_expand_entity(const char *text, const char *each, const char *entity)
{
	struct strbuf sb;
	const char *p, *unit = "";
	char drv[64] = "";
	bool has_unit = entity != NULL && split_unit(entity, drv, sizeof drv, &unit);

	strbuf_init(&sb);
	for (p = text; *p != '\0'; p++) {
		const char *val = NULL;
		size_t skip = 0;

		if (*p == '{') {
			bool is_if = each != NULL && entity != NULL && strcmp(each, "if") == 0;
			bool is = each != NULL && entity != NULL;

			if (strncmp(p, "{if}", 4) == 0)
				val = is_if ? entity : NULL, skip = 4;
			else if (strncmp(p, "{drv}", 5) == 0)
				val = is_if && has_unit ? drv : NULL, skip = 5;
			else if (strncmp(p, "{unit}", 6) == 0)
				val = is_if && has_unit ? unit : NULL, skip = 6;
			else if (strncmp(p, "{proto}", 7) == 0)
				val = is && strcmp(each, "proto") == 0 ? entity : NULL, skip = 7;
			else if (strncmp(p, "{cpu}", 5) == 0)
				val = is && strcmp(each, "cpu") == 0 ? entity : NULL, skip = 5;
			if (skip > 0 && val == NULL) {
				strbuf_free(&sb);
				return NULL;
			}
		}
		if (skip > 0) {
			strbuf_adds(&sb, val);
			p += skip - 1;
		} else
			strbuf_addc(&sb, *p);
	}
	return sb.buf != NULL ? strbuf_detach(&sb) : xstrdup("");
}

static bool
metric_name_ok(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr("._-{}", *s) == NULL)
			return false;
	return true;
}

/* One "metric OP number" term. */
static int
term(const char *t, const json_t *metrics)
{
	char name[128], op[3];
	double n, v;
	int k = 0;
	json_t *j;

	if (sscanf(t, "%127s %2s %lf%n", name, op, &n, &k) != 3 || t[k] != '\0' ||
	    !metric_name_ok(name))
		return -1;
	if (kb_compare(0, op, 0) == -1)
		return -1;
	if (metrics == NULL)
		return 1;
	if ((j = json_object_get(metrics, name)) == NULL || !json_is_number(j))
		return 0;
	v = json_number_value(j);
	return kb_compare(v, op, n);
}

static int
metric_term(const char *t, void *metrics)
{
	return term(t, metrics);
}

int
diag_condition(const char *when, const json_t *metrics)
{
	const char *p = when, *or;
	char *part;
	int v, any = 0;

	if (when == NULL)
		return 1;
	for (;;) {
		or = strstr(p, " or ");
		part = or != NULL ? xstrndup(p, (size_t)(or - p)) : xstrdup(p);
		v = kb_condition(part, metric_term, (void *)metrics);
		free(part);
		if (v == -1)
			return -1;
		any |= v == 1;
		if (or == NULL)
			return any;
		p = or + 4;
	}
}

char *
diag_format_value(double v)
{
	char *s;
	size_t n;

	if (v != v)
		return xstrdup("?");
	if (v >= 100 || v <= -100)
		xasprintf(&s, "%.0f", v);
	else if (v != 0 && v < 0.05 && v > -0.05)
		xasprintf(&s, "%.2g", v);	/* 0.0041% is not "0%" */
	else {
		xasprintf(&s, "%.1f", v);
		if ((n = strlen(s)) > 2 && strcmp(s + n - 2, ".0") == 0)
			s[n - 2] = '\0';
	}
	return s;
}

char *
diag_expand_metrics(const char *text, const json_t *metrics)
{
	struct strbuf sb;
	const char *p, *close;
	char name[128], *v;
	size_t len;
	json_t *j;

	strbuf_init(&sb);
	for (p = text; *p != '\0'; p++) {
		if (*p != '{' || (close = strchr(p, '}')) == NULL ||
		    (len = (size_t)(close - p - 1)) >= sizeof name) {
			strbuf_addc(&sb, *p);
			continue;
		}
		memcpy(name, p + 1, len);
		name[len] = '\0';
		j = json_object_get(metrics, strcmp(name, "per_s") == 0 ? "interval" : name);
		/* {per_s}: "/s" when the counters are rates over an interval, nothing for totals */
		if (strcmp(name, "per_s") == 0)
			v = xstrdup(j != NULL && json_is_number(j) && json_number_value(j) > 0 ? "/s" : "");
		else
			v = j != NULL && json_is_number(j) ? diag_format_value(json_number_value(j)) :
			    xstrdup("?");
		strbuf_adds(&sb, v);
		free(v);
		p = close;
	}
	return sb.buf != NULL ? strbuf_detach(&sb) : xstrdup("");
}

/* The rules so far and the one being read (st first: kb_stanza_last). */
struct reader {
	struct kb_stanza_state st;
	struct diag_rules *rs;
	struct diag_rule r;
};

static void
push_words(char ***v, size_t *n, const char *value)
{
	char *copy = xstrdup(value), *tok, *save;

	for (tok = strtok_r(copy, " \t\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\n", &save))
		*v = util_strv_add(*v, n, tok);
	free(copy);
}

/* A rule's single-valued keys. */
static const struct kb_stanza_key rule_keys[] = {
	{ "finding", offsetof(struct diag_rule, finding) },
	{ "counter", offsetof(struct diag_rule, counter) },
	{ "os", offsetof(struct diag_rule, os) },
	{ "each", offsetof(struct diag_rule, each) },
	{ "when", offsetof(struct diag_rule, when) },
	{ "cost", offsetof(struct diag_rule, cost) },
	{ "headroom", offsetof(struct diag_rule, headroom) },
	{ "summary", offsetof(struct diag_rule, summary) },
	{ "source", offsetof(struct diag_rule, source) },
};

static int
rule_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct reader *rd = arg;

	if (rd->r.line == 0)
		rd->r.line = line;
	rd->st.last = NULL;
	if (strcmp(key, "certainty") == 0)
		return kb_stanza_choice(&rd->r.certainty, diag_certainty_names,
		    nitems(diag_certainty_names), rd->st.file, line, key, value, cause);
	if (strcmp(key, "knob") == 0)
		push_words(&rd->r.knobs, &rd->r.nknobs, value);
	else if (strcmp(key, "evidence") == 0)
		push_words(&rd->r.evidence, &rd->r.nevidence, value);
	else if (strcmp(key, "from") == 0)
		push_words(&rd->r.from, &rd->r.nfrom, value);
	else
		return kb_stanza_single(&rd->st, &rd->r, rule_keys, nitems(rule_keys), key, value,
		    line, cause);
	return 0;
}

/* The placeholders of text are those of the rule's "each". */
static bool
placeholders_ok(const struct diag_rule *r, const char *text)
{
	char *x = diag_expand_entity(text, r->each, "x0");
	bool ok = x != NULL;

	free(x);
	return ok;
}

static const char *
check_rule(const struct diag_rule *r)
{
	size_t i;

	if (r->counter != NULL)
		return r->finding != NULL ? "has both 'finding' and 'counter'" : r->nfrom == 0 ?
		    "has no 'from'" : r->source == NULL ? "has no 'source'" : NULL;
	if (r->finding == NULL)
		return "has no 'finding' (or 'counter')";
	if (r->when == NULL || r->certainty < 0 || r->summary == NULL || r->source == NULL ||
	    r->nknobs == 0)
		return "needs when, certainty, summary, knob and source";
	for (i = 0; r->each != NULL && i < nitems(eaches) && strcmp(eaches[i], r->each) != 0; i++)
		;
	if (r->each != NULL && i == nitems(eaches))
		return "has an unknown 'each' (if, proto or cpu)";
	if (diag_condition(r->when, NULL) != 1)
		return "has a bad 'when' (terms 'metric OP number' joined by 'and' or 'or')";
	if (r->cost != NULL && diag_condition(r->cost, NULL) != 1)
		return "has a bad 'cost' (terms 'metric OP number' joined by 'and' or 'or')";
	if ((r->cost != NULL) != (r->headroom != NULL))
		return "has 'cost' without 'headroom' or 'headroom' without 'cost'";
	if (!placeholders_ok(r, r->when) || !placeholders_ok(r, r->summary) ||
	    (r->cost != NULL && (!placeholders_ok(r, r->cost) || !placeholders_ok(r, r->headroom))))
		return "uses a placeholder its 'each' does not give";
	for (i = 0; i < r->nknobs; i++)
		if (!placeholders_ok(r, r->knobs[i]))
			return "names a knob with a placeholder its 'each' does not give";
	for (i = 0; i < r->nevidence; i++)
		if (!placeholders_ok(r, r->evidence[i]))
			return "has evidence with a placeholder its 'each' does not give";
	return NULL;
}

static int
rule_end(void *arg, char **cause)
{
	struct reader *rd = arg;
	const char *why;

	rd->st.last = NULL;
	if (rd->r.line == 0)
		return 0;
	if ((why = check_rule(&rd->r)) != NULL) {
		util_cause(cause, "%s:%d: rule %s", rd->st.file, rd->r.line, why);
		return -1;
	}
	rd->r.file = xstrdup(rd->st.file);
	rd->rs->r = xreallocarray(rd->rs->r, rd->rs->n + 1, sizeof *rd->rs->r);
	rd->rs->r[rd->rs->n++] = rd->r;
	memset(&rd->r, 0, sizeof rd->r);
	rd->r.certainty = -1;
	return 0;
}

int
diag_rules_parse(struct diag_rules *rs, const char *file, const char *text, size_t len,
    char **cause)
{
	static const struct kb_stanza_ops ops = { rule_field, kb_stanza_last, rule_end };
	struct reader rd;
	int rc;

	memset(&rd, 0, sizeof rd);
	rd.rs = rs;
	rd.st.file = file;
	rd.r.certainty = -1;
	rc = kb_stanzas_read(file, text, len, &ops, &rd, cause);
	rule_free(&rd.r);
	return rc;
}

static int
load_file(void *arg, const char *file, const char *text, size_t len, char **cause)
{
	return diag_rules_parse(arg, file, text, len, cause);
}

int
diag_rules_load(const char *dir, struct diag_rules **out, char **cause)
{
	struct diag_rules *rs = diag_rules_new();

	if (kb_read_dir(dir, "knobs/diagnose", ".rules", 0, load_file, rs, cause) == -1) {
		diag_rules_free(rs);
		return -1;
	}
	*out = rs;
	return 0;
}

size_t
diag_rules_knobs(const struct diag_rules *rs, const char *example, char ***names)
{
	size_t i, j, n = 0;
	char *k;

	*names = NULL;
	for (i = 0; i < rs->n; i++) {
		for (j = 0; j < rs->r[i].nknobs; j++) {
			k = diag_expand_entity(rs->r[i].knobs[j], rs->r[i].each, example);
			if (k == NULL)
				continue;
			*names = xreallocarray(*names, n + 1, sizeof **names);
			(*names)[n++] = k;
		}
	}
	return n;
}
