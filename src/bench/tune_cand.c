/*
 * The tuner's candidates: its generators expanded against the knowledge base
 * and the DUT's values, ordered by a diagnosis.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/apply.h"
#include "bench/cand.h"
#include "bench/tune_impl.h"
#include "diag/diag.h"
#include "kb/kb.h"
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

int
bench_tune_cand_fill(struct bench_candidate *cand, const struct bench_change *set, size_t nset)
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
	if (bench_tune_cand_fill(&cand, set, nset) == -1)
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
