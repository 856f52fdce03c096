/*
 * Statistics: ministat-compatible sample reading and rendering, exact Student t
 * quantiles, Student/Welch t tests and the Mann-Whitney U test.
 *
 * The figures follow ministat(1) exactly (sums in input order, variance by
 * (syy - sy*sy/n)/(n-1), upper median points[n/2]) so that a summary computed
 * here and `ntune stat` on the same values print the same digits.
 */
#ifndef NTUNE_STAT_H
#define NTUNE_STAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_t;

/* One data set as ministat describes it. */
struct stat_summary {
	size_t	n;
	double	min, max, median;	/* only when has_order */
	double	mean, stddev;
	double	var;			/* stddev * stddev, as ministat's Var() */
	int	has_order;		/* 0 for a set given by N:MEAN:STDDEV */
};

/* One comparison of set b against the reference set a (b - a). */
struct stat_cmp {
	const char *test;	/* "student", "welch", "mann-whitney" */
	double	conf;		/* confidence level in percent, e.g. 95 */
	double	diff;		/* mean(b) - mean(a); Hodges-Lehmann shift for mann-whitney */
	double	diff_hw;	/* half-width of the interval around diff (NaN if none) */
	double	pct;		/* diff in percent of the reference mean (median for mann-whitney) */
	double	pct_hw;		/* diff_hw in percent of the reference (NaN if none) */
	double	df;		/* degrees of freedom (NaN for mann-whitney) */
	double	statistic;	/* t, or U for mann-whitney */
	double	z;		/* mann-whitney normal score (NaN when exact) */
	double	p;		/* two-sided p-value */
	double	crit;		/* critical t used for diff_hw (NaN for mann-whitney) */
	double	s;		/* pooled s (student), standard error (welch), NaN otherwise */
	double	ci_lo, ci_hi;	/* mann-whitney: interval of the shift at conf (NaN if none) */
	double	ref;		/* what percentages are of: mean(a), or median(a) for mann-whitney */
	int	exact;		/* mann-whitney: p from the exact distribution */
	int	significant;	/* the difference is proven at conf */
};

/*
 * Summarizes n values; v is sorted in place (ascending, stable, -0 == 0).
 * Returns -1 if n == 0 or a value is not finite.
 */
int	 stat_summarize(double *v, size_t n, struct stat_summary *);
/* A summary from N:MEAN:STDDEV (has_order = 0). */
void	 stat_summary_given(struct stat_summary *, size_t n, double mean, double stddev);

/*
 * An unsigned key that orders doubles as the numbers order (-0.0 gets the key of
 * 0.0, so they stay in input order), and the double of a key.
 */
uint64_t stat_dkey(double);
double	 stat_dunkey(uint64_t);
/* Sorts ascending: stable, -0.0 and 0.0 compare equal (as qsort + ministat's dbl_cmp). */
void	 stat_sort(double *v, size_t n);
/* The k-th smallest value (0-based) of v, which is reordered. */
double	 stat_select(double *v, size_t n, size_t k);

/* Distribution functions. */
double	 stat_t_quantile(double p, double df);	/* exact inverse Student t CDF, p in (0,1) */
double	 stat_t_cdf(double t, double df);
double	 stat_normal_quantile(double p);
double	 stat_normal_cdf(double z);
double	 stat_betai(double a, double b, double x);	/* regularized incomplete beta I_x(a,b) */
double	 stat_betai_inv(double a, double b, double p);

/*
 * The critical two-sided t for conf percent and df degrees of freedom: ministat's
 * table for its six levels and integer df (df > 100 uses the infinite row), else exact.
 */
double	 stat_t_critical(double conf, double df, int ministat_table);
/* 1 if conf is one of ministat's levels (80 90 95 98 99 99.5). */
int	 stat_conf_is_ministat(double conf);

/*
 * Two-sample tests of b against a, conf in (0,100). Return -1 when the test
 * cannot be done (fewer than 2 values in a set, conf out of range).
 * stat_compare_student reproduces ministat's Relative() figures exactly.
 */
int	 stat_compare_student(const struct stat_summary *a, const struct stat_summary *b,
	    double conf, struct stat_cmp *);
int	 stat_compare_welch(const struct stat_summary *a, const struct stat_summary *b,
	    double conf, struct stat_cmp *);
/* a and b must be sorted ascending (stat_summarize sorts them). */
int	 stat_compare_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
	    double conf, struct stat_cmp *);

/* JSON objects (jansson), the same keys `ntune stat --json` prints. */
struct json_t *stat_summary_json(const char *name, const struct stat_summary *);
struct json_t *stat_cmp_json(const struct stat_cmp *);

/* A data set being read: the values and ministat's running sums. */
struct stat_set {
	char	*name;
	double	*v;
	size_t	 n, cap;
	double	 sy, syy;		/* sums in input order, as ministat */
	struct stat_summary sum;	/* filled by stat_set_finish */
	int	 given;			/* from --summary: no values */
	int	 sorted;		/* v is in ascending order */
	int	 negzero;		/* a -0.0 was read: only a stable sort keeps ministat's order */
	int	 mapped;		/* v is an mmap'd region: free with stat_set_free only */
};

/* How to cut lines into numbers (ministat's -C and -d). */
struct stat_parse {
	int	 column;	/* 1-based */
	const char *delim;	/* strtok(3) delimiter set, default " \t" */
	int	 strict;	/* reject NaN, inf, overflow, NUL bytes, lines over 1 MiB */
};

/* Why stat_read failed; msg is the text after the program name. */
struct stat_error {
	int	 status;	/* exit status ministat uses: 1 open error, 2 data error */
	char	*msg;		/* malloc'd */
};

/*
 * Reads a data set from fd (name is how ministat names it, "<stdin>" for stdin)
 * with ministat's line semantics. -1 and *err on failure (including fewer than
 * 3 values); the values are then sorted and summarized when need_order.
 */
int	 stat_read_fd(struct stat_set *, int fd, const char *name, const struct stat_parse *,
	    struct stat_error *);
/* Reads one buffer as a whole file (fuzzing, tests). */
int	 stat_read_buf(struct stat_set *, const char *buf, size_t len, const char *name,
	    const struct stat_parse *, struct stat_error *);
/*
 * Fills set->sum. With need_order the values are sorted (stat_sort); otherwise
 * only the median is selected in place, which is all the text output needs.
 */
void	 stat_set_finish(struct stat_set *, int need_order);
void	 stat_set_free(struct stat_set *);

/* ministat's text output. */
struct stat_render {
	int	 width;		/* plot width (-w) */
	int	 plot;		/* draw the plot (not -A/-n) */
	int	 separate;	/* -s */
	int	 relative;	/* compare (not -n) */
	double	 conf;
	const char *test;	/* "student" (default), "welch", "mann-whitney" */
	int	 pvalues;	/* -p */
};

/* The symbol of set i (0-based): x + * % # @ O. */
char	 stat_symbol(size_t i);
/*
 * Writes the plot; -1 + cause when it cannot be drawn (width 1), before
 * writing anything. With f NULL it only checks.
 */
int	 stat_render_plot(FILE *, struct stat_set *const *sets, size_t nsets,
	    const struct stat_render *, char **cause);
void	 stat_render_vitals_head(FILE *);
void	 stat_render_vitals(FILE *, size_t idx, const struct stat_set *);
/* Compares set b against the reference a as the options say; fills cmp. */
int	 stat_render_compare(FILE *, const struct stat_set *a, const struct stat_set *b,
	    const struct stat_render *, struct stat_cmp *cmp);

#endif
