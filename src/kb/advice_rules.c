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

static const char *const certainties[] = { "safe", "usually helps", "measure it", "not advised" };
static const char *const roles[] = { "router", "firewall", "host" };
static const char *const goals[] = { "forwarding", "throughput", "latency" };
/* Text placeholders; every other {x} is a number expression (see value_of). */
static const char *const words[] = { "cpumask", "role", "goal", "nic", "driver", "driver_source",
	"queues_source" };
/* Number variables of the system, then (from "queues" on) of the NIC of a per-NIC rule. */
static const char *const vars[] = {
	"ncpu", "ncores", "log2ncpu", "rssbits", "maxspeed", "maxring",
	"queues", "max_queues", "queues_wanted", "rx_ring", "max_rx_ring", "max_rxd", "max_txd",
	"flow_control", "adaptive_rx", "lro", "tso", "has_lro", "has_tso", "speed", "unit",
	"rx_ring_used", "drv_max_queues", "hw_queues",
};
#define FIRST_NIC_VAR 6

static void
rule_free(void *p)
{
	struct kb_rule *r = p;

	free(r->knob);
	free(r->os);
	free(r->when);
	free(r->value);
	free(r->reason);
	free(r->source);
	free(r->nic_state);
	memset(r, 0, sizeof *r);
}

void
kb_rules_free(struct kb_rules *rs)
{
	if (rs == NULL)
		return;
	util_array_free(rs->r, rs->n, sizeof *rs->r, rule_free);
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

/* Every word of a '|' list is one of names (names NULL: any word). */
static bool
list_valid(const char *list, const char *const *names, size_t n)
{
	char *copy = xstrdup(list), *tok, *save;
	size_t i;
	bool ok = true, any = false;

	for (tok = strtok_r(copy, "|", &save); tok != NULL && ok; tok = strtok_r(NULL, "|", &save)) {
		any = true;
		if (names == NULL)
			continue;
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

/* The NIC's number variable k (index into vars); -1 when it does not say. */
static long long
nic_var(size_t k, const struct kb_rule_ctx *c)
{
	const struct kb_nic *n = c->nic;
	const struct kb_driver *d = c->drv;
	char letters[64];
	int want;

	switch (k) {
	case 6: return n->queues;
	case 7: return n->max_queues;
	case 8:
		want = c->sys->ncpu;
		if (n->max_queues > 0 && want > n->max_queues)
			want = n->max_queues;
		if (d != NULL && d->max_queues > 0 && want > d->max_queues)
			want = d->max_queues;
		return want;
	case 9: return n->rx_ring;
	case 10: return n->max_rx_ring;
	case 11: return d != NULL ? d->max_rxd : -1;
	case 12: return d != NULL ? d->max_txd : -1;
	case 13: return n->flow_control;
	case 14: return n->adaptive_rx;
	case 15: return n->lro;
	case 16: return n->tso;
	case 17: return d != NULL ? d->lro : -1;
	case 18: return d != NULL ? d->tso : -1;
	case 19: return n->speed_mbps;
	case 20: return util_ifname_unit(n->name, letters, sizeof letters);
	case 22: return d != NULL ? d->max_queues : -1;
	case 23: return d != NULL ? d->hw_queues : -1;
	default: return kb_nic_rx_ring(n, d);
	}
}

/* One operand: a number or a variable. -1 bad (or a NIC variable outside a per-NIC rule). */
static int
operand(const char *tok, const struct kb_rule_ctx *c, bool nic, long long *v)
{
	size_t k;

	if (kb_parse_number(tok, v) == 0 && isdigit((unsigned char)tok[tok[0] == '-']))
		return 0;
	for (k = 0; k < nitems(vars) && strcmp(vars[k], tok) != 0; k++)
		;
	if (k == nitems(vars) || (k >= FIRST_NIC_VAR && !nic))
		return -1;
	*v = 0;
	if (c == NULL)
		return 0;
	switch (k) {
	case 0: *v = c->sys->ncpu; break;
	case 1: *v = c->sys->ncores > 0 ? c->sys->ncores : c->sys->ncpu; break;
	case 2: *v = c->log2ncpu; break;
	case 3: *v = c->rssbits; break;
	case 4: *v = c->maxspeed; break;
	case 5: *v = c->maxring; break;
	default: *v = nic_var(k, c);
	}
	return 0;
}

/*
 * A number expression: operands joined by + - * / (spaces around), left to right.
 * 0 and *v; 1 undefined (division by zero); -1 bad syntax.
 */
static int
expr(const char *text, const struct kb_rule_ctx *c, bool nic, long long *v)
{
	char *copy = xstrdup(text), *tok, *save;
	long long x;
	char op = 0;
	int rc = 0, n = 0;

	*v = 0;
	for (tok = strtok_r(copy, " \t", &save); tok != NULL && rc == 0;
	    tok = strtok_r(NULL, " \t", &save), n++) {
		if (n % 2 == 1) {
			if (strlen(tok) != 1 || strchr("+-*/", tok[0]) == NULL)
				rc = -1;
			op = tok[0];
			continue;
		}
		if (operand(tok, c, nic, &x) == -1) {
			rc = -1;
			break;
		}
		if (n == 0 || op == '+')
			*v = n == 0 ? x : *v + x;
		else if (op == '-')
			*v -= x;
		else if (op == '*')
			*v *= x;
		else if (x == 0)
			rc = c != NULL ? 1 : 0;
		else
			*v /= x;
	}
	free(copy);
	if (rc == 0 && (n == 0 || n % 2 == 0))
		rc = -1;	/* empty, or ends in an operator */
	return rc;
}

/* "A OP B" with OP one of > >= < <= == !=. 1 true, 0 false, -1 bad syntax. */
static int
comparison(const char *t, const struct kb_rule_ctx *c, bool nic)
{
	static const char *const ops[] = { " >= ", " <= ", " == ", " != ", " > ", " < " };
	const char *p = NULL;
	char *lhs, op[3];
	long long a, b;
	size_t i;
	int ra, rb;

	for (i = 0; i < nitems(ops) && (p = strstr(t, ops[i])) == NULL; i++)
		;
	if (p == NULL)
		return -1;
	snprintf(op, sizeof op, "%.*s", (int)strlen(ops[i]) - 2, ops[i] + 1);
	lhs = xstrndup(t, (size_t)(p - t));
	ra = expr(lhs, c, nic, &a);
	rb = expr(p + strlen(ops[i]), c, nic, &b);
	free(lhs);
	if (ra == -1 || rb == -1)
		return -1;
	if (c == NULL || ra == 1 || rb == 1)
		return c == NULL;
	return kb_compare((double)a, op, (double)b);
}

/* Whether the NIC is a loopback interface (lo, lo0). */
static bool
loopback(const struct kb_nic *n)
{
	return strncmp(n->name, "lo", 2) == 0 &&
	    (n->name[2] == '\0' || isdigit((unsigned char)n->name[2]));
}

/*
 * "version OP X" (OP < <= > >=, X an OS version such as 12.0): false when the
 * system's version is unknown. 1 true, 0 false, -1 bad syntax.
 */
static int
version_term(const char *t, const struct kb_rule_ctx *c)
{
	char op[3], v[32];
	int k = 0, cmp;

	if (sscanf(t, "%2s %31s%n", op, v, &k) != 2 || t[k] != '\0' || !isdigit((unsigned char)v[0]) ||
	    (strcmp(op, "<") != 0 && strcmp(op, "<=") != 0 && strcmp(op, ">") != 0 &&
	    strcmp(op, ">=") != 0))
		return -1;
	if (c == NULL)
		return 1;
	if (c->sys->version == NULL || !isdigit((unsigned char)c->sys->version[0]))
		return 0;
	cmp = kb_version_cmp(c->sys->version, v);
	return kb_compare(cmp, op, 0);
}

/*
 * One term of a condition. With c NULL only the syntax is checked; nic: the rule is
 * per NIC. Returns 1 true, 0 false, -1 bad syntax.
 */
static int
term(const char *t, const struct kb_rule_ctx *c, bool nic)
{
	char what[16], rest[128], letters[64];
	int v;

	if (strncmp(t, "not ", 4) == 0)
		return (v = term(t + 4, c, nic)) == -1 ? -1 : !v;
	if (strcmp(t, "smt") == 0)
		return c == NULL ? 1 : c->sys->smt == 1;
	if (strcmp(t, "rss") == 0)
		return c == NULL ? 1 : (os_platform_parse(c->os) == OS_PLATFORM_OPNSENSE ||
		    c->sys->rss_kernel == 1);
	if (strcmp(t, "iflib") == 0 && nic)
		return c == NULL ? 1 : c->drv != NULL && c->drv->iflib == 1;
	if (strcmp(t, "loopback") == 0 && nic)
		return c == NULL ? 1 : loopback(c->nic);
	if (strncmp(t, "version ", 8) == 0)
		return version_term(t + 8, c);
	if (sscanf(t, "%15s %127s", what, rest) == 2 && strchr(t + strlen(what) + 1, ' ') == NULL &&
	    (strcmp(what, "role") == 0 || strcmp(what, "goal") == 0 || strcmp(what, "os") == 0 ||
	    (strcmp(what, "driver") == 0 && nic))) {
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
		if (strcmp(what, "driver") == 0) {
			if (!list_valid(rest, NULL, 0))
				return -1;
			if (c == NULL)
				return 1;
			util_ifname_unit(c->nic->name, letters, sizeof letters);
			return in_list(rest, letters) || (c->nic->driver[0] != '\0' &&
			    in_list(rest, c->nic->driver)) || (c->drv != NULL &&
			    in_list(rest, c->drv->name));
		}
		if (!platforms_valid(rest))
			return -1;
		return c == NULL ? 1 : in_list(rest, c->os);
	}
	return comparison(t, c, nic);
}

/* What a term of an advice rule sees: the system (NULL: syntax only), per NIC or not. */
struct term_arg {
	const struct kb_rule_ctx *c;
	bool	 nic;
};

static int
rule_term(const char *t, void *arg)
{
	const struct term_arg *ta = arg;

	return term(t, ta->c, ta->nic);
}

/* A condition: terms joined by " and ". 1 true, 0 false, -1 bad syntax. */
static int
condition(const char *when, const struct kb_rule_ctx *c, bool nic)
{
	struct term_arg ta = { c, nic };

	return kb_condition(when, rule_term, &ta);
}

/* A text placeholder's value. */
static void
add_word(struct strbuf *sb, size_t i, const struct kb_rule_ctx *c)
{
	char letters[64];

	switch (i) {
	case 0:
		strbuf_adds(sb, c->cpumask);
		break;
	case 1:
		strbuf_adds(sb, roles[c->role]);
		break;
	case 2:
		strbuf_adds(sb, goals[c->goal]);
		break;
	case 3:
		strbuf_adds(sb, c->nic->name);
		break;
	case 4:
		util_ifname_unit(c->nic->name, letters, sizeof letters);
		strbuf_adds(sb, letters);
		break;
	case 6:
		strbuf_adds(sb, c->drv != NULL && c->drv->queues_source != NULL ?
		    c->drv->queues_source : "no queue facts in share/knobs/drivers");
		break;
	default:
		strbuf_adds(sb, c->drv != NULL && c->drv->source != NULL ? c->drv->source :
		    "no driver facts in share/knobs/drivers");
	}
}

/*
 * Expands {placeholders}: a text word or a number expression. With c NULL only
 * checks them (returns NULL, *bad set when one is unknown). A rule for a NIC that
 * has no unit number does not apply where {unit} or {driver} is used (*skip).
 */
static char *
expand(const char *text, const struct kb_rule_ctx *c, bool nic, bool *bad)
{
	struct strbuf sb;
	const char *p, *close;
	char name[96];
	long long v;
	size_t i, len;
	int rc;

	*bad = false;
	strbuf_init(&sb);
	for (p = text; *p != '\0' && !*bad; p++) {
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
		p = close;
		for (i = 0; i < nitems(words) && strcmp(words[i], name) != 0; i++)
			;
		if (i < nitems(words)) {
			if (i >= 3 && !nic)
				*bad = true;
			else if (c != NULL)
				add_word(&sb, i, c);
			continue;
		}
		if ((rc = expr(name, c, nic, &v)) == -1)
			*bad = true;
		else if (c != NULL && rc == 0)
			strbuf_addf(&sb, "%lld", v);
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
	bool bad, note = r->certainty == KB_NOT_ADVISED;

	if (r->knob == NULL)
		missing = "knob";
	else if (r->value == NULL && !note)
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
	if (note && r->value != NULL) {
		util_cause(cause, "%s:%d: a 'not advised' rule has no value", file, r->line);
		return -1;
	}
	if (r->nic_state != NULL && (!r->per_nic || (strcmp(r->nic_state, "lro") != 0 &&
	    strcmp(r->nic_state, "tso") != 0))) {
		util_cause(cause, "%s:%d: nic-state is lro or tso, in a 'for: nic' rule", file,
		    r->line);
		return -1;
	}
	if (condition(r->when, NULL, r->per_nic) == -1) {
		util_cause(cause, "%s:%d: bad condition '%s'%s", file, r->line, r->when,
		    r->per_nic ? "" : " (NIC terms need 'for: nic')");
		return -1;
	}
	bad = false;
	if (r->value != NULL)
		expand(r->value, NULL, r->per_nic, &bad);
	if (!bad)
		expand(r->reason, NULL, r->per_nic, &bad);
	if (!bad)
		expand(r->knob, NULL, r->per_nic, &bad);
	if (!bad)
		expand(r->source, NULL, r->per_nic, &bad);
	if (bad) {
		util_cause(cause, "%s:%d: unknown {placeholder} in rule for '%s'%s", file, r->line,
		    r->knob, r->per_nic ? "" : " (NIC placeholders need 'for: nic')");
		return -1;
	}
	rs->r = xreallocarray(rs->r, rs->n + 1, sizeof *rs->r);
	rs->r[rs->n++] = *r;
	memset(r, 0, sizeof *r);
	r->certainty = -1;
	return 0;
}

/* A rule's single-valued keys. */
static const struct kb_stanza_key rule_keys[] = {
	{ "knob", offsetof(struct kb_rule, knob) },
	{ "os", offsetof(struct kb_rule, os) },
	{ "when", offsetof(struct kb_rule, when) },
	{ "value", offsetof(struct kb_rule, value) },
	{ "reason", offsetof(struct kb_rule, reason) },
	{ "source", offsetof(struct kb_rule, source) },
	{ "nic-state", offsetof(struct kb_rule, nic_state) },
};

/* kb_rules_parse's reading state: the rules so far and the one being read (st first: kb_stanza_last). */
struct rule_reader {
	struct kb_stanza_state st;
	struct kb_rules *rs;
	struct kb_rule r;
};

static bool
rule_empty(const struct kb_rule *r)
{
	return r->knob == NULL && r->os == NULL && r->when == NULL && r->value == NULL &&
	    r->reason == NULL && r->source == NULL && r->certainty < 0 && !r->per_nic &&
	    r->nic_state == NULL;
}

static int
rule_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct rule_reader *rd = arg;

	if (rule_empty(&rd->r))
		rd->r.line = line;
	rd->st.last = NULL;
	if (strcmp(key, "certainty") == 0)
		return kb_stanza_choice(&rd->r.certainty, certainties, nitems(certainties),
		    rd->st.file, line, key, value, cause);
	if (strcmp(key, "for") == 0) {
		if (strcmp(value, "nic") != 0 || rd->r.per_nic) {
			util_cause(cause, "%s:%d: bad 'for: %s' (only 'for: nic', once)", rd->st.file,
			    line, value);
			return -1;
		}
		rd->r.per_nic = true;
		return 0;
	}
	return kb_stanza_single(&rd->st, &rd->r, rule_keys, nitems(rule_keys), key, value, line,
	    cause);
}

static int
rule_end(void *arg, char **cause)
{
	struct rule_reader *rd = arg;

	rd->st.last = NULL;
	if (!rule_empty(&rd->r) && finish(rd->rs, &rd->r, rd->st.file, cause) == -1)
		return -1;
	return 0;
}

int
kb_rules_parse(const char *file, const char *text, size_t len, struct kb_rules **out,
    char **cause)
{
	static const struct kb_stanza_ops ops = { rule_field, kb_stanza_last, rule_end };
	struct rule_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.rs = xcalloc(1, sizeof *rd.rs);
	rd.st.file = file;
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
    char **reason, char **source)
{
	char letters[64];
	bool bad;

	if (r->os != NULL && !in_list(r->os, c->os))
		return 0;
	if (r->per_nic != (c->nic != NULL))
		return 0;
	/* dev.{driver}.{unit}.x names no device for an interface without a unit number */
	if (r->per_nic && util_ifname_unit(c->nic->name, letters, sizeof letters) < 0 &&
	    (strstr(r->knob, "{unit}") != NULL || strstr(r->knob, "{driver}") != NULL))
		return 0;
	if (condition(r->when, c, r->per_nic) != 1)
		return 0;
	if ((*name = expand(r->knob, c, r->per_nic, &bad)) == NULL)
		return 0;
	*value = r->value != NULL ? expand(r->value, c, r->per_nic, &bad) : NULL;
	*reason = expand(r->reason, c, r->per_nic, &bad);
	if (source != NULL)
		*source = expand(r->source, c, r->per_nic, &bad);
	return 1;
}

/* A boot-value line split: FROM, EXPR and COND (NULL when none); -1 when malformed. */
static int
boot_split(const char *line, char **from, char **ex, char **cond)
{
	const char *arrow = strstr(line, " -> "), *when;

	*from = *ex = *cond = NULL;
	if (arrow == NULL)
		return -1;
	*from = xstrndup(line, (size_t)(arrow - line));
	util_trim(*from);
	arrow += strlen(" -> ");
	if ((when = strstr(arrow, " when ")) != NULL) {
		*ex = xstrndup(arrow, (size_t)(when - arrow));
		*cond = xstrdup(when + strlen(" when "));
		util_trim(*cond);
	} else
		*ex = xstrdup(arrow);
	util_trim(*ex);
	return **from != '\0' && **ex != '\0' && (*cond == NULL || **cond != '\0') ? 0 : -1;
}

char *
kb_boot_value_problem(const char *line, char **from)
{
	char *ex, *cond, *why = NULL;
	long long v;

	if (boot_split(line, from, &ex, &cond) == -1)
		why = xstrdup("want 'VALUE -> EXPR' or 'VALUE -> EXPR when CONDITION'");
	else if (expr(ex, NULL, false, &v) == -1)
		xasprintf(&why, "bad expression '%s'", ex);
	else if (cond != NULL && condition(cond, NULL, false) == -1)
		xasprintf(&why, "bad condition '%s'", cond);
	if (why != NULL) {
		free(*from);
		*from = NULL;
	}
	free(ex);
	free(cond);
	return why;
}

/* "for 6 CPUs", "for 4 cores": what a boot-value expression depends on. */
static void
depends_on(const char *ex, const struct kb_rule_ctx *c, char *why, size_t len)
{
	static const char *const per_cpu[] = { "ncpu", "log2ncpu", "rssbits" };
	size_t i;

	*why = '\0';
	if (strstr(ex, "ncores") != NULL && c->sys->ncores > 0) {
		snprintf(why, len, "for %d cores", c->sys->ncores);
		return;
	}
	for (i = 0; i < nitems(per_cpu); i++) {
		if (strstr(ex, per_cpu[i]) != NULL) {
			snprintf(why, len, "for %d CPUs", c->sys->ncpu);
			return;
		}
	}
}

int
kb_boot_value(const struct kb_knob *k, const char *value, const struct kb_rule_ctx *c,
    long long *v, char *why, size_t len)
{
	char *from, *ex, *cond;
	size_t i;
	int found = 0;

	for (i = 0; i < k->nboot_values && !found; i++) {
		if (boot_split(k->boot_values[i], &from, &ex, &cond) == 0 &&
		    kb_value_equal(k, value, from) && (cond == NULL || condition(cond, c, false) == 1) &&
		    expr(ex, c, false, v) == 0) {
			depends_on(ex, c, why, len);
			found = 1;
		}
		free(from);
		free(ex);
		free(cond);
	}
	return found;
}
