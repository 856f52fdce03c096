/* Distribution functions: exact Student t quantiles, CDFs, incomplete beta. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "stat/stat.h"

static void
assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

static void
test_stat_t_quantile_matches_closed_forms(void **state)
{
	static const double ps[] = { 0.6, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995, 0.1, 0.001 };
	size_t i;
	double p;

	(void)state;
	for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		p = ps[i];
		/* df = 1 is Cauchy; df = 2 has t = (2p-1)/sqrt(2p(1-p)). */
		assert_close(stat_t_quantile(p, 1), tan(M_PI * (p - 0.5)), 1e-12);
		assert_close(stat_t_quantile(p, 2), (2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-12);
	}
	assert_true(stat_t_quantile(0.5, 7) == 0);
	assert_true(isnan(stat_t_quantile(0, 7)));
	assert_true(isnan(stat_t_quantile(1, 7)));
	assert_true(isnan(stat_t_quantile(0.9, 0)));
}

static void
test_stat_t_quantile_known_values(void **state)
{
	(void)state;
	/* Checked against the closed form of the CDF for even df in 40-digit decimal arithmetic. */
	assert_close(stat_t_quantile(0.975, 10), 2.2281388519862744, 1e-14);
	assert_close(stat_t_quantile(0.975, 4), 2.7764451051977934, 1e-14);
	/* Large df approaches the normal quantile; huge df is the normal. */
	assert_close(stat_t_quantile(0.975, 1e12), 1.959963984540054 + 2.37e-12, 1e-14);
	/* z + (z^3 + z) / (4 df) + (5z^5 + 16z^3 + 3z) / (96 df^2), the rest is below 1e-19. */
	assert_close(stat_t_quantile(0.975, 4e6), 1.959963984540054 + (pow(1.959963984540054, 3) +
	    1.959963984540054) / 1.6e7 + 1.76e-13, 1e-13);
	assert_close(stat_normal_quantile(0.975), 1.959963984540054, 1e-14);
	assert_close(stat_normal_quantile(1e-10), -6.361340902404056, 1e-12);
}

/* For even df: F(t) = 1/2 + t/(2 sqrt(df+t^2)) sum_{j<df/2} C(2j,j)/4^j (df/(df+t^2))^j. */
static double
t_cdf_even(double t, int df)
{
	double s = 0, term = 1, r = df / (df + t * t);
	int j;

	for (j = 0; j < df / 2; j++) {
		s += term;
		term *= r * (2.0 * j + 1) / (2.0 * j + 2);
	}
	return 0.5 + t / (2 * sqrt(df + t * t)) * s;
}

static void
test_stat_t_quantile_solves_the_even_df_closed_form(void **state)
{
	static const double ps[] = { 0.9, 0.95, 0.975, 0.99, 0.995, 0.999 };
	size_t i;
	int df;

	(void)state;
	for (df = 2; df <= 200; df += 2)
		for (i = 0; i < sizeof ps / sizeof ps[0]; i++)
			assert_close(t_cdf_even(stat_t_quantile(ps[i], df), df), ps[i], 1e-13);
}

static void
test_stat_t_quantile_inverts_the_cdf_for_fractional_df(void **state)
{
	static const double dfs[] = { 0.7, 1.5, 3.7, 5.882352941176471, 12.25, 97.5, 1234.5, 2e6 };
	static const double ps[] = { 0.55, 0.9, 0.975, 0.999, 0.01, 1e-6 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof dfs / sizeof dfs[0]; i++)
		for (j = 0; j < sizeof ps / sizeof ps[0]; j++)
			/* The CDF from the incomplete beta loses digits at huge df. */
			assert_close(stat_t_cdf(stat_t_quantile(ps[j], dfs[i]), dfs[i]), ps[j],
			    dfs[i] < 1e5 ? 1e-10 : 1e-8);
}

static void
test_stat_t_cdf_matches_numeric_integration(void **state)
{
	(void)state;
	/* Two-sided p of Welch's t for 1..5 against 2,4,..,10, integrated numerically. */
	assert_close(2 * stat_t_cdf(-3 / sqrt(2.5), 6.25 / 1.0625), 0.10753119493072048, 1e-9);
	assert_close(2 * stat_t_cdf(-2.5, 3.7), 0.07182202291188991, 1e-9);
}

/*
 * ministat's table is the exact quantiles rounded to 3 places; its "99.5%" column
 * holds the 99.8% level, with errors up to 0.004 in the last digits (df 1, 7-12).
 */
static void
test_stat_t_critical_keeps_ministat_table(void **state)
{
	static const double conf[] = { 80, 90, 95, 98, 99 };
	double df, exact, table;
	size_t i;

	(void)state;
	for (df = 1; df <= 100; df++) {
		for (i = 0; i < 5; i++) {
			table = stat_t_critical(conf[i], df, 1);
			exact = stat_t_quantile(0.5 + conf[i] / 200, df);
			if (fabs(table - exact) > 0.0005 + 1e-9)
				fail_msg("df %g conf %g: table %g exact %.6f", df, conf[i], table, exact);
		}
		assert_true(fabs(stat_t_critical(99.5, df, 1) - stat_t_quantile(0.999, df)) <= 0.005);
	}
	assert_true(stat_t_critical(95, 4, 1) == 2.776);
	assert_true(stat_t_critical(95, 101, 1) == 1.960);
	assert_true(stat_t_critical(95, 5000, 1) == 1.960);
	assert_close(stat_t_critical(95, 4, 0), 2.7764451051977934, 1e-12);
	assert_close(stat_t_critical(96, 4, 1), stat_t_quantile(0.98, 4), 1e-15);
	assert_true(stat_conf_is_ministat(99.5));
	assert_false(stat_conf_is_ministat(96));
}

static void
test_stat_betai_symmetry_and_inverse(void **state)
{
	static const double ab[][2] = { { 0.5, 0.5 }, { 2, 3 }, { 0.5, 50 }, { 1000, 0.5 }, { 30, 40 } };
	static const double xs[] = { 1e-6, 0.01, 0.3, 0.5, 0.77, 0.999 };
	size_t i, j;
	double a, b, x, p;

	(void)state;
	for (i = 0; i < sizeof ab / sizeof ab[0]; i++) {
		a = ab[i][0];
		b = ab[i][1];
		for (j = 0; j < sizeof xs / sizeof xs[0]; j++) {
			x = xs[j];
			p = stat_betai(a, b, x);
			assert_true(fabs(p + stat_betai(b, a, 1 - x) - 1) < 1e-12);
			if (p > 1e-300 && p < 1 - 1e-12)
				assert_close(stat_betai_inv(a, b, p), x, 1e-8);
		}
	}
	/* I_x(1,1) = x and I_x(a,1) = x^a. */
	assert_close(stat_betai(1, 1, 0.3), 0.3, 1e-14);
	assert_close(stat_betai(3, 1, 0.5), 0.125, 1e-14);
	assert_true(stat_betai(2, 2, 0) == 0 && stat_betai(2, 2, 1) == 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_t_quantile_matches_closed_forms),
		cmocka_unit_test(test_stat_t_quantile_known_values),
		cmocka_unit_test(test_stat_t_quantile_solves_the_even_df_closed_form),
		cmocka_unit_test(test_stat_t_quantile_inverts_the_cdf_for_fractional_df),
		cmocka_unit_test(test_stat_t_cdf_matches_numeric_integration),
		cmocka_unit_test(test_stat_t_critical_keeps_ministat_table),
		cmocka_unit_test(test_stat_betai_symmetry_and_inverse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
