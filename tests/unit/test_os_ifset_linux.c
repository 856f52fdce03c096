/*
 * A new NIC setting is one row (doc/interfaces.md, "Adding a NIC setting"): a
 * row this test defines for a /sys/class/net attribute the table does not have
 * is read by the Linux backend from a captured tree through the same code as
 * the table's rows, and refused for writing there like them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "os/os.h"
#include "os/linux_impl.h"
#include "tmpdir.h"

/* Example only: proto_down is a writable attribute of net/core/net-sysfs.c (not checked here). */
static const struct os_ifset proto_down = {
	"proto_down", OS_IFSET_COUNT, OS_IFSET_LX_SYSFS, "proto_down", OS_IFSET_BSD_NONE, NULL, NULL,
};

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_ifset_a_new_sysfs_row_is_read_by_the_linux_backend(void **state)
{
	char root[] = "/tmp/ntune-ifset-XXXXXX", path[256], cmd[300];
	struct os_ctx *ctx;
	char *value = NULL, *cause = NULL;

	(void)state;
	tmpdir_make(root);
	snprintf(path, sizeof path, "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/sys/class/net/x0", root);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/sys/class/net/x0/proto_down", root);
	write_file(path, "1\n");
	assert_non_null(ctx = os_open_live(root, &cause));

	/* Not in the table: the knob is unknown. */
	assert_int_equal(os_tunable_get(ctx, "if.x0.proto_down", &value, &cause), -1);
	assert_non_null(strstr(cause, "unknown interface setting 'if.x0.proto_down'"));
	free(cause);
	cause = NULL;

	/* With its row, the backend reads it and refuses to write a captured tree. */
	assert_int_equal(linux_ifset_get(ctx, "x0", &proto_down, "proto_down", "if.x0.proto_down",
	    &value, &cause), 0);
	assert_string_equal(value, "1");
	free(value);
	assert_int_equal(linux_ifset_set(ctx, "x0", &proto_down, "proto_down", "if.x0.proto_down",
	    "0", &cause), -1);
	assert_string_equal(cause, "a captured tree is read-only");
	free(cause);
	os_close(ctx);
	tmpdir_remove(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifset_a_new_sysfs_row_is_read_by_the_linux_backend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
