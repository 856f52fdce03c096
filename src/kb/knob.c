/* The knob loader: share/knobs/<os>/NAME.knob stanzas into struct kb, and lookups. */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/catalog.h"
#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

struct kb {
	struct kb_knob *knobs;
	size_t	n;
	size_t	cap;
	struct kb_catalog *cat;	/* share/catalog, or NULL */
	struct kb_drivers *drivers;	/* DIR/drivers/OS.drivers, or NULL */
	struct kb_prefixes *prefixes;	/* DIR/os.prefixes, or NULL */
	struct kb_hints *hints;	/* DIR/drivers/freebsd.hints, or NULL */
	struct kb_hints *modules;	/* DIR/drivers/freebsd.modules, or NULL */
};

const struct kb_hints *
kb_get_hints(const struct kb *kb)
{
	return kb != NULL ? kb->hints : NULL;
}

const struct kb_hints *
kb_get_modules(const struct kb *kb)
{
	return kb != NULL ? kb->modules : NULL;
}

const struct kb_drivers *
kb_get_drivers(const struct kb *kb)
{
	return kb != NULL ? kb->drivers : NULL;
}

const struct kb_prefixes *
kb_get_prefixes(const struct kb *kb)
{
	return kb != NULL ? kb->prefixes : NULL;
}

const struct kb_catalog *
kb_get_catalog(const struct kb *kb)
{
	return kb != NULL ? kb->cat : NULL;
}

void
kb_set_catalog(struct kb *kb, struct kb_catalog *cat)
{
	kb_catalog_free(kb->cat);
	kb->cat = cat;
}

struct kb *
kb_new(void)
{
	return xcalloc(1, sizeof(struct kb));
}

static void
knob_free(void *p)
{
	struct kb_knob *k = p;

	free(k->name);
	free(k->os);
	free(k->platform);
	free(k->range);
	util_strv_free(k->values, k->nvalues);
	free(k->def);
	free(k->default_before);
	free(k->default_when);
	free(k->unit);
	free(k->since);
	free(k->removed);
	free(k->no_effect_since);
	free(k->nonexistent);
	free(k->forwarding);
	free(k->verified);
	free(k->unverified);
	free(k->replaced_by);
	free(k->same_as);
	free(k->ordered);
	free(k->no_effect_value);
	util_strv_free(k->requires, k->nrequires);
	util_strv_free(k->conflicts, k->nconflicts);
	free(k->effect);
	free(k->risk);
	free(k->risk_class_text);
	free(k->risk_values);
	free(k->at_most);
	free(k->value_means);
	free(k->zeroes);
	free(k->at_least);
	free(k->at_least_since);
	free(k->no_limit);
	util_strv_free(k->sources, k->nsources);
	util_strv_free(k->boot_values, k->nboot_values);
	free(k->file);
	memset(k, 0, sizeof *k);
}

void
kb_free(struct kb *kb)
{
	if (kb == NULL)
		return;
	util_array_free(kb->knobs, kb->n, sizeof *kb->knobs, knob_free);
	kb_catalog_free(kb->cat);
	kb_drivers_free(kb->drivers);
	kb_hints_free(kb->hints);
	kb_hints_free(kb->modules);
	kb_prefixes_free(kb->prefixes);
	free(kb);
}

size_t
kb_count(const struct kb *kb)
{
	return kb == NULL ? 0 : kb->n;
}

const struct kb_knob *
kb_knob(const struct kb *kb, size_t i)
{
	return kb == NULL || i >= kb->n ? NULL : &kb->knobs[i];
}

static const char *const placement_names[] = {
	"unknown", "loader", "sysctl", "both", "ifconfig", "ethtool", "sysfs", "read-only",
};
static const char *const type_names[] = {
	"string", "int", "bool", "enum", "size", "cpu-mask", "cpu-list", "int-list",
};
static const char *const scope_names[] = { "", "netns", "host" };

const char *
kb_risk_class_name(enum kb_risk_class c)
{
	return c == KB_RISK_BOOT ? "boot" : c == KB_RISK_ACCESS ? "access" : NULL;
}

const char *
kb_risk_class_why(const struct kb_knob *k)
{
	const char *p;

	if (k == NULL || k->risk_class_text == NULL || (p = strchr(k->risk_class_text, ':')) == NULL)
		return NULL;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	return *p != '\0' ? p : NULL;
}

const char *
kb_risk_class_trial(enum kb_risk_class c)
{
	if (c == KB_RISK_BOOT)
		return "try it for one boot first: ntune apply --trial-boot (nextboot -e, kept only at "
		    "ntune confirm) or ntune bench --dut ... --reboot";
	if (c == KB_RISK_ACCESS)
		return "apply it with ntune apply --confirm SECS: not confirmed in time, it is undone";
	return NULL;
}

/* The class from "boot: why" / "access: why" (the why is required); -1 when bad. */
static int
risk_class_finish(struct kb_knob *k, const char *file, char **cause)
{
	const char *t = k->risk_class_text;

	if (t == NULL)
		return 0;
	if (util_startswith(t, "boot:"))
		k->risk_class = KB_RISK_BOOT;
	else if (util_startswith(t, "access:"))
		k->risk_class = KB_RISK_ACCESS;
	if (k->risk_class == KB_RISK_NONE || kb_risk_class_why(k) == NULL) {
		util_cause(cause, "%s:%d: knob '%s': 'risk-class' is 'boot: WHY' or 'access: WHY', "
		    "not '%s'", file, k->line, k->name, t);
		return -1;
	}
	return 0;
}

const char *
kb_placement_name(enum kb_placement p)
{
	return (size_t)p < nitems(placement_names) ? placement_names[p] : "unknown";
}

const char *
kb_type_name(enum kb_type t)
{
	return (size_t)t < nitems(type_names) ? type_names[t] : "string";
}

const char *
kb_scope_name(enum kb_scope s)
{
	return (size_t)s < nitems(scope_names) ? scope_names[s] : "";
}

static int
lookup(const char *const *names, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(names[i], word) == 0)
			return (int)i;
	}
	return -1;
}

static int
ilog2(int n)
{
	int b = 0;

	while ((1 << (b + 1)) <= n && b < 30)
		b++;
	return b;
}

/* One range bound: a number, or ncpu / log2ncpu optionally followed by +N, -N or *N. */
static int
bound(const char *s, size_t len, int ncpu, long long *out, bool *symbolic)
{
	char buf[64];
	char *p, op = 0;
	long long base, arg = 0;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*symbolic = false;
	if (util_startswith(buf, "log2ncpu") || util_startswith(buf, "ncpu")) {
		*symbolic = true;
		p = buf + (buf[0] == 'l' ? 8 : 4);
		base = buf[0] == 'l' ? ilog2(ncpu > 0 ? ncpu : 1) : (ncpu > 0 ? ncpu : 1);
		if (*p != '\0') {
			op = *p++;
			if ((op != '+' && op != '-' && op != '*') || kb_parse_number(p, &arg) == -1 ||
			    arg < 0 || arg > 1000000)
				return -1;
		}
		if (op == '+')
			base += arg;
		else if (op == '-')
			base -= arg;
		else if (op == '*')
			base *= arg;
		*out = base;
		return 0;
	}
	return kb_parse_number(buf, out);
}

static int
range_parse(const char *range, int ncpu, long long *lo, long long *hi, bool *symbolic)
{
	const char *dots;
	bool s1 = false, s2 = false;

	*lo = LLONG_MIN;
	*hi = LLONG_MAX;
	*symbolic = false;
	if (range == NULL)
		return 0;
	if ((dots = strstr(range, "..")) == NULL)
		return -1;
	if (dots != range && bound(range, dots - range, ncpu, lo, &s1) == -1)
		return -1;
	if (dots[2] != '\0' && bound(dots + 2, strlen(dots + 2), ncpu, hi, &s2) == -1)
		return -1;
	*symbolic = s1 || s2;
	if (ncpu <= 0) {
		if (s1)
			*lo = LLONG_MIN;
		if (s2)
			*hi = LLONG_MAX;
	}
	return 0;
}

int
kb_range(const struct kb_knob *k, int ncpu, long long *lo, long long *hi)
{
	bool symbolic;

	return range_parse(k->range, ncpu, lo, hi, &symbolic);
}

static bool
is_bool(const char *v)
{
	static const char *const words[] = {
		"0", "1", "on", "off", "yes", "no", "true", "false",
	};

	return lookup(words, nitems(words), v) != -1;
}

static bool
is_cpumask(const char *v)
{
	const char *p = v;
	bool digit = false;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; *p != '\0'; p++) {
		if (isxdigit((unsigned char)*p))
			digit = true;
		else if (*p != ',')
			return false;
	}
	return digit;
}

static bool
is_cpulist(const char *v)
{
	const char *p = v;
	bool want_digit = true;

	if (*p == '\0')
		return false;
	for (; *p != '\0'; p++) {
		if (isdigit((unsigned char)*p))
			want_digit = false;
		else if ((*p == ',' || *p == '-') && !want_digit)
			want_digit = true;
		else
			return false;
	}
	return !want_digit;
}

/* kb_value_check's reason, NULL when value is fine; *fault is set for a range problem. */
static char *
value_problem(const struct kb_knob *k, const char *value, int ncpu, enum kb_value_fault *fault)
{
	long long lo, hi, v;
	bool symbolic;
	char *problem = NULL, *copy, *tok, *save;

	if (k->type != KB_TYPE_ENUM && k->nvalues > 0 &&
	    lookup((const char *const *)k->values, k->nvalues, value) != -1)
		return NULL;
	if (range_parse(k->range, ncpu, &lo, &hi, &symbolic) == -1) {
		lo = LLONG_MIN;
		hi = LLONG_MAX;
	}
	switch (k->type) {
	case KB_TYPE_STRING:
		return NULL;
	case KB_TYPE_BOOL:
		if (!is_bool(value))
			xasprintf(&problem, "'%s' is not a boolean (0 or 1)", value);
		return problem;
	case KB_TYPE_ENUM:
		if (lookup((const char *const *)k->values, k->nvalues, value) == -1) {
			struct strbuf sb;
			size_t i;

			strbuf_init(&sb);
			for (i = 0; i < k->nvalues; i++)
				strbuf_addf(&sb, "%s%s", i ? ", " : "", k->values[i]);
			xasprintf(&problem, "'%s' is not one of: %s", value, sb.buf ? sb.buf : "");
			strbuf_free(&sb);
		}
		return problem;
	case KB_TYPE_CPUMASK:
		if (!is_cpumask(value))
			xasprintf(&problem, "'%s' is not a hexadecimal CPU mask", value);
		return problem;
	case KB_TYPE_CPULIST:
		if (!is_cpulist(value))
			xasprintf(&problem, "'%s' is not a CPU list like 0-3,6", value);
		return problem;
	case KB_TYPE_INT:
	case KB_TYPE_SIZE:
		if (kb_parse_number(value, &v) == -1 ||
		    (k->type == KB_TYPE_INT && strpbrk(value, "kKmMgG") != NULL)) {
			xasprintf(&problem, "'%s' is not %s", value,
			    k->type == KB_TYPE_INT ? "an integer" : "a size (number with optional K, M or G)");
			return problem;
		}
		if (v < lo || v > hi) {
			*fault = KB_VALUE_RANGE;
			xasprintf(&problem, "%s is out of range %s%s", value, k->range,
			    symbolic && ncpu > 0 ? " for this CPU count" : "");
			if (symbolic && ncpu > 0) {
				free(problem);
				xasprintf(&problem, "%s is out of range %s (%lld..%lld with %d CPUs)",
				    value, k->range, lo, hi, ncpu);
			}
		}
		return problem;
	case KB_TYPE_INTLIST:
		copy = xstrdup(value);
		for (tok = strtok_r(copy, " \t", &save); tok != NULL && problem == NULL;
		    tok = strtok_r(NULL, " \t", &save)) {
			if (kb_parse_number(tok, &v) == -1)
				xasprintf(&problem, "'%s' is not a list of integers", value);
			else if (v < lo || v > hi) {
				*fault = KB_VALUE_RANGE;
				xasprintf(&problem, "%s is out of range %s", tok, k->range);
			}
		}
		free(copy);
		return problem;
	}
	return NULL;
}

enum kb_value_fault
kb_value_check(const struct kb_knob *k, const char *value, int ncpu, char **why)
{
	enum kb_value_fault fault = KB_VALUE_TYPE;

	if ((*why = value_problem(k, value, ncpu, &fault)) == NULL)
		return KB_VALUE_OK;
	return fault;
}

char *
kb_value_problem(const struct kb_knob *k, const char *value, int ncpu)
{
	char *why;

	kb_value_check(k, value, ncpu, &why);
	return why;
}

/* %d matches one or more digits, %s an interface name (at least one character). */
bool
kb_name_match(const char *pat, const char *name)
{
	const char *p;

	while (*pat != '\0') {
		if (pat[0] == '%' && pat[1] == 'd') {
			if (!isdigit((unsigned char)*name))
				return false;
			while (isdigit((unsigned char)*name))
				name++;
			pat += 2;
			continue;
		}
		if (pat[0] == '%' && pat[1] == 's') {
			/* Interface names may hold dots (vlans: eth0.100); try every length. */
			for (p = name + 1; p <= name + strlen(name); p++) {
				if (p[-1] == '=' || isspace((unsigned char)p[-1]))
					return false;
				if (kb_name_match(pat + 2, p))
					return true;
			}
			return false;
		}
		if (*pat != *name)
			return false;
		pat++;
		name++;
	}
	return *name == '\0';
}

bool
kb_knob_on(const struct kb_knob *k, const char *os)
{
	enum os_platform p;

	if (os == NULL || *os == '\0')
		return true;
	p = os_platform_parse(os);
	if (os_platform_family(p) != os_platform_parse(k->os))
		return false;
	/* A distribution's own knobs only on it; plain FreeBSD has none of them. */
	return k->platform == NULL || os_platform_parse(k->platform) == p;
}

const struct kb_knob *
kb_find(const struct kb *kb, const char *name, const char *os)
{
	size_t i;
	const struct kb_knob *best = NULL;

	if (kb == NULL || name == NULL)
		return NULL;
	for (i = 0; i < kb->n; i++) {
		if (kb_knob_on(&kb->knobs[i], os) && strcmp(kb->knobs[i].name, name) == 0)
			return &kb->knobs[i];
	}
	for (i = 0; i < kb->n; i++) {
		if (!kb_knob_on(&kb->knobs[i], os) || strchr(kb->knobs[i].name, '%') == NULL)
			continue;
		/* The most specific pattern (longest) wins. */
		if (kb_name_match(kb->knobs[i].name, name) &&
		    (best == NULL || strlen(kb->knobs[i].name) > strlen(best->name)))
			best = &kb->knobs[i];
	}
	return best;
}

const char *
kb_suggest(const struct kb *kb, const char *name, const char *os)
{
	const char **names;
	const char *s;
	size_t i, n = 0, len, klen, slack;

	/* Edit distance is quadratic: a suggestion for a line of garbage is not worth it. */
	if (kb == NULL || kb->n == 0 || strlen(name) > 200)
		return NULL;
	names = xcalloc(kb->n, sizeof *names);
	len = strlen(name);
	slack = len / 3 > 2 ? len / 3 : 2;
	for (i = 0; i < kb->n; i++) {
		/* Names whose length alone puts them too far away are not worth the distance. */
		klen = strlen(kb->knobs[i].name);
		if (kb_knob_on(&kb->knobs[i], os) && klen + slack >= len && klen <= len + slack)
			names[n++] = kb->knobs[i].name;
	}
	s = util_did_you_mean(name, names, n);
	free(names);
	return s;
}

static int
stanza_finish(struct kb *kb, struct kb_knob *k, const char *file, char **cause)
{
	const char *missing = NULL;
	long long lo, hi;
	bool symbolic;
	size_t i;

	if (k->name == NULL)
		missing = "name";
	else if (k->os == NULL)
		missing = "os";
	else if (k->placement == KB_PLACE_UNKNOWN)
		missing = "placement";
	else if (k->effect == NULL)
		missing = "effect";
	else if (k->nsources == 0)
		missing = "source";
	if (missing != NULL) {
		util_cause(cause, "%s:%d: knob '%s' has no '%s'", file, k->line,
		    k->name ? k->name : "?", missing);
		return -1;
	}
	if (k->verified != NULL && k->unverified != NULL) {
		util_cause(cause, "%s:%d: knob '%s' is both 'verified' and 'unverified'", file, k->line,
		    k->name);
		return -1;
	}
	if (k->removed != NULL && k->no_effect_since != NULL) {
		util_cause(cause, "%s:%d: knob '%s' has both 'removed' and 'no-effect-since' (the OID "
		    "is either gone or still there)", file, k->line, k->name);
		return -1;
	}
	if (k->forwarding != NULL && !util_startswith(k->forwarding, "none: ")) {
		util_cause(cause, "%s:%d: knob '%s': 'forwarding' is 'none: WHY' (the one form: it "
		    "does nothing for forwarded packets, and why)", file, k->line, k->name);
		return -1;
	}
	if (risk_class_finish(k, file, cause) == -1)
		return -1;
	if (k->type == KB_TYPE_ENUM && k->nvalues == 0) {
		util_cause(cause, "%s:%d: enum knob '%s' has no 'values'", file, k->line, k->name);
		return -1;
	}
	if (k->range != NULL && range_parse(k->range, 0, &lo, &hi, &symbolic) == -1) {
		util_cause(cause, "%s:%d: bad range '%s' (want LO..HI, bounds may be ncpu or log2ncpu)",
		    file, k->line, k->range);
		return -1;
	}
	if (k->def != NULL && strcmp(k->def, "auto") != 0) {
		char *why = kb_value_problem(k, k->def, 0);

		if (why != NULL) {
			util_cause(cause, "%s:%d: knob '%s' default: %s", file, k->line, k->name, why);
			free(why);
			return -1;
		}
	}
	for (i = 0; i < k->nboot_values; i++) {
		char *from = NULL, *why = kb_boot_value_problem(k->boot_values[i], &from);

		if (why == NULL)
			why = kb_value_problem(k, from, 0);
		free(from);
		if (why != NULL) {
			util_cause(cause, "%s:%d: knob '%s' boot-value '%s': %s", file, k->line, k->name,
			    k->boot_values[i], why);
			free(why);
			return -1;
		}
	}
	for (i = 0; i < kb->n; i++) {
		if (strcmp(kb->knobs[i].name, k->name) == 0 && strcmp(kb->knobs[i].os, k->os) == 0 &&
		    (kb->knobs[i].platform == NULL) == (k->platform == NULL)) {
			util_cause(cause, "%s:%d: knob '%s' already defined at %s:%d", file, k->line,
			    k->name, kb->knobs[i].file, kb->knobs[i].line);
			return -1;
		}
	}
	k->file = xstrdup(file);
	kb->knobs = kb_grow(kb->knobs, kb->n, &kb->cap, sizeof *kb->knobs, 64);
	kb->knobs[kb->n++] = *k;
	memset(k, 0, sizeof *k);
	return 0;
}

static char **
last_of(struct kb_knob *k, const char *key)
{
	if (strcmp(key, "requires") == 0)
		return &k->requires[k->nrequires - 1];
	if (strcmp(key, "conflicts") == 0)
		return &k->conflicts[k->nconflicts - 1];
	if (strcmp(key, "source") == 0)
		return &k->sources[k->nsources - 1];
	if (strcmp(key, "boot-value") == 0)
		return &k->boot_values[k->nboot_values - 1];
	return NULL;
}

static char **
single_field(struct kb_knob *k, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{ "name", offsetof(struct kb_knob, name) },
		{ "os", offsetof(struct kb_knob, os) },
		{ "platform", offsetof(struct kb_knob, platform) },
		{ "range", offsetof(struct kb_knob, range) },
		{ "default", offsetof(struct kb_knob, def) },
		{ "default-before", offsetof(struct kb_knob, default_before) },
		{ "default-when", offsetof(struct kb_knob, default_when) },
		{ "unit", offsetof(struct kb_knob, unit) },
		{ "since", offsetof(struct kb_knob, since) },
		{ "removed", offsetof(struct kb_knob, removed) },
		{ "no-effect-since", offsetof(struct kb_knob, no_effect_since) },
		{ "nonexistent", offsetof(struct kb_knob, nonexistent) },
		{ "forwarding", offsetof(struct kb_knob, forwarding) },
		{ "verified", offsetof(struct kb_knob, verified) },
		{ "unverified", offsetof(struct kb_knob, unverified) },
		{ "replaced-by", offsetof(struct kb_knob, replaced_by) },
		{ "same-as", offsetof(struct kb_knob, same_as) },
		{ "ordered", offsetof(struct kb_knob, ordered) },
		{ "no-effect-value", offsetof(struct kb_knob, no_effect_value) },
		{ "effect", offsetof(struct kb_knob, effect) },
		{ "risk", offsetof(struct kb_knob, risk) },
		{ "risk-class", offsetof(struct kb_knob, risk_class_text) },
		{ "risk-values", offsetof(struct kb_knob, risk_values) },
		{ "at-most", offsetof(struct kb_knob, at_most) },
		{ "value-means", offsetof(struct kb_knob, value_means) },
		{ "zeroes", offsetof(struct kb_knob, zeroes) },
		{ "at-least", offsetof(struct kb_knob, at_least) },
		{ "at-least-since", offsetof(struct kb_knob, at_least_since) },
		{ "no-limit", offsetof(struct kb_knob, no_limit) },
	};
	size_t i;

	for (i = 0; i < nitems(fields); i++) {
		if (strcmp(fields[i].key, key) == 0)
			return (char **)((char *)k + fields[i].off);
	}
	return NULL;
}

/* Sets key to value in k; for continuation lines append is true. */
static int
stanza_set(struct kb_knob *k, const char *key, const char *value, const char *file, int line,
    char **cause)
{
	char **field;
	char *copy, *tok, *save;
	int i;

	if (strcmp(key, "source") == 0) {
		k->sources = util_strv_add(k->sources, &k->nsources, value);
		return 0;
	}
	if (strcmp(key, "requires") == 0) {
		k->requires = util_strv_add(k->requires, &k->nrequires, value);
		return 0;
	}
	if (strcmp(key, "conflicts") == 0) {
		k->conflicts = util_strv_add(k->conflicts, &k->nconflicts, value);
		return 0;
	}
	if (strcmp(key, "boot-value") == 0) {
		k->boot_values = util_strv_add(k->boot_values, &k->nboot_values, value);
		return 0;
	}
	if (strcmp(key, "placement") == 0 || strcmp(key, "type") == 0 || strcmp(key, "scope") == 0 ||
	    strcmp(key, "values") == 0) {
		if (strcmp(key, "values") == 0) {
			if (k->nvalues > 0)
				goto dup;
			copy = xstrdup(value);
			for (tok = strtok_r(copy, " \t,", &save); tok != NULL;
			    tok = strtok_r(NULL, " \t,", &save))
				k->values = util_strv_add(k->values, &k->nvalues, tok);
			free(copy);
			return 0;
		}
		if (strcmp(key, "placement") == 0) {
			if (k->placement != KB_PLACE_UNKNOWN)
				goto dup;
			if ((i = lookup(placement_names, nitems(placement_names), value)) <= 0)
				goto bad;
			k->placement = (enum kb_placement)i;
		} else if (strcmp(key, "type") == 0) {
			if ((i = lookup(type_names, nitems(type_names), value)) < 0)
				goto bad;
			k->type = (enum kb_type)i;
		} else {
			if (k->scope != KB_SCOPE_UNSET)
				goto dup;
			if ((i = lookup(scope_names, nitems(scope_names), value)) <= 0)
				goto bad;
			k->scope = (enum kb_scope)i;
		}
		return 0;
	}
	if ((field = single_field(k, key)) == NULL) {
		util_cause(cause, "%s:%d: unknown key '%s'", file, line, key);
		return -1;
	}
	if (*field != NULL)
		goto dup;
	if (strcmp(key, "os") == 0 && (os_platform_parse(value) == OS_PLATFORM_UNKNOWN ||
	    os_platform_is_distro(os_platform_parse(value))))
		goto bad;
	if (strcmp(key, "platform") == 0 && !os_platform_is_distro(os_platform_parse(value)))
		goto bad;
	*field = xstrdup(value);
	if (strcmp(key, "name") == 0)
		k->line = line;
	return 0;
dup:
	util_cause(cause, "%s:%d: key '%s' given twice", file, line, key);
	return -1;
bad:
	util_cause(cause, "%s:%d: bad %s '%s'", file, line, key, value);
	return -1;
}

static bool
stanza_empty(const struct kb_knob *k)
{
	static const struct kb_knob zero;

	return memcmp(k, &zero, sizeof zero) == 0;
}

/* kb_load_text's reading state: the stanza so far and the key a continuation line extends. */
struct knob_reader {
	struct kb *kb;
	const char *file;
	struct kb_knob k;
	char	lastkey[32];
};

static int
knob_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct knob_reader *r = arg;

	if (strlen(key) >= sizeof r->lastkey) {
		util_cause(cause, "%s:%d: unknown key '%s'", r->file, line, key);
		return -1;
	}
	if (stanza_set(&r->k, key, value, r->file, line, cause) == -1)
		return -1;
	if (r->k.line == 0)
		r->k.line = line;
	strcpy(r->lastkey, key);
	return 0;
}

static char **
knob_last(void *arg)
{
	struct knob_reader *r = arg;
	char **last;

	if (r->lastkey[0] == '\0')
		return NULL;
	if ((last = last_of(&r->k, r->lastkey)) != NULL)
		return last;
	return single_field(&r->k, r->lastkey);
}

static int
knob_end(void *arg, char **cause)
{
	struct knob_reader *r = arg;

	r->lastkey[0] = '\0';
	if (!stanza_empty(&r->k) && stanza_finish(r->kb, &r->k, r->file, cause) == -1)
		return -1;
	return 0;
}

int
kb_load_text(struct kb *kb, const char *file, const char *text, size_t len, char **cause)
{
	static const struct kb_stanza_ops ops = { knob_field, knob_last, knob_end };
	struct knob_reader r;
	int rc;

	memset(&r, 0, sizeof r);
	r.kb = kb;
	r.file = file;
	rc = kb_stanzas_read(file, text, len, &ops, &r, cause);
	knob_free(&r.k);
	return rc;
}

static int
load_file(void *arg, const char *file, const char *text, size_t len, char **cause)
{
	return kb_load_text(arg, file, text, len, cause);
}

static int
parse_prefixes(struct kb *kb, const char *file, const char *text, size_t len, char **cause)
{
	return kb_prefixes_parse(file, text, len, &kb->prefixes, cause);
}

static int
parse_hints(struct kb *kb, const char *file, const char *text, size_t len, char **cause)
{
	return kb_hints_parse(file, text, len, &kb->hints, cause);
}

static int
parse_modules(struct kb *kb, const char *file, const char *text, size_t len, char **cause)
{
	return kb_hints_parse(file, text, len, &kb->modules, cause);
}

/*
 * The NIC drivers (DIR/drivers), OS name prefixes (DIR/os.prefixes), device hint
 * leaves (DIR/drivers/freebsd.hints) and kernel module names (DIR/drivers/freebsd.modules,
 * in the same NAME<tab>WHERE form), when there.
 */
static int
load_extras(struct kb *kb, const char *dir, char **cause)
{
	static const struct {
		const char *name;
		int (*parse)(struct kb *, const char *, const char *, size_t, char **);
	} files[] = {
		{ "os.prefixes", parse_prefixes },
		{ "drivers/freebsd.hints", parse_hints },
		{ "drivers/freebsd.modules", parse_modules },
	};
	char *path, *data;
	size_t len, i;
	int rc = 0;

	xasprintf(&path, "%s/drivers", dir);
	if (access(path, F_OK) == 0)
		rc = kb_drivers_load(path, &kb->drivers, cause);
	free(path);
	for (i = 0; rc == 0 && i < nitems(files); i++) {
		xasprintf(&path, "%s/%s", dir, files[i].name);
		if (access(path, F_OK) == 0 && (rc = util_read_file(path, &data, &len, cause)) == 0) {
			rc = files[i].parse(kb, path, data, len, cause);
			free(data);
		}
		free(path);
	}
	return rc;
}

int
kb_load(const char *dir, struct kb **out, char **cause)
{
	struct kb *kb = kb_new();
	char *path = NULL;
	int rc;

	if (dir == NULL)
		xasprintf(&path, "%s/knobs", util_share_dir());
	rc = kb_read_dir(dir != NULL ? dir : path, "knobs", ".knob", 4, load_file, kb, cause);
	if (rc == 0)
		rc = load_extras(kb, dir != NULL ? dir : path, cause);
	free(path);
	/* The catalogue under the knowledge base: share/catalog, when it is there. */
	if (rc == 0 && dir == NULL) {
		xasprintf(&path, "%s/catalog", util_share_dir());
		if (access(path, F_OK) == 0)
			rc = kb_catalog_load(path, &kb->cat, cause);
		free(path);
	}
	if (rc == -1) {
		kb_free(kb);
		*out = NULL;
		return -1;
	}
	*out = kb;
	return 0;
}
