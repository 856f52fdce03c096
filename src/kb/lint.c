/*
 * The lint rules of `ntune check`. Each rule looks at one entry (or the whole
 * profile) and adds diagnostics; none of them writes anything. A rule's name
 * says what it judges the line against: knob_* against the knowledge base's
 * stanza of the knob (share/knobs), text_* against the profile's own text; the
 * source_* rules of check_catalog.c judge it against the catalogue of names the
 * kernel sources declare (share/catalog).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/catalog.h"
#include "kb/check_impl.h"
#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

enum os_platform
kb_os_guess(const struct kb *kb, const struct kb_profile *p)
{
	size_t i, fb = 0, lx = 0;
	const struct kb_knob *k;
	const char *platform = NULL;

	if (p->xml)
		return OS_PLATFORM_OPNSENSE;
	for (i = 0; i < p->nentries; i++) {
		if ((k = kb_find(kb, p->entries[i].name, NULL)) != NULL) {
			if (strcmp(k->os, "linux") == 0)
				lx++;
			else
				fb++;
			if (k->platform != NULL)
				platform = k->platform;	/* net.inet.rss.enabled: OPNsense */
			continue;
		}
		/* share/knobs/os.prefixes */
		lx += kb_prefix_is(kb_get_prefixes(kb), p->entries[i].name, "linux");
		fb += kb_prefix_is(kb_get_prefixes(kb), p->entries[i].name, "freebsd");
	}
	if (fb == lx)
		return OS_PLATFORM_UNKNOWN;
	if (fb > lx)
		return platform != NULL ? os_platform_parse(platform) : OS_PLATFORM_FREEBSD;
	return OS_PLATFORM_LINUX;
}

enum kb_target
kb_target_guess(const struct kb_profile *p, enum os_platform os)
{
	if (p->xml)
		return os == OS_PLATFORM_PFSENSE ? KB_TARGET_PFSENSE : KB_TARGET_OPNSENSE;
	return kb_target_of_file(p->path);
}

enum kb_target
kb_target_of_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	if (util_startswith(base, "loader.conf"))
		return KB_TARGET_LOADER;
	if (util_startswith(base, "sysctl.conf") || strstr(path, "sysctl.d/") != NULL)
		return KB_TARGET_SYSCTL;
	return KB_TARGET_ANY;
}

/* The value name has for the rules: the profile's, else the system's, else the default. */
static char *
value_of(struct lint *l, const char *name, const char **from)
{
	const struct kb_entry *e = kb_profile_get(l->p, name);
	const struct kb_knob *k;
	char *v = NULL;

	if (e != NULL) {
		*from = "profile";
		return xstrdup(e->value);
	}
	if (l->sys != NULL && l->sys->get != NULL && l->sys->get(l->sys->arg, name, &v) == 0) {
		*from = "system";
		return v;
	}
	if ((k = kb_find(l->kb, name, l->platform)) != NULL && k->def != NULL) {
		*from = "default";
		return xstrdup(k->def);
	}
	return NULL;
}

/* A number for a knob value; -1 with a range starting at -1 means "all CPUs". */
static int
number_of(struct lint *l, const char *name, const char *v, long long *out)
{
	const struct kb_knob *k = kb_find(l->kb, name, l->platform);

	if (kb_parse_number(v, out) == -1)
		return -1;
	if (*out == -1 && k != NULL && k->range != NULL && util_startswith(k->range, "-1..ncpu"))
		*out = l->sys != NULL && l->sys->ncpu > 0 ? l->sys->ncpu : INT_MAX;
	return 0;
}

static void
knob_placement(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	bool bsd = strcmp(l->os, "freebsd") == 0;
	const char *ref = check_cat_ref(l, e->name);

	if (k->placement == KB_PLACE_READONLY) {
		const struct kb_cat_entry *ce = l->cat != NULL && bsd && l->target ==
		    KB_TARGET_LOADER ? kb_catalog_find(l->cat, l->os, e->name) : NULL;

		/* read-only at run time, yet fetched at boot by some kernels (hw.ncpu:
		 * arm64/arm/riscv mp_machdep read it; the catalogue's "fetch:" names one) */
		if (ce != NULL && strstr(ce->source, " fetch:") != NULL)
			diag(l, e, KB_NOTE, "read-only", "'%s' is read-only at run time (the kernel "
			    "reports it%s); at boot it is read only where a tunable fetch is (%s), "
			    "not on every platform", e->name, ref, strstr(ce->source, " fetch:") + 7);
		else
			diag(l, e, KB_ERROR, "read-only", "'%s' is read-only (the kernel reports "
			    "it%s); setting it fails", e->name, ref);
		return;
	}
	switch (l->target) {
	case KB_TARGET_LOADER:
		if (k->placement == KB_PLACE_SYSCTL)
			diag(l, e, KB_ERROR, "placement", "'%s' is a runtime sysctl%s; in loader.conf "
			    "it is ignored, put it in /etc/sysctl.conf", e->name, ref);
		else if (k->placement == KB_PLACE_IFCONFIG || k->placement == KB_PLACE_ETHTOOL ||
		    k->placement == KB_PLACE_SYSFS)
			diag(l, e, KB_ERROR, "placement", "'%s' is an interface setting (%s), not a "
			    "loader tunable", e->name, kb_placement_name(k->placement));
		break;
	case KB_TARGET_SYSCTL:
		if (k->placement == KB_PLACE_LOADER)
			diag(l, e, KB_ERROR, "placement", "'%s' is a boot-time tunable%s; in %s it has "
			    "no effect, put it in /boot/loader.conf%s", e->name, ref,
			    bsd ? "sysctl.conf" : "a sysctl file", bsd ? ".local" : "");
		else if (k->placement == KB_PLACE_IFCONFIG || k->placement == KB_PLACE_ETHTOOL ||
		    k->placement == KB_PLACE_SYSFS)
			diag(l, e, KB_ERROR, "placement", "'%s' is an interface setting (%s); sysctl "
			    "cannot set it, use `ntune apply`", e->name,
			    kb_placement_name(k->placement));
		break;
	case KB_TARGET_OPNSENSE:
		if (k->placement == KB_PLACE_LOADER)
			diag(l, e, KB_NOTE, "placement", "'%s' is a boot-time tunable%s: OPNsense "
			    "writes it to /boot/loader.conf, it takes effect after a reboot", e->name, ref);
		break;
	case KB_TARGET_PFSENSE:
		if (k->placement == KB_PLACE_LOADER)
			diag(l, e, KB_ERROR, "placement", "'%s' is a boot-time tunable%s; pfSense "
			    "System Tunables sets it at runtime without effect, put it in "
			    "/boot/loader.conf.local", e->name, ref);
		break;
	case KB_TARGET_ANY:
		break;
	}
}

static void
knob_version(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	const char *ver = l->sys != NULL ? l->sys->version : NULL;
	bool known = ver != NULL && isdigit((unsigned char)*ver);
	/* a FreeBSD base-system tag in the file ($FreeBSD: releng/12.2/...): the release it states */
	const char *tagged = l->p != NULL && l->p->release != NULL && strcmp(l->os, "freebsd") == 0 ?
	    l->p->release : NULL;

	const struct kb_cat_entry *ce = l->cat != NULL ? kb_catalog_find(l->cat, l->os, e->name) :
	    NULL;
	const struct kb_cat_tree *t = ce != NULL ? kb_catalog_entry_tree(l->cat, ce) : NULL;
	char gone[160], last[200] = "";

	/* "no kernel defines it" only while no tree the catalogue read declares it (set 4: F3) */
	if (k->nonexistent != NULL && (ce == NULL || ce->kind == KB_CAT_DOC)) {
		diag(l, e, KB_ERROR, "nonexistent", "'%s' does nothing: %s", e->name, k->nonexistent);
		return;
	}
	if (k->removed != NULL) {
		/*
		 * Declared in a tree at or after the removal: the knob exists but nothing
		 * reads it any more. Declared only in older trees: the last place it was.
		 */
		if (t != NULL && kb_version_cmp(t->version, k->removed) >= 0)
			snprintf(gone, sizeof gone, "has had no effect since %s (still declared, "
			    "CTLFLAG_%s in %.*s, but read nowhere)", k->removed, ce->flags,
			    (int)strcspn(strchr(ce->source, ':') + 1, " "), strchr(ce->source, ':') + 1);
		else
			snprintf(gone, sizeof gone, "was removed in %s", k->removed);
		if (t != NULL && kb_version_cmp(t->version, k->removed) < 0)
			snprintf(last, sizeof last, " (last declared CTLFLAG_%s in %.*s, %s %s)",
			    ce->flags, (int)strcspn(strchr(ce->source, ':') + 1, " "),
			    strchr(ce->source, ':') + 1, strcmp(t->os, "linux") == 0 ? "Linux" :
			    "FreeBSD", t->version);
		if (known && kb_version_cmp(ver, k->removed) >= 0)
			diag(l, e, KB_ERROR, "obsolete", "'%s' %s; no effect on %s%s%s%s", e->name, gone,
			    ver, k->replaced_by ? "; use " : "",
			    k->replaced_by ? shown(k->replaced_by) : "", last);
		else if (!known && tagged != NULL && kb_version_cmp(tagged, k->removed) < 0)
			/* the file's base-system tag states a release that still has it */
			diag(l, e, KB_NOTE, "obsolete", "'%s' %s%s%s; the file's tag states %s, which "
			    "still has it", e->name, gone, k->replaced_by ? "; later: " : "",
			    k->replaced_by ? shown(k->replaced_by) : "", tagged);
		else if (!known)
			diag(l, e, KB_WARNING, "obsolete", "'%s' %s%s%s%s", e->name, gone,
			    k->replaced_by ? "; use " : "",
			    k->replaced_by ? shown(k->replaced_by) : "", last);
	} else if (k->no_effect_since != NULL) {
		if (!known || kb_version_cmp(ver, k->no_effect_since) >= 0)
			diag(l, e, KB_WARNING, "obsolete", "'%s' still exists but has no effect since "
			    "%s%s%s [source: %s]", e->name, k->no_effect_since,
			    k->replaced_by ? "; use " : "", k->replaced_by ? shown(k->replaced_by) : "",
			    k->sources[0]);
	} else if (k->replaced_by != NULL) {
		diag(l, e, KB_NOTE, "obsolete", "'%s' is an old name%s; prefer %s", e->name,
		    check_cat_ref(l, e->name), shown(k->replaced_by));
	}
	if (k->since != NULL && known && kb_version_cmp(ver, k->since) < 0)
		diag(l, e, KB_ERROR, "version", "'%s' exists since %s; it has no effect on %s",
		    e->name, k->since, ver);
}

/*
 * A value the kernel takes only up to another knob's (at-most: intr_queue_maxlen and
 * net.isr.maxqlimit, netisr_setqlimit's EINVAL): the bound as this file sets it (a loader
 * file, or a mixed list), else its default, which a loader.conf not checked here may raise.
 */
static void
knob_at_most(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	const struct kb_knob *b;
	const struct kb_entry *set = NULL;
	long long want, bound;
	size_t i;

	if (k->at_most == NULL || e->op != KB_OP_SET || kb_parse_number(e->value, &want) != 0)
		return;
	/* the bound is a tunable: a sysctl file's line of it has no effect */
	for (i = 0; l->p != NULL && i < l->p->nentries && l->target != KB_TARGET_SYSCTL &&
	    l->target != KB_TARGET_PFSENSE; i++)
		if (strcmp(l->p->entries[i].name, k->at_most) == 0 && l->p->entries[i].op == KB_OP_SET)
			set = &l->p->entries[i];
	if (set != NULL) {
		if (kb_parse_number(set->value, &bound) == 0 && want > bound)
			diag(l, e, KB_ERROR, "range", "%s=%s is above %s=%s (line %d): %s", e->name,
			    e->value, k->at_most, set->value, set->line, l->target == KB_TARGET_LOADER ?
			    "at boot the kernel caps it to that" : "the kernel refuses a value above it "
			    "(EINVAL)");
		return;
	}
	b = kb_find(l->kb, k->at_most, l->os);
	if (b == NULL || b->def == NULL || kb_parse_number(b->def, &bound) != 0 || want <= bound)
		return;
	if (l->target == KB_TARGET_LOADER)
		diag(l, e, KB_WARNING, "range", "%s=%s is above %s's default %s: at boot the "
		    "kernel caps it to %s unless loader.conf also raises %s", e->name, e->value,
		    k->at_most, b->def, k->at_most, k->at_most);
	else
		diag(l, e, KB_WARNING, "range", "%s=%s is above %s's default %s: the kernel "
		    "refuses it (EINVAL) unless /boot/loader.conf raises %s to at least %s",
		    e->name, e->value, k->at_most, b->def, k->at_most, e->value);
}

/*
 * A run-time minimum that is another knob's value at the time of the write (at-least:
 * ipfrag_high_thresh's handler has extra1 = &low_thresh, ip_fragment.c:615): the bound as
 * the same file set it on an earlier line, else its default. Written in file order, a high
 * threshold lowered before its low one fails (EINVAL).
 */
static void
knob_at_least(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	const struct kb_knob *b;
	const struct kb_entry *set = NULL, *x;
	const char *bound, *ver;
	char since[32] = "", older[512] = "", when[600] = "";
	long long want, min;
	bool stated;
	size_t i;

	if (k->at_least == NULL || e->op != KB_OP_SET || kb_parse_number(e->value, &want) != 0)
		return;
	/*
	 * A minimum a later release added (ipfrag_high_thresh: the 4.9 tree has it, 3.0 and 3.13
	 * take any value): not said for an older target; for an unknown one, said with the release.
	 */
	if (k->at_least_since != NULL &&
	    sscanf(k->at_least_since, "%31s %511[^\n]", since, older) == 2) {
		ver = check_release(l, &stated);
		if (ver != NULL && isdigit((unsigned char)*ver) && kb_version_cmp(ver, since) < 0)
			return;
		if (ver == NULL || !isdigit((unsigned char)*ver))
			snprintf(when, sizeof when, " from Linux %s on (%s)", since, older);
	}
	for (i = 0; l->p != NULL && i < l->p->nentries; i++) {
		x = &l->p->entries[i];
		if (strcmp(x->file, e->file) == 0 && x->line < e->line && x->op == KB_OP_SET &&
		    strcmp(x->name, k->at_least) == 0)
			set = x;
	}
	b = kb_find(l->kb, k->at_least, l->os);
	bound = set != NULL ? set->value : b != NULL ? b->def : NULL;
	if (bound == NULL || kb_parse_number(bound, &min) != 0 || want >= min)
		return;
	if (set != NULL)
		diag(l, e, *when != '\0' ? KB_WARNING : KB_ERROR, "range", "%s=%s is below %s=%s "
		    "(line %d), its minimum when it is written: the kernel refuses it (EINVAL)%s "
		    "[source: %s]", e->name, e->value, k->at_least, set->value, set->line, when,
		    k->sources[0]);
	else
		diag(l, e, KB_WARNING, "range", "%s=%s is below %s's default %s, its minimum when it "
		    "is written: the kernel refuses it (EINVAL)%s unless %s is lowered first (an "
		    "earlier line, or a file applied before) [source: %s]", e->name, e->value,
		    k->at_least, bound, when, k->at_least, k->sources[0]);
}

static void
knob_value(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	char *why, *why0;
	int ncpu = l->sys != NULL ? l->sys->ncpu : 0;
	long long dummy;
	enum kb_value_fault fault;

	if (e->op != KB_OP_SET && kb_parse_number(e->value, &dummy) == -1) {
		diag(l, e, KB_ERROR, "type", "'%s%s' needs a number, not '%s'", e->name,
		    kb_op_text(e->op), e->value);
		return;
	}
	if ((fault = kb_value_check(k, e->value, 0, &why0)) != KB_VALUE_OK) {
		diag(l, e, KB_ERROR, fault == KB_VALUE_RANGE ? "range" : "type", "%s: %s", e->name,
		    why0);
		free(why0);
		return;
	}
	knob_at_most(l, e, k);
	knob_at_least(l, e, k);
	/* Bounds that depend on the CPU count are advice, not kernel limits. */
	if (ncpu > 0 && (why = kb_value_problem(k, e->value, ncpu)) != NULL) {
		diag(l, e, KB_WARNING, "range", "%s: %s", e->name, why);
		free(why);
	}
}

/*
 * value-means "<N: why" or "V: why": a value the kernel takes but reads otherwise than a
 * file usually means it (dev.cpu.0.freq=-1 is not "the highest": the level nearest to -1,
 * the lowest, kern_cpu.c cpufreq_curr_sysctl).
 */
static void
value_means(struct lint *l, const struct kb_entry *e, const struct kb_knob *k, const char *v)
{
	char sel[64];
	long long n, want;
	int len;
	bool hit;

	if (k->value_means == NULL || e->op != KB_OP_SET ||
	    (len = (int)strcspn(k->value_means, ":")) == 0 || k->value_means[len] != ':' ||
	    len >= (int)sizeof sel)
		return;
	snprintf(sel, sizeof sel, "%.*s", len, k->value_means);
	if (sel[0] == '<')
		hit = kb_parse_number(sel + 1, &n) == 0 && kb_parse_number(v, &want) == 0 && want < n;
	else
		hit = strcmp(sel, v) == 0;
	if (hit)
		diag(l, e, KB_WARNING, "value", "'%s=%s':%s", e->name, v, k->value_means + len + 1);
}

/*
 * What the value itself says the stanza knows to be wrong: a list out of the order its
 * values are meant in (tcp_mem's min pressure max: the kernel takes it unchecked), or a
 * value that changes nothing (kernel.tainted=0).
 */
static void
knob_shape(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	char names[128], *name[8], *save, *end;
	const char *v = e->value;
	long long val[8];
	size_t n = 0, i;
	int len;

	if (e->op != KB_OP_SET)
		return;
	if (k->no_effect_value != NULL && (len = (int)strcspn(k->no_effect_value, ":")) > 0 &&
	    k->no_effect_value[len] == ':' && strlen(v) == (size_t)len &&
	    strncmp(v, k->no_effect_value, (size_t)len) == 0)
		diag(l, e, KB_WARNING, "no-effect", "'%s=%s' does nothing:%s", e->name, v,
		    k->no_effect_value + len + 1);
	value_means(l, e, k, v);
	if (k->ordered == NULL)
		return;
	snprintf(names, sizeof names, "%s", k->ordered);
	for (name[n] = strtok_r(names, " ", &save); name[n] != NULL && n < nitems(val) - 1;
	    name[n] = strtok_r(NULL, " ", &save)) {
		errno = 0;
		val[n] = strtoll(v, &end, 10);
		if (end == v || errno != 0)
			return;
		v = end;
		n++;
	}
	for (i = 1; i < n; i++) {
		if (val[i - 1] > val[i]) {
			diag(l, e, KB_WARNING, "order", "%s: %s (%lld) is above %s (%lld); the values "
			    "are meant as %s, each at most the next, and the kernel takes them "
			    "unchecked [source: %s]", e->name, name[i - 1], val[i - 1], name[i], val[i],
			    k->ordered, k->sources[0]);
			return;
		}
	}
}

/* "kernel RSS", "NAME > N", "NAME >= OTHER". */
static void
knob_requires(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	char lhs[128], op[3], rhs[128], *lv, *rv;
	const char *from = "", *rfrom = "";
	long long a, b;
	bool ok;
	size_t i;

	for (i = 0; i < k->nrequires; i++) {
		const char *r = k->requires[i];

		if (strcmp(r, "kernel RSS") == 0) {
			if (l->pf == OS_PLATFORM_OPNSENSE)
				continue;
			if (l->sys != NULL && l->sys->rss_kernel == 0)
				diag(l, e, KB_ERROR, "requires", "'%s' needs a kernel built with options "
				    "RSS; this kernel has no net.inet.rss", e->name);
			else if (l->sys == NULL || l->sys->rss_kernel < 0)
				diag(l, e, KB_WARNING, "requires", "'%s' exists only in kernels built "
				    "with options RSS (not GENERIC; OPNsense has it)", e->name);
			continue;
		}
		if (sscanf(r, "%127s %2s %127s", lhs, op, rhs) != 3)
			continue;
		if ((lv = value_of(l, lhs, &from)) == NULL)
			continue;
		if (number_of(l, lhs, lv, &a) == -1) {
			free(lv);
			continue;
		}
		rv = NULL;
		if (kb_parse_number(rhs, &b) == -1) {
			if ((rv = value_of(l, rhs, &rfrom)) == NULL || number_of(l, rhs, rv, &b) == -1) {
				free(lv);
				free(rv);
				continue;
			}
		}
		ok = strcmp(op, ">") == 0 ? a > b : strcmp(op, ">=") == 0 ? a >= b :
		    strcmp(op, "<") == 0 ? a < b : strcmp(op, "<=") == 0 ? a <= b :
		    strcmp(op, "==") == 0 ? a == b : a != b;
		/*
		 * "A >= this knob": A caps it (sbreserve refuses a socket buffer above
		 * kern.ipc.maxsockbuf and autotuning stops there), so the value matters up to A
		 * and not beyond: said so, not "only matters with".
		 */
		if (!ok && strcmp(rhs, e->name) == 0 && (strcmp(op, ">=") == 0 || strcmp(op, ">") == 0))
			diag(l, e, KB_WARNING, "requires", "'%s=%s' is above %s (%s, %s), which caps "
			    "it: the part above %s has no effect", e->name, e->value, lhs, lv, from, lv);
		else if (!ok)
			diag(l, e, KB_WARNING, "requires", "'%s' only matters with %s (%s is %s, %s)",
			    e->name, r, lhs, lv, from);
		free(lv);
		free(rv);
	}
	/* OPNsense: the RSS knobs do nothing until net.inet.rss.enabled=1. */
	if (l->pf == OS_PLATFORM_OPNSENSE && util_startswith(e->name, "net.inet.rss.") &&
	    strcmp(e->name, "net.inet.rss.enabled") != 0) {
		lv = value_of(l, "net.inet.rss.enabled", &from);
		if (lv == NULL || strcmp(lv, "1") != 0)
			diag(l, e, KB_WARNING, "requires", "'%s' has no effect unless "
			    "net.inet.rss.enabled=1", e->name);
		free(lv);
	}
}

static bool
is_limit(const char *name)
{
	static const char *const words[] = {
		"max", "limit", "budget", "backlog", "space", "buf", "nmb", "qlen", "queue",
		"hashsize", "_size", "somaxconn", "soacceptqueue", "gc_thresh", "entries", "buckets",
	};
	size_t i;

	for (i = 0; i < nitems(words); i++) {
		if (strstr(name, words[i]) != NULL)
			return true;
	}
	return false;
}

/*
 * The knob's default on the target: k->def, or the older one of default-before ("5.4 128")
 * when the target's release (the system's, or a file's base-system tag) precedes it; when
 * the release is not known, *also says both
 * (" (Linux 5.4 on; 128 before)"), else "".
 */
static const char *
default_of(struct lint *l, const struct kb_knob *k, char *also, size_t len)
{
	static char old[64];
	bool stated;
	const char *ver = check_release(l, &stated);
	char since[32];

	*also = '\0';
	if (k->def == NULL || k->default_before == NULL ||
	    sscanf(k->default_before, "%31s %63[^\n]", since, old) != 2)
		return k->def;
	if (ver != NULL && isdigit((unsigned char)*ver))
		return kb_version_cmp(ver, since) < 0 ? old : k->def;
	snprintf(also, len, " (%s %s on; %s before)", strcmp(k->os, "linux") == 0 ? "Linux" :
	    "FreeBSD", since, old);
	return k->def;
}

/*
 * What a default the source computes depends on (default-when: the word size for
 * net.core.rmem_max, the memory for tcp_wmem's maximum), said after "the default": the
 * figure holds there only, so it is never said as the default of every box.
 */
static const char *
when_of(const struct kb_knob *k, char *buf, size_t len)
{
	if (k->default_when == NULL)
		return "";
	snprintf(buf, len, " %s", k->default_when);
	return buf;
}

static void
knob_lowers(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	char *cur = NULL, also[128] = "", since[32], old[64], whenbuf[512], past[160] = "";
	const char *what = "current", *def, *when = "";
	long long want, have, before;

	if ((k->type != KB_TYPE_INT && k->type != KB_TYPE_SIZE) || e->op == KB_OP_RAISE ||
	    !is_limit(e->name) || kb_parse_number(e->value, &want) == -1 || want < 0)
		return;
	/* the value that turns the limit off (0 for ix's interrupt rate: no moderation) */
	if (k->no_limit != NULL && kb_value_equal(k, k->no_limit, e->value))
		return;
	if (l->sys == NULL || l->sys->get == NULL || l->sys->get(l->sys->arg, e->name, &cur) == -1) {
		def = default_of(l, k, also, sizeof also);
		cur = def != NULL ? xstrdup(def) : NULL;
		what = "default";
		when = when_of(k, whenbuf, sizeof whenbuf);
		check_past_kb_release(l, past, sizeof past);
	}
	if (cur == NULL || kb_parse_number(cur, &have) != 0 || want >= have || have <= 0) {
		free(cur);
		return;
	}
	/* the release not known and the older default not above the value: say when it lowers */
	if (*also != '\0' && sscanf(k->default_before, "%31s %63s", since, old) == 2 &&
	    kb_parse_number(old, &before) == 0 && want >= before)
		diag(l, e, KB_WARNING, "lowers-limit", "%s=%s lowers the limit below the default "
		    "value %s%s from %s %s on (before %s the default is %s, which it %s)", e->name,
		    e->value, cur, when, strcmp(k->os, "linux") == 0 ? "Linux" : "FreeBSD", since,
		    since, old, want == before ? "equals" : "raises");
	else
		diag(l, e, KB_WARNING, "lowers-limit", "%s=%s lowers the limit below the %s value "
		    "%s%s%s%s", e->name, e->value, what, cur, also, when, past);
	free(cur);
}

static void
knob_default(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	char *cur = NULL, also[128], whenbuf[512], past[160];
	const char *def, *appliance;

	if (l->sys != NULL && l->sys->get != NULL && l->sys->get(l->sys->arg, e->name, &cur) == 0) {
		if (e->op == KB_OP_SET && kb_value_equal(k, cur, e->value))
			diag(l, e, KB_NOTE, "no-change", "'%s' is already %s on this system", e->name,
			    cur);
		free(cur);
		return;
	}
	def = default_of(l, k, also, sizeof also);
	if (def == NULL || e->op != KB_OP_SET || !kb_value_equal(k, def, e->value))
		return;
	/*
	 * A Linux default is the kernel's: a distribution's sysctl.d may set another (Ubuntu's
	 * rp_filter=2, systemd's fq_codel), and the line then is not without effect there.
	 * OPNsense and pfSense write their own values for some knobs at boot (tcp.blackhole 2,
	 * random_id 1 on OPNsense): the FreeBSD default is not theirs.
	 */
	appliance = l->platform != NULL && strcmp(k->os, "freebsd") == 0 ?
	    strcmp(l->platform, "opnsense") == 0 ? "OPNsense" :
	    strcmp(l->platform, "pfsense") == 0 ? "pfSense" : NULL : NULL;
	diag(l, e, KB_NOTE, "no-change", "'%s=%s' is the %sdefault%s%s%s%s%s%s", e->name, e->value,
	    strcmp(k->os, "linux") == 0 ? "kernel's " : appliance != NULL ? "FreeBSD " : "", also,
	    when_of(k, whenbuf, sizeof whenbuf), check_past_kb_release(l, past, sizeof past),
	    appliance != NULL ? " (" : "", appliance != NULL ? appliance : "",
	    appliance != NULL ? " may write its own at boot)" : "");
}

/* Whether names a and b are one kernel variable: equal, or one's stanza says same-as the other. */
static bool
same_variable(struct lint *l, const char *a, const char *b)
{
	const struct kb_knob *ka, *kb;

	if (strcmp(a, b) == 0)
		return true;
	ka = kb_find(l->kb, a, l->os);
	kb = kb_find(l->kb, b, l->os);
	return (ka != NULL && ka->same_as != NULL && strcmp(ka->same_as, b) == 0) ||
	    (kb != NULL && kb->same_as != NULL && strcmp(kb->same_as, a) == 0);
}

/*
 * Whether the line sets nothing where it is written, as its own check says: a `sysctl -w`
 * command line in a sysctl or loader file (text_command), a value the Lua loader refuses
 * (text_loader_syntax). Such a line is no earlier setting of a knob set again later.
 */
static bool loader_refuses(struct lint *l, const struct kb_entry *e);

/* A `sysctl -w` command line in a file that sysctl or the loader reads: it sets nothing. */
static bool
command_dropped(struct lint *l, const struct kb_entry *e)
{
	return e->command != NULL && !l->p->shell && (l->target == KB_TARGET_SYSCTL ||
	    l->target == KB_TARGET_LOADER);
}

static bool
not_applied(struct lint *l, const struct kb_entry *e)
{
	return command_dropped(l, e) || loader_refuses(l, e);
}

/*
 * Two knobs that are one setting in two forms (vm.dirty_ratio and vm.dirty_bytes: a write
 * of either sets the other to 0, mm/page-writeback.c): a nonzero line of one after a
 * nonzero line of the other undoes it.
 */
static void
text_zeroes(struct lint *l)
{
	const struct kb_entry *a, *b;
	const struct kb_knob *k;
	size_t i, j;

	for (i = 0; i < l->p->nentries; i++) {
		b = &l->p->entries[i];
		if ((k = kb_find(l->kb, b->name, l->os)) == NULL || k->zeroes == NULL ||
		    b->op != KB_OP_SET || strcmp(b->value, "0") == 0)
			continue;
		for (j = i; j > 0; j--) {
			a = &l->p->entries[j - 1];
			if (strcmp(a->name, k->zeroes) != 0 || strcmp(a->file, b->file) != 0)
				continue;
			if (a->op == KB_OP_SET && strcmp(a->value, "0") != 0)
				diag(l, b, KB_WARNING, "duplicate", "'%s' and '%s' are one setting in two "
				    "forms: writing %s sets %s to 0 [source: %s], so line %d's %s=%s is "
				    "undone", b->name, a->name, b->name, a->name, k->sources[0], a->line,
				    a->name, a->value);
			break;
		}
	}
}

static void
text_duplicates(struct lint *l)
{
	const struct kb_entry *a, *b;
	size_t i, j;

	for (i = 0; i < l->p->nentries; i++) {
		b = &l->p->entries[i];
		if (not_applied(l, b))
			continue;
		for (j = i; j > 0; j--) {
			a = &l->p->entries[j - 1];
			if (!same_variable(l, a->name, b->name) || not_applied(l, a))
				continue;
			if (strcmp(a->name, b->name) != 0) {
				if (strcmp(a->value, b->value) != 0 || a->op != b->op)
					diag(l, b, KB_ERROR, "duplicate", "'%s' is '%s' under another name: "
					    "line %d set it to '%s'; the last one wins", b->name, a->name,
					    a->line, a->value);
				else
					diag(l, b, KB_WARNING, "duplicate", "'%s' is '%s' under another "
					    "name: line %d set it already", b->name, a->name, a->line);
				break;
			}
			if (strcmp(a->value, b->value) != 0 || a->op != b->op)
				diag(l, b, KB_ERROR, "duplicate", "'%s' set again to '%s' (line %d set "
				    "'%s'); the last one wins", b->name, b->value, a->line, a->value);
			else
				diag(l, b, KB_WARNING, "duplicate", "'%s' set twice (line %d)", b->name,
				    a->line);
			break;
		}
	}
}

/* Another boot file on the system that sets the same knob to something else. */
static void
knob_others(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	const struct kb_entry *o;
	size_t i;
	bool linux = strcmp(l->os, "linux") == 0;

	if (l->sys == NULL)
		return;
	for (i = 0; i < l->sys->nothers; i++) {
		if ((o = kb_profile_get(l->sys->others[i], e->name)) == NULL)
			continue;
		if (strcmp(o->file, e->file) == 0 || kb_value_equal(k, o->value, e->value))
			continue;
		diag(l, e, KB_WARNING, "conflict", "%s:%d sets '%s' to '%s'%s", o->file, o->line,
		    e->name, o->value, linux ? "; sysctl --system re-applies it at boot and on "
		    "every call, the files fight" : "; the later file wins at boot");
	}
}

static bool
has_nic(const struct kb_system *sys, const char *name, bool prefix)
{
	size_t i, n = strlen(name);

	for (i = 0; i < sys->nnics; i++) {
		if (!prefix && strcmp(sys->nics[i].name, name) == 0)
			return true;
		if (prefix && strncmp(sys->nics[i].name, name, n) == 0 &&
		    isdigit((unsigned char)sys->nics[i].name[n]))
			return true;
	}
	return false;
}

/*
 * A driver or interface knob for hardware the system does not have: hw.DRIVER.* and
 * dev.IF.N.*, with the drivers and the interface names they serve from
 * share/knobs/drivers.
 */
static void
text_device(struct lint *l, const struct kb_entry *e)
{
	const struct kb_drivers *ds = kb_get_drivers(l->kb);
	const struct kb_driver *d = NULL;
	char drv[32], ifn[64];
	const char *p, *q;
	size_t i, len;

	if (l->sys == NULL || l->sys->nnics == 0)
		return;
	if (strcmp(l->os, "linux") == 0) {
		/* if.IF.setting: IF is everything up to the last component(s). */
		const struct kb_knob *k = kb_find(l->kb, e->name, "linux");

		if (!util_startswith(e->name, "if.") || k == NULL)
			return;
		for (i = 0; i < l->sys->nnics; i++) {
			len = strlen(l->sys->nics[i].name);
			if (strncmp(e->name + 3, l->sys->nics[i].name, len) == 0 &&
			    e->name[3 + len] == '.')
				return;
		}
		diag(l, e, KB_WARNING, "no-device", "no interface for '%s' on this system", e->name);
		return;
	}
	if (!util_startswith(e->name, "hw.") && !util_startswith(e->name, "dev."))
		return;
	p = strchr(e->name, '.') + 1;
	if ((q = strchr(p, '.')) == NULL || (len = (size_t)(q - p)) >= sizeof drv)
		return;
	memcpy(drv, p, len);
	drv[len] = '\0';
	if (e->name[0] == 'h') {
		if ((d = kb_driver_named(ds, "freebsd", drv)) == NULL)
			return;
		for (i = 0; i < d->nifnames; i++) {
			if (has_nic(l->sys, d->ifnames[i], true))
				return;
		}
		diag(l, e, KB_WARNING, "no-device", "no %s interface on this system; '%s' has "
		    "no effect", d->ifnames[0], e->name);
		return;
	}
	for (i = 0; ds != NULL && i < ds->n && d == NULL; i++) {
		if (strcmp(ds->d[i].os, "freebsd") == 0 && kb_driver_serves(&ds->d[i], drv, drv))
			d = &ds->d[i];
	}
	if (d == NULL || !isdigit((unsigned char)q[1]))
		return;
	snprintf(ifn, sizeof ifn, "%s%ld", drv, strtol(q + 1, NULL, 10));
	if (!has_nic(l->sys, ifn, false))
		diag(l, e, KB_WARNING, "no-device", "no interface %s on this system; '%s' has no "
		    "effect", ifn, e->name);
}

#define SRC_PROCPS	"procps 4.0.2 src/sysctl.c:659 parse_setting_line, :545 WriteSetting"
#define SRC_PROCPS_VALUE	"procps 4.0.2 src/sysctl.c:677-680 parse_setting_line"
#define SRC_SYSTEMD_SYSCTL	"systemd 252 src/sysctl/sysctl.c:271-273 parse_file"
#define SRC_RC_SYSCTL	"libexec/rc/rc.d/sysctl:26 'sysctl -i -f', sbin/sysctl/sysctl.c:369,400"
#define SRC_LOADER_LUA	"stand/lua/config.lua:537"

/*
 * A `sysctl -w name=value` line: a setting in a shell script, which runs it; in a
 * file a loader reads (sysctl.conf, sysctl.d, loader.conf) a line that loader
 * fails on, so no setting. 1 when the entry is settled (not a setting).
 */
static int
text_command(struct lint *l, const struct kb_entry *e)
{
	if (e->command == NULL || l->p->shell)
		return 0;
	if (!command_dropped(l, e))
		diag(l, e, KB_NOTE, "command", "read the setting of a '%s' command line",
		    e->command);
	else if (l->target == KB_TARGET_LOADER)
		diag(l, e, KB_WARNING, "command", "a '%s' command line in loader.conf: the loader "
		    "prints 'Malformed line' and skips it (%s); the setting is not applied, write "
		    "%s=\"%s\"", e->command, SRC_LOADER_LUA, e->name, e->value);
	else if (strcmp(l->os, "linux") == 0)
		diag(l, e, KB_WARNING, "command", "a '%s' command line in a sysctl.conf or "
		    "sysctl.d file: sysctl -p and --system take '%s' as the key, find no "
		    "/proc/sys file for it and exit 1 (%s); the setting is not applied, write "
		    "'%s=%s'", e->command, e->command, SRC_PROCPS, e->name, e->value);
	else
		diag(l, e, KB_WARNING, "command", "a '%s' command line in sysctl.conf: "
		    "/etc/rc.d/sysctl runs sysctl -i -f, which takes '%s' as the name and "
		    "skips it as unknown (%s); the setting is not applied, write '%s=%s'",
		    e->command, e->command, SRC_RC_SYSCTL, e->name, e->value);
	return command_dropped(l, e);
}

/*
 * A quoted value in a Linux sysctl file (1 when the kernel refuses it): neither sysctl
 * -p/--system nor systemd-sysctl removes quotes (both strip white space only), so the kernel
 * gets them: a number in quotes is refused, a string keeps them (set 5: kernel.core_pattern =
 * "/dev/null").
 */
static int
text_quoted(struct lint *l, const struct kb_entry *e)
{
	const char *v = e->value;
	bool number = *v != '\0';

	if (e->quoted == 0 || strcmp(l->os, "linux") != 0 || l->p->shell || l->p->xml ||
	    l->p->dump || e->command != NULL || (l->target != KB_TARGET_SYSCTL &&
	    l->target != KB_TARGET_ANY))
		return 0;
	for (; *v != '\0'; v++)
		number = number && (isdigit((unsigned char)*v) || *v == ' ' || *v == '-');
	diag(l, e, number ? KB_ERROR : KB_WARNING, "quoted", "%s = %c%s%c: the quotes are part of "
	    "the value: sysctl -p and --system (%s) and systemd-sysctl (%s) strip only white space "
	    "and write %c%s%c; %s",
	    e->name, e->quoted, e->value, e->quoted, SRC_PROCPS_VALUE, SRC_SYSTEMD_SYSCTL, e->quoted,
	    e->value, e->quoted, number ? "the kernel refuses a number in quotes (kernel/sysctl.c "
	    "proc_get_long: EINVAL) and the setting fails; write it without quotes" :
	    "the kernel keeps them in the value; write it without quotes");
	return number;	/* refused: it sets nothing, so nothing else is said of it */
}

/*
 * Whether the loader refuses a loader.conf line: the Lua loader matches a value in double
 * quotes or a bare word of letters, digits, '-', '_' and '.' (stand/lua/config.lua:65-68;
 * 12.1's bare word is letters and digits only, :61), else prints "Malformed line" and skips
 * it (:537): 'YES' in single quotes, or a bare /boot/kernel, sets nothing. Not said for a
 * file of a release before 12.0, whose Forth loader was not read.
 */
static bool
loader_refuses(struct lint *l, const struct kb_entry *e)
{
	const char *v = e->value, *ver;
	bool word = isalnum((unsigned char)*v) || *v == '-', stated;

	if (strcmp(l->os, "freebsd") != 0 || l->target != KB_TARGET_LOADER || l->p->shell ||
	    l->p->xml || l->p->dump || e->command != NULL || e->quoted == '"')
		return false;
	ver = check_release(l, &stated);
	if (ver != NULL && isdigit((unsigned char)*ver) && kb_version_cmp(ver, "12.0") < 0)
		return false;
	for (; *v != '\0'; v++)
		word = word && (isalnum((unsigned char)*v) || strchr("-_.", *v) != NULL);
	return e->quoted != 0 || !word;
}

/* Such a line is an error (1: nothing else is said of it). */
static int
text_loader_syntax(struct lint *l, const struct kb_entry *e)
{
	if (!loader_refuses(l, e))
		return 0;
	diag(l, e, KB_ERROR, "loader-syntax", "%s=%s%s%s: the Lua loader, the default (stand/defs.mk:193), reads a value in double quotes or a "
	    "bare word of letters, digits, '-', '_' and '.' (stand/lua/config.lua:65-68, FreeBSD "
	    "14.0-CURRENT of 2022-07; 12.1's bare word is letters and digits only); it prints "
	    "\"Malformed line\" and skips this one (:537), so nothing is set: write %s=\"%s\"",
	    e->name, e->quoted == '\'' ? "'" : "", e->value, e->quoted == '\'' ? "'" : "", e->name,
	    e->value);
	return 1;
}

/*
 * Shell text in a value (a string knob, or one ntune does not type): agentless apply and
 * `export --format sh|ansible` put values in sh run as root, and refuse it.
 */
static void
text_shell(struct lint *l, const struct kb_entry *e)
{
	const struct kb_knob *k = kb_find(l->kb, e->name, l->platform);

	if ((k == NULL || k->type == KB_TYPE_STRING) && strpbrk(e->value, "'\"`$;&|<>\n\\") != NULL &&
	    strcmp(e->name, "kernel.core_pattern") == 0 && e->value[0] == '|' &&
	    strpbrk(e->value + 1, "'\"`$;&|<>\n\\") == NULL)
		/* systemd's own 50-coredump.conf: the kernel's pipe syntax, no shell text */
		diag(l, e, KB_NOTE, "shell", "%s: a leading '|' pipes each core dump to that program, "
		    "which the kernel runs as root (fs/coredump.c, Documentation/admin-guide/sysctl/"
		    "kernel.rst core_pattern); agentless apply and export refuse a '|' in a value, so "
		    "set this one with sysctl(8) or systemd-sysctl", e->name);
	else if (strcmp(e->name, "module_path") == 0 && strpbrk(e->value, "'\"`$&|<>\n\\") == NULL)
		/* the loader's own list separator (stand/common/module.c:1346 strchr(val, ';')) */
		diag(l, e, KB_NOTE, "shell", "%s: ';' separates the loader's module directories "
		    "(stand/defaults/loader.conf:107, stand/common/module.c:1346); agentless apply "
		    "and export --format sh|ansible refuse a ';' in a value, so keep this line in "
		    "loader.conf", e->name);
	else if ((k == NULL || k->type == KB_TYPE_STRING) && strpbrk(e->value, "'\"`$;&|<>\n\\") != NULL)
		diag(l, e, KB_ERROR, "shell", "%s: '%s' has shell metacharacters (' \" ` $ ; & | < > \\ "
		    "or a newline): agentless apply and export refuse it; a script run as root would run it",
		    e->name, e->value);
}

/*
 * A router: OPNsense and pfSense (firewalls that route by design), or a system whose IPv4
 * or IPv6 forwarding is on (net.inet.ip.forwarding, net.ipv4.ip_forward...).
 */
static bool
is_router(const struct kb_system *sys)
{
	static const char *const names[] = { "net.inet.ip.forwarding", "net.inet6.ip6.forwarding",
		"net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding" };
	char *v;
	size_t i;
	bool on;

	if (sys == NULL)
		return false;
	if (sys->platform == OS_PLATFORM_OPNSENSE || sys->platform == OS_PLATFORM_PFSENSE)
		return true;
	for (i = 0; sys->get != NULL && i < nitems(names); i++) {
		if (sys->get(sys->arg, names[i], &v) != 0)
			continue;
		on = strcmp(v, "1") == 0;
		free(v);
		if (on)
			return true;
	}
	return false;
}

/* On a router, a knob the knowledge base says does nothing for forwarded packets is waste. */
static void
knob_forwarding(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	if (l->router && k->forwarding != NULL)
		diag(l, e, KB_WARNING, "forwarding", "'%s' is useless for forwarding: %s", e->name,
		    k->forwarding + strlen("none: "));
}

/*
 * Linux forwards IPv6 only when net.ipv6.conf.all.forwarding is set: ip6_forward()
 * drops the packet otherwise (net/ipv6/ip6_output.c, up to 6.x; default.* is for
 * interfaces made later, a per-interface forwarding only makes it a router there).
 */
static void
text_ipv6_forwarding(struct lint *l)
{
	static const char pre[] = "net.ipv6.conf.", leaf[] = ".forwarding";
	const struct kb_entry *e, *first = NULL;
	size_t i, n;

	if (strcmp(l->os, "linux") != 0)
		return;
	for (i = 0; i < l->p->nentries; i++) {
		e = &l->p->entries[i];
		n = strlen(e->name);
		if (strncmp(e->name, pre, sizeof pre - 1) != 0 || n <= sizeof pre - 1 + sizeof leaf - 1 ||
		    strcmp(e->name + n - (sizeof leaf - 1), leaf) != 0 || e->op != KB_OP_SET)
			continue;
		if (strcmp(e->name, "net.ipv6.conf.all.forwarding") == 0)
			return;	/* said, whatever its value */
		if (first == NULL && strcmp(e->value, "1") == 0)
			first = e;
	}
	if (first != NULL)
		diag(l, first, KB_WARNING, "forwarding", "'%s=1' without net.ipv6.conf.all.forwarding=1: "
		    "Linux forwards IPv6 only with all.forwarding (net/ipv6/ip6_output.c ip6_forward); "
		    "set net.ipv6.conf.all.forwarding=1", first->name);
}

static int
diagcmp(const void *x, const void *y)
{
	const struct kb_diag *a = x, *b = y;
	int c = strcmp(a->file, b->file);

	if (c != 0)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int
kb_check(const struct kb *kb, const struct kb_profile *p, const struct kb_system *sys,
    enum kb_target target, struct kb_diag **out, size_t *nout)
{
	struct lint l;
	const struct kb_entry *e;
	const struct kb_knob *k;
	size_t i;
	int consumer;

	memset(&l, 0, sizeof l);
	l.kb = kb;
	l.p = p;
	l.sys = sys;
	l.target = target;
	l.pf = sys != NULL && sys->platform != OS_PLATFORM_UNKNOWN ? sys->platform :
	    OS_PLATFORM_FREEBSD;
	l.platform = os_platform_name(l.pf);
	l.os = os_platform_name(os_platform_family(l.pf));
	l.cat = kb_get_catalog(kb);
	l.router = is_router(sys);
	/* What the reader said: lines it could not read, and how it read unusual ones. */
	for (i = 0; i < p->nnotes; i++) {
		struct kb_entry at = { .file = p->notes[i].file != NULL ? p->notes[i].file : p->path,
		    .line = p->notes[i].line, .name = "" };

		diag(&l, &at, p->notes[i].severity, p->notes[i].severity == KB_ERROR ? "syntax" :
		    "input", "%s", p->notes[i].message);
	}
	for (i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		text_shell(&l, e);
		if (text_quoted(&l, e) || text_loader_syntax(&l, e) || text_command(&l, e) || !check_known(&l, e, &k))
			continue;
		if (k->unverified != NULL)
			diag(&l, e, KB_NOTE, "unverified", "'%s': unverified, ntune's facts about it "
			    "were not confirmed at the kernel source (%s)", e->name, k->unverified);
		knob_placement(&l, e, k);
		knob_version(&l, e, k);
		consumer = check_consumer_value(&l, e, k, NULL);
		if (consumer == 0 && !check_catalog_values(&l, e, k))
			knob_value(&l, e, k);
		knob_requires(&l, e, k);
		knob_shape(&l, e, k);
		knob_forwarding(&l, e, k);
		/* A value the consumer refuses sets nothing: no "lowers", no "default". */
		if (consumer != 1) {
			knob_lowers(&l, e, k);
			knob_default(&l, e, k);
		}
		knob_others(&l, e, k);
		text_device(&l, e);
	}
	text_duplicates(&l);
	text_zeroes(&l);
	text_ipv6_forwarding(&l);
	/* Stable sort by line: within a line, the rule order. */
	for (i = 0; i < l.n; i++)
		l.d[i].seq = i;
	if (l.n > 1)
		qsort(l.d, l.n, sizeof *l.d, diagcmp);
	*out = l.d;
	*nout = l.n;
	return l.errors;
}
