/* ministat's text output: the plot, the vitals table and the comparisons. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"
#include "util/util.h"

static const char symbols[] = " x+*%#@O";

char
stat_symbol(size_t i)
{
	return i + 1 < sizeof symbols - 1 ? symbols[i + 1] : '?';
}

struct plot {
	double	 min, max, span, x0, dx;
	int	 width;
	int	 separate;
};

static void
adj(struct plot *pl, double a)
{
	if (a < pl->min)
		pl->min = a;
	if (a > pl->max)
		pl->max = a;
}

/* ministat converts plot positions with a C cast; clamp what would be out of bounds there. */
static int
pos(const struct plot *pl, double a)
{
	double x = (a - pl->x0) / pl->dx;
	int w = pl->width > 0 ? pl->width : 1;

	if (!(x >= 0))
		return 0;
	if (x >= w)
		return w - 1;
	return (int)x;
}

/* One plotted set: how many values fall in each column, and ministat's plot heights. */
struct column_counts {
	size_t	*cnt;
	size_t	 before, height;	/* the plot's height before and after this set */
	int	 val;
};

/*
 * ministat walks the sorted values and stacks equal positions in a char
 * matrix whose height each set resets: max stack + 1, zeroing only the rows
 * it adds. A count per column gives the same picture without sorting, and a
 * row is computed when it is printed, so the plot needs no memory per value.
 */
static void
count_set(const struct plot *pl, const struct stat_set *ds, struct column_counts *cc,
    size_t before)
{
	size_t n, x, w = pl->width > 0 ? (size_t)pl->width : 1, m = 1;

	cc->cnt = xcalloc(w, sizeof *cc->cnt);
	for (n = 0; n < ds->n; n++)
		cc->cnt[pos(pl, ds->v[n])]++;
	for (x = 0; x < w; x++)
		if (cc->cnt[x] > m)
			m = cc->cnt[x];
	cc->before = before;
	cc->height = m + 1;
}

static void
draw_bar(const struct plot *pl, const struct stat_summary *s, char *bar)
{
	int i, x, m;

	if (!isnan(s->stddev)) {
		x = pos(pl, s->mean - s->stddev);
		m = pos(pl, s->mean + s->stddev);
		bar[m] = '|';
		bar[x] = '|';
		for (i = x + 1; i < m; i++)
			if (bar[i] == 0)
				bar[i] = '_';
	}
	bar[pos(pl, s->median)] = 'M';
	bar[pos(pl, s->mean)] = 'A';
}

static void
rule(FILE *f, int width)
{
	int i;

	putc('+', f);
	for (i = 0; i < width; i++)
		putc('-', f);
	putc('+', f);
	putc('\n', f);
}

int
stat_render_plot(FILE *f, struct stat_set *const *sets, size_t nsets,
    const struct stat_render *r, char **cause)
{
	struct plot pl;
	struct column_counts cc[8];
	const struct stat_summary *s;
	char *line, **bar;
	size_t i, j, k, np = 0, first, w;
	int x, c, any = 0;

	memset(&pl, 0, sizeof pl);
	pl.width = r->width;
	pl.separate = r->separate;
	pl.min = 999e99;
	pl.max = -999e99;
	for (i = 0; i < nsets; i++) {
		if (sets[i]->given)
			continue;	/* a summary has no values to plot */
		s = &sets[i]->sum;
		adj(&pl, s->min);
		adj(&pl, s->max);
		adj(&pl, s->mean - s->stddev);
		adj(&pl, s->mean + s->stddev);
		any = 1;
	}
	if (!any)
		return 0;
	pl.span = pl.max - pl.min;
	pl.dx = pl.span / (pl.width - 1.0);
	pl.x0 = pl.min - .5 * pl.dx;
	if (pl.span != 0 && (!isfinite(pl.dx) || !isfinite(pl.x0))) {
		if (pl.width == 1)
			util_cause(cause, "a plot 1 column wide cannot be drawn (use -w 2 or more, or -A)");
		else
			util_cause(cause, "the plot range overflows (use -A)");
		return -1;
	}
	if (f == NULL)
		return 0;	/* only asked whether it can be drawn */
	if (pl.span == 0) {
		fprintf(f, "[no plot, span is zero width]\n");
		return 0;
	}
	w = pl.width > 0 ? (size_t)pl.width : 1;
	bar = xcalloc(nsets, sizeof *bar);
	for (i = 0; i < nsets && np < nitems(cc); i++) {
		if (sets[i]->given)
			continue;
		count_set(&pl, sets[i], &cc[np], np > 0 ? cc[np - 1].height : 0);
		cc[np].val = (int)i + 1;
		k = pl.separate ? i : 0;
		if (bar[k] == NULL)
			bar[k] = xcalloc(1, w);
		draw_bar(&pl, &sets[i]->sum, bar[k]);
		np++;
	}
	line = xmalloc(w + 3);
	rule(f, pl.width);
	for (j = cc[np - 1].height - 1; j >= 1; j--) {
		/* Only sets from the last one that (re)zeroed row j on keep their marks in it. */
		for (first = np; first-- > 0;)
			if (cc[first].before <= j && j < cc[first].height)
				break;
		if (first == (size_t)-1)
			first = 0;
		line[0] = '|';
		for (x = 0; x < pl.width; x++) {
			for (c = 0, k = first; k < np; k++)
				if (cc[k].cnt[x] >= j)
					c |= cc[k].val;
			line[x + 1] = symbols[c & 7];
		}
		line[pl.width + 1] = '|';
		line[pl.width + 2] = '\n';
		fwrite(line, 1, (size_t)pl.width + 3, f);
	}
	for (i = 0; i < nsets; i++) {
		if (bar[i] == NULL)
			continue;
		putc('|', f);
		for (x = 0; x < pl.width; x++)
			putc(bar[i][x] == 0 ? ' ' : bar[i][x], f);
		putc('|', f);
		putc('\n', f);
	}
	rule(f, pl.width);
	for (i = 0; i < nsets; i++)
		free(bar[i]);
	for (k = 0; k < np; k++)
		free(cc[k].cnt);
	free(bar);
	free(line);
	return 0;
}

void
stat_render_vitals_head(FILE *f)
{
	fprintf(f, "    N           Min           Max        Median           Avg        Stddev\n");
}

void
stat_render_vitals(FILE *f, size_t idx, const struct stat_set *ds)
{
	const struct stat_summary *s = &ds->sum;

	if (!s->has_order)
		fprintf(f, "%c %3d %13s %13s %13s %13.8g %13.8g\n", stat_symbol(idx),
		    (int)s->n, "-", "-", "-", s->mean, s->stddev);
	else
		fprintf(f, "%c %3d %13.8g %13.8g %13.8g %13.8g %13.8g\n", stat_symbol(idx),
		    (int)s->n, s->min, s->max, s->median, s->mean, s->stddev);
}

static void
print_conf(FILE *f, const char *what, double conf)
{
	/* ministat prints one decimal; keep more when the level has them. */
	char buf[64];

	snprintf(buf, sizeof buf, "%.1f", conf);
	if (strtod(buf, NULL) != conf)
		snprintf(buf, sizeof buf, "%g", conf);
	fprintf(f, "%s at %s%% confidence\n", what, buf);
}

int
stat_render_compare(FILE *f, const struct stat_set *a, const struct stat_set *b,
    const struct stat_render *r, struct stat_cmp *c)
{
	const char *test = r->test != NULL ? r->test : "student";
	int rc;

	if (strcmp(test, "welch") == 0)
		rc = stat_compare_welch(&a->sum, &b->sum, r->conf, c);
	else if (strcmp(test, "mann-whitney") == 0)
		rc = stat_compare_mannwhitney(a->v, a->n, b->v, b->n, r->conf, c);
	else
		rc = stat_compare_student(&a->sum, &b->sum, r->conf, c);
	if (rc == -1 || f == NULL)
		return rc;
	if (!c->significant) {
		print_conf(f, "No difference proven", r->conf);
	} else if (strcmp(c->test, "mann-whitney") == 0) {
		print_conf(f, "Difference", r->conf);
		if (isnan(c->ci_lo)) {
			fprintf(f, "\t%g\n", c->diff);
			fprintf(f, "\t%g%%\n", c->pct);
		} else {
			fprintf(f, "\t%g in [%g, %g]\n", c->diff, c->ci_lo, c->ci_hi);
			fprintf(f, "\t%g%% in [%g%%, %g%%]\n", c->pct, c->ci_lo * 100 / c->ref,
			    c->ci_hi * 100 / c->ref);
		}
		if (c->exact)
			fprintf(f, "\t(Mann-Whitney U = %g, exact; Hodges-Lehmann shift)\n", c->statistic);
		else
			fprintf(f, "\t(Mann-Whitney U = %g, z = %g; Hodges-Lehmann shift)\n",
			    c->statistic, c->z);
	} else {
		print_conf(f, "Difference", r->conf);
		fprintf(f, "\t%g +/- %g\n", c->diff, c->diff_hw);
		fprintf(f, "\t%g%% +/- %g%%\n", c->pct, c->pct_hw);
		if (strcmp(c->test, "welch") == 0)
			fprintf(f, "\t(Welch's t, df = %g, s = %g)\n", c->df, c->s);
		else
			fprintf(f, "\t(Student's t, pooled s = %g)\n", c->s);
	}
	if (r->pvalues)
		fprintf(f, "\tp = %g\n", c->p);
	return 0;
}
