#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/util.h"

static void
test_util_edit_distance_counts_single_edits(void **state)
{
	(void)state;
	assert_int_equal(util_edit_distance("stat", "stat"), 0);
	assert_int_equal(util_edit_distance("stt", "stat"), 1);
	assert_int_equal(util_edit_distance("net.isr.maxthread", "net.isr.maxthreads"), 1);
	assert_int_equal(util_edit_distance("", "abc"), 3);
}

static void
test_util_did_you_mean_refuses_far_words(void **state)
{
	const char *const c[] = { "stat", "inspect", "snapshot" };

	(void)state;
	assert_string_equal(util_did_you_mean("insepct", c, 3), "inspect");
	assert_null(util_did_you_mean("frobnicate", c, 3));
}

static void
test_util_write_file_atomic_replaces_content(void **state)
{
	char dir[] = "/tmp/ntune-unit.XXXXXX", path[256], *data, *cause = NULL;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f", dir);
	assert_int_equal(util_write_file_atomic(path, "one\n", 4, 0644, &cause), 0);
	assert_int_equal(util_write_file_atomic(path, "two\n", 4, 0644, &cause), 0);
	assert_int_equal(util_read_file(path, &data, &len, &cause), 0);
	assert_int_equal(len, 4);
	assert_string_equal(data, "two\n");
	free(data);
	unlink(path);
	rmdir(dir);
}

static void
test_util_read_file_names_missing_file(void **state)
{
	char *data, *cause = NULL;

	(void)state;
	assert_int_equal(util_read_file("/nonexistent/x", &data, NULL, &cause), -1);
	assert_non_null(strstr(cause, "cannot open '/nonexistent/x'"));
	free(cause);
}

static void
test_strbuf_grows(void **state)
{
	struct strbuf sb;
	char *s;
	int i;

	(void)state;
	strbuf_init(&sb);
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i % 10);
	s = strbuf_detach(&sb);
	assert_int_equal(strlen(s), 2000);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_util_edit_distance_counts_single_edits),
		cmocka_unit_test(test_util_did_you_mean_refuses_far_words),
		cmocka_unit_test(test_util_write_file_atomic_replaces_content),
		cmocka_unit_test(test_util_read_file_names_missing_file),
		cmocka_unit_test(test_strbuf_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
