/*
 * The stand-ins built instead of the Linux-only files on other systems
 * (src/{util,lab,cmd}/nolinux.c): each Linux-only entry point fails with a
 * message that says so and names the way out (--dut ssh://...).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "lab/lab.h"
#include "lab/traffic.h"
#include "util/util.h"

/* Runs cmd with argv and returns its exit status; *err gets what it wrote to stderr. */
static int
run_cmd(const struct ntune_cmd *cmd, char **argv, int argc, char **err)
{
	FILE *tmp = tmpfile();
	int saved, rc;
	long n;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved != -1);
	assert_true(dup2(fileno(tmp), 2) != -1);
	rc = cmd_dispatch(cmd, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = ftell(tmp);
	assert_true(n >= 0);
	*err = xcalloc(1, (size_t)n + 1);
	rewind(tmp);
	assert_int_equal(fread(*err, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return rc;
}

static void
check_command(const struct ntune_cmd *cmd, const char *name)
{
	char *argv[] = { (char *)name, "up", NULL }, *err, want[64];

	assert_string_equal(cmd->name, name);
	assert_int_equal(run_cmd(cmd, argv, 2, &err), 2);
	snprintf(want, sizeof want, "ntune %s: `ntune %s` is Linux-only", name, name);
	assert_true(util_startswith(err, want));
	assert_non_null(strstr(err, "--dut ssh://"));
	free(err);
}

static void
test_nolinux_lab_gen_sink_commands_say_linux_only_and_exit_2(void **state)
{
	(void)state;
	check_command(&cmd_lab, "lab");
	check_command(&cmd_gen, "gen");
	check_command(&cmd_sink, "sink");
}

static void
test_nolinux_lab_library_fails_with_the_linux_only_cause(void **state)
{
	struct lab_config c;
	struct gen_config g;
	struct gen_result r;
	char *cause = NULL;
	int removed = 1;

	(void)state;
	lab_config_init(&c);
	assert_int_equal(lab_check_privileges(&cause), -1);
	assert_string_equal(cause, LAB_LINUX_ONLY);
	free(cause);
	cause = NULL;
	assert_int_equal(lab_up(&c, &cause), -1);
	assert_non_null(strstr(cause, "--dut ssh://"));
	free(cause);
	cause = NULL;
	assert_int_equal(lab_down("ntune", &removed, &cause), -1);
	assert_int_equal(removed, 0);
	free(cause);
	cause = NULL;
	assert_false(lab_netns_exists("ntune-dut"));
	memset(&g, 0, sizeof g);
	assert_int_equal(gen_run(&g, &r, &cause), -1);
	assert_string_equal(cause, LAB_LINUX_ONLY);
	free(cause);
}

static void
test_nolinux_util_netns_names_the_namespace(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_int_equal(util_netns_enter_sys("ntune-dut", &cause), -1);
	assert_string_equal(cause, "network namespaces are Linux-only (namespace 'ntune-dut')");
	free(cause);
	cause = NULL;
	assert_int_equal(util_netns_open("x", &cause), -1);
	assert_non_null(cause);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nolinux_lab_gen_sink_commands_say_linux_only_and_exit_2),
		cmocka_unit_test(test_nolinux_lab_library_fails_with_the_linux_only_cause),
		cmocka_unit_test(test_nolinux_util_netns_names_the_namespace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
