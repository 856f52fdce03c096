/*
 * `ntune advise`: runs the advice rules of share/knobs/advice (system.advice, then
 * nic.advice once per NIC, then late.advice; src/kb/advice_rules.c reads them) against the
 * system. Every value is computed from the system (CPU count, SMT, NIC queues and
 * rings, link speed); every line says how sure it is: safe (fixes a clear
 * misconfiguration), usually helps (with a source), or measure it (a candidate for
 * `ntune bench` / `ntune tune`, never a fact); "not advised" lines say why a knob is
 * left alone. The result is run through kb_check and lines with errors are dropped,
 * so the profile passes `ntune check`.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

struct advisor {
	const struct kb *kb;
	const struct kb_system *sys;
	const char *os;		/* platform name */
	const char *family;	/* "freebsd" | "linux": which drivers file applies */
	enum kb_goal goal;
	enum kb_role role;
	struct kb_advice *a;
	size_t	n;
};

const char *
kb_certainty_name(enum kb_certainty c)
{
	return c == KB_SAFE ? "safe" : c == KB_USUALLY ? "usually helps" : c == KB_MEASURE ?
	    "measure it" : "not advised";
}

/* fls(3): the position of the highest bit set, 0 for 0. */
static int
fls_int(int n)
{
	int b = 0;

	while (n > 0) {
		n >>= 1;
		b++;
	}
	return b;
}

/*
 * net.inet.rss.bits: the kernel's own rule with RSS on, fls(ncpu - 1) + 1 (at least two
 * buckets per CPU), capped at RSS_MAXBITS 7 (sys/net/rss_config.c rss_init).
 */
int
kb_rss_bits(int ncpu)
{
	int b = ncpu > 1 ? fls_int(ncpu - 1) + 1 : 1;

	return b > 7 ? 7 : b;
}

static int log2floor(int);

/* What the rule language sees of sys, without a NIC (cpumask, drivers: none). */
static void
system_ctx(const struct kb_system *sys, struct kb_rule_ctx *c)
{
	memset(c, 0, sizeof *c);
	c->sys = sys;
	c->os = os_platform_name(sys->platform != OS_PLATFORM_UNKNOWN ? sys->platform :
	    OS_PLATFORM_LINUX);
	c->log2ncpu = log2floor(sys->ncpu);
	c->rssbits = kb_rss_bits(sys->ncpu);
	c->cpumask = "";
}

/*
 * The value the kernel runs with when the knob holds cur: what a boot-value line of
 * its stanza computes (rss.bits 0 -> fls(ncpu-1)+1), else cur itself. why gets
 * "the kernel sets 4 at boot for 6 CPUs" when a line applied, else "".
 */
static bool
boot_effect(const struct kb_knob *k, const struct kb_system *sys, const char *cur,
    long long *v, char *why, size_t len)
{
	struct kb_rule_ctx c;
	char dep[64];

	*why = '\0';
	if (sys->ncpu <= 0 || k->nboot_values == 0)
		return false;
	system_ctx(sys, &c);
	if (kb_boot_value(k, cur, &c, v, dep, sizeof dep) != 1)
		return false;
	snprintf(why, len, "the kernel sets %lld at boot%s%s", *v, *dep ? " " : "", dep);
	return true;
}

/* Whether the current value already has the effect of the proposed one. */
bool
kb_same_effect(const struct kb_knob *k, const struct kb_system *sys, const char *name,
    const char *cur, const char *want)
{
	long long c, w, b;
	char why[128];

	(void)name;
	if (kb_value_equal(k, cur, want))
		return true;
	if (kb_parse_number(want, &w) == -1)
		return false;
	/* A value the kernel replaces at boot (the stanza's boot-value lines). */
	if (boot_effect(k, sys, cur, &b, why, sizeof why) && b == w)
		return true;
	if (kb_parse_number(cur, &c) == -1)
		return false;
	/* -1 = "all CPUs" for net.isr.maxthreads and friends. */
	if (k->range != NULL && util_startswith(k->range, "-1..ncpu") && sys->ncpu > 0 &&
	    ((c == -1 && w == sys->ncpu) || (w == -1 && c == sys->ncpu)))
		return true;
	return false;
}

/* The value now: the system's, else the knob's default (said so), else unknown. */
static void
current_of(struct advisor *ad, const struct kb_knob *k, struct kb_advice *x)
{
	char *v = NULL;

	if (ad->sys->get != NULL && ad->sys->get(ad->sys->arg, x->name, &v) == 0) {
		x->current = v;
		return;
	}
	if (k->def != NULL && strcmp(k->def, "auto") != 0) {
		x->current = xstrdup(k->def);
		x->current_is_default = true;
	}
}

/*
 * Adds name=value (value NULL: a "not advised" note) unless the KB does not know the
 * knob for this OS (then the rule is moot) or a rule before gave it; returns the advice.
 */
static struct kb_advice *
advise(struct advisor *ad, enum kb_certainty c, const char *name, const char *source,
    const char *value, const char *reason)
{
	const struct kb_knob *k;
	struct kb_advice *x;
	size_t i;

	if ((k = kb_find(ad->kb, name, ad->os)) == NULL || k->placement == KB_PLACE_READONLY)
		return NULL;
	for (i = 0; i < ad->n; i++) {
		if (strcmp(ad->a[i].name, name) == 0)
			return NULL;	/* the first (more specific) rule wins */
	}
	ad->a = xreallocarray(ad->a, ad->n + 1, sizeof *ad->a);
	x = &ad->a[ad->n++];
	x->name = xstrdup(name);
	x->value = xstrdup(value != NULL ? value : "");
	x->certainty = value != NULL ? c : KB_NOT_ADVISED;
	x->source = xstrdup(source);
	x->reason = xstrdup(reason);
	x->current = NULL;
	x->current_is_default = false;
	current_of(ad, k, x);
	x->already = value != NULL && x->current != NULL &&
	    kb_same_effect(k, ad->sys, name, x->current, value);
	x->boot_note = NULL;
	/* the proposed line's own risk (kb_line_risk), not the knob's */
	x->risk_class = value != NULL ? kb_line_risk(ad->kb, &(struct kb_entry){ .name = x->name,
	    .value = x->value, .op = KB_OP_SET }, ad->os, KB_TARGET_ANY, &x->risk_why) :
	    k->risk_class;
	x->risk_why = kb_risk_class_why(k);
	if (x->current != NULL) {
		long long b;
		char why[128];

		if (boot_effect(k, ad->sys, x->current, &b, why, sizeof why))
			x->boot_note = xstrdup(why);
	}
	return x;
}

static void
advice_free(void *p)
{
	struct kb_advice *a = p;

	free(a->name);
	free(a->value);
	free(a->reason);
	free(a->source);
	free(a->current);
	free(a->boot_note);
}

void
kb_advice_free(struct kb_advice *a, size_t n)
{
	util_array_free(a, n, sizeof *a, advice_free);
}

static int
log2floor(int n)
{
	int b = 0;

	while (n > 1) {
		n >>= 1;
		b++;
	}
	return b;
}

/* Hex mask of the first n CPUs, in the comma-grouped form of /sys (32 bits a group). */
static void
cpumask(int n, char *buf, size_t len)
{
	char group[16];
	int groups = (n + 31) / 32, g, bits;
	unsigned int w;

	buf[0] = '\0';
	for (g = groups - 1; g >= 0; g--) {
		bits = n - g * 32 > 32 ? 32 : n - g * 32;
		w = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
		snprintf(group, sizeof group, g == groups - 1 ? "%x" : "%08x", w);
		if (strlen(buf) + strlen(group) + 2 < len) {
			strcat(buf, group);
			if (g > 0)
				strcat(buf, ",");
		}
	}
}

/*
 * The state a NIC reported (on < 0: unknown) for advice x, when the tunables do not
 * say: the current value of a nic-state rule (if.IF.offload.lro from ifconfig options).
 */
static void
nic_state(struct kb_advice *x, int on)
{
	if (x == NULL || (x->current != NULL && !x->current_is_default) || on < 0)
		return;
	free(x->current);
	free(x->boot_note);
	x->boot_note = NULL;
	x->current = xstrdup(on ? "on" : "off");
	x->current_is_default = false;
	x->already = strcmp(x->current, x->value) == 0;
}

/* Drops lines that fail the lint (unknown on this version, out of range...). */
static void
self_check(struct advisor *ad)
{
	struct kb_profile p;
	struct kb_diag *d;
	size_t nd, i, j, w;
	bool *bad;

	memset(&p, 0, sizeof p);
	p.path = (char *)"advice";
	p.entries = xcalloc(ad->n ? ad->n : 1, sizeof *p.entries);
	for (i = 0; i < ad->n; i++) {
		if (ad->a[i].certainty == KB_NOT_ADVISED)
			continue;	/* a note, not a setting */
		p.entries[p.nentries].file = p.path;
		p.entries[p.nentries].line = (int)i + 1;
		p.entries[p.nentries].name = ad->a[i].name;
		p.entries[p.nentries++].value = ad->a[i].value;
	}
	kb_check(ad->kb, &p, ad->sys, KB_TARGET_ANY, &d, &nd);
	bad = xcalloc(ad->n ? ad->n : 1, sizeof *bad);
	for (j = 0; j < nd; j++) {
		if (d[j].severity == KB_ERROR && d[j].line >= 1 && (size_t)d[j].line <= ad->n)
			bad[d[j].line - 1] = true;
	}
	kb_diags_free(d, nd);
	free(p.entries);
	for (i = w = 0; i < ad->n; i++) {
		if (bad[i]) {
			free(ad->a[i].name);
			free(ad->a[i].value);
			free(ad->a[i].reason);
			free(ad->a[i].source);
			free(ad->a[i].current);
			free(ad->a[i].boot_note);
			continue;
		}
		ad->a[w++] = ad->a[i];
	}
	ad->n = w;
	free(bad);
}

/* Tries rule r (for the NIC in c, if any) and adds what it gives. */
static void
try_rule(struct advisor *ad, const struct kb_rule *r, const struct kb_rule_ctx *c)
{
	struct kb_advice *x;
	char *name, *value, *reason, *source;

	if (kb_rule_eval(r, c, &name, &value, &reason, &source) != 1)
		return;
	x = advise(ad, (enum kb_certainty)r->certainty, name, source, value, reason);
	if (x != NULL && r->nic_state != NULL)
		nic_state(x, strcmp(r->nic_state, "lro") == 0 ? c->nic->lro : c->nic->tso);
	free(name);
	free(value);
	free(reason);
	free(source);
}

/*
 * Applies the rules of share/knobs/advice/NAME.advice in order; a run of per-NIC rules
 * ("for: nic") is tried for each NIC in turn, all of the run for one NIC before the next.
 */
static int
advise_data(struct advisor *ad, struct kb_rule_ctx *c, const char *dir, const char *file,
    char **cause)
{
	const struct kb_system *s = ad->sys;
	struct kb_rules *rs;
	char *path;
	size_t i, j, k, n;

	xasprintf(&path, "%s/%s", dir, file);
	if (kb_rules_load(path, &rs, cause) == -1) {
		free(path);
		return -1;
	}
	free(path);
	for (i = 0; i < rs->n; i = j) {
		if (!rs->r[i].per_nic) {
			try_rule(ad, &rs->r[i], c);
			j = i + 1;
			continue;
		}
		for (j = i; j < rs->n && rs->r[j].per_nic; j++)
			;
		for (n = 0; n < s->nnics; n++) {
			c->nic = &s->nics[n];
			c->drv = kb_driver_for_nic(c->drivers, ad->family, c->nic);
			for (k = i; k < j; k++)
				try_rule(ad, &rs->r[k], c);
		}
		c->nic = NULL;
		c->drv = NULL;
	}
	kb_rules_free(rs);
	return 0;
}

int
kb_advise(const struct kb *kb, const struct kb_system *sys, enum kb_goal goal, enum kb_role role,
    struct kb_advice **out, size_t *nout, char **cause)
{
	static const char *const files[] = { "system.advice", "nic.advice", "late.advice" };
	struct advisor ad;
	struct kb_rule_ctx c;
	const struct kb_drivers *drivers;
	char *dir, mask[256];
	size_t i;
	int rc = 0;

	memset(&ad, 0, sizeof ad);
	ad.kb = kb;
	ad.sys = sys;
	ad.os = os_platform_name(sys->platform != OS_PLATFORM_UNKNOWN ? sys->platform :
	    OS_PLATFORM_LINUX);
	ad.family = os_platform_name(os_platform_family(os_platform_parse(ad.os)));
	ad.goal = goal;
	ad.role = role;
	if (sys->ncpu <= 0) {
		util_cause(cause, "the CPU count is unknown; advice derives from it");
		return -1;
	}
	drivers = kb_get_drivers(kb);
	cpumask(sys->ncpu, mask, sizeof mask);
	system_ctx(sys, &c);
	c.os = ad.os;
	c.goal = goal;
	c.role = role;
	c.cpumask = mask;
	c.drivers = drivers;
	for (i = 0; i < sys->nnics; i++) {
		const struct kb_driver *d = kb_driver_for_nic(drivers, ad.family, &sys->nics[i]);

		if (sys->nics[i].speed_mbps > c.maxspeed)
			c.maxspeed = sys->nics[i].speed_mbps;
		if (kb_nic_rx_ring(&sys->nics[i], d) > c.maxring)
			c.maxring = kb_nic_rx_ring(&sys->nics[i], d);
	}
	xasprintf(&dir, "%s/knobs/advice", util_share_dir());
	for (i = 0; i < nitems(files) && rc == 0; i++)
		rc = advise_data(&ad, &c, dir, files[i], cause);
	free(dir);
	if (rc == -1) {
		kb_advice_free(ad.a, ad.n);
		return -1;
	}
	self_check(&ad);
	*out = ad.a;
	*nout = ad.n;
	return 0;
}
