/*
 * Reading data sets with ministat's line semantics: fgets(3) into a BUFSIZ
 * buffer (so a long line counts as several), trailing white space removed,
 * strtok(3) columns, '#' tokens end the line, strtod(3) must eat the token.
 * Numbers in the common decimal forms are converted without strtod, with the
 * same correctly rounded result; everything else goes to strtod.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stat/stat.h"
#include "util/util.h"

#define MINISTAT_BUFSIZ	8192		/* glibc BUFSIZ: fgets returns at most 8191 bytes */
#define LINE_MAX_BYTES	(1024 * 1024)	/* longer lines are an error */
#define READ_CHUNK	(256 * 1024)

struct reader {
	struct stat_set *set;
	const struct stat_parse *opt;
	struct stat_error *err;
	unsigned char delim[256];
	unsigned long line;	/* ministat's line count (fgets calls) */
	unsigned long phys;	/* newline-terminated lines */
	int	 fast;		/* no delimiter can occur in a number */
};

static const double pow10_tab[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int
fail(struct reader *r, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(r->err->msg);
	if (xvasprintf(&r->err->msg, fmt, ap) < 0)
		r->err->msg = NULL;
	va_end(ap);
	r->err->status = status;
	return -1;
}

/*
 * [+-]digits[.digits][(e|E)[+-]digits] with at most 19 significant digits and
 * a value Clinger's fast path converts exactly (the same correctly rounded
 * double as strtod). Returns the end of the number, or NULL when strtod must
 * decide.
 */
static const char *
scan_number(const char *s, const char *e, double *out)
{
	uint64_t m = 0;
	int neg = 0, digits = 0, sig = 0, exp10 = 0, eneg = 0, ev = 0;
	const char *t;
	double d;

	if (s < e && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	for (; s < e && (unsigned)(*s - '0') < 10; s++, digits++) {
		if (m == 0 && *s == '0')
			continue;
		if (++sig > 19)
			return NULL;
		m = m * 10 + (uint64_t)(*s - '0');
	}
	if (s < e && *s == '.') {
		for (s++; s < e && (unsigned)(*s - '0') < 10; s++, digits++) {
			exp10--;
			if (m == 0 && *s == '0')
				continue;
			if (++sig > 19)
				return NULL;
			m = m * 10 + (uint64_t)(*s - '0');
		}
	}
	if (digits == 0)
		return NULL;
	if (s < e && (*s == 'e' || *s == 'E')) {
		t = s + 1;
		if (t < e && (*t == '-' || *t == '+'))
			eneg = *t++ == '-';
		if (t == e || (unsigned)(*t - '0') >= 10)
			return NULL;
		for (; t < e && (unsigned)(*t - '0') < 10; t++) {
			if (ev > 10000)
				return NULL;
			ev = ev * 10 + (*t - '0');
		}
		exp10 += eneg ? -ev : ev;
		s = t;
	}
	if (m == 0) {
		*out = neg ? -0.0 : 0.0;
		return s;
	}
	if (m > (1ULL << 53) || exp10 < -22 || exp10 > 22)
		return NULL;
	d = (double)m;
	d = exp10 < 0 ? d / pow10_tab[-exp10] : d * pow10_tab[exp10];
	*out = neg ? -d : d;
	return s;
}

static int
fast_strtod(const char *s, const char *e, double *out)
{
	return scan_number(s, e, out) == e;
}

#if defined(MREMAP_MAYMOVE)
#define MAP_MIN	(4UL << 20)	/* bytes; larger value arrays are mmap'd */

static size_t
map_bytes(size_t cap)
{
	return (cap * sizeof(double) + (2UL << 20) - 1) & ~((2UL << 20) - 1);
}
#endif

/*
 * Large arrays live in their own mappings, grown with mremap(2) and backed by
 * huge pages where the system allows: first-touch page faults otherwise cost
 * more than parsing the numbers.
 */
static void
grow(struct stat_set *s, size_t cap)
{
#if defined(MREMAP_MAYMOVE) && defined(MADV_HUGEPAGE)
	void *p;

	if (cap * sizeof(double) >= MAP_MIN) {
		if (s->mapped)
			p = mremap(s->v, map_bytes(s->cap), map_bytes(cap), MREMAP_MAYMOVE);
		else
			p = mmap(NULL, map_bytes(cap), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "ntune: out of memory for %zu values\n", cap);
			abort();
		}
		madvise(p, map_bytes(cap), MADV_HUGEPAGE);
		if (!s->mapped && s->n > 0)
			memcpy(p, s->v, s->n * sizeof(double));
		if (!s->mapped)
			free(s->v);
		s->v = p;
		s->mapped = 1;
		s->cap = map_bytes(cap) / sizeof(double);
		return;
	}
#endif
	s->v = xreallocarray(s->v, cap, sizeof *s->v);
	s->cap = cap;
}

static void
add_point(struct stat_set *s, double d)
{
	if (s->n == s->cap)
		grow(s, s->cap < 1024 ? 1024 : s->cap + s->cap / 2);
	s->v[s->n++] = d;
	s->sy += d;
	s->syy += d * d;
	if (d == 0 && signbit(d))
		s->negzero = 1;
}

static int
is_cspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* One fgets(3) result of ministat: at most 8191 bytes, possibly ending in '\n'. */
static int
do_chunk(struct reader *r, const char *p, size_t len)
{
	const char *q, *t, *te;
	char tok[MINISTAT_BUFSIZ], *end;
	int col;
	double d;

	r->line++;
	while (len > 0 && is_cspace((unsigned char)p[len - 1]))
		len--;
	q = p + len;
	t = NULL;
	te = p;
	for (col = 1;; col++) {
		for (t = te; t < q && r->delim[(unsigned char)*t]; t++)
			;
		if (t == q)
			return 0;	/* too few columns: ministat skips the line */
		if (*t == '#')
			return 0;
		for (te = t; te < q && !r->delim[(unsigned char)*te]; te++)
			;
		if (col == r->opt->column)
			break;
	}
	if (!fast_strtod(t, te, &d)) {
		memcpy(tok, t, (size_t)(te - t));
		tok[te - t] = '\0';
		errno = 0;
		d = strtod(tok, &end);
		if (*end != '\0')
			return fail(r, 2, "Invalid data on line %lu in %s", r->line, r->set->name);
		if (r->opt->strict && (isnan(d) || isinf(d))) {
			if (errno == ERANGE)
				return fail(r, 2, "%s:%lu: number out of range '%s'", r->set->name,
				    r->phys, tok);
			return fail(r, 2, "%s:%lu: not a finite number '%s'", r->set->name,
			    r->phys, tok);
		}
	}
	add_point(r->set, d);
	return 0;
}

/* A line without its newline; nl says whether one followed. */
static int
do_line(struct reader *r, const char *p, size_t len, int nl)
{
	size_t total = len + (nl ? 1 : 0), off, n;

	r->phys++;
	if (r->opt->strict) {
		if (len > LINE_MAX_BYTES)
			return fail(r, 2, "%s:%lu: line longer than 1 MiB", r->set->name, r->phys);
		if (memchr(p, '\0', len) != NULL)
			return fail(r, 2, "%s:%lu: binary data (NUL byte)", r->set->name, r->phys);
	}
	if (total < MINISTAT_BUFSIZ)
		return do_chunk(r, p, len);
	/* fgets splits the line into pieces of BUFSIZ - 1 bytes; the newline belongs to the last. */
	for (off = 0; off < total; off += n) {
		n = total - off < MINISTAT_BUFSIZ - 1 ? total - off : MINISTAT_BUFSIZ - 1;
		if (do_chunk(r, p + off, off + n > len ? len - off : n) == -1)
			return -1;
	}
	return 0;
}

/*
 * The common line, a plain number and a newline, without tokenizing and with
 * the sums in registers. Returns where a line needs the full treatment.
 */
static const char *
fast_lines(struct reader *r, const char *p, const char *e)
{
	struct stat_set *s = r->set;
	double sy = s->sy, syy = s->syy, d;
	size_t n = s->n;
	unsigned long lines = 0;
	const char *q;
	int negzero = 0;

	while (p < e) {
		q = scan_number(p, e - p > 64 ? p + 64 : e, &d);
		if (q == NULL || q >= e || *q != '\n')
			break;
		if (n == s->cap) {
			s->n = n;
			grow(s, s->cap < 1024 ? 1024 : s->cap + s->cap / 2);
		}
		s->v[n++] = d;
		sy += d;
		syy += d * d;
		negzero |= d == 0 && signbit(d);
		lines++;
		p = q + 1;
	}
	s->n = n;
	s->sy = sy;
	s->syy = syy;
	s->negzero |= negzero;
	r->line += lines;
	r->phys += lines;
	return p;
}

/* Processes the complete lines of buf; returns the bytes consumed or -1. */
static ssize_t
do_lines(struct reader *r, const char *buf, size_t len, int eof)
{
	const char *p = buf, *e = buf + len, *nl;

	while (p < e) {
		if (r->fast)
			p = fast_lines(r, p, e);
		if (p == e)
			break;
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL) {
			if (!eof) {
				if (r->opt->strict && (size_t)(e - p) > LINE_MAX_BYTES)
					return fail(r, 2, "%s:%lu: line longer than 1 MiB",
					    r->set->name, r->phys + 1);
				break;
			}
			if (do_line(r, p, (size_t)(e - p), 0) == -1)
				return -1;
			p = e;
			break;
		}
		if (do_line(r, p, (size_t)(nl - p), 1) == -1)
			return -1;
		p = nl + 1;
	}
	return p - buf;
}

static void
reader_init(struct reader *r, struct stat_set *set, const char *name,
    const struct stat_parse *opt, struct stat_error *err)
{
	const char *d;

	memset(r, 0, sizeof *r);
	memset(set, 0, sizeof *set);
	set->name = xstrdup(name);
	r->set = set;
	r->opt = opt;
	r->err = err;
	err->status = 0;
	err->msg = NULL;
	for (d = opt->delim != NULL ? opt->delim : " \t"; *d != '\0'; d++)
		r->delim[(unsigned char)*d] = 1;
	r->fast = opt->column == 1;
	for (d = "0123456789.+-eE"; *d != '\0'; d++)
		if (r->delim[(unsigned char)*d])
			r->fast = 0;
}

static int
reader_done(struct reader *r)
{
	if (r->set->n < 3) {
		fail(r, 2, "Dataset %s must contain at least 3 data points", r->set->name);
		return -1;
	}
	return 0;
}

int
stat_read_buf(struct stat_set *set, const char *buf, size_t len, const char *name,
    const struct stat_parse *opt, struct stat_error *err)
{
	struct reader r;

	reader_init(&r, set, name, opt, err);
	if (do_lines(&r, buf, len, 1) == -1)
		return -1;
	return reader_done(&r);
}

int
stat_read_fd(struct stat_set *set, int fd, const char *name, const struct stat_parse *opt,
    struct stat_error *err)
{
	struct reader r;
	char *buf;
	size_t have = 0, cap = READ_CHUNK, want;
	ssize_t got, used;
	int eof = 0;

	reader_init(&r, set, name, opt, err);
	buf = xmalloc(cap + 1);
	while (!eof) {
		got = read(fd, buf + have, cap - have);
		if (got == -1) {
			if (errno == EINTR)
				continue;
			if (errno != EISDIR) {	/* fgets on a directory just ends */
				fail(&r, 2, "%s: %s", name, strerror(errno));
				goto bad;
			}
			got = 0;
		}
		if (got == 0)
			eof = 1;
		have += (size_t)got;
		if (!eof && have < cap)
			continue;
		if ((used = do_lines(&r, buf, have, eof)) == -1)
			goto bad;
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
		if (eof || have < cap)
			continue;
		/* No newline in the whole buffer. */
		want = cap * 2;
		if (opt->strict || want <= LINE_MAX_BYTES + 2) {
			if (want > LINE_MAX_BYTES + 2)
				want = LINE_MAX_BYTES + 2;
			if (want > cap) {
				cap = want;
				buf = xreallocarray(buf, cap + 1, 1);
				continue;
			}
			fail(&r, 2, "%s:%lu: line longer than 1 MiB", set->name, r.phys + 1);
			goto bad;
		}
		/* Not strict: ministat reads a long line in pieces too. */
		if (do_chunk(&r, buf, MINISTAT_BUFSIZ - 1) == -1)
			goto bad;
		memmove(buf, buf + MINISTAT_BUFSIZ - 1, have - (MINISTAT_BUFSIZ - 1));
		have -= MINISTAT_BUFSIZ - 1;
	}
	free(buf);
	return reader_done(&r);
bad:
	free(buf);
	return -1;
}

void
stat_set_finish(struct stat_set *s, int need_order)
{
	size_t i;
	double lo, hi;

	if (s->given || s->n == 0)
		return;
	if (s->n < s->cap && !s->mapped) {
		s->v = xreallocarray(s->v, s->n, sizeof *s->v);
		s->cap = s->n;
	}
#if defined(MREMAP_MAYMOVE)
	if (s->mapped && map_bytes(s->n) < map_bytes(s->cap) &&
	    mremap(s->v, map_bytes(s->cap), map_bytes(s->n), 0) != MAP_FAILED)
		s->cap = map_bytes(s->n) / sizeof(double);
#endif
	s->sum.n = s->n;
	if (need_order || s->negzero) {
		/* Which zero comes first depends on a stable sort, as in ministat. */
		stat_sort(s->v, s->n);
		s->sorted = 1;
		s->sum.min = s->v[0];
		s->sum.max = s->v[s->n - 1];
		s->sum.median = s->v[s->n / 2];
	} else {
		lo = hi = s->v[0];
		for (i = 1; i < s->n; i++) {
			if (s->v[i] < lo)
				lo = s->v[i];
			if (s->v[i] > hi)
				hi = s->v[i];
		}
		s->sum.min = lo;
		s->sum.max = hi;
		s->sum.median = stat_select(s->v, s->n, s->n / 2);
	}
	s->sum.mean = s->sy / s->n;
	s->sum.var = (s->syy - s->sy * s->sy / s->n) / (s->n - 1.0);
	s->sum.stddev = sqrt(s->sum.var);
	s->sum.has_order = 1;
}

void
stat_set_free(struct stat_set *s)
{
	free(s->name);
#if defined(MREMAP_MAYMOVE) && defined(MADV_HUGEPAGE)
	if (s->mapped)
		munmap(s->v, map_bytes(s->cap));
	else
#endif
		free(s->v);
	memset(s, 0, sizeof *s);
}
