/* Sorting and summarizing samples the way ministat does. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"
#include "util/util.h"

#define RADIX_BITS	11
#define RADIX_SIZE	(1 << RADIX_BITS)
#define RADIX_PASSES	6	/* 6 * 11 >= 64 */

uint64_t
stat_dkey(double d)
{
	uint64_t u;

	if (d == 0)
		d = 0;
	memcpy(&u, &d, sizeof u);
	return (u & 0x8000000000000000ULL) ? ~u : u | 0x8000000000000000ULL;
}

double
stat_dunkey(uint64_t k)
{
	double d;

	k = (k & 0x8000000000000000ULL) ? k & ~0x8000000000000000ULL : ~k;
	memcpy(&d, &k, sizeof d);
	return d;
}

static void
insertion_sort(double *v, size_t n)
{
	size_t i, j;
	double x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* LSD radix sort: stable like glibc's merge-sorting qsort, O(n), n extra doubles. */
void
stat_sort(double *v, size_t n)
{
	size_t (*count)[RADIX_SIZE], i, sum, c;
	double *tmp, *src, *dst, *t;
	int pass, shift;

	if (n < 64) {
		insertion_sort(v, n);
		return;
	}
	count = xcalloc(RADIX_PASSES, sizeof *count);
	for (i = 0; i < n; i++) {
		uint64_t k = stat_dkey(v[i]);

		for (pass = 0; pass < RADIX_PASSES; pass++)
			count[pass][(k >> (pass * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	}
	tmp = xreallocarray(NULL, n, sizeof *tmp);
	src = v;
	dst = tmp;
	for (pass = 0; pass < RADIX_PASSES; pass++) {
		shift = pass * RADIX_BITS;
		/* A digit that is the same for every value needs no pass. */
		if (count[pass][(stat_dkey(v[0]) >> shift) & (RADIX_SIZE - 1)] == n)
			continue;
		for (sum = 0, i = 0; i < RADIX_SIZE; i++) {
			c = count[pass][i];
			count[pass][i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[pass][(stat_dkey(src[i]) >> shift) & (RADIX_SIZE - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
	free(tmp);
	free(count);
}

int
stat_summarize(double *v, size_t n, struct stat_summary *s)
{
	double sy = 0, syy = 0;
	size_t i;

	memset(s, 0, sizeof *s);
	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return -1;
		sy += v[i];
		syy += v[i] * v[i];
	}
	stat_sort(v, n);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->median = v[n / 2];
	s->mean = sy / n;
	s->var = (syy - sy * sy / n) / (n - 1.0);
	s->stddev = sqrt(s->var);
	s->has_order = 1;
	return 0;
}

void
stat_summary_given(struct stat_summary *s, size_t n, double mean, double stddev)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	s->min = s->max = s->median = NAN;
	s->mean = mean;
	s->stddev = stddev;
	s->var = stddev * stddev;
	s->has_order = 0;
}

static double qselect(double *, size_t, size_t);

/*
 * Selection for big arrays: bracket the k-th value between two values of an
 * evenly spaced sample, move what lies between them to the front in one pass
 * and select among those few; quickselect does everything else.
 */
double
stat_select(double *v, size_t n, size_t k)
{
	enum { S = 4096, D = 128 };
	double sample[S], lo, hi, t;
	size_t i, w, less, idx;

	if (n < 16 * S)
		return qselect(v, n, k);
	for (i = 0; i < S; i++)
		sample[i] = v[i * (n / S)];
	stat_sort(sample, S);
	idx = (size_t)((double)k * S / n);
	lo = sample[idx > D ? idx - D : 0];
	hi = sample[idx + D < S ? idx + D : S - 1];
	/* Half the values are below lo: count them without a branch. */
	for (i = w = less = 0; i < n; i++) {
		t = v[i];
		less += t < lo;
		if ((t >= lo) & (t <= hi)) {
			v[i] = v[w];
			v[w++] = t;
		}
	}
	if (less <= k && k < less + w)
		return qselect(v, w, k - less);
	return qselect(v, n, k);
}

static double
qselect(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j;
	double pivot, t, a, b, c;

	while (hi > lo) {
		if (hi - lo < 16) {
			insertion_sort(v + lo, hi - lo + 1);
			break;
		}
		/* Median of three, then Hoare partition. */
		a = v[lo];
		b = v[lo + (hi - lo) / 2];
		c = v[hi];
		pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		i = lo;
		j = hi;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i] = v[j];
			v[j] = t;
			i++;
			j--;
		}
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return v[k];
}
