/*
 * A new NIC setting is one line of data (doc/interfaces.md, "Adding a NIC
 * setting"): a line this test adds to a copy of share/knobs/if.settings for a
 * /sys/class/net attribute the table does not have is read by the Linux backend
 * from a captured tree through the same code as the shipped rows, and refused
 * for writing there like them.
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
#include "os/ifset.h"
#include "util/util.h"
#include "tmpdir.h"

/* proto_down: NETDEVICE_SHOW_RW(proto_down, fmt_dec) in Linux net/core/net-sysfs.c. */
static const char proto_down_line[] = "proto_down count sysfs:proto_down - -\n";

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
	char *value = NULL, *cause = NULL, *def, *text;
	size_t len;
	FILE *f;

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

	/* With its line, the backend reads it and refuses to write a captured tree. */
	def = os_ifsets_path();
	if (util_read_file(def, &text, &len, &cause) == -1)
		fail_msg("%s", cause);
	snprintf(path, sizeof path, "%s/if.settings", root);
	assert_non_null(f = fopen(path, "w"));
	fwrite(text, 1, len, f);
	fputs(proto_down_line, f);
	fclose(f);
	if (os_ifsets_load(path, &cause) == -1)
		fail_msg("%s", cause);
	assert_int_equal(os_tunable_get(ctx, "if.x0.proto_down", &value, &cause), 0);
	assert_string_equal(value, "1");
	free(value);
	assert_int_equal(os_tunable_set(ctx, "if.x0.proto_down", "0", &cause), -1);
	assert_string_equal(cause, "a captured tree is read-only");
	free(cause);
	free(text);
	free(def);
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
