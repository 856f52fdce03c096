/*
 * The lint rules that rest on the catalogue (share/catalog): whether a name
 * exists, in which version, where it goes, whether it can be written, and
 * whether its value is one the consumer (the loader, sysctl(8), procfs) takes.
 * They are the source_* family (what the kernel sources declare); lint.c holds
 * the knob_* (knowledge base) and text_* (the profile's own text) families.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/catalog.h"
#include "kb/check_impl.h"
#include "kb/kb.h"
#include "kb/rules.h"
#include "os/os.h"
#include "util/util.h"

#define SRC_SYSCTL8	"sbin/sysctl/sysctl.c"
#define SRC_GETENV	"sys/kern/kern_environment.c getenv_quad"
#define SRC_PROCFS	"kernel/sysctl.c proc_get_long"

/* Whether the driver table's sources for the driver of ports drv name directory dir. */
static bool
table_dir(const struct lint *l, const char *drv, const char *path)
{
	const struct kb_drivers *ds = kb_get_drivers(l->kb);
	const char *p;
	size_t i, n;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		if (strcmp(ds->d[i].os, "freebsd") != 0 || !kb_driver_serves(&ds->d[i], drv, NULL) ||
		    ds->d[i].source == NULL)
			continue;
		for (p = strstr(ds->d[i].source, "sys/dev/"); p != NULL; p = strstr(p + 8, "sys/dev/")) {
			n = strcspn(p + 8, "/ ;,") + 9;	/* "sys/dev/e1000/" */
			if (strncmp(path, p, n) == 0 && p[n - 1] == '/')
				return true;
		}
		return false;
	}
	return false;
}

/*
 * Whether a catalogue row stands for name. A per-device pattern (dev.%s.%d.fc) is one
 * row for every driver with that leaf, filed under one driver's source: it speaks for
 * dev.DRV.N.leaf only when that source is DRV's own (its directory, if_DRV.c, DRV_*.c,
 * or a directory the driver table names), never another driver's (issue 36: dev.em.0.fc
 * was judged by sys/dev/liquidio/lio_sysctl.c).
 */
static bool
row_speaks_for(const struct lint *l, const struct kb_cat_entry *ce, const char *name)
{
	char drv[64], pat[80];
	const char *path, *base;
	size_t n;

	if (!util_startswith(ce->name, "dev.%s.%d.") || !util_startswith(name, "dev."))
		return true;
	n = strcspn(name + 4, ".");
	if (n == 0 || n >= sizeof drv)
		return false;
	snprintf(drv, sizeof drv, "%.*s", (int)n, name + 4);
	path = (path = strchr(ce->source, ':')) != NULL ? path + 1 : ce->source;
	base = (base = strrchr(path, '/')) != NULL ? base + 1 : path;
	snprintf(pat, sizeof pat, "/%s/", drv);
	if (strstr(path, pat) != NULL || table_dir(l, drv, path))
		return true;
	if (util_startswith(base, "if_"))
		base += 3;
	return strncmp(base, drv, n) == 0 && (base[n] == '.' || base[n] == '_');
}

/*
 * The catalogue's row for name. A pattern row fetched as a tunable (dev.rl.%d.twister_enable,
 * if_rl.c:655) whose sysctl the driver declares under the generic dev.%s.%d name (:659) is
 * one knob: a boot-time tunable shown read-only, or settable both ways (
 * dev.amdtemp.%d.sensor_offset, amdtemp.c:497 and :501).
 */
/* The length of DRIVER in "dev.DRIVER.N...." (0 for another name). */
static int
driver_len(const char *name)
{
	return strncmp(name, "dev.", 4) == 0 ? (int)strcspn(name + 4, ".") : 0;
}

static const struct kb_cat_entry *
cat_find(struct lint *l, const char *name)
{
	const struct kb_cat_entry *ce = l->cat != NULL ? kb_catalog_find(l->cat, l->os, name) :
	    NULL, *other, *tun, *sys;
	struct kb_cat_entry *m;
	char *mflags;

	if (ce == NULL || !row_speaks_for(l, ce, name))
		return NULL;
	if (strchr(ce->name, '%') == NULL ||
	    (other = kb_catalog_find_counterpart(l->cat, l->os, name, ce)) == NULL)
		return ce;
	m = &l->merged[l->merged_slot];
	mflags = l->merged_flags[l->merged_slot];
	l->merged_slot = !l->merged_slot;
	tun = ce->kind == KB_CAT_TUNABLE ? ce : other;
	sys = ce->kind == KB_CAT_TUNABLE ? other : ce;
	if (!row_speaks_for(l, other, name)) {
		/*
		 * The generic row is another driver's (dev.%s.%d.debug_level from mpr.c): whether
		 * this driver's node is settable at run time was not read, so no placement is said
		 * (mps fetches dev.mps.%d.debug_level and declares it CTLFLAG_RW too).
		 */
		if (ce != tun)
			return ce;
		*m = *tun;
		m->kind = KB_CAT_SYSCTL;
		m->placement = KB_PLACE_UNKNOWN;
		return m;
	}
	*m = *sys;
	/* flagword: "CTLFLAG_RD and a tunable fetch" or "CTLFLAG_RW and a tunable fetch" */
	snprintf(mflags, sizeof l->merged_flags[0], "%s", sys->readonly ? "RD" : "RW");
	m->flags = mflags;
	m->placement = sys->readonly ? KB_PLACE_LOADER : KB_PLACE_BOTH;
	m->readonly = false;
	m->seen = tun->seen | sys->seen;
	m->source = tun->source;
	return m;
}

/*
 * A tree's release as a reader should take it: "10.4", or "14.0-CURRENT of 2022-07" for a
 * development snapshot (the catalogue's 13.0 and 14.0 trees), which no release equals. Into
 * the caller's buffer: one message often names two trees and where() a third.
 */
static bool
snapshot(const struct kb_cat_tree *t)
{
	return t != NULL && t->note != NULL && strstr(t->note, "-CURRENT") != NULL;
}

static const char *
tree_label(const struct kb_cat_tree *t, char *b, size_t len)
{
	if (snapshot(t) && t->date != NULL)
		snprintf(b, len, "%s-CURRENT of %.7s", t->version, t->date);
	else
		snprintf(b, len, "%s", t->version);
	return b;
}

/* "c14.0:sys/net/rtsock.c:232" -> "sys/net/rtsock.c:232, FreeBSD 14.0-CURRENT of 2022-07" */
static const char *
where(struct lint *l, const struct kb_cat_entry *ce)
{
	static char buf[2][320];
	static int slot;
	char lab[64];
	const struct kb_cat_tree *t = kb_catalog_entry_tree(l->cat, ce);
	const char *src = strchr(ce->source, ':');
	size_t len;

	slot = !slot;
	src = src != NULL ? src + 1 : ce->source;
	len = strcspn(src, " ");
	snprintf(buf[slot], sizeof buf[slot], "%.*s, %s %s", (int)len, src,
	    strcmp(ce->os, "linux") == 0 ? "Linux" : "FreeBSD", t != NULL ? tree_label(t, lab,
	    sizeof lab) : "?");
	return buf[slot];
}

/*
 * Where the flags or mode of ce are read: a Linux row documented in one file and
 * declared in another carries " mode:FILE:LINE" (the ctl_table entry); a claim
 * about its mode cites that entry, not the documentation.
 */
static const char *
where_mode(struct lint *l, const struct kb_cat_entry *ce)
{
	static char buf[320];
	const struct kb_cat_tree *t;
	const char *m = strstr(ce->source, " mode:");

	if (m == NULL)
		return where(l, ce);
	t = kb_catalog_entry_tree(l->cat, ce);
	m += strlen(" mode:");
	snprintf(buf, sizeof buf, "%.*s, Linux %s", (int)strcspn(m, " "), m, t != NULL ? t->version : "?");
	return buf;
}

/* The flags as a reader of the source knows them: "CTLFLAG_RDTUN". */
static const char *
flagword(const struct kb_cat_entry *ce)
{
	static char buf[64];

	if (strcmp(ce->os, "linux") == 0) {
		snprintf(buf, sizeof buf, "mode %s", ce->flags);
		return buf;
	}
	if (strstr(ce->flags, "RDTUN") != NULL)
		return "CTLFLAG_RDTUN";
	if (strstr(ce->flags, "RWTUN") != NULL)
		return "CTLFLAG_RWTUN";
	if (ce->placement == KB_PLACE_BOTH)
		return "CTLFLAG_RW and a tunable fetch";
	if (ce->placement == KB_PLACE_LOADER && ce->kind == KB_CAT_TUNABLE)
		return "a kernel environment fetch, no sysctl";
	if (ce->placement == KB_PLACE_LOADER)
		return "CTLFLAG_RD and a tunable fetch";
	if (ce->readonly)
		return "CTLFLAG_RD";
	return "CTLFLAG_RW, no tunable";
}

const char *
check_cat_ref(struct lint *l, const char *name)
{
	static char buf[400];
	const struct kb_cat_entry *ce = cat_find(l, name);
	const struct kb_knob *k;
	const char *base;

	if (ce != NULL && ce->kind != KB_CAT_DOC) {
		snprintf(buf, sizeof buf, " (%s, %s)", flagword(ce), where_mode(l, ce));
		return buf;
	}
	/* Not in the catalogue (a knob older than its trees): the stanza that says so. */
	if ((k = kb_find(l->kb, name, l->platform)) == NULL || k->file == NULL)
		return "";
	base = strrchr(k->file, '/') != NULL ? strrchr(k->file, '/') + 1 : k->file;
	snprintf(buf, sizeof buf, " (knowledge base, %s:%d)", base, k->line);
	return buf;
}

static bool
int_type(const char *t)
{
	static const char *const ints[] = {
		"int", "uint", "long", "ulong", "s8", "u8", "s16", "u16", "s32", "u32", "s64",
		"u64", "bool",
	};
	size_t i;

	for (i = 0; i < nitems(ints); i++) {
		if (strcmp(t, ints[i]) == 0)
			return true;
	}
	return false;
}

/* An integer as strtoq(s, &end, 0) reads it; the loader also takes one K/M/G/T suffix. */
static bool
c_integer(const char *s, bool suffix)
{
	char *end;

	if (*s == '\0' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	(void)strtoll(s, &end, 0);
	if (end == s)
		return false;
	if (*end == '\0')
		return true;
	return suffix && strchr("kKmMgGtT", *end) != NULL && end[1] == '\0';
}

static bool
int_list(const char *s)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof buf, "%s", s);
	for (tok = strtok_r(buf, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		if (!c_integer(tok, false))
			return false;
	}
	return true;
}

/* What the knob keeps when the loader ignores the value. */
static void
kept(const struct kb_knob *k, const char *name, char *buf, size_t len)
{
	if (k != NULL && k->def != NULL && k->type == KB_TYPE_BOOL)
		snprintf(buf, len, "%s stays %s (%s)", name, strcmp(k->def, "0") == 0 ? "off" : "on",
		    k->def);
	else if (k != NULL && k->def != NULL)
		snprintf(buf, len, "%s keeps its default %s", name, k->def);
	else
		snprintf(buf, len, "%s keeps its default", name);
}

int
check_consumer_value(struct lint *l, const struct kb_entry *e, const struct kb_knob *k,
    const struct kb_cat_entry *ce)
{
	bool linux = strcmp(l->os, "linux") == 0, loader, isint, list = false;
	enum kb_placement place;
	char what[200];

	if (e->op != KB_OP_SET)
		return 0;	/* tuned's =>, =<: rule_value wants a number */
	if (ce == NULL)
		ce = cat_find(l, e->name);
	if (k != NULL) {
		if (k->placement != KB_PLACE_LOADER && k->placement != KB_PLACE_SYSCTL &&
		    k->placement != KB_PLACE_BOTH)
			return 0;	/* ntune's own if.* / cpu.* settings */
		isint = k->type == KB_TYPE_INT || k->type == KB_TYPE_BOOL || k->type == KB_TYPE_SIZE;
		list = k->type == KB_TYPE_INTLIST;
		place = k->placement;
	} else if (ce != NULL) {
		isint = int_type(ce->type);
		list = strcmp(ce->type, "int-list") == 0;
		place = ce->placement;
	} else
		return 0;
	if (linux) {
		if ((isint && !c_integer(e->value, false)) || (list && !int_list(e->value))) {
			diag(l, e, KB_ERROR, "value", "the kernel refuses '%s' for %s: procfs takes "
			    "plain integers, no K/M/G suffix and no words like on/yes (%s); writing "
			    "it fails with EINVAL", e->value, e->name, SRC_PROCFS);
			return 1;
		}
		return 0;
	}
	if (!isint)
		return 0;
	loader = l->target == KB_TARGET_LOADER || (place == KB_PLACE_LOADER &&
	    l->target != KB_TARGET_SYSCTL && l->target != KB_TARGET_PFSENSE);
	if (c_integer(e->value, false))
		return 0;
	if (loader && c_integer(e->value, true))
		return 2;	/* "1M": the loader scales it; a range in plain numbers says nothing */
	if (loader) {
		kept(k, e->name, what, sizeof what);
		diag(l, e, KB_ERROR, "value", "the loader ignores '%s' (not a number, %s): %s",
		    e->value, SRC_GETENV, what);
	} else if (c_integer(e->value, true)) {
		diag(l, e, KB_ERROR, "value", "sysctl(8) refuses '%s' for %s: no K/M/G suffix at "
		    "runtime (%s; the loader takes one); the setting fails", e->value, e->name,
		    SRC_SYSCTL8);
	} else {
		diag(l, e, KB_ERROR, "value", "sysctl(8) refuses '%s' for %s: it needs an integer "
		    "(%s); the setting fails", e->value, e->name, SRC_SYSCTL8);
	}
	return 1;
}

/* The newest tree of the entry's OS, or NULL. */
static const struct kb_cat_tree *
newest_tree(struct lint *l, const struct kb_cat_entry *ce, size_t *index)
{
	const struct kb_cat_tree *x, *newest = NULL;
	size_t i;

	for (i = 0; i < kb_catalog_ntrees(l->cat); i++) {
		x = kb_catalog_tree(l->cat, i);
		if (strcmp(x->os, ce->os) == 0) {
			newest = x;
			*index = i;
		}
	}
	return newest;
}

/* True when the newest tree of the entry's OS holds it. */
static bool
in_newest(struct lint *l, const struct kb_cat_entry *ce)
{
	size_t i = 0;

	return newest_tree(l, ce, &i) == NULL || (ce->seen & (1u << i)) != 0;
}

/*
 * The release the check is about: the system's (a dump's kern.osrelease, this
 * machine), else the one a base-system tag in the file states; *stated says which.
 */
const char *
check_release(struct lint *l, bool *stated)
{
	*stated = false;
	if (l->sys != NULL && l->sys->version != NULL && isdigit((unsigned char)*l->sys->version))
		return l->sys->version;
	if (l->p != NULL && l->p->release != NULL && strcmp(l->os, "freebsd") == 0) {
		*stated = true;
		return l->p->release;
	}
	return NULL;
}

/*
 * The release share/knobs/linux's defaults and limits were read in: every Linux stanza cites the
 * 6.1 tree (Debian's linux-source-6.1), also after the catalogue gained a newer tree for names.
 */
#define KB_LINUX_READ	"6.1"

const char *
check_past_kb_release(struct lint *l, char *buf, size_t len)
{
	const struct kb_cat_tree *t, *newest = NULL;
	const char *ver, *basis;
	bool stated, linux = strcmp(l->os, "linux") == 0;
	char lab[64];
	size_t i;

	*buf = '\0';
	if ((ver = check_release(l, &stated)) == NULL || !isdigit((unsigned char)*ver))
		return buf;
	for (i = 0; !linux && l->cat != NULL && i < kb_catalog_ntrees(l->cat); i++) {
		t = kb_catalog_tree(l->cat, i);
		if (strcmp(t->os, l->os) == 0 && (newest == NULL ||
		    kb_version_cmp(t->version, newest->version) > 0))
			newest = t;
	}
	if (!linux && newest == NULL)
		return buf;
	basis = linux ? KB_LINUX_READ : newest->version;
	if (kb_version_cmp(ver, basis) > 0)
		snprintf(buf, len, " (in %s %s, the release the knowledge base read; %s was not "
		    "checked)",
		    linux ? "Linux" : "FreeBSD", linux ? basis : tree_label(newest, lab, sizeof lab),
		    ver);
	return buf;
}

/*
 * "; the newest tree has vfs.zfs.prefetch.disable (...)": a name of the newest tree that is
 * the gone one with a '_' for a '.' or a '.' for a '_' (OpenZFS's nodes), else "".
 */
static const char *
renamed(struct lint *l, const char *name)
{
	static char buf[400];
	const struct kb_cat_entry *ce;
	char cand[256];
	size_t i, n = strlen(name);

	for (i = 1; i + 1 < n && n < sizeof cand; i++) {
		if (name[i] != '.' && name[i] != '_')
			continue;
		memcpy(cand, name, n + 1);
		cand[i] = name[i] == '.' ? '_' : '.';
		if ((ce = kb_catalog_find(l->cat, l->os, cand)) == NULL || ce->kind == KB_CAT_NODE ||
		    strcmp(ce->name, cand) != 0 || !in_newest(l, ce))
			continue;
		snprintf(buf, sizeof buf, "; the newest tree has %s (%s)", cand, where(l, ce));
		return buf;
	}
	return "";
}

/*
 * A name the catalogue has from older trees only: gone from the kernel since. A
 * warning naming the last tree that had it; a note when the release checked for
 * (the system's, or one the file states) still has it.
 */
static void
source_version(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce0)
{
	const struct kb_cat_tree *t = NULL, *newest = NULL, *last = kb_catalog_entry_tree(l->cat, ce0);
	bool stated, linux = strcmp(ce0->os, "linux") == 0;
	const char *ver = check_release(l, &stated), *os = linux ? "Linux" : "FreeBSD";
	const struct kb_cat_entry *alt = kb_catalog_find_pattern(l->cat, l->os, e->name);
	struct kb_cat_entry merged = *ce0, *ce = &merged;
	char seen[128] = "", lnew[64] = "", llast[64] = "", lt[64] = "";
	size_t i;
	int in;

	/* a node the source names at run time or attach still creates it (hw.psm.*.x) */
	if (alt != NULL && alt != ce0 && row_speaks_for(l, alt, e->name))
		merged.seen |= alt->seen;

	for (i = 0; i < kb_catalog_ntrees(l->cat); i++) {
		const struct kb_cat_tree *x = kb_catalog_tree(l->cat, i);

		if (strcmp(x->os, ce->os) != 0)
			continue;
		newest = x;
		if (ce->seen & (1u << i))
			snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%s",
			    *seen ? ", " : "", x->version);
	}
	in = kb_catalog_in_version(l->cat, ce, ver, &t);
	if (t != NULL)
		tree_label(t, lt, sizeof lt);
	if (in == 0 && snapshot(t))
		/* a development snapshot is not the release: names added before it are not known */
		diag(l, e, KB_NOTE, "version", "'%s' is not in the %s %s tree (%s@%.10s), the one "
		    "nearest to %s%s, a snapshot before that release: whether %s %s has it was not "
		    "read; seen in %s (%s)", e->name, os, lt, t->repo, t->commit, ver,
		    stated ? " (the release the file's $FreeBSD$ tag states)" : "", os, ver, seen,
		    where(l, ce));
	else if (in == 0)
		diag(l, e, KB_WARNING, "version", "'%s' is not in the %s %s source the catalogue read "
		    "(%s@%.10s)%s%s%s; it was in %s (%s)", e->name, os, t->version, t->repo, t->commit,
		    kb_version_cmp(t->version, ver) != 0 ? ", the tree nearest to " : "",
		    kb_version_cmp(t->version, ver) != 0 ? ver : "",
		    stated ? ", the release the file's $FreeBSD$ tag states" : "", seen, where(l, ce));
	if (in == 0 || newest == NULL || in_newest(l, ce) || last == NULL)
		return;
	tree_label(newest, lnew, sizeof lnew);
	tree_label(last, llast, sizeof llast);
	if (in != 1 && l->pf == OS_PLATFORM_OPNSENSE && last->note != NULL &&
	    strstr(last->note, "OPNsense") != NULL)
		/* OPNsense's kernel carries its own patches: newer OPNsense trees were not read */
		diag(l, e, KB_NOTE, "version", "'%s' is not in the newer FreeBSD trees the catalogue "
		    "read (%s %s); the OPNsense kernel tree it read declares it (%s@%.10s, %s), and "
		    "OPNsense's own patches may keep it: not checked against a newer OPNsense kernel",
		    e->name, os, lnew, last->repo, last->commit, where(l, ce));
	else if (in == 1 && snapshot(t))
		/* the tree nearest the release is a development snapshot: not the release */
		diag(l, e, KB_NOTE, "version", "'%s' is in the %s %s tree (%s@%.10s), the one nearest "
		    "to %s%s, a snapshot before that release, but gone from the newest source the "
		    "catalogue read (%s %s): whether %s %s has it was not read; seen in %s (%s)",
		    e->name, os, lt, t->repo, t->commit, ver,
		    stated ? " (the release the file's $FreeBSD$ tag states)" : "", os,
		    lnew, os, ver, seen, where(l, ce));
	else if (in == 1)
		diag(l, e, KB_NOTE, "version", "'%s' is in %s %s%s but gone from the newest source "
		    "the catalogue read (%s %s); last in the %s %s tree (%s@%.10s); seen in %s (%s)",
		    e->name, os, ver, stated ? " (the release the file's $FreeBSD$ tag states)" : "",
		    os, lnew, os, llast, last->repo, last->commit, seen,
		    where(l, ce));
	else
		diag(l, e, KB_WARNING, "version", "'%s' is gone from %s: not in the newest source the "
		    "catalogue read (%s %s); last in the %s %s tree (%s@%.10s); seen in %s (%s); on a "
		    "kernel without it the setting %s%s", e->name, os, os, lnew, os,
		    llast, last->repo, last->commit, seen, where(l, ce),
		    linux ? "fails" : "does nothing", renamed(l, e->name));
}

static bool
in_values(const struct kb_cat_entry *ce, const char *v)
{
	size_t i;

	for (i = 0; i < ce->nvalues; i++) {
		if (strcmp(ce->values[i], v) == 0)
			return true;
	}
	return false;
}

/* Values the source lists as data (cc modules); 1 when reported. */
static int
source_values(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	const struct kb_cat_entry *stacks;
	char list[256] = "";
	size_t i;

	if (ce->nvalues == 0 || in_values(ce, e->value))
		return 0;
	for (i = 0; i < ce->nvalues; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
		    ce->values[i]);
	stacks = cat_find(l, "net.inet.tcp.functions_default");
	if (strcmp(ce->name, "net.inet.tcp.cc.algorithm") == 0 && stacks != NULL &&
	    in_values(stacks, e->value))
		diag(l, e, KB_ERROR, "value", "'%s' is a TCP stack, not a congestion-control module "
		    "(the modules in sys/netinet/cc are: %s); use net.inet.tcp.functions_default=%s "
		    "with the tcp_%s module loaded (%s)", e->value, list, e->value, e->value,
		    stacks->values_source != NULL ? stacks->values_source : stacks->source);
	else
		diag(l, e, KB_ERROR, "value", "%s: '%s' is not one of the values the source "
		    "provides: %s (%s); a kernel without a module of that name refuses it and the "
		    "setting fails (a patch or an out-of-tree module may add one)", e->name, e->value,
		    list, ce->values_source != NULL ? ce->values_source : ce->source);
	return 1;
}

/*
 * A name the source declares only under #ifdef OPTION, a kernel option amd64 GENERIC leaves
 * out (the catalogue's "option:" mark): net.inet.ip.stealth needs options IPSTEALTH
 * (sys/netinet/ip_input.c). Judged against the target's kernel when it is known.
 */
static void
source_option(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	const char *opt = strstr(ce->source, " option:");
	char *cur = NULL;
	int len;

	if (opt == NULL || strcmp(ce->os, "freebsd") != 0)
		return;
	opt += strlen(" option:");
	len = (int)strcspn(opt, " ");
	if (l->sys != NULL && l->sys->get != NULL) {
		if (l->sys->get(l->sys->arg, e->name, &cur) == 0) {
			free(cur);
			return;	/* this kernel has it */
		}
		if (l->sys->version != NULL)
			diag(l, e, KB_WARNING, "option", "'%s' is not on this kernel: the source "
			    "declares it only in a kernel built with options %.*s (%s); the setting "
			    "does nothing", e->name, len, opt, where(l, ce));
		return;
	}
	diag(l, e, l->pf == OS_PLATFORM_FREEBSD ? KB_WARNING : KB_NOTE, "option", "'%s' exists "
	    "only in a kernel built with options %.*s (declared under #ifdef %.*s, %s); FreeBSD's "
	    "GENERIC kernel leaves it out, and there %s%s", e->name, len, opt, len, opt,
	    where(l, ce), l->target == KB_TARGET_LOADER ? "nothing reads the loader's variable" :
	    "/etc/rc.d/sysctl skips the line (sysctl -i)", l->pf == OS_PLATFORM_FREEBSD ? "" :
	    "; a distribution's own kernel may have it");
}

int
check_catalog_values(struct lint *l, const struct kb_entry *e, const struct kb_knob *k)
{
	const struct kb_cat_entry *ce = cat_find(l, e->name);

	if (ce == NULL)
		return 0;
	if (k != NULL && k->removed == NULL && k->since == NULL)
		source_version(l, e, ce);
	if (k != NULL && k->nrequires == 0)
		source_option(l, e, ce);
	return source_values(l, e, ce);
}

static void
source_placement(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	bool sysctl = l->target == KB_TARGET_SYSCTL || l->target == KB_TARGET_PFSENSE;

	if (ce->readonly) {
		if (l->target == KB_TARGET_LOADER)
			diag(l, e, KB_WARNING, "placement", "'%s' is a read-only sysctl (%s, %s) and "
			    "the source fetches no tunable of that name: in loader.conf it has no "
			    "effect", e->name, flagword(ce), where_mode(l, ce));
		else
			diag(l, e, KB_ERROR, "read-only", "'%s' is read-only (%s, %s): setting it "
			    "fails", e->name, flagword(ce), where_mode(l, ce));
		return;
	}
	if (ce->placement == KB_PLACE_SYSCTL && l->target == KB_TARGET_LOADER)
		diag(l, e, KB_WARNING, "placement", "'%s' is a runtime sysctl (%s, %s): in "
		    "loader.conf it has no effect, put it in /etc/sysctl.conf", e->name, flagword(ce),
		    where_mode(l, ce));
	else if (ce->placement == KB_PLACE_LOADER && sysctl)
		diag(l, e, KB_ERROR, "placement", "'%s' is a boot-time tunable (%s, %s): in %s it "
		    "has no effect, put it in /boot/loader.conf%s", e->name, flagword(ce),
		    where_mode(l, ce), l->target == KB_TARGET_PFSENSE ? "System Tunables" : "sysctl.conf",
		    l->target == KB_TARGET_PFSENSE ? ".local" : "");
	else if (ce->placement == KB_PLACE_LOADER && l->target == KB_TARGET_OPNSENSE)
		diag(l, e, KB_NOTE, "placement", "'%s' is a boot-time tunable (%s, %s): OPNsense "
		    "writes it to /boot/loader.conf, it takes effect after a reboot", e->name,
		    flagword(ce), where_mode(l, ce));
}

static const char *tree_range(struct lint *);

/* Whether the profile sets name (an entry of that name, any value). */
static bool
profile_sets(const struct lint *l, const char *name)
{
	return l->p != NULL && kb_profile_get(l->p, name) != NULL;
}

/* A row of the catalogue for exactly this name, not a %s pattern's (/boot/defaults/loader.conf's bitmap_name). */
static bool
cat_exact(struct lint *l, const char *name)
{
	const struct kb_cat_entry *c = cat_find(l, name);

	return c != NULL && strcmp(c->name, name) == 0;
}

/*
 * NAME_load="YES" (the catalogue's generic %s_load row, or a module row of its own from
 * /boot/defaults/loader.conf: if_wi_load, 9.3-10.4): the loader runs `load NAME`
 * (stand/lua/config.lua loadModule), which finds a module version record of that name in
 * linker.hints, else the file NAME.ko (stand/common/module.c mod_search_hints, 14.0 tree):
 * a MODULE_VERSION name or a .ko (drivers/freebsd.modules, from the catalogue's trees;
 * DRIVER_MODULE's pci/em is neither, so em_load finds nothing). Not there: a port's, one gone before the oldest tree, or a
 * typo (coretmp for coretemp; atapicam is there, in 9.3 only). A file load (NAME_type or
 * NAME_name set: cpu_microcode; geli's keyfiles) names no module.
 */
static void
source_module(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	const struct kb_hints *mods = kb_get_modules(l->kb);
	const struct kb_cat_tree *newest;
	const char *near, *at, *last, *rel;
	bool stated;
	char mod[128], other[160], lastver[32] = "", lab[64];
	size_t len = strlen(e->name), i;

	if (strcmp(l->os, "freebsd") != 0 || mods == NULL || ce->kind != KB_CAT_LOADER ||
	    strlen(ce->name) <= strlen("_load") ||
	    strcmp(ce->name + strlen(ce->name) - strlen("_load"), "_load") != 0 || e->op != KB_OP_SET ||
	    strcasecmp(e->value, "yes") != 0 || len <= strlen("_load") ||
	    len - strlen("_load") >= sizeof mod)
		return;
	snprintf(mod, sizeof mod, "%.*s", (int)(len - strlen("_load")), e->name);
	/* geli(8): geli_PROVIDER_keyfileN_load is a key file, with its _type beside it */
	if (util_startswith(mod, "geli_") && strstr(mod, "_keyfile") != NULL)
		return;
	/* a file load: NAME_type or NAME_name in the file, or in /boot/defaults/loader.conf
	 * (the catalogue's own row: bitmap_name, screensave_name) */
	snprintf(other, sizeof other, "%s_type", mod);
	if (profile_sets(l, other) || cat_exact(l, other))
		return;
	snprintf(other, sizeof other, "%s_name", mod);
	if (profile_sets(l, other) || cat_exact(l, other))
		return;
	if (kb_hint_leaf(mods, mod, &near, &at)) {
		/* "FILE:LINE, FreeBSD 9.3 (seen in 9.3)": the newest tree with it is not the newest */
		newest = newest_tree(l, ce, &i);
		snprintf(other, sizeof other, ", FreeBSD %s (", newest != NULL ? newest->version : "");
		last = strstr(at, ", FreeBSD ");
		if (last != NULL)
			snprintf(lastver, sizeof lastver, "%.*s", (int)strcspn(last + strlen(", FreeBSD "),
			    " ("), last + strlen(", FreeBSD "));
		rel = check_release(l, &stated);
		/* a release the file is for that the last tree with it covers: nothing to say */
		if (newest == NULL || strstr(at, other) != NULL || last == NULL || (rel != NULL &&
		    kb_version_cmp(rel, lastver) <= 0))
			return;
		diag(l, e, KB_NOTE, "module", "'%s': the module %s is not in the newest FreeBSD "
		    "tree the catalogue read (%s); last at %s: on a release without it, the line "
		    "loads nothing unless a port installs a module of that name", e->name, mod,
		    tree_label(newest, lab, sizeof lab), at);
		return;
	}
	snprintf(other, sizeof other, "if_%s", mod);
	if (kb_hint_leaf(mods, other, &near, &at))
		/* ixgbe_load for if_ixgbe.ko (9.3): the driver's module is if_NAME */
		diag(l, e, KB_WARNING, "module", "'%s': no module '%s' in the FreeBSD base source "
		    "the catalogue read (%s; .ko files of sys/modules and the module names they "
		    "declare); the driver's module is %s (%s): write %s_load=\"YES\"", e->name, mod,
		    tree_range(l), other, at, other);
	else if (kb_hint_leaf(mods, mod, &near, &at), near != NULL)
		diag(l, e, KB_WARNING, "module", "'%s': no module '%s' in the FreeBSD base source "
		    "the catalogue read (%s; .ko files of sys/modules and the module names they "
		    "declare); did you mean %s (%s)? Unless a port installs a '%s', the loader finds "
		    "nothing to load", e->name, mod, tree_range(l), near, at, mod);
	else
		diag(l, e, KB_NOTE, "module", "'%s': '%s' is no module of the FreeBSD base source "
		    "the catalogue read (%s; .ko files of sys/modules and the module names they "
		    "declare): a port's (installed in /boot/modules), one gone before the oldest of "
		    "those trees, or a typo; not checked", e->name, mod, tree_range(l));
}

/*
 * NAME_type, _name, _flags, _before, _after or _error beside a NAME_load of the same file:
 * the loader's options of module NAME (*_name, *_type, *_flags, *_before, *_after, *_error:
 * stand/defaults/loader.conf.5:214-229, 14.0; mfsBSD's mfs_load, mfs_type="mfs_root",
 * mfs_name load a memory-disk root, the type stand/common/module.c knows), whatever rc.conf
 * means by the name (its mfs_type is another variable).
 */
static bool
module_option(const struct lint *l, const char *name)
{
	static const char *const opts[] = { "_type", "_name", "_flags", "_before", "_after",
	    "_error" };
	char load[160];
	size_t i, n = strlen(name), o;

	for (i = 0; i < nitems(opts); i++) {
		o = strlen(opts[i]);
		if (n <= o || strcmp(name + n - o, opts[i]) != 0 || n - o + 6 >= sizeof load)
			continue;
		snprintf(load, sizeof load, "%.*s_load", (int)(n - o), name);
		if (profile_sets(l, load))
			return true;
	}
	return false;
}

/* A name the catalogue knows and the knowledge base does not. */
static void
catalog_rules(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	bool sysctl = l->target == KB_TARGET_SYSCTL || l->target == KB_TARGET_PFSENSE;

	switch (ce->kind) {
	case KB_CAT_NODE:
		diag(l, e, sysctl ? KB_ERROR : KB_WARNING, "node", "'%s' is a sysctl node (%s), not "
		    "a value: setting it %s", e->name, where(l, ce), sysctl ? "fails" :
		    "has no effect");
		return;
	case KB_CAT_RCCONF:
		if (!sysctl && module_option(l, e->name))
			return;
		diag(l, e, KB_WARNING, "rc-conf", "'%s' is an rc.conf variable (%s): %s; put it in "
		    "/etc/rc.conf", e->name, where(l, ce), l->target == KB_TARGET_LOADER ?
		    "the loader ignores it" : sysctl ? "sysctl(8) does not know it" :
		    "neither the loader nor sysctl(8) reads it");
		return;
	case KB_CAT_LOADER:
		if (sysctl)
			diag(l, e, KB_ERROR, "placement", "'%s' is a loader.conf variable (%s), not a "
			    "sysctl", e->name, where(l, ce));
		else
			source_module(l, e, ce);
		return;
	case KB_CAT_TUNABLE:
		if (sysctl)
			diag(l, e, KB_ERROR, "placement", "'%s' is a boot-time tunable (%s, %s): "
			    "sysctl cannot set it, put it in /boot/loader.conf", e->name, flagword(ce),
			    where_mode(l, ce));
		break;
	case KB_CAT_SYSCTL:
	case KB_CAT_DOC:
		source_placement(l, e, ce);
		break;
	}
	source_version(l, e, ce);
	source_option(l, e, ce);
	if (!check_consumer_value(l, e, NULL, ce))
		source_values(l, e, ce);
}

/* KB knob names within typo distance: edit distance <= 2 and the same parent node. */
static const char *
near_kb(struct lint *l, const char *name)
{
	const struct kb_knob *k;
	const char *dot = strrchr(name, '.'), *best = NULL;
	size_t i, plen, d, bestd = 3;

	if (dot == NULL || strlen(name) > 200)
		return NULL;
	plen = (size_t)(dot - name) + 1;
	for (i = 0; i < kb_count(l->kb); i++) {
		k = kb_knob(l->kb, i);
		if (strcmp(k->os, l->os) != 0 || strncmp(k->name, name, plen) != 0 ||
		    strchr(k->name + plen, '.') != NULL)
			continue;
		if ((d = util_edit_distance(k->name + plen, name + plen)) < bestd && d > 0) {
			best = k->name;
			bestd = d;
		}
	}
	return best;
}

/*
 * True when name is near's sibling rather than a typo of it: the same name with
 * rx for tx, send for recv, min for max (hw.igb.tx_process_limit, not a typo of
 * hw.igb.rx_process_limit).
 */
static bool
sibling(const char *name, const char *near)
{
	static const char *const pairs[][2] = {
		{ "rx", "tx" }, { "tx", "rx" }, { "min", "max" }, { "max", "min" },
		{ "send", "recv" }, { "recv", "send" }, { "in", "out" }, { "out", "in" },
	};
	char buf[256];
	const char *p;
	size_t i, len;

	for (i = 0; i < nitems(pairs); i++) {
		len = strlen(pairs[i][0]);
		for (p = strstr(name, pairs[i][0]); p != NULL; p = strstr(p + 1, pairs[i][0])) {
			snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - name), name, pairs[i][1],
			    p + len);
			if (strcmp(buf, near) == 0)
				return true;
		}
	}
	return false;
}

/*
 * Name prefixes the base system hands to kernel modules (LinuxKPI drivers of base and of
 * ports, netfilter's): their knobs are real but declared through macros the catalogue does
 * not read (module_param) or in sources it does not have, whose names change with versions.
 */
static const struct {
	const char *os, *prefix, *what;
} ported[] = {
	{ "freebsd", "compat.linuxkpi.", "under compat.linuxkpi, where module_param puts a "
	  "LinuxKPI kernel module's parameters as tunables (sys/compat/linuxkpi/common/include/"
	  "linux/moduleparam.h:40-48); base's LinuxKPI drivers have them (LINUXKPI_PARAM_PREFIX "
	  "iwlwifi_, rtw88_: sys/contrib/dev/iwlwifi/iwl-drv.c:8, rtw88/main.c:6, FreeBSD "
	  "14.0-CURRENT tree) and so do ports' (drm-kmod's i915kms, amdgpu, radeonkms), whose "
	  "names change with the port's version (newer drm-kmod puts i915's under hw.i915kms, "
	  "drivers/gpu/drm/i915/i915_params.c @00ff6a34)" },
	{ "linux", "fs.binfmt_misc.", "under fs.binfmt_misc, the binfmt_misc file system mounted "
	  "on /proc/sys/fs/binfmt_misc (fs/binfmt_misc.c: status, register and a file per "
	  "registered format; Documentation/admin-guide/binfmt-misc.rst), not a sysctl table" },
	{ "freebsd", "mfsbsd.", "under mfsbsd, a kernel environment variable mfsBSD's rc script "
	  "reads with kenv(1) at boot (hostname, interfaces, ifconfig_IF, autodhcp, defaultrouter, "
	  "nameservers, rootpw, ...: scripts/mfsbsd in mmatuska/mfsbsd), not a kernel tunable; "
	  "on a system that is not mfsBSD nothing reads it" },
	{ "linux", "net.netfilter.", "under net.netfilter, whose names netfilter's modules "
	  "register when they load (net/netfilter/nf_conntrack_standalone.c and the protocol "
	  "trackers), and where kernel patches add their own (OpenWrt's, vendors')" },
};

/*
 * A device hint whose leaf no driver reads but one a letter away does (a typo):
 * the loader passes it on and nothing reads it. Only the catalogue's generic
 * hint.%s.%d.* row knows such a name.
 */
static void
source_hint(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	const char *leaf, *near, *where, *tree = kb_hints_tree(kb_get_hints(l->kb));
	int dots = 0;

	if (strcmp(l->os, "freebsd") != 0 || !util_startswith(e->name, "hint.") ||
	    strchr(ce->name, '*') == NULL)
		return;
	for (leaf = e->name; *leaf != '\0' && dots < 3; leaf++)
		dots += *leaf == '.';
	if (dots < 3 || kb_hint_leaf(kb_get_hints(l->kb), leaf, &near, &where) || near == NULL)
		return;
	diag(l, e, KB_WARNING, "hint", "'%s': no driver in the source read reads a hint '%s' "
	    "(did you mean %s? %s reads that%s%s); the loader passes it on and nothing uses it",
	    e->name, leaf, near, where, tree != NULL ? ", " : "", tree != NULL ? tree : "");
}

/*
 * 1 when name belongs to a port's module (said as a note): a prefix of ported[], or on
 * FreeBSD a node under hw., dev. or compat. that no tree declares (hw.nvidiadrm: drivers and
 * kernel modules make their own node there, and those of ports are not in the base source).
 * Not known is said, not wrong; a typo under a node the source has stays a warning.
 */
static const char *tree_range(struct lint *l);

/*
 * The kenv variables mfsBSD's rc script reads (scripts/mfsbsd in mmatuska/mfsbsd @382164e2:
 * a fixed list, plus ifconfig_IF, ifconfig_IF_mac and route_NAME for the interfaces and
 * routes it names).
 */
static bool
mfsbsd_reads(const char *name)
{
	static const char *const fixed[] = {
		"hostname", "cloned_interfaces", "mac_interfaces", "autodhcp", "interfaces",
		"defaultrouter", "static_routes", "nameservers", "rootpw", "rootpwhash",
	};
	const char *leaf = name + strlen("mfsbsd.");
	size_t i;

	for (i = 0; i < nitems(fixed); i++) {
		if (strcmp(leaf, fixed[i]) == 0)
			return true;
	}
	return (util_startswith(leaf, "ifconfig_") || util_startswith(leaf, "route_")) &&
	    strchr(leaf, '.') == NULL && leaf[strcspn(leaf, "_") + 1] != '\0';
}

static int
source_ported(struct lint *l, const struct kb_entry *e)
{
	const char *dot;
	char node[128];
	size_t i;

	if (strcmp(l->os, "freebsd") == 0 && util_startswith(e->name, "legal.")) {
		/*
		 * fw_stub.awk makes a firmware module fetch legal.NAME.license_ack only when it is
		 * built with FIRMWARE_LICENSE: base has intel_ipw and intel_iwi (knobs of their own)
		 * in every tree, realtek in 10.4's rsufw/urtwnfw (commented out in rsufw and rtwnfw
		 * from the 12.1 tree on); iwnfw's is commented out in every tree.
		 */
		if (strcmp(e->name, "legal.realtek.license_ack") == 0) {
			diag(l, e, KB_NOTE, "unknown-knob", "'%s' is read by FreeBSD 10.4's rsufw and "
			    "urtwnfw firmware modules (FIRMWARE_LICENSE= realtek, sys/modules/usb/"
			    "urtwnfw/Makefile.inc:12, 10.4 tree); the 12.1 to 14.0 trees build rsufw and "
			    "rtwnfw without it (commented out: sys/modules/usb/rsufw/Makefile.inc:12, "
			    "sys/modules/rtwnfw/Makefile.inc:12), so there the line does nothing; 11.x "
			    "was not read", e->name);
			return 1;
		}
		diag(l, e, KB_WARNING, "unknown-knob", "'%s': no base firmware module of the %s "
		    "reads it: a module fetches legal.NAME.license_ack only when built with "
		    "FIRMWARE_LICENSE (sys/tools/fw_stub.awk:163, sys/conf/kmod.mk:191), and base's "
		    "are intel_ipw and intel_iwi (realtek only in 10.4's rsufw and urtwnfw; iwnfw "
		    "needs none: sys/modules/iwnfw/Makefile.inc:13-15); without a port's module that "
		    "names it, the line does nothing", e->name, tree_range(l));
		return 1;
	}
	for (i = 0; i < nitems(ported); i++) {
		if (strcmp(l->os, ported[i].os) != 0 || !util_startswith(e->name, ported[i].prefix))
			continue;
		/* a kenv variable comes from loader.conf; in sysctl.conf it is no such thing */
		if (strcmp(ported[i].prefix, "mfsbsd.") == 0 && (l->target == KB_TARGET_SYSCTL ||
		    l->target == KB_TARGET_PFSENSE))
			continue;
		if (strcmp(ported[i].prefix, "mfsbsd.") == 0 && !mfsbsd_reads(e->name)) {
			diag(l, e, KB_NOTE, "unknown-knob", "'%s' is under mfsbsd, but mfsBSD's rc "
			    "script reads only mfsbsd.hostname, cloned_interfaces, mac_interfaces, "
			    "autodhcp, interfaces, defaultrouter, static_routes, nameservers, rootpw, "
			    "rootpwhash, ifconfig_IF, ifconfig_IF_mac and route_NAME with kenv(1) "
			    "(scripts/mfsbsd in mmatuska/mfsbsd @382164e2); not a kernel tunable, it "
			    "does something only where the image's own scripts read it", e->name);
			return 1;
		}
		diag(l, e, KB_NOTE, "unknown-knob", "'%s' is %s; the catalogue does not list such "
		    "names, so it is not checked", e->name, ported[i].what);
		return 1;
	}
	if (strcmp(l->os, "freebsd") != 0 || l->cat == NULL || (!util_startswith(e->name, "hw.") &&
	    !util_startswith(e->name, "dev.") && !util_startswith(e->name, "compat.")) ||
	    (dot = strchr(strchr(e->name, '.') + 1, '.')) == NULL ||
	    (size_t)(dot - e->name) >= sizeof node)
		return 0;
	snprintf(node, sizeof node, "%.*s", (int)(dot - e->name), e->name);
	if (kb_catalog_find(l->cat, l->os, node) != NULL || kb_find(l->kb, node, NULL) != NULL)
		return 0;
	if (util_startswith(e->name, "dev."))
		/* newbus makes dev.DRIVER.N for every device (subr_bus.c device_sysctl_init) */
		diag(l, e, KB_NOTE, "unknown-knob", "'%s' is not known: the catalogue has no leaf "
		    "of that name under %s.N (the kernel makes dev.DRIVER.N for each device; the "
		    "leaves a driver adds at attach are known only where the catalogue's generator "
		    "follows its code), so it is not checked", e->name, node);
	else
		diag(l, e, KB_NOTE, "unknown-knob", "'%s' is not known: no source tree the catalogue "
		    "read declares a node %s, where a driver or kernel module makes its own (one from "
		    "ports, or newer than the trees, is not in the base source), so it is not checked",
		    e->name, node);
	return 1;
}

/* "FreeBSD 9.3 to 14.0 sources": the trees of the catalogue for the profile's OS. */
static const char *
tree_range(struct lint *l)
{
	static char buf[96];
	const struct kb_cat_tree *t, *first = NULL, *last = NULL;
	size_t i;

	for (i = 0; l->cat != NULL && i < kb_catalog_ntrees(l->cat); i++) {
		t = kb_catalog_tree(l->cat, i);
		if (strcmp(t->os, l->os) != 0)
			continue;
		first = first != NULL ? first : t;
		last = t;
	}
	if (first == NULL)
		return "none loaded";
	snprintf(buf, sizeof buf, "%s %s to %s sources", strcmp(l->os, "linux") == 0 ? "Linux" :
	    "FreeBSD", first->version, last->version);
	return buf;
}

/*
 * A known name that differs only in one '.' written as '_' or the other way round
 * (kern.vt.fb.default.mode for kern.vt.fb.default_mode): a typo across a node boundary,
 * which the suggestions within one node do not reach. The name, or NULL.
 */
static const char *
near_separator(struct lint *l, const char *name)
{
	static char buf[256];
	const struct kb_knob *k;
	size_t i;

	if (strlen(name) >= sizeof buf)
		return NULL;
	for (i = 1; name[i] != '\0'; i++) {
		if (name[i] != '.' && name[i] != '_')
			continue;
		snprintf(buf, sizeof buf, "%s", name);
		buf[i] = name[i] == '.' ? '_' : '.';
		if (cat_exact(l, buf) ||
		    ((k = kb_find(l->kb, buf, l->os)) != NULL && strcmp(k->name, buf) == 0))
			return buf;
	}
	return NULL;
}

static void
unknown(struct lint *l, const struct kb_entry *e)
{
	const char *near = l->cat != NULL ? kb_catalog_suggest(l->cat, l->os, e->name) : NULL;
	const struct kb_cat_entry *m;
	char mod[160];

	if (near == NULL || sibling(e->name, near))
		near = near_kb(l, e->name);
	if (near == NULL)
		near = near_separator(l, e->name);
	if (near != NULL && !sibling(e->name, near)) {
		diag(l, e, KB_ERROR, "unknown-knob", "unknown knob '%s' (did you mean %s?)", e->name,
		    shown(near));
		return;
	}
	if (l->cat == NULL && strcmp(l->os, "freebsd") == 0 && (strchr(e->name, '.') == NULL ||
	    util_startswith(e->name, "hint."))) {
		/* No catalogue to tell: modules, console, boot options, device hints. */
		if (l->target == KB_TARGET_SYSCTL || l->target == KB_TARGET_PFSENSE)
			diag(l, e, KB_ERROR, "placement", "'%s' is a loader.conf variable (module, "
			    "console, boot option or device hint), not a sysctl", e->name);
		else
			diag(l, e, KB_NOTE, "unknown-knob", "'%s' is a loader variable, not a tunable; "
			    "not checked", e->name);
		return;
	}
	if (strcmp(l->os, "freebsd") == 0 && strchr(e->name, '.') == NULL) {
		snprintf(mod, sizeof mod, "%s_load", e->name);
		m = cat_find(l, mod);
		if (m != NULL && m->kind == KB_CAT_LOADER && strcmp(m->name, mod) == 0) {
			/* Known: the module's name without the suffix loader.conf(5) reads. */
			diag(l, e, KB_WARNING, "placement", "'%s' is not a loader variable; the "
			    "loader ignores it (to load the module: %s=\"YES\", %s)", e->name, mod,
			    where(l, m));
			return;
		}
		diag(l, e, KB_WARNING, "unknown-knob", "'%s' is no loader variable, tunable or "
		    "rc.conf variable the catalogue knows (%s): a typo, a variable of a release those "
		    "sources do not cover, one of a port, an rc.conf one named after an interface "
		    "(ifconfig_IF, wlans_IF: the loader ignores those), or one declared in a form the "
		    "catalogue's generator does not read; not checked", e->name, tree_range(l));
		return;
	}
	if (source_ported(l, e))
		return;
	/*
	 * loader.conf puts every line in the kernel environment, where scripts read their own
	 * variables with kenv(1) (mfsBSD's mfsbsd.autodhcp, scripts/mfsbsd): one more reading.
	 */
	diag(l, e, KB_WARNING, "unknown-knob", "unknown knob '%s': not in the catalogue (%s) or "
	    "the knowledge base: a typo, a knob of a release those sources do not cover, one of "
	    "a module or kernel patch they do not hold, %sor one declared in a form the "
	    "catalogue's generator does not read (a table another file holds); not checked",
	    e->name, tree_range(l), strcmp(l->os, "freebsd") == 0 && l->target != KB_TARGET_SYSCTL &&
	    l->target != KB_TARGET_PFSENSE ? "a variable scripts read from the kernel environment "
	    "the loader passes on (kenv(1): mfsBSD's mfsbsd.*), " : "");
}

/* Linux: what /proc/sys says (mode bits, not a read). -1 when not known. */
static int
live_kind(struct lint *l, const char *name)
{
	int kind;

	if (strcmp(l->os, "linux") != 0 || l->sys == NULL || l->sys->kind == NULL ||
	    util_startswith(name, "if.") || util_startswith(name, "cpu.") ||
	    strpbrk(name, "*?[") != NULL)
		return -1;
	if (l->sys->kind(l->sys->arg, name, &kind) == -1)
		return -1;
	return kind;
}

/*
 * A Linux per-interface row known only from the documentation (no ctl_table entry in
 * devinet.c/addrconf.c: its source has no "mode:") whose leaf the kernel's tables have
 * elsewhere: the documentation's section gave the name (issue 36:
 * net.ipv4.conf.all.igmp_link_local_mcast_reports is the global
 * net.ipv4.igmp_link_local_mcast_reports, net/ipv4/sysctl_net_ipv4.c). 1 when reported.
 */
static int
source_misplaced(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce)
{
	static const char *const homes[] = { "%.*s%s", "%.*sneigh.default.%s" };
	const struct kb_cat_entry *real;
	const char *pct, *leaf;
	char name[256];
	size_t i;

	if (ce == NULL || ce->kind != KB_CAT_DOC || strstr(ce->source, " mode:") != NULL ||
	    (pct = strstr(ce->name, ".conf.%s.")) == NULL)
		return 0;
	leaf = pct + strlen(".conf.%s.");
	for (i = 0; i < nitems(homes); i++) {
		snprintf(name, sizeof name, homes[i], (int)(pct - ce->name + 1), ce->name, leaf);
		real = l->cat != NULL ? kb_catalog_find(l->cat, l->os, name) : NULL;
		if (real == NULL || real == ce || (real->kind == KB_CAT_DOC &&
		    strstr(real->source, " mode:") == NULL))
			continue;
		diag(l, e, KB_ERROR, "misplaced", "'%s' does not exist: no kernel the catalogue "
		    "read (%s) has '%s' per interface (its table, %s, has no such entry; the "
		    "documentation lists it under the per-interface settings, %s); the knob is %s "
		    "(%s)", e->name, tree_range(l), leaf,
		    util_startswith(ce->name, "net.ipv6.") ? "net/ipv6/addrconf.c" :
		    "net/ipv4/devinet.c", where(l, ce), shown(real->name), where(l, real));
		return 1;
	}
	return 0;
}

/*
 * A per-interface name (net.ipv4.conf.IF.x) whose interface this machine lacks while
 * its "all" sibling exists: the file is for another box, the kernel has the knob.
 */
static bool
iface_absent(struct lint *l, const struct kb_entry *e, const struct kb_cat_entry *ce,
    char *ifname, size_t len)
{
	const char *pct = ce != NULL ? strstr(ce->name, "%s") : NULL;
	size_t pre, suf, n = strlen(e->name);
	char all[256];

	if (pct == NULL || strcmp(ce->os, "linux") != 0)
		return false;
	pre = (size_t)(pct - ce->name);
	suf = strlen(pct + 2);
	if (n <= pre + suf || strncmp(e->name, ce->name, pre) != 0)
		return false;
	snprintf(ifname, len, "%.*s", (int)(n - pre - suf), e->name + pre);
	if (strcmp(ifname, "all") == 0 || strcmp(ifname, "default") == 0)
		return false;
	snprintf(all, sizeof all, "%.*sall%s", (int)pre, ce->name, pct + 2);
	return live_kind(l, all) > OS_TUNABLE_NONE;
}

static int
linux_live(struct lint *l, const struct kb_entry *e, const struct kb_knob *k,
    const struct kb_cat_entry *ce)
{
	int kind = live_kind(l, e->name);
	char ifname[64];

	if (kind == OS_TUNABLE_READONLY) {
		diag(l, e, KB_ERROR, "read-only", "'%s' is read-only on this kernel (its /proc/sys "
		    "file has no write permission%s%s): setting it fails", e->name,
		    ce != NULL ? "; the catalogue: " : "", ce != NULL ? where(l, ce) : "");
		return 0;
	}
	if (kind == OS_TUNABLE_NONE && ce != NULL && (!in_newest(l, ce) || ce->readonly))
		return -1;	/* gone from the kernel, or read-only by its source: the rules say */
	if (kind == OS_TUNABLE_NONE && iface_absent(l, e, ce, ifname, sizeof ifname)) {
		diag(l, e, KB_NOTE, "absent", "'%s': %s is not an interface of this machine (its "
		    "'all' setting exists here): checked against the source only (%s)", e->name,
		    ifname, where(l, ce));
		return k != NULL;
	}
	if (kind == OS_TUNABLE_NONE && (ce != NULL || k != NULL)) {
		diag(l, e, KB_WARNING, "absent", "'%s' is documented (%s) but not present on this "
		    "kernel (a module not loaded or an option not built): setting it fails",
		    e->name, ce != NULL ? where(l, ce) : k->sources[0]);
		return k != NULL;
	}
	if (kind == OS_TUNABLE_RUNTIME && ce == NULL && k == NULL) {
		diag(l, e, KB_NOTE, "unknown-knob", "'%s' is not in the catalogue or the knowledge "
		    "base; it exists and is writable on this kernel", e->name);
		return 0;
	}
	return -1;	/* nothing said: the other rules decide */
}

int
check_known(struct lint *l, const struct kb_entry *e, const struct kb_knob **kp)
{
	const struct kb_knob *k, *other;
	const struct kb_cat_entry *ce, *oce = NULL;
	char *cur = NULL;
	int r;

	*kp = NULL;
	k = kb_find(l->kb, e->name, l->platform);
	ce = cat_find(l, e->name);
	if (k == NULL && source_misplaced(l, e, ce))
		return 0;
	if ((r = linux_live(l, e, k, ce)) != -1) {
		*kp = r == 1 ? k : NULL;
		return r;
	}
	if (k != NULL) {
		*kp = k;
		return 1;
	}
	if (ce == NULL && l->cat != NULL)
		oce = kb_catalog_find(l->cat, strcmp(l->os, "linux") == 0 ? "freebsd" : "linux",
		    e->name);
	if (ce == NULL && (other = kb_find(l->kb, e->name, NULL)) != NULL) {
		if (other->platform != NULL && strcmp(other->os, l->os) == 0)
			diag(l, e, KB_ERROR, "platform", "'%s' exists only on %s kernels, not %s",
			    e->name, other->platform, l->platform);
		else
			diag(l, e, KB_ERROR, "wrong-os", "'%s' is a %s knob, not %s", e->name,
			    other->os, l->os);
		return 0;
	}
	if (ce != NULL) {
		source_hint(l, e, ce);
		catalog_rules(l, e, ce);
		return 0;
	}
	if (oce != NULL && oce->kind != KB_CAT_RCCONF && oce->kind != KB_CAT_LOADER) {
		diag(l, e, KB_ERROR, "wrong-os", "'%s' is a %s %s (%s), not %s", e->name,
		    oce->os, oce->kind == KB_CAT_TUNABLE ? "loader tunable" : "sysctl",
		    where(l, oce), l->os);
		return 0;
	}
	if (l->sys != NULL && l->sys->get != NULL && l->sys->get(l->sys->arg, e->name, &cur) == 0) {
		diag(l, e, KB_NOTE, "unknown-knob", "'%s' is not in the catalogue or the knowledge "
		    "base; only its existence on the system was checked", e->name);
		free(cur);
		return 0;
	}
	/* a row whose leaf is any name (aw_sid.c's dev.%s.%d.*: efuse names) tells nothing */
	if (l->cat != NULL && (oce = kb_catalog_find(l->cat, l->os, e->name)) != NULL &&
	    strcmp(strrchr(oce->name, '.') != NULL ? strrchr(oce->name, '.') : "", ".*") != 0 &&
	    strcmp(strrchr(oce->name, '.') != NULL ? strrchr(oce->name, '.') : "", ".%s") != 0) {
		/*
		 * A per-device leaf the catalogue has only as a generic dev.%s.%d row of some
		 * source file. Whether that file is this driver's is not known: acpi_cpu.c
		 * attaches as cpu, cxgbe's t4_main.c as t5nex, while liquidio's fc is not em's.
		 */
		diag(l, e, KB_NOTE, "unknown-knob", "'%s': the catalogue has this leaf only as a "
		    "per-device node of %s, which it does not tie to the driver '%.*s'; not checked",
		    e->name, where(l, oce), driver_len(e->name), e->name + 4);
		return 0;
	}
	unknown(l, e);
	return 0;
}
