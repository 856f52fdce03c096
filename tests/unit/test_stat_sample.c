/* Reading data sets: ministat's line rules, exact number conversion, bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stat/stat.h"
#include "util/util.h"
#include "testutil.h"

static struct stat_parse defaults = { 1, " \t", 1 };

static int
read_str(struct stat_set *s, const char *text, const struct stat_parse *p, struct stat_error *e)
{
	return stat_read_buf(s, text, strlen(text), "data.txt", p != NULL ? p : &defaults, e);
}

static void
expect_error(const char *text, const struct stat_parse *p, int status, const char *msg)
{
	struct stat_set s;
	struct stat_error e;

	assert_int_equal(read_str(&s, text, p, &e), -1);
	assert_int_equal(e.status, status);
	if (e.msg == NULL || strcmp(e.msg, msg) != 0)
		fail_msg("message '%s', want '%s'", e.msg ? e.msg : "(null)", msg);
	free(e.msg);
	stat_set_free(&s);
}

/* The message of reading text with the defaults, which must fail as bad input (status 2). */
static char *
read_error(const char *text)
{
	struct stat_set s;
	struct stat_error e;

	assert_int_equal(read_str(&s, text, NULL, &e), -1);
	assert_int_equal(e.status, 2);
	stat_set_free(&s);
	return e.msg;
}

static void
test_stat_read_buf_skips_comments_blank_lines_and_short_rows(void **state)
{
	struct stat_set s;
	struct stat_error e;
	struct stat_parse c2 = { 2, " \t", 1 };

	(void)state;
	assert_int_equal(read_str(&s, "# head\n1\n\n2 # c\n  3\n#4\n5\t\r\n", NULL, &e), 0);
	assert_int_equal(s.n, 4);
	assert_true(s.v[0] == 1 && s.v[1] == 2 && s.v[2] == 3 && s.v[3] == 5);
	stat_set_free(&s);
	/* Column 2: rows without one are skipped, a '#' before it ends the row. */
	assert_int_equal(read_str(&s, "1 10\n2\n3 # 30\n4\t40\n5 50 500\n", &c2, &e), 0);
	assert_int_equal(s.n, 3);
	assert_true(s.v[0] == 10 && s.v[1] == 40 && s.v[2] == 50);
	stat_set_free(&s);
}

static void
test_stat_read_buf_uses_custom_delimiters(void **state)
{
	struct stat_set s;
	struct stat_error e;
	struct stat_parse p = { 2, ",;", 1 };

	(void)state;
	/* strtod skips the space before " 40"; a space after a number is invalid. */
	assert_int_equal(read_str(&s, "1,10\n2;20\n3,,30\n4, 40\n", &p, &e), 0);
	assert_int_equal(s.n, 4);
	assert_true(s.v[2] == 30 && s.v[3] == 40);
	stat_set_free(&s);
	expect_error("1,10\n2,20\n3,30 \n4,5 x\n", &p, 2, "Invalid data on line 4 in data.txt");
}

static void
test_stat_read_buf_converts_numbers_exactly_like_strtod(void **state)
{
	static const char *nums[] = { "0.1", "1e22", "1e23", "9007199254740993", "123456789012345678",
	    "1234567890123456789012", "2.2250738585072014e-308", "4.9e-324", "-0", "+.5", "5.",
	    "0x1p-3", "1.7976931348623157e308", "0.000000000000000000000000000123", "1e-22",
	    "3.14159265358979323846", "-98765.4321e-7" };
	struct stat_set s;
	struct stat_error e;
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		snprintf(buf, sizeof buf, "%s\n%s\n%s\n", nums[i], nums[i], nums[i]);
		assert_int_equal(read_str(&s, buf, NULL, &e), 0);
		if (memcmp(&s.v[0], &(double){ strtod(nums[i], NULL) }, sizeof(double)) != 0)
			fail_msg("%s read as %.17g, strtod gives %.17g", nums[i], s.v[0],
			    strtod(nums[i], NULL));
		stat_set_free(&s);
	}
}

static void
test_stat_read_buf_keeps_sums_in_input_order(void **state)
{
	struct stat_set s;
	struct stat_error e;

	(void)state;
	assert_int_equal(read_str(&s, "1e16\n1\n-1e16\n1\n", NULL, &e), 0);
	/* ((1e16 + 1) - 1e16) + 1 in doubles is 1 (1e16 + 1 rounds to 1e16). */
	assert_true(s.sy == 1);
	stat_set_finish(&s, 0);
	assert_true(s.sum.mean == 0.25);
	assert_true(s.sum.median == 1);
	stat_set_free(&s);
}

static void
test_stat_read_buf_rejects_what_ministat_rejects(void **state)
{
	static const struct testutil_case bad[] = {
		{ "1\n2\n12abc\n", "Invalid data on line 3 in data.txt" },
		{ "1\n2\n3\n1e\n", "Invalid data on line 4 in data.txt" },
		{ "1\n2\n1,5\n", "Invalid data on line 3 in data.txt" },
		{ "1\n2\n", "Dataset data.txt must contain at least 3 data points" },
		{ "", "Dataset data.txt must contain at least 3 data points" },
		{ "# x\n\n", "Dataset data.txt must contain at least 3 data points" },
	};

	(void)state;
	testutil_each_equal(read_error, bad, nitems(bad));
}

static void
test_stat_read_buf_rejects_nonfinite_overflow_and_binary(void **state)
{
	static const struct testutil_case bad[] = {
		{ "1\n2\nnan\n", "data.txt:3: not a finite number 'nan'" },
		{ "1\n-inf\n3\n", "data.txt:2: not a finite number '-inf'" },
		{ "1\n2\n1e999\n", "data.txt:3: number out of range '1e999'" },
		{ "1\n2\n-1e400 x\n", "data.txt:3: number out of range '-1e400'" },
	};

	(void)state;
	testutil_each_equal(read_error, bad, nitems(bad));
	{
		struct stat_set s;
		struct stat_error e;

		assert_int_equal(stat_read_buf(&s, "1\n2\n3\0garbage\n", 14, "data.txt", &defaults, &e), -1);
		assert_string_equal(e.msg, "data.txt:3: binary data (NUL byte)");
		free(e.msg);
		stat_set_free(&s);
	}
}

/* fgets(3) with BUFSIZ: a line of 8191 bytes or more is read (and counted) in pieces. */
static void
test_stat_read_buf_splits_long_lines_like_fgets(void **state)
{
	struct stat_set s;
	struct stat_error e;
	char *buf = malloc(20000), *p = buf;
	size_t i;

	(void)state;
	p += sprintf(p, "1\n2\n");
	for (i = 0; i < 8185; i++)
		*p++ = ' ';
	p += sprintf(p, "123456789\n3\nx\n");
	assert_int_equal(stat_read_buf(&s, buf, (size_t)(p - buf), "data.txt", &defaults, &e), -1);
	/* The long line is lines 3 and 4 for ministat ("123456" and "789"), so x is on line 6. */
	assert_string_equal(e.msg, "Invalid data on line 6 in data.txt");
	assert_int_equal(s.n, 5);
	assert_true(s.v[2] == 123456 && s.v[3] == 789);
	free(e.msg);
	stat_set_free(&s);
	free(buf);
}

/* A new scratch file, open for writing and already unlinked: closing it removes it. */
static FILE *
scratch(void)
{
	char path[] = "/tmp/ntune-test-stat-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	unlink(path);
	f = fdopen(fd, "w");
	assert_non_null(f);
	return f;
}

/* What was written to f, read back from its start by stat_read_fd as file name. */
static int
read_back(FILE *f, const char *name, struct stat_set *s, struct stat_error *e)
{
	fflush(f);
	lseek(fileno(f), 0, SEEK_SET);
	return stat_read_fd(s, fileno(f), name, &defaults, e);
}

static void
test_stat_read_fd_rejects_lines_over_one_mebibyte(void **state)
{
	struct stat_set s;
	struct stat_error e;
	FILE *f = scratch();
	int i;

	(void)state;
	fprintf(f, "1\n2\n3\n");
	for (i = 0; i < 300000; i++)
		fputs("1 2 ", f);
	fputs("\n4\n", f);
	assert_int_equal(read_back(f, "big.txt", &s, &e), -1);
	assert_string_equal(e.msg, "big.txt:4: line longer than 1 MiB");
	free(e.msg);
	stat_set_free(&s);
	fclose(f);
}

static void
test_stat_read_fd_reads_many_values_across_buffers(void **state)
{
	struct stat_set s;
	struct stat_error e;
	FILE *f = scratch();
	int i;

	(void)state;
	for (i = 0; i < 700000; i++)
		fprintf(f, i % 5 ? "%d\n" : "%d.5 extra\n", i);
	assert_int_equal(read_back(f, "many.txt", &s, &e), 0);
	assert_int_equal(s.n, 700000);
	stat_set_finish(&s, 0);
	assert_true(s.sum.min == 0.5 && s.sum.max == 699999);
	assert_true(s.sum.median == 350000.5);
	stat_set_free(&s);
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_read_buf_skips_comments_blank_lines_and_short_rows),
		cmocka_unit_test(test_stat_read_buf_uses_custom_delimiters),
		cmocka_unit_test(test_stat_read_buf_converts_numbers_exactly_like_strtod),
		cmocka_unit_test(test_stat_read_buf_keeps_sums_in_input_order),
		cmocka_unit_test(test_stat_read_buf_rejects_what_ministat_rejects),
		cmocka_unit_test(test_stat_read_buf_rejects_nonfinite_overflow_and_binary),
		cmocka_unit_test(test_stat_read_buf_splits_long_lines_like_fgets),
		cmocka_unit_test(test_stat_read_fd_rejects_lines_over_one_mebibyte),
		cmocka_unit_test(test_stat_read_fd_reads_many_values_across_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
