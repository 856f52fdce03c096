/* Two-sample tests: pooled Student t (as ministat), Welch t, Mann-Whitney U. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stat/stat.h"
#include "util/util.h"

static void
cmp_init(struct stat_cmp *c, const char *test, double conf)
{
	memset(c, 0, sizeof *c);
	c->test = test;
	c->conf = conf;
	c->diff = c->diff_hw = c->pct = c->pct_hw = NAN;
	c->df = c->statistic = c->z = c->p = c->crit = c->s = NAN;
	c->ci_lo = c->ci_hi = c->ref = NAN;
}

static int
conf_ok(double conf)
{
	return conf > 0 && conf < 100;
}

/* Two-sided p of a t statistic. */
static double
t_pvalue(double t, double df)
{
	if (isnan(t))
		return NAN;
	return 2 * stat_t_cdf(-fabs(t), df);
}

/* ministat's Relative(): b is ds, a is rs; the same operations in the same order. */
int
stat_compare_student(const struct stat_summary *a, const struct stat_summary *b,
    double conf, struct stat_cmp *c)
{
	double spool, s, d, e, t;
	long i;

	cmp_init(c, "student", conf);
	if (!conf_ok(conf) || a->n < 2 || b->n < 2)
		return -1;
	i = (long)b->n + (long)a->n - 2;
	t = stat_t_critical(conf, (double)i, 1);
	spool = (b->n - 1) * b->var + (a->n - 1) * a->var;
	spool /= b->n + a->n - 2;
	spool = sqrt(spool);
	s = spool * sqrt(1.0 / b->n + 1.0 / a->n);
	d = b->mean - a->mean;
	e = t * s;
	c->diff = d;
	c->diff_hw = e;
	c->ref = a->mean;
	c->pct = d * 100 / a->mean;
	c->pct_hw = e * 100 / a->mean;
	c->df = i;
	c->crit = t;
	c->s = spool;
	c->statistic = d / s;
	c->p = t_pvalue(c->statistic, c->df);
	if (s == 0 && d != 0)
		c->p = 0;
	c->significant = fabs(d) > e;
	return 0;
}

int
stat_compare_welch(const struct stat_summary *a, const struct stat_summary *b,
    double conf, struct stat_cmp *c)
{
	double va, vb, se, d, df, t;

	cmp_init(c, "welch", conf);
	if (!conf_ok(conf) || a->n < 2 || b->n < 2)
		return -1;
	va = a->var / a->n;
	vb = b->var / b->n;
	se = sqrt(va + vb);
	df = (va + vb) * (va + vb) / (va * va / (a->n - 1.0) + vb * vb / (b->n - 1.0));
	if (!isfinite(df))	/* both variances zero */
		df = a->n + b->n - 2.0;
	t = stat_t_critical(conf, df, 0);
	d = b->mean - a->mean;
	c->diff = d;
	c->diff_hw = t * se;
	c->ref = a->mean;
	c->pct = d * 100 / a->mean;
	c->pct_hw = c->diff_hw * 100 / a->mean;
	c->df = df;
	c->crit = t;
	c->s = se;
	c->statistic = d / se;
	c->p = t_pvalue(c->statistic, df);
	if (se == 0 && d != 0)
		c->p = 0;
	c->significant = fabs(d) > c->diff_hw;
	return 0;
}

/*
 * The null distribution of U for sizes m, n without ties, as probabilities:
 * arrangements by f(i,j,u) = f(i-1,j,u-j) + f(i,j-1,u), additions only.
 */
static double *
mw_dist(size_t m, size_t n)
{
	size_t umax = m * n, i, j, k;
	double *f, *row, *p, total = 0;

	/* f[j][k]: arrangements of i x-values and j y-values with U = k, for the current i. */
	f = xcalloc((n + 1) * (umax + 1), sizeof *f);
	for (j = 0; j <= n; j++)
		f[j * (umax + 1)] = 1;		/* i = 0: U = 0 */
	for (i = 1; i <= m; i++) {
		/* j = 0 stays 1 at U = 0; go up in j, shifting the i-1 layer by j in place. */
		for (j = 1; j <= n; j++) {
			row = f + j * (umax + 1);
			for (k = umax + 1; k-- > 0;) {
				double prev = k >= j ? row[k - j] : 0;

				row[k] = prev + f[(j - 1) * (umax + 1) + k];
			}
		}
	}
	p = xcalloc(umax + 1, sizeof *p);
	row = f + n * (umax + 1);
	for (k = 0; k <= umax; k++)
		total += row[k];
	for (k = 0; k <= umax; k++)
		p[k] = row[k] / total;
	free(f);
	return p;
}

/* How many of the differences b[j] - a[i] are <= t (both sorted). */
static uint64_t
count_diffs(const double *a, size_t na, const double *b, size_t nb, double t)
{
	uint64_t cnt = 0;
	size_t i = 0, j;

	for (j = 0; j < nb; j++) {
		while (i < na && !(b[j] - a[i] <= t))
			i++;
		cnt += na - i;
	}
	return cnt;
}

/*
 * The k-th smallest (1-based) of the na * nb differences b[j] - a[i], found by
 * bisecting the ordered bit patterns of doubles: no memory per pair.
 */
static double
kth_diff(const double *a, size_t na, const double *b, size_t nb, uint64_t k)
{
	uint64_t lo = stat_dkey(b[0] - a[na - 1]), hi = stat_dkey(b[nb - 1] - a[0]), mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (count_diffs(a, na, b, nb, stat_dunkey(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return stat_dunkey(lo) + 0.0;	/* -0 and 0 count alike; say 0 */
}

static double
median_of(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Mann-Whitney U of b against a, with the Hodges-Lehmann shift (the median
 * of all differences b - a) and its distribution-free interval: the C-th
 * smallest and largest differences, C from the distribution of U.
 */
int
stat_compare_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stat_cmp *c)
{
	size_t i = 0, j = 0, ta, tb, k;
	double rank = 1, rb = 0, ties = 0, t, u, mu, var, N, cc, lower, upper, alpha, *dist;
	double ma, cum;
	uint64_t nm, cut = 0;

	cmp_init(c, "mann-whitney", conf);
	if (!conf_ok(conf) || na < 1 || nb < 1)
		return -1;
	/* Walk both sorted samples; a run of equal values shares its mid-rank. */
	while (i < na || j < nb) {
		double v;

		if (j >= nb || (i < na && a[i] < b[j]))
			v = a[i];
		else
			v = b[j];
		for (ta = 0; i < na && a[i] == v; i++)
			ta++;
		for (tb = 0; j < nb && b[j] == v; j++)
			tb++;
		t = (double)(ta + tb);
		rb += tb * (rank + (t - 1) / 2);
		if (t > 1)
			ties += t * t * t - t;
		rank += t;
	}
	u = rb - nb * (nb + 1.0) / 2;	/* U of b: pairs with b > a */
	N = (double)na + nb;
	nm = (uint64_t)na * nb;
	mu = (double)na * nb / 2;
	var = (double)na * nb / 12 * ((N + 1) - ties / (N * (N - 1)));
	alpha = 1 - conf / 100;
	c->statistic = u;
	if (ties == 0 && na <= 50 && nb <= 50) {
		c->exact = 1;
		dist = mw_dist(na, nb);
		for (lower = upper = 0, k = 0; k <= na * nb; k++) {
			if (k <= u)
				lower += dist[k];
			if (k >= u)
				upper += dist[k];
		}
		c->p = fmin(1.0, 2 * fmin(lower, upper));
		/* The largest C with P(U <= C - 1) <= alpha / 2. */
		for (cum = 0, k = 0; k < na * nb; k++) {
			cum += dist[k];
			if (cum > alpha / 2 * (1 + 1e-12))
				break;
			cut = k + 1;
		}
		free(dist);
	} else if (var > 0) {
		cc = u > mu ? -0.5 : u < mu ? 0.5 : 0;	/* continuity correction */
		c->z = (u - mu + cc) / sqrt(var);
		c->p = fmin(1.0, 2 * stat_normal_cdf(-fabs(c->z)));
		t = floor(mu - stat_normal_quantile(1 - alpha / 2) * sqrt(var) + 0.5);
		cut = t >= 1 ? (uint64_t)t : 0;
	} else {
		c->z = 0;
		c->p = 1;
	}
	/* The shift: the median of the differences; nm is small enough for doubles to count. */
	if (nm % 2)
		c->diff = kth_diff(a, na, b, nb, nm / 2 + 1);
	else
		c->diff = (kth_diff(a, na, b, nb, nm / 2) + kth_diff(a, na, b, nb, nm / 2 + 1)) / 2;
	if (cut >= 1 && cut <= nm / 2) {
		c->ci_lo = kth_diff(a, na, b, nb, cut);
		c->ci_hi = kth_diff(a, na, b, nb, nm + 1 - cut);
	}
	ma = median_of(a, na);
	c->ref = ma;
	c->pct = c->diff * 100 / ma;
	c->significant = c->p < alpha;
	return 0;
}

static json_t *
num(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

json_t *
stat_summary_json(const char *name, const struct stat_summary *s)
{
	json_t *o = json_object();

	if (name != NULL)
		json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "min", s->has_order ? num(s->min) : json_null());
	json_object_set_new(o, "max", s->has_order ? num(s->max) : json_null());
	json_object_set_new(o, "median", s->has_order ? num(s->median) : json_null());
	json_object_set_new(o, "mean", num(s->mean));
	json_object_set_new(o, "stddev", num(s->stddev));
	return o;
}

json_t *
stat_cmp_json(const struct stat_cmp *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "test", json_string(c->test));
	json_object_set_new(o, "confidence", json_real(c->conf));
	json_object_set_new(o, "difference", num(c->diff));
	json_object_set_new(o, "difference_hw", num(c->diff_hw));
	json_object_set_new(o, "percent", num(c->pct));
	json_object_set_new(o, "percent_hw", num(c->pct_hw));
	json_object_set_new(o, "df", num(c->df));
	json_object_set_new(o, "statistic", num(c->statistic));
	json_object_set_new(o, "critical", num(c->crit));
	json_object_set_new(o, "s", num(c->s));
	json_object_set_new(o, "z", num(c->z));
	json_object_set_new(o, "interval_low", num(c->ci_lo));
	json_object_set_new(o, "interval_high", num(c->ci_hi));
	json_object_set_new(o, "exact", json_boolean(c->exact));
	json_object_set_new(o, "p", num(c->p));
	json_object_set_new(o, "significant", json_boolean(c->significant));
	json_object_set_new(o, "verdict", json_string(c->significant ? "difference" :
	    "no difference proven"));
	return o;
}
