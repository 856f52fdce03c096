/* The tuner's profiles: the kept steps as a profile, pairs of singles, best.conf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tune_impl.h"
#include "util/util.h"

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

char *
bench_tune_profile_text(const struct bench_tune *t, size_t skip,
    const struct bench_candidate *extra)
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
	return bench_tune_profile_text(t, SIZE_MAX, extra);
}

bool
bench_tune_in_best(const struct bench_tune *t, const struct bench_candidate *c)
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
	    nset == a->c.n || nset == b->c.n || bench_tune_cand_fill(&p, set, nset) == -1 ||
	    bench_tune_in_best(t, &p))
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
		    !(bench_tune_gain(t, s->pct) > 0))
			continue;
		idx[ni++] = i;
	}
	/* The highest observed gain first (insertion sort: a handful of steps). */
	for (i = 1; i < ni; i++)
		for (j = i; j > 0 && bench_tune_gain(t, t->steps[idx[j]].pct) >
		    bench_tune_gain(t, t->steps[idx[j - 1]].pct); j--) {
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

char *
bench_tune_best_conf(const struct bench_tune *t, const char *prefix)
{
	struct strbuf sb;
	char *text;
	size_t i;

	strbuf_init(&sb);
	strbuf_adds(&sb, "# ntune tune: the changes proven better, each at 95% confidence\n");
	if (t->dut_name != NULL)
		strbuf_addf(&sb, "# (DUT %s; apply it agentless: ntune apply best.conf --dut %s --confirm 300, "
		    "then ntune confirm --dut %s; boot-time lines take effect after a reboot)\n", t->dut_name,
		    t->dut_name, t->dut_name);
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
