/* The tuner: try candidate changes, keep only those proven better. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "apply/apply.h"
#include "bench/cand.h"
#include "bench/lab.h"
#include "bench/label.h"
#include "bench/results.h"
#include "bench/run.h"
#include "bench/runner.h"
#include "bench/seq.h"
#include "bench/signals.h"
#include "bench/tune.h"
#include "bench/verdict.h"
#include "diag/diag.h"
#include "kb/kb.h"
#include "lab/lab.h"
#include "stat/stat.h"
#include "util/util.h"


static void
note(char ***notes, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
note(char ***notes, size_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*notes = util_strv_vaddf(*notes, n, fmt, ap);
	va_end(ap);
}

static unsigned long long
mask_value(const char *s)
{
	unsigned long long v = 0;

	for (; *s != '\0'; s++) {
		if (*s == ',')
			continue;
		if (*s >= '0' && *s <= '9')
			v = v * 16 + (unsigned long long)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			v = v * 16 + (unsigned long long)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			v = v * 16 + (unsigned long long)(*s - 'A' + 10);
		else
			break;
	}
	return v;
}

static int
same_value(const struct kb_knob *k, const struct bench_gen *g, const char *a, const char *b)
{
	if (g->kind == BENCH_GEN_MASKS)
		return mask_value(a) == mask_value(b);
	return kb_value_equal(k, a, b);
}

/*
 * Fills cand's changes, label and was from set (a bundle's was says which part
 * was what). -1 when it does not fit.
 */
static int
cand_fill(struct bench_candidate *cand, const struct bench_change *set, size_t nset)
{
	size_t i, len = 0, wlen = 0;

	if (nset > BENCH_CHANGES_MAX)
		return -1;
	cand->n = 0;
	cand->finding = -1;
	for (i = 0; i < nset; i++) {
		cand->set[cand->n++] = set[i];
		len += (size_t)snprintf(cand->label + len, sizeof cand->label - len, "%s%s=%s",
		    i > 0 ? " + " : "", set[i].name, set[i].value);
		if (nset > 1)
			wlen += (size_t)snprintf(cand->was + wlen, sizeof cand->was - wlen, "%s%s=%s",
			    i > 0 ? ", " : "", set[i].name, set[i].current);
		else
			wlen += (size_t)snprintf(cand->was + wlen, sizeof cand->was - wlen, "%s",
			    set[i].current);
		if (len >= sizeof cand->label || wlen >= sizeof cand->was)
			return -1;
	}
	return 0;
}

/* Appends a candidate unless one with the same changes is there already. */
static void
add(struct bench_candidate **c, size_t *n, const struct bench_gen *g, const struct bench_change *set,
    size_t nset)
{
	struct bench_candidate cand;
	size_t i;

	memset(&cand, 0, sizeof cand);
	if (cand_fill(&cand, set, nset) == -1)
		return;
	for (i = 0; i < *n; i++) {
		if (strcmp((*c)[i].label, cand.label) == 0)
			return;
	}
	snprintf(cand.why, sizeof cand.why, "%s", g->why);
	cand.line = g->line;
	cand.trap = g->kind == BENCH_GEN_FIX;
	*c = xreallocarray(*c, *n + 1, sizeof **c);
	(*c)[(*n)++] = cand;
}

static void
add_one(struct bench_candidate **c, size_t *n, const struct kb_knob *k, const struct bench_gen *g,
    const char *cur, const char *value, int ncpu, char ***notes, size_t *nnotes)
{
	struct bench_change ch;
	char *why;

	if (same_value(k, g, cur, value))
		return;
	if ((why = kb_value_problem(k, value, ncpu)) != NULL) {
		note(notes, nnotes, "%s=%s left out: %s", g->name, value, why);
		free(why);
		return;
	}
	memset(&ch, 0, sizeof ch);
	snprintf(ch.name, sizeof ch.name, "%s", g->name);
	snprintf(ch.value, sizeof ch.value, "%s", value);
	snprintf(ch.current, sizeof ch.current, "%s", cur);
	add(c, n, g, &ch, 1);
}

static void
expand(const struct bench_gen *g, const struct kb_knob *k, const char *cur, int ncpu,
    struct bench_candidate **c, size_t *n, char ***notes, size_t *nnotes)
{
	char buf[128], *end, *fs, *f;
	long long v, m;
	int i, singles;

	switch (g->kind) {
	case BENCH_GEN_MASKS:
		for (i = ncpu - 1, singles = 0; i >= 0 && singles < 4 && i < 60; i--, singles++) {
			snprintf(buf, sizeof buf, "%llx", 1ULL << i);
			add_one(c, n, k, g, cur, buf, ncpu, notes, nnotes);
		}
		if (ncpu > 1 && ncpu < 60) {
			snprintf(buf, sizeof buf, "%llx", (1ULL << ncpu) - 1);
			add_one(c, n, k, g, cur, buf, ncpu, notes, nnotes);
		}
		break;
	case BENCH_GEN_FLIP:
		if (strcmp(cur, "on") == 0 || strcmp(cur, "1") == 0)
			add_one(c, n, k, g, cur, strcmp(cur, "1") == 0 ? "0" : "off", ncpu, notes, nnotes);
		else if (strcmp(cur, "off") == 0 || strcmp(cur, "0") == 0)
			add_one(c, n, k, g, cur, strcmp(cur, "0") == 0 ? "1" : "on", ncpu, notes, nnotes);
		else
			note(notes, nnotes, "%s left out: it is '%s' (fixed or unknown here)", g->name, cur);
		break;
	case BENCH_GEN_TIMES:
		v = strtoll(cur, &end, 10);
		if (end == cur || *end != '\0' || v <= 0) {
			note(notes, nnotes, "%s left out: current value '%s' is not a number", g->name, cur);
			break;
		}
		fs = xstrdup(g->arg);
		for (f = strtok(fs, " "); f != NULL; f = strtok(NULL, " ")) {
			m = strtoll(f, NULL, 10);
			snprintf(buf, sizeof buf, "%lld", v * m);
			add_one(c, n, k, g, cur, buf, ncpu, notes, nnotes);
		}
		free(fs);
		break;
	case BENCH_GEN_SET:
		add_one(c, n, k, g, cur, g->arg, ncpu, notes, nnotes);
		break;
	case BENCH_GEN_NCPU:
		v = strtoll(cur, &end, 10);
		if (end != cur && *end == '\0' && v > 0 && v < ncpu) {
			snprintf(buf, sizeof buf, "%d", ncpu);
			add_one(c, n, k, g, cur, buf, ncpu, notes, nnotes);
		}
		break;
	case BENCH_GEN_ENUM:
		for (i = 0; i < (int)k->nvalues; i++) {
			snprintf(buf, sizeof buf, " %s ", g->arg);
			fs = NULL;
			xasprintf(&fs, " %s ", k->values[i]);
			if (strstr(buf, fs) != NULL)
				add_one(c, n, k, g, cur, k->values[i], ncpu, notes, nnotes);
			free(fs);
		}
		break;
	case BENCH_GEN_FIX:
		fs = xstrdup(g->arg);
		if ((f = strchr(fs, ':')) != NULL) {
			*f++ = '\0';
			if (kb_value_equal(k, cur, fs))
				add_one(c, n, k, g, cur, f, ncpu, notes, nnotes);
			else
				note(notes, nnotes, "%s left out: it is '%s', not the trap '%s'", g->name,
				    cur, fs);
		}
		free(fs);
		break;
	case BENCH_GEN_BUNDLE:
		break;
	}
}

/*
 * Whether knob k may be tried: in the knowledge base, host-global only with
 * host_knobs, readable in the DUT. Returns its value (malloc'd) or NULL with a note.
 */
static char *
usable(const struct kb *kb, const struct bench_gens *gs, const char *name, const char *what,
    bench_getter get, void *arg, bool host_knobs, const struct kb_knob **kp, char ***notes,
    size_t *nnotes)
{
	const struct kb_knob *k;
	char *cur = NULL, *why = NULL;

	if ((k = kb_find(kb, name, gs->os != NULL ? gs->os : "linux")) == NULL) {
		note(notes, nnotes, "%s left out: %s is not in the knowledge base for %s", what, name,
		    gs->os != NULL ? gs->os : "linux");
		return NULL;
	}
	if (k->placement == KB_PLACE_LOADER && !gs->boot) {
		note(notes, nnotes, "%s left out: %s takes effect at boot only (a reboot for every "
		    "switch of profile; not tried by the tuner yet)", what, name);
		return NULL;
	}
	if (k->scope == KB_SCOPE_HOST && !host_knobs) {
		note(notes, nnotes, "%s left out: %s is host-global (invisible in a network namespace); "
		    "--host-knobs tries it on the host, journalled", what, name);
		return NULL;
	}
	if (get(arg, name, &cur, &why) == -1) {
		note(notes, nnotes, "%s left out: %s is not available in the DUT (%s)", what, name,
		    why != NULL ? why : "cannot read it");
		free(why);
		return NULL;
	}
	*kp = k;
	return cur;
}

/* A bundle: the parts not yet at their value, all or nothing. */
static void
expand_bundle_one(const struct kb *kb, const struct bench_gens *gs, const struct bench_gen *g,
    bench_getter get, void *arg, int ncpu, bool host_knobs, struct bench_candidate **c, size_t *n,
    char ***notes, size_t *nnotes)
{
	struct bench_change set[BENCH_CHANGES_MAX];
	const struct kb_knob *k;
	char *words, *w, *eq, *cur, *why;
	size_t nset = 0;
	bool ok = true;

	words = xstrdup(g->arg);
	for (w = strtok(words, " "); w != NULL && ok; w = strtok(NULL, " ")) {
		if ((eq = strchr(w, '=')) == NULL || nset == BENCH_CHANGES_MAX) {
			note(notes, nnotes, "%s left out: bad bundle '%s'", g->name, g->arg);
			ok = false;
			break;
		}
		*eq = '\0';
		if ((cur = usable(kb, gs, w, g->name, get, arg, host_knobs, &k, notes, nnotes)) == NULL) {
			ok = false;
			break;
		}
		util_trim(cur);
		if ((why = kb_value_problem(k, eq + 1, ncpu)) != NULL) {
			note(notes, nnotes, "%s left out: %s=%s: %s", g->name, w, eq + 1, why);
			free(why);
			ok = false;
		} else if (!kb_value_equal(k, util_trim(cur), eq + 1)) {
			memset(&set[nset], 0, sizeof set[nset]);
			snprintf(set[nset].name, sizeof set[nset].name, "%s", w);
			snprintf(set[nset].value, sizeof set[nset].value, "%s", eq + 1);
			snprintf(set[nset].current, sizeof set[nset].current, "%s", util_trim(cur));
			nset++;
		}
		free(cur);
	}
	free(words);
	if (ok && nset == 0)
		note(notes, nnotes, "%s left out: already in force", g->name);
	else if (ok)
		add(c, n, g, set, nset);
}

/* s with every "%c" replaced by cpu (malloc'd). */
static char *
subst_cpu(const char *s, int cpu)
{
	struct strbuf sb;
	const char *p;

	strbuf_init(&sb);
	strbuf_adds(&sb, "");
	for (p = s; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'c') {
			strbuf_addf(&sb, "%d", cpu);
			p++;
		} else
			strbuf_addc(&sb, *p);
	}
	return strbuf_detach(&sb);
}

/* A bundle whose changes say "%c": one bundle per CPU, the highest first (up to 4). */
static void
expand_bundle(const struct kb *kb, const struct bench_gens *gs, const struct bench_gen *g,
    bench_getter get, void *arg, int ncpu, bool host_knobs, struct bench_candidate **c, size_t *n,
    char ***notes, size_t *nnotes)
{
	struct bench_gen one;
	char *name, *args;
	int cpu;

	if (strstr(g->arg, "%c") == NULL) {
		expand_bundle_one(kb, gs, g, get, arg, ncpu, host_knobs, c, n, notes, nnotes);
		return;
	}
	for (cpu = ncpu - 1; cpu >= 0 && cpu >= ncpu - 4; cpu--) {
		one = *g;
		one.name = name = subst_cpu(g->name, cpu);
		one.arg = args = subst_cpu(g->arg, cpu);
		expand_bundle_one(kb, gs, &one, get, arg, ncpu, host_knobs, c, n, notes, nnotes);
		free(name);
		free(args);
	}
}

/* What round_robin groups by: the knob of a single change, the whole of a bundle. */
static const char *
rank_key(const struct bench_candidate *c)
{
	return c->n == 1 ? c->set[0].name : c->label;
}

/*
 * The first value of every knob, then the second of every knob, and so on:
 * a short budget then sees every knob once instead of all values of the first.
 */
static void
round_robin(struct bench_candidate *c, size_t n)
{
	struct bench_candidate *tmp;
	size_t i, j, rank, out = 0, *ranks;

	if (n < 2)
		return;
	ranks = xcalloc(n, sizeof *ranks);
	for (i = 1; i < n; i++)
		ranks[i] = strcmp(rank_key(&c[i]), rank_key(&c[i - 1])) == 0 ? ranks[i - 1] + 1 : 0;
	tmp = xreallocarray(NULL, n, sizeof *tmp);
	for (rank = 0; out < n; rank++) {
		for (j = 0; j < n; j++) {
			if (ranks[j] == rank)
				tmp[out++] = c[j];
		}
	}
	memcpy(c, tmp, n * sizeof *c);
	free(tmp);
	free(ranks);
}

void
bench_tune_candidates_from(const struct kb *kb, const struct bench_gens *gens, bench_getter get,
    void *arg, int ncpu, bool host_knobs, struct bench_candidate **out, size_t *nout,
    char ***notes, size_t *nnotes)
{
	const struct kb_knob *k = NULL;
	const struct bench_gen *g;
	char *cur;
	size_t i;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < gens->n; i++) {
		g = &gens->v[i];
		if (g->kind == BENCH_GEN_BUNDLE) {
			expand_bundle(kb, gens, g, get, arg, ncpu, host_knobs, out, nout, notes, nnotes);
			continue;
		}
		if ((cur = usable(kb, gens, g->name, g->name, get, arg, host_knobs, &k, notes,
		    nnotes)) == NULL)
			continue;
		expand(g, k, util_trim(cur), ncpu, out, nout, notes, nnotes);
		free(cur);
	}
	round_robin(*out, *nout);
}

struct access_arg {
	struct apply_access	*acc;
	const struct kb		*kb;
};

static int
access_get(void *arg, const char *name, char **value, char **why)
{
	struct access_arg *a = arg;

	return apply_access_get(a->acc, a->kb, name, value, why);
}

int
bench_tune_candidates(const struct kb *kb, const char *path, const char *dut_ns, int ncpu,
    bool host_knobs, struct bench_candidate **out, size_t *nout, char ***notes, size_t *nnotes,
    char **cause)
{
	struct access_arg a = { NULL, kb };
	struct bench_gens gens;

	*out = NULL;
	*nout = 0;
	if (bench_gens_load(path, &gens, cause) == -1)
		return -1;
	if ((a.acc = apply_access_open(dut_ns, cause)) == NULL) {
		bench_gens_free(&gens);
		return -1;
	}
	bench_tune_candidates_from(kb, &gens, access_get, &a, ncpu, host_knobs, out, nout, notes,
	    nnotes);
	apply_access_close(a.acc);
	bench_gens_free(&gens);
	return 0;
}

/* The rank of the first finding that names one of c's knobs (-1: none), and that knob. */
static int
finding_of(const struct diag_result *d, const struct bench_candidate *c, const char **knob)
{
	int best = -1, r;
	size_t i;

	for (i = 0; i < c->n; i++) {
		r = diag_knob_rank(d, c->set[i].name);
		if (r >= 0 && (best < 0 || r < best)) {
			best = r;
			*knob = c->set[i].name;
		}
	}
	return best;
}

/* Whether a candidate before c[i] with the same rank key is among the first n of out. */
static bool
key_taken(const struct bench_candidate *out, size_t n, const struct bench_candidate *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rank_key(&out[i]), rank_key(c)) == 0)
			return true;
	return false;
}

void
bench_tune_order(struct bench_candidate *c, size_t n, const struct diag_result *d)
{
	struct bench_candidate *out;
	const struct diag_finding *f;
	const char *knob = NULL;
	size_t i, k = 0;
	bool *moved;
	int r;

	if (n == 0)
		return;
	out = xreallocarray(NULL, n, sizeof *out);
	moved = xcalloc(n, sizeof *moved);
	for (i = 0; i < n; i++) {
		c[i].finding = d != NULL ? finding_of(d, &c[i], &knob) : -1;
		if (!c[i].trap)
			continue;
		snprintf(c[i].order, sizeof c[i].order, "a known trap is set in the DUT (line %d): "
		    "fixed before anything else", c[i].line);
		out[k++] = c[i];
		moved[i] = true;
	}
	for (r = 0; d != NULL && r < (int)d->nfindings; r++) {
		f = &d->findings[r];
		for (i = 0; i < n; i++) {
			if (moved[i] || c[i].finding != r || key_taken(out, k, &c[i]))
				continue;
			finding_of(d, &c[i], &knob);
			snprintf(c[i].order, sizeof c[i].order, "the diagnosis found "
			    "%s%s%s (%s) and names %s", f->kind, f->entity[0] != '\0' ? " on " : "",
			    f->entity, diag_certainty_name(f->certainty), knob);
			out[k++] = c[i];
			moved[i] = true;
		}
	}
	for (i = 0; i < n; i++) {
		if (moved[i])
			continue;
		if (d == NULL)
			snprintf(c[i].order, sizeof c[i].order, "the candidate list's order (line %d)",
			    c[i].line);
		else if (c[i].finding >= 0)
			snprintf(c[i].order, sizeof c[i].order, "the candidate list's order (line %d): "
			    "another value of a knob the diagnosis names, after one try of each",
			    c[i].line);
		else
			snprintf(c[i].order, sizeof c[i].order, "the candidate list's order (line %d): "
			    "no finding of the diagnosis names its knobs", c[i].line);
		out[k++] = c[i];
	}
	memcpy(c, out, n * sizeof *c);
	free(out);
	free(moved);
}

int
bench_tune_plan_runs(const struct bench_seq *seq, double cv, double effect, int cap)
{
	struct bench_seq s = *seq;
	double za, zb = stat_normal_quantile(0.80), need;
	int n;

	if (s.min_runs < 2)
		s.min_runs = 2;
	if (cap < s.min_runs)
		cap = s.min_runs;
	if (!(cv > 0) || !(effect > 0) || !isfinite(cv))
		return cap;
	for (n = s.min_runs; n < cap; n++) {
		s.max_runs = n;
		za = stat_t_quantile(1 - bench_seq_alpha(&s) / 2, 2.0 * n - 2);
		need = 2 * ((za + zb) * cv / effect) * ((za + zb) * cv / effect);
		if (need <= n)
			return n;
	}
	return cap;
}

/* An ordered name=value list where giving a name a new value moves it last. */
struct plist {
	const struct bench_change **v;
	size_t	n;
};

static void
plist_set(struct plist *l, const struct bench_change *ch)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i]->name, ch->name) == 0) {
			if (strcmp(l->v[i]->value, ch->value) == 0)
				return;
			memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
			l->n--;
			break;
		}
	}
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = ch;
}

/* The changes of the kept steps, in order, except step skip's (SIZE_MAX: none skipped). */
static void
plist_kept(struct plist *l, const struct bench_tune *t, size_t skip)
{
	size_t i, j;

	for (i = 0; i < t->nsteps; i++) {
		if (!t->steps[i].kept || i == skip)
			continue;
		for (j = 0; j < t->steps[i].c.n; j++)
			plist_set(l, &t->steps[i].c.set[j]);
	}
}

/* The profile of the kept steps except step skip (SIZE_MAX: none), then extra's changes. */
static char *
profile_text(const struct bench_tune *t, size_t skip, const struct bench_candidate *extra)
{
	struct plist l = { NULL, 0 };
	struct strbuf sb;
	size_t i;

	plist_kept(&l, t, skip);
	for (i = 0; extra != NULL && i < extra->n; i++)
		plist_set(&l, &extra->set[i]);
	strbuf_init(&sb);
	strbuf_adds(&sb, "");
	for (i = 0; i < l.n; i++)
		strbuf_addf(&sb, "%s=%s\n", l.v[i]->name, l.v[i]->value);
	free(l.v);
	return strbuf_detach(&sb);
}

char *
bench_tune_profile(const struct bench_tune *t, const struct bench_candidate *extra)
{
	return profile_text(t, SIZE_MAX, extra);
}

/* Whether every change of c is in the profile of the kept steps already. */
static bool
in_best(const struct bench_tune *t, const struct bench_candidate *c)
{
	struct plist l = { NULL, 0 };
	size_t i, j, have = 0;

	plist_kept(&l, t, SIZE_MAX);
	for (i = 0; i < c->n; i++) {
		for (j = 0; j < l.n; j++) {
			if (strcmp(l.v[j]->name, c->set[i].name) == 0 &&
			    strcmp(l.v[j]->value, c->set[i].value) == 0) {
				have++;
				break;
			}
		}
	}
	free(l.v);
	return c->n > 0 && have == c->n;
}

/* A change for the better of the tune's metric (latency: lower). */
static double
gain(const struct bench_tune *t, double pct)
{
	return t->latency ? -pct : pct;
}

/* Merges b's changes into a (a knob set to two values: -1). */
static int
merge(struct bench_change *set, size_t *n, const struct bench_candidate *b)
{
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		for (j = 0; j < *n; j++)
			if (strcmp(set[j].name, b->set[i].name) == 0)
				break;
		if (j < *n) {
			if (strcmp(set[j].value, b->set[i].value) != 0)
				return -1;
			continue;
		}
		if (*n == BENCH_CHANGES_MAX)
			return -1;
		set[(*n)++] = b->set[i];
	}
	return 0;
}

static void
pair_add(const struct bench_tune *t, size_t ia, size_t ib, struct bench_candidate **out, size_t *n)
{
	const struct bench_tune_step *a = &t->steps[ia], *b = &t->steps[ib];
	struct bench_change set[BENCH_CHANGES_MAX];
	struct bench_candidate p;
	size_t nset = 0, i;

	memset(&p, 0, sizeof p);
	if (merge(set, &nset, &a->c) == -1 || merge(set, &nset, &b->c) == -1 ||
	    nset == a->c.n || nset == b->c.n || cand_fill(&p, set, nset) == -1 || in_best(t, &p))
		return;
	for (i = 0; i < *n; i++)
		if (strcmp((*out)[i].label, p.label) == 0)
			return;
	snprintf(p.why, sizeof p.why, "together: %.180s; %.180s", a->c.why, b->c.why);
	snprintf(p.order, sizeof p.order, "a pair of the best singles not kept: step %zu "
	    "(%+.1f%% ± %.1f%% alone) and step %zu (%+.1f%% ± %.1f%% alone)", ia + 1, a->pct,
	    a->pct_hw, ib + 1, b->pct, b->pct_hw);
	*out = xreallocarray(*out, *n + 1, sizeof **out);
	(*out)[(*n)++] = p;
}

size_t
bench_tune_pairs(const struct bench_tune *t, size_t top, struct bench_candidate **out, size_t *n)
{
	size_t *idx, ni = 0, i, j, before = *n, tmp;

	idx = xcalloc(t->nsteps + 1, sizeof *idx);
	for (i = 0; i < t->nsteps; i++) {
		const struct bench_tune_step *s = &t->steps[i];

		/* Tried, measured, not kept, not proven worse, pointing the right way. */
		if (!s->tried || s->kept || s->pair || s->drop_of > 0 || s->runs == 0 ||
		    s->stop == BENCH_DECIDED ||
		    !(gain(t, s->pct) > 0))
			continue;
		idx[ni++] = i;
	}
	/* The highest observed gain first (insertion sort: a handful of steps). */
	for (i = 1; i < ni; i++)
		for (j = i; j > 0 && gain(t, t->steps[idx[j]].pct) > gain(t, t->steps[idx[j - 1]].pct);
		    j--) {
			tmp = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
	if (ni > top)
		ni = top;
	for (i = 0; i < ni; i++)
		for (j = i + 1; j < ni; j++)
			pair_add(t, idx[i], idx[j], out, n);
	free(idx);
	return *n - before;
}

static int
make_profile(struct bench_ctx *c, struct bench_profile *p, const char *label, char *text,
    char **cause)
{
	memset(p, 0, sizeof *p);
	snprintf(p->label, sizeof p->label, "%s", label);
	p->text = text;
	if ((p->prof = kb_profile_parse(label, text, strlen(text), cause)) == NULL)
		return -1;
	if (c->dir != NULL && bench_results_profile(c->dir, label, text, cause) == -1)
		return -1;
	return 0;
}

char *
bench_tune_best_conf(const struct bench_tune *t, const char *prefix)
{
	struct strbuf sb;
	char *text;
	size_t i;

	strbuf_init(&sb);
	strbuf_adds(&sb, "# ntune tune: the changes proven better, each at 95% confidence\n");
	if (t->dut_name != NULL)
		strbuf_addf(&sb, "# (DUT %s; apply there: ntune apply best.conf --confirm 300, then "
		    "ntune confirm; boot-time lines take effect after a reboot)\n", t->dut_name);
	else
		strbuf_addf(&sb, "# (lab '%s'; apply inside the DUT: ntune apply best.conf --netns "
		    "%s-dut --no-persist)\n", prefix, prefix);
	if (t->have_final) {
		text = bench_verdict_text(&t->final);
		strbuf_addf(&sb, "# %s\n", text);
		free(text);
	}
	for (i = 0; i < t->nsteps; i++) {
		const struct bench_tune_step *s = &t->steps[i];

		if (s->kept)
			strbuf_addf(&sb, "# step %zu: %s: %s; was %s; %+.1f%% ± %.1f%%\n", i + 1,
			    s->c.label, s->c.why, s->c.was, s->pct, s->pct_hw);
		else if (s->dropped_at > 0)
			strbuf_addf(&sb, "# step %zu: %s: kept (%+.1f%% ± %.1f%%), then %s\n", i + 1,
			    s->c.label, s->pct, s->pct_hw, s->note);
	}
	if (t->nkept == 0)
		strbuf_adds(&sb, "# no change was proven better than the settings in force\n");
	text = bench_tune_profile(t, NULL);
	strbuf_adds(&sb, text);
	free(text);
	return strbuf_detach(&sb);
}

static int
write_outputs(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_verdict_file vf;
	json_t *sum, *doc, *a;
	int rc = 0;

	free(t->best_text);
	t->best_text = bench_tune_best_conf(t, c->lab != NULL ? c->lab->prefix : "ntune");
	if (c->dir == NULL)
		return 0;
	sum = bench_tune_summary(t);
	if (bench_results_write_json(c->dir, "summary.json", sum, cause) == -1 ||
	    bench_results_write_text(c->dir, "best.conf", t->best_text, cause) == -1)
		rc = -1;
	json_decref(sum);
	a = json_array();
	if (t->have_final)
		json_array_append_new(a, bench_verdict_json(&t->final));
	bench_verdict_file_init(&vf, c, t->stopped);
	doc = bench_verdict_file_json(&vf, a);
	if (rc == 0 && bench_results_write_json(c->dir, "verdict.json", doc, cause) == -1)
		rc = -1;
	json_decref(doc);
	return rc;
}

static void
step_from_verdict(struct bench_tune_step *s, const struct bench_verdict *v, enum bench_stop stop)
{
	s->stop = stop;
	if (v->na == 0)
		return;
	s->mean_best = v->mean_a;
	s->mean_try = v->mean_b;
	s->pct = v->pct;
	s->pct_hw = isfinite(v->pct_hw) ? v->pct_hw : 0;
	s->p = v->p_welch;
	s->runs = (int)v->nb;
	free(s->verdict);
	s->verdict = bench_verdict_text(v);
}

bool
bench_tune_keep(enum bench_stop stop, const struct bench_verdict *v)
{
	int better = strcmp(v->unit, "latency") == 0 ? -1 : 1;

	return stop == BENCH_DECIDED && v->na > 0 && v->decided && v->direction == better;
}

int
bench_tune_final(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_profile pr[2];
	enum bench_stop stop;
	char *why = NULL;
	int rc = -1;

	BENCH_SAY(c, "final: the best profile against the settings at the start%s%s", c->lab != NULL &&
	    t->final_lab[0] != '\0' ? " in the fresh lab " : "", t->final_lab);
	memset(pr, 0, sizeof pr);
	if (make_profile(c, &pr[0], "start", xstrdup(""), cause) == -1 ||
	    make_profile(c, &pr[1], "best", bench_tune_profile(t, NULL), cause) == -1)
		goto out;
	c->step = (int)t->nsteps + 1;
	if (bench_ab(c, pr, 2, &t->final, &stop, &why) == -1) {
		*cause = why;
		if (bench_interrupted)
			t->stopped = "interrupted";
		goto out;
	}
	t->have_final = t->final.na > 0;
	rc = 0;
out:
	bench_profile_free(&pr[0]);
	bench_profile_free(&pr[1]);
	if (write_outputs(c, t, rc == 0 ? cause : NULL) == -1 && rc == 0)
		rc = -1;
	return rc;
}

/* Adds a bench's two samples to the pooled run-to-run spread. */
static void
spread_add(struct bench_tune *t, struct bench_tune_step *s, const struct bench_verdict *v)
{
	double ca, cb;

	if (v->na < 2 || v->nb < 2 || !(v->mean_a > 0) || !(v->mean_b > 0))
		return;
	ca = v->sd_a / v->mean_a;
	cb = v->sd_b / v->mean_b;
	s->cv = sqrt((ca * ca * (double)(v->na - 1) + cb * cb * (double)(v->nb - 1)) /
	    (double)(v->na + v->nb - 2));
	t->cv_ss += ca * ca * (double)(v->na - 1) + cb * cb * (double)(v->nb - 1);
	t->cv_df += (int)(v->na + v->nb - 2);
	t->cv = sqrt(t->cv_ss / t->cv_df);
}

/* The value a run gives for the tune's metric. */
static double
run_value(const struct bench_ctx *c, struct bench_run *r)
{
	return bench_run_value(c, r);
}

/*
 * Two runs of the settings in force before any step: the first one with the
 * DUT's diagnosis under load (DIR/diagnosis.json), which orders the candidates;
 * both give a first run-to-run spread. In the lab only (a remote DUT is not
 * diagnosed yet). -1 only when interrupted.
 */
static int
baseline(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_run r;
	double v[2];
	char *path = NULL, *why = NULL;
	int k, nv = 0;

	if (!c->runner->in_lab || c->lab == NULL) {
		t->diag_note = xstrdup("no diagnosis of a DUT outside the lab: the candidate list's order");
		return 0;
	}
	/* A diagnosis given by the caller (tune --diagnosis FILE) orders instead. */
	if (c->dir != NULL && t->diag == NULL)
		xasprintf(&path, "%s/diagnosis.json", c->dir);
	for (k = 0; k < 2; k++) {
		memset(&r, 0, sizeof r);
		c->lab->diagnose_to = k == 0 ? path : NULL;
		if (bench_lab_measure(c->lab, c->duration, &r, &why) == -1) {
			c->lab->diagnose_to = NULL;
			bench_run_free(&r);
			free(path);
			if (bench_interrupted) {
				*cause = why;
				return -1;
			}
			t->diag_note = why;
			return 0;
		}
		if (r.ok)
			v[nv++] = run_value(c, &r);
		BENCH_SAY(c, "baseline %d/2 (the settings in force%s): %.0f pps forwarded", k + 1,
		    k == 0 && path != NULL ? ", diagnosed" : "", r.pps);
		bench_run_free(&r);
	}
	c->lab->diagnose_to = NULL;
	c->diagnosed = path != NULL;
	if (t->diag != NULL)
		;
	else if (path == NULL)
		t->diag_note = xstrdup("no results directory: no diagnosis");
	else if (diag_load(path, &t->diag, &why) == -1) {
		xasprintf(&t->diag_note, "no diagnosis: %s", why);
		free(why);
	}
	free(path);
	if (nv == 2 && v[0] + v[1] > 0) {
		/* sd of two values: |a - b| / sqrt(2); one degree of freedom. */
		double cv = fabs(v[0] - v[1]) / M_SQRT2 / ((v[0] + v[1]) / 2);

		t->cv_ss += cv * cv;
		t->cv_df += 1;
		t->cv = cv;
	}
	return 0;
}

/* The loop's bookkeeping: the time of one run, measured as we go. */
struct tune_loop {
	double	t0;
	double	per_run;
	size_t	ncand;
};

/* Runs per profile for the next step: from the spread once it is known. */
static int
plan(const struct bench_ctx *c, const struct bench_tune *t)
{
	int cap = t->max_runs_cap > 0 ? t->max_runs_cap : c->seq.max_runs;

	if (t->cv_df == 0)
		return c->seq.max_runs < cap ? c->seq.max_runs : cap;
	return bench_tune_plan_runs(&c->seq, t->cv, t->min_effect > 0 ? t->min_effect : 0.10, cap);
}

bool
bench_tune_boot_change(const struct bench_ctx *c, const struct bench_tune *t,
    const struct bench_candidate *cand)
{
	const struct kb_knob *k;
	size_t i;

	if (t->reboot_s == NULL || t->gens == NULL || !t->gens->boot)
		return false;
	for (i = 0; i < cand->n; i++) {
		k = kb_find(c->kb, cand->set[i].name, t->gens->os);
		if (k != NULL && k->placement == KB_PLACE_LOADER)
			return true;
	}
	return false;
}

double
bench_tune_step_cost(const struct bench_ctx *c, const struct bench_tune *t, bool boot,
    double per_run, int runs, int *reboots)
{
	int nr = boot ? 2 * runs + (c->warmup > 0 ? 2 : 0) + 1 : 0;

	if (reboots != NULL)
		*reboots = nr;
	return per_run * 2.0 * runs + (c->warmup > 0 ? 2 * (c->warmup + 1.3) : 0) +
	    (nr > 0 ? nr * *t->reboot_s : 0);
}

/* The time a step of runs runs per profile may take, warm-ups and reboots included. */
static double
step_time(const struct bench_ctx *c, const struct bench_tune *t, const struct tune_loop *l,
    const struct bench_candidate *cand, int runs)
{
	return bench_tune_step_cost(c, t, cand != NULL && bench_tune_boot_change(c, t, cand),
	    l->per_run, runs, NULL);
}

/* The final bench's time: the best against the start, with reboots when a kept step needs them. */
static double
final_time(const struct bench_ctx *c, const struct bench_tune *t, const struct tune_loop *l, int runs)
{
	bool boot = false;
	size_t i;

	for (i = 0; i < t->nsteps; i++)
		boot = boot || (t->steps[i].kept && bench_tune_boot_change(c, t, &t->steps[i].c));
	return bench_tune_step_cost(c, t, boot, l->per_run, runs, NULL);
}

/*
 * Benches s's candidate against the best so far with at most runs runs each.
 * 0 with *v and *stop; 1 when the candidate broke something (s->note says what);
 * -1 + cause when the tune cannot go on.
 */
static int
bench_step(struct bench_ctx *c, struct bench_tune *t, struct bench_tune_step *s, int runs,
    struct tune_loop *l, struct bench_verdict *v, enum bench_stop *stop, char **cause)
{
	struct bench_profile pr[2];
	char label[2][BENCH_LABEL_MAX], *why = NULL;
	int rc = -1, runs_before = c->run, max_saved = c->seq.max_runs;
	double run_t0;

	snprintf(label[0], sizeof label[0], "s%02zu-best", t->nsteps);
	snprintf(label[1], sizeof label[1], "s%02zu-try", t->nsteps);
	memset(pr, 0, sizeof pr);
	if (make_profile(c, &pr[0], label[0], bench_tune_profile(t, NULL), cause) == -1 ||
	    make_profile(c, &pr[1], label[1], s->drop_of > 0 ? profile_text(t, s->drop_of - 1, NULL) :
	    bench_tune_profile(t, &s->c), cause) == -1)
		goto out;
	c->step = (int)t->nsteps;
	c->seq.max_runs = runs;
	run_t0 = util_now();
	if (bench_ab(c, pr, 2, v, stop, &why) == -1) {
		step_from_verdict(s, v, BENCH_CONTINUE);
		free(s->note);
		s->note = NULL;
		if (bench_interrupted) {
			s->note = xstrdup("interrupted");
			*cause = why;
			t->stopped = "interrupted";
		} else if (c->failed_profile == 1) {
			/* The candidate broke something: reject it and go on. */
			s->note = why;
			BENCH_SAY(c, "step %zu: rejected: %s", t->nsteps, s->note);
			rc = 1;
		} else
			*cause = why;
		goto out;
	}
	/* A step with reboots says nothing of a run's time: they are counted apart. */
	if (c->run > runs_before && !bench_tune_boot_change(c, t, &s->c))
		l->per_run = (util_now() - run_t0) / (c->run - runs_before);
	rc = 0;
out:
	c->seq.max_runs = max_saved;
	bench_profile_free(&pr[0]);
	bench_profile_free(&pr[1]);
	return rc;
}

/*
 * A bench that ran out of runs with the effect pointing the right way, when
 * the spread says how many runs would decide that effect and they fit: the
 * number of runs, else 0.
 */
static int
extension(const struct bench_ctx *c, const struct bench_tune *t, const struct tune_loop *l,
    const struct bench_tune_step *s, const struct bench_verdict *v, enum bench_stop stop)
{
	int cap = t->max_runs_cap > 0 ? t->max_runs_cap : c->seq.max_runs, need;

	if (s->extended || stop != BENCH_MAX_RUNS || v->na < 2 || !(gain(t, v->pct) > 0) ||
	    !(s->cv > 0))
		return 0;
	need = bench_tune_plan_runs(&c->seq, s->cv, fabs(v->pct) / 100, cap + 1);
	if (need <= s->max_runs || need > cap ||
	    util_now() - l->t0 + step_time(c, t, l, &s->c, need) + final_time(c, t, l, need) >
	    t->budget_s)
		return 0;
	return need;
}

/* One step: s's candidate against the best so far. 0 go on, -1 + cause stop. */
static int
try_step(struct bench_ctx *c, struct bench_tune *t, struct bench_tune_step *s, struct tune_loop *l,
    char **cause)
{
	struct bench_verdict v;
	enum bench_stop stop;
	char *first;
	int r, more;

	s->tried = true;
	s->max_runs = plan(c, t);
	BENCH_SAY(c, "step %zu/%zu: %s (now %s): %s", t->nsteps, l->ncand, s->c.label, s->c.was, s->c.why);
	BENCH_SAY(c, "  why now: %s; up to %d runs each (spread %.1f%%)", s->c.order, s->max_runs,
	    t->cv * 100);
	if ((r = bench_step(c, t, s, s->max_runs, l, &v, &stop, cause)) != 0)
		return r == 1 ? 0 : -1;
	step_from_verdict(s, &v, stop);
	spread_add(t, s, &v);
	if ((more = extension(c, t, l, s, &v, stop)) > 0) {
		first = s->verdict != NULL ? s->verdict : xstrdup("no verdict");
		s->verdict = NULL;
		BENCH_SAY(c, "step %zu: undecided after %d runs (%s); the spread (%.1f%%) says %d runs "
		    "decide it: benched again", t->nsteps, s->runs, first, s->cv * 100, more);
		xasprintf(&s->note, "extended: the first bench (%d runs) was undecided: %s", s->runs,
		    first);
		free(first);
		s->extended = true;
		s->max_runs = more;
		if ((r = bench_step(c, t, s, more, l, &v, &stop, cause)) != 0)
			return r == 1 ? 0 : -1;
		step_from_verdict(s, &v, stop);
		spread_add(t, s, &v);
	}
	s->kept = bench_tune_keep(stop, &v);
	if (v.na == 0)
		s->verdict = xstrdup("no verdict (too few runs)");
	BENCH_SAY(c, "step %zu: %s: %s", t->nsteps, s->kept ? "KEPT" : "rejected", s->verdict);
	if (s->kept)
		t->nkept++;
	return write_outputs(c, t, cause);
}

/* A boot-time step whose reboots do not fit in the budget left: recorded as skipped. */
static void
skip_step(struct bench_ctx *c, struct bench_tune *t, const struct tune_loop *l,
    const struct bench_candidate *cand, bool pairs, double need)
{
	struct bench_tune_step *s;

	t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
	s = &t->steps[t->nsteps++];
	memset(s, 0, sizeof *s);
	s->c = *cand;
	s->pair = pairs;
	xasprintf(&s->note, "skipped: it takes effect at boot and its reboots (%.0f s each) make "
	    "it take up to %.0f s, more than the budget left (%.0f s)", *t->reboot_s, need,
	    t->budget_s - (util_now() - l->t0));
	BENCH_SAY(c, "step %zu/%zu: %s: %s", t->nsteps, l->ncand, s->c.label, s->note);
}

/* Takes kept step j out of the best profile, saying why in its note. */
static void
drop(struct bench_tune *t, size_t j, size_t at, const char *why)
{
	struct bench_tune_step *d = &t->steps[j];
	char *note;

	d->kept = false;
	d->dropped_at = at;
	t->nkept--;
	xasprintf(&note, "%s%sdropped at step %zu: %s", d->note != NULL ? d->note : "",
	    d->note != NULL ? "; " : "", at, why);
	free(d->note);
	d->note = note;
}

/*
 * Drop checks once step k is kept: each earlier kept step is benched out of
 * the best profile (the best without its changes against the best) and taken
 * out unless the profile without it is decided worse, so best.conf holds only
 * changes proven needed together, whatever order found them. A step whose
 * changes later ones override entirely goes without a bench. 0 go on, 1 out of
 * budget, -1 + cause stop.
 */
static int
prune(struct bench_ctx *c, struct bench_tune *t, size_t k, struct tune_loop *l, char **cause)
{
	struct bench_tune_step *s;
	struct bench_verdict v;
	enum bench_stop stop;
	char *with, *without, why[160];
	size_t j;
	bool same, needed;
	int r;

	for (j = 0; j < k && t->nkept >= 2; j++) {
		if (!t->steps[j].kept)
			continue;
		with = bench_tune_profile(t, NULL);
		without = profile_text(t, j, NULL);
		same = strcmp(with, without) == 0;
		free(with);
		free(without);
		if (same) {
			snprintf(why, sizeof why, "step %zu sets every knob it changed", k + 1);
			drop(t, j, k + 1, why);
			BENCH_SAY(c, "step %zu: dropped: %s", j + 1, why);
			continue;
		}
		if (util_now() - l->t0 + step_time(c, t, l, &t->steps[j].c, plan(c, t)) +
		    final_time(c, t, l, plan(c, t)) > t->budget_s) {
			BENCH_SAY(c, "budget: no time left to check whether step %zu is still needed "
			    "with step %zu", j + 1, k + 1);
			return 1;
		}
		t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
		s = &t->steps[t->nsteps++];
		memset(s, 0, sizeof *s);
		s->c = t->steps[j].c;
		snprintf(s->c.label, sizeof s->c.label, "without step %zu (%.*s)", j + 1,
		    (int)sizeof s->c.label - 48, t->steps[j].c.label);
		snprintf(s->c.why, sizeof s->c.why, "take step %zu's changes out of the best profile "
		    "unless it needs them", j + 1);
		snprintf(s->c.order, sizeof s->c.order, "a drop check: step %zu was kept before step "
		    "%zu; is it still needed with it?", j + 1, k + 1);
		s->drop_of = j + 1;
		s->tried = true;
		s->max_runs = plan(c, t);
		BENCH_SAY(c, "step %zu (drop check): is step %zu (%s) still needed now that step %zu is "
		    "kept? the best profile without it, up to %d runs each", t->nsteps, j + 1,
		    t->steps[j].c.label, k + 1, s->max_runs);
		if ((r = bench_step(c, t, s, s->max_runs, l, &v, &stop, cause)) == -1)
			return -1;
		if (r == 1)
			continue;
		step_from_verdict(s, &v, stop);
		spread_add(t, s, &v);
		needed = stop == BENCH_DECIDED && v.na > 0 && v.decided &&
		    v.direction == (strcmp(v.unit, "latency") == 0 ? 1 : -1);
		if (!needed) {
			s->removed = true;
			snprintf(why, sizeof why, "the best profile without it was not decided worse "
			    "(%+.1f%% ± %.1f%%)", s->pct, s->pct_hw);
			drop(t, j, t->nsteps, why);
		}
		BENCH_SAY(c, "step %zu: step %zu %s: %s", t->nsteps, j + 1, needed ? "is still needed" :
		    "dropped", s->verdict != NULL ? s->verdict : "no verdict");
		if (write_outputs(c, t, cause) == -1)
			return -1;
	}
	return 0;
}

/*
 * Steps through cand[0..n-1] while the budget lasts. 0: all done, 1: out of
 * budget, -1 + cause: stop.
 */
static int
steps(struct bench_ctx *c, struct bench_tune *t, struct bench_candidate *cand, size_t n,
    bool pairs, struct tune_loop *l, char **cause)
{
	struct bench_tune_step *s;
	double step_max, final_max;
	size_t i, k;
	int r;

	for (i = 0; i < n; i++) {
		step_max = step_time(c, t, l, &cand[i], plan(c, t));
		/* The final bench is only needed once something is kept. */
		final_max = t->nkept > 0 ? final_time(c, t, l, plan(c, t)) : 0;
		if (util_now() - l->t0 + step_max + final_max > t->budget_s &&
		    bench_tune_boot_change(c, t, &cand[i]) &&
		    util_now() - l->t0 + step_time(c, t, l, NULL, plan(c, t)) + final_max <= t->budget_s) {
			/* Its reboots do not fit; a step without any may. */
			skip_step(c, t, l, &cand[i], pairs, step_max);
			continue;
		}
		if (util_now() - l->t0 + step_max + final_max > t->budget_s) {
			BENCH_SAY(c, "budget: %.0f s left, a step may take %.0f s (+%.0f s for the final bench); "
			    "stopping after %zu of %zu %s", t->budget_s - (util_now() - l->t0),
			    step_max, final_max, i, n, pairs ? "pairs" : "candidates");
			return 1;
		}
		t->steps = xreallocarray(t->steps, t->nsteps + 1, sizeof *t->steps);
		s = &t->steps[t->nsteps++];
		memset(s, 0, sizeof *s);
		s->c = cand[i];
		s->pair = pairs;
		if (in_best(t, &s->c)) {
			s->note = xstrdup("already in the best profile");
			BENCH_SAY(c, "step %zu/%zu: %s: already in the best profile", t->nsteps, l->ncand,
			    s->c.label);
			continue;
		}
		if (try_step(c, t, s, l, cause) == -1)
			return -1;
		k = t->nsteps - 1;
		if (t->steps[k].kept && t->nkept >= 2 && (r = prune(c, t, k, l, cause)) != 0)
			return r;
	}
	return 0;
}

int
bench_tune_run(struct bench_ctx *c, struct bench_tune *t, char **cause)
{
	struct bench_candidate *cand = NULL, *pairs = NULL;
	struct tune_loop l = { util_now(), 0, 0 };
	size_t ncand = 0, npairs = 0, i;
	int rc = -1, r;

	t->stopped = "error";
	if (t->get != NULL && t->gens != NULL)
		bench_tune_candidates_from(c->kb, t->gens, t->get, t->get_arg, t->ncpu, t->host_knobs,
		    &cand, &ncand, &t->notes, &t->nnotes);
	else if (bench_tune_candidates(c->kb, t->cand_path, c->lab->dut_ns, t->ncpu, t->host_knobs,
	    &cand, &ncand, &t->notes, &t->nnotes, cause) == -1)
		return -1;
	BENCH_SAY(c, "%zu candidate changes for %s (%zu left out)", ncand, t->dut_name != NULL ?
	    t->dut_name : c->lab->dut_ns, t->nnotes);
	for (i = 0; i < t->nnotes; i++)
		BENCH_SAY(c, "  note: %s", t->notes[i]);
	if (baseline(c, t, cause) == -1) {
		t->stopped = "interrupted";
		goto out;
	}
	bench_tune_order(cand, ncand, t->diag);
	if (t->diag != NULL && t->diag->nfindings == 0)
		BENCH_SAY(c, "order: no finding in %s: the candidate list's order", t->diag_from != NULL ?
		    t->diag_from : "the baseline's diagnosis (diagnosis.json)");
	else if (t->diag != NULL)
		BENCH_SAY(c, "order: the knobs named by the %zu finding%s of %s first", t->diag->nfindings,
		    t->diag->nfindings == 1 ? "" : "s", t->diag_from != NULL ? t->diag_from :
		    "the baseline's diagnosis (diagnosis.json)");
	else
		BENCH_SAY(c, "order: %s", t->diag_note);
	for (i = 0; t->diag != NULL && i < t->diag->nfindings; i++)
		BENCH_SAY(c, "  finding: %s", t->diag->findings[i].summary);
	/* Time of one run, to keep within the budget: measured as we go, guessed first. */
	l.per_run = c->duration + c->lab->settle + 0.8;
	l.ncand = ncand;
	r = steps(c, t, cand, ncand, false, &l, cause);
	if (r == 0 && t->pairs > 0 && bench_tune_pairs(t, (size_t)t->pairs, &pairs, &npairs) > 0) {
		BENCH_SAY(c, "%zu pairs of the best singles not kept", npairs);
		l.ncand = ncand + npairs;
		r = steps(c, t, pairs, npairs, true, &l, cause);
	}
	if (r == -1)
		goto out;
	t->stopped = r == 1 ? "budget" : "done";
	if (t->nkept > 0 && !t->final_apart && bench_tune_final(c, t, cause) == -1)
		goto out;
	rc = 0;
out:
	free(cand);
	free(pairs);
	if (write_outputs(c, t, rc == 0 ? cause : NULL) == -1 && rc == 0)
		rc = -1;
	return rc;
}

/* The baseline's findings as summary.json shows them, or a note why there are none. */
static json_t *
diag_json(const struct bench_tune *t)
{
	json_t *a, *k;
	size_t i, j;

	if (t->diag == NULL)
		return json_pack("{s:s, s:o}", "note", t->diag_note != NULL ? t->diag_note : "not run",
		    "findings", json_array());
	a = json_array();
	for (i = 0; i < t->diag->nfindings; i++) {
		const struct diag_finding *f = &t->diag->findings[i];

		k = json_array();
		for (j = 0; j < f->nknobs; j++)
			json_array_append_new(k, json_string(f->knobs[j].name));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o}", "kind", f->kind,
		    "entity", f->entity, "certainty", diag_certainty_name(f->certainty), "summary",
		    f->summary, "knobs", k));
	}
	return json_pack("{s:s, s:o}", "file", t->diag_from != NULL ? t->diag_from :
	    "diagnosis.json", "findings", a);
}

/* Step i as summary.json has it; its strings point into t (changes malloc'd). */
static void
summary_step(const struct bench_tune *t, size_t i, struct bench_summary_step *o)
{
	const struct bench_tune_step *st = &t->steps[i];
	size_t j;

	*o = (struct bench_summary_step){ .change = (char *)st->c.label, .was = (char *)st->c.was,
	    .tried = st->tried, .why = (char *)st->c.why, .order = (char *)st->c.order,
	    .pair = st->pair, .drop_of = st->drop_of > 0 ? (int)st->drop_of : -1,
	    .removed = st->removed, .dropped_at = st->dropped_at > 0 ? (int)st->dropped_at : -1,
	    .extended = st->extended, .max_runs = st->max_runs, .spread = st->cv > 0 ? st->cv : 0,
	    .verdict = st->verdict != NULL ? st->verdict : (char *)"", .kept = st->kept,
	    .stopped = (char *)bench_stop_name(st->stop), .runs = st->runs,
	    .mean_best = st->mean_best, .mean_try = st->mean_try, .pct = st->pct,
	    .pct_hw = st->pct_hw, .p = st->p, .note = st->note };
	if (t->diag != NULL && st->c.finding >= 0 && (size_t)st->c.finding < t->diag->nfindings)
		o->finding = (char *)t->diag->findings[st->c.finding].kind;
	o->changes = xcalloc(st->c.n + 1, sizeof *o->changes);
	for (j = 0; j < st->c.n; j++)
		o->changes[o->nchanges++] = (struct bench_summary_change){ (char *)st->c.set[j].name,
		    (char *)st->c.set[j].value, (char *)st->c.set[j].current };
}

json_t *
bench_tune_summary(const struct bench_tune *t)
{
	struct bench_summary sum = { .baseline = (char *)"the settings in force when the tune started",
	    .best = t->best_text != NULL ? t->best_text : (char *)"", .baseline_pps = NAN,
	    .best_pps = NAN, .gain_pct = t->have_final ? t->final.pct : 0,
	    .gain_pct_hw = t->have_final ? t->final.pct_hw : NAN,
	    .gain_ratio = t->have_final ? t->final.ratio : 1,
	    .gain_proven = t->have_final && bench_tune_keep(BENCH_DECIDED, &t->final),
	    .kept = (int)t->nkept, .stopped = (char *)(t->stopped != NULL ? t->stopped : "error"),
	    .order = (char *)(t->diag != NULL ? "diagnosis" : "list"), .diagnosis = diag_json(t),
	    .spread = t->cv > 0 ? t->cv : NAN,
	    .min_effect_pct = (t->min_effect > 0 ? t->min_effect : 0.10) * 100,
	    .left_out = t->notes, .nleft_out = t->nnotes };
	json_t *o;
	size_t i;

	snprintf(sum.metric, sizeof sum.metric, "%s", t->latency ? "latency_p99_us" : t->bits ?
	    "bps" : "pps");
	if (t->have_final) {
		sum.baseline_pps = t->final.mean_a;
		sum.best_pps = t->final.mean_b;
		if (t->final_lab[0] != '\0')
			sum.final_lab = (char *)t->final_lab;
		sum.verdict = bench_verdict_text(&t->final);
	} else if (t->nsteps > 0 && t->steps[0].runs > 0)
		sum.baseline_pps = sum.best_pps = t->steps[0].mean_best;
	sum.steps = xcalloc(t->nsteps + 1, sizeof *sum.steps);
	for (i = 0; i < t->nsteps; i++)
		summary_step(t, i, &sum.steps[i]);
	sum.nsteps = t->nsteps;
	o = bench_summary_json(&sum);
	for (i = 0; i < t->nsteps; i++)
		free(sum.steps[i].changes);
	free(sum.steps);
	free(sum.verdict);
	return o;
}

void
bench_tune_free(struct bench_tune *t)
{
	size_t i;

	for (i = 0; i < t->nsteps; i++) {
		free(t->steps[i].verdict);
		free(t->steps[i].note);
	}
	free(t->steps);
	util_strv_free(t->notes, t->nnotes);
	free(t->best_text);
	diag_result_free(t->diag);
	free(t->diag_note);
	t->diag = NULL;
	t->diag_note = NULL;
	t->steps = NULL;
	t->notes = NULL;
	t->best_text = NULL;
	t->nsteps = t->nnotes = 0;
}
