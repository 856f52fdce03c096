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
	int	 width, height, rows_cap;
	char	*data;
	char	**bar;
	int	 separate, nsets;
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

/*
 * ministat walks the sorted values and stacks equal positions; a count per
 * position gives the same picture without sorting.
 */
static void
plot_set(struct plot *pl, const struct stat_set *ds, int val)
{
	const struct stat_summary *s = &ds->sum;
	int i, j, m, x, bar, w = pl->width > 0 ? pl->width : 1;
	size_t n, *cnt;

	bar = pl->separate ? val - 1 : 0;
	if (pl->bar[bar] == NULL)
		pl->bar[bar] = xcalloc(1, (size_t)w);
	cnt = xcalloc((size_t)w, sizeof *cnt);
	for (n = 0; n < ds->n; n++)
		cnt[pos(pl, ds->v[n])]++;
	m = 1;
	for (x = 0; x < w; x++)
		if (cnt[x] > (size_t)m)
			m = (int)cnt[x];
	m += 1;
	if (m > pl->height) {
		if (m > pl->rows_cap) {
			pl->data = xreallocarray(pl->data, (size_t)m, (size_t)w);
			pl->rows_cap = m;
		}
		memset(pl->data + (size_t)pl->height * w, 0, (size_t)(m - pl->height) * w);
	}
	pl->height = m;
	for (x = 0; x < w; x++)
		for (j = 1; j <= (int)cnt[x]; j++)
			pl->data[(size_t)j * pl->width + x] |= val;
	free(cnt);
	if (!isnan(s->stddev)) {
		x = pos(pl, s->mean - s->stddev);
		m = pos(pl, s->mean + s->stddev);
		pl->bar[bar][m] = '|';
		pl->bar[bar][x] = '|';
		for (i = x + 1; i < m; i++)
			if (pl->bar[bar][i] == 0)
				pl->bar[bar][i] = '_';
	}
	pl->bar[bar][pos(pl, s->median)] = 'M';
	pl->bar[bar][pos(pl, s->mean)] = 'A';
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
	const struct stat_summary *s;
	size_t i;
	int j, k, any = 0;

	memset(&pl, 0, sizeof pl);
	pl.width = r->width;
	pl.separate = r->separate;
	pl.nsets = (int)nsets;
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
	if (pl.span == 0) {
		fprintf(f, "[no plot, span is zero width]\n");
		return 0;
	}
	if (!isfinite(pl.dx) || !isfinite(pl.x0)) {
		if (pl.width == 1)
			util_cause(cause, "a plot 1 column wide cannot be drawn (use -w 2 or more, or -A)");
		else
			util_cause(cause, "the plot range overflows (use -A)");
		return -1;
	}
	pl.bar = xcalloc(nsets, sizeof *pl.bar);
	for (i = 0; i < nsets; i++)
		if (!sets[i]->given)
			plot_set(&pl, sets[i], (int)i + 1);
	rule(f, pl.width);
	for (j = 1; j < pl.height; j++) {
		putc('|', f);
		for (k = 0; k < pl.width; k++)
			putc(symbols[(unsigned char)pl.data[(size_t)(pl.height - j) * pl.width + k] & 7], f);
		putc('|', f);
		putc('\n', f);
	}
	for (i = 0; i < nsets; i++) {
		if (pl.bar[i] == NULL)
			continue;
		putc('|', f);
		for (k = 0; k < pl.width; k++)
			putc(pl.bar[i][k] == 0 ? ' ' : pl.bar[i][k], f);
		putc('|', f);
		putc('\n', f);
	}
	rule(f, pl.width);
	for (i = 0; i < nsets; i++)
		free(pl.bar[i]);
	free(pl.bar);
	free(pl.data);
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
		fprintf(f, "\t%g (difference of medians)\n", c->diff);
		fprintf(f, "\t%g%%\n", c->pct);
		if (c->exact)
			fprintf(f, "\t(Mann-Whitney U = %g, exact)\n", c->statistic);
		else
			fprintf(f, "\t(Mann-Whitney U = %g, z = %g)\n", c->statistic, c->z);
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
