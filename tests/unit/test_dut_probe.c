#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cmocka.h>

#include "dut/dut.h"
#include "util/util.h"
#include "testutil.h"

/* "local" runs the probe's sh here; NTUNE_TEST_BOOT_ID stands for the boot id, as in the rig. */
static void
local_host(struct remote_host *h, const char *boot_id)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/boot_id", testutil_tmpdir);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", boot_id);
	fclose(f);
	assert_int_equal(setenv("NTUNE_TEST_BOOT_ID", path, 1), 0);
	assert_int_equal(dut_host_parse("local", NULL, h, NULL), 0);
	assert_true(h->local);
}

static void
test_dut_probe_says_who_this_machine_is(void **state)
{
	struct remote_host h;
	struct dut_facts f;
	struct utsname u;
	char *cause = NULL;

	(void)state;
	local_host(&h, "boot-one");
	assert_int_equal(uname(&u), 0);
	assert_int_equal(dut_probe(&h, NULL, &f, &cause), 0);
	assert_string_equal(f.os_name, u.sysname);
	assert_int_equal(f.os, os_platform_of_uname(u.sysname));
	assert_int_equal(os_platform_family(f.platform), f.os);
	assert_string_equal(f.release, u.release);
	assert_int_equal(strncmp(f.uname, u.sysname, strlen(u.sysname)), 0);
	assert_int_equal(f.ncpu, (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(f.boot_id, "boot-one");
	assert_string_equal(f.version, "none");	/* not asked */
	assert_non_null(f.conftxt);
	dut_facts_free(&f);
	/* an ntune command that is not there */
	assert_int_equal(dut_probe(&h, "/nonexistent/ntune", &f, &cause), 0);
	assert_string_equal(f.version, "none");
	dut_facts_free(&f);
}

static void
test_dut_boot_id_changes_with_the_boot(void **state)
{
	struct remote_host h;
	char id[128], *cause = NULL;

	(void)state;
	local_host(&h, "boot-one");
	assert_int_equal(dut_boot_id(&h, 10, id, sizeof id, &cause), 0);
	assert_string_equal(id, "boot-one");
	local_host(&h, "boot-two");
	assert_int_equal(dut_boot_id(&h, 10, id, sizeof id, &cause), 0);
	assert_string_equal(id, "boot-two");
	/* an empty boot id is no boot id */
	local_host(&h, "");
	assert_int_equal(dut_boot_id(&h, 10, id, sizeof id, &cause), -1);
	assert_non_null(strstr(cause, "cannot read the boot id of local"));
	free(cause);
}

/* The counters start with the same boot id line as the probe (one reader). */
static void
test_dut_counters_carry_the_boot_id(void **state)
{
	struct remote_host h;
	struct dut_counters c;
	struct utsname u;
	char *cause = NULL;

	(void)state;
	assert_int_equal(uname(&u), 0);
	if (strcmp(u.sysname, "Linux") != 0)
		skip();	/* the loopback's name differs */
	local_host(&h, "boot-three");
	assert_int_equal(dut_counters(&h, "lo", "lo", &c, &cause), 0);
	assert_string_equal(c.boot_id, "boot-three");
	assert_true(c.ncpu >= 1);
	dut_counters_free(&c);
	assert_int_equal(dut_counters(&h, "lo", "no-such-if0", &c, &cause), -1);
	assert_non_null(strstr(cause, "has no interface 'no-such-if0'"));
	free(cause);
}

static void
test_dut_facts_kb_os_names_the_distribution(void **state)
{
	struct dut_facts f;

	(void)state;
	memset(&f, 0, sizeof f);
	f.os = f.platform = OS_PLATFORM_LINUX;
	assert_string_equal(dut_facts_kb_os(&f), "linux");
	f.os = f.platform = OS_PLATFORM_FREEBSD;
	assert_string_equal(dut_facts_kb_os(&f), "freebsd");
	f.platform = OS_PLATFORM_PFSENSE;
	assert_string_equal(dut_facts_kb_os(&f), "pfsense");
	f.os = OS_PLATFORM_UNKNOWN;
	f.platform = OS_PLATFORM_UNKNOWN;
	assert_string_equal(dut_facts_kb_os(&f), "freebsd");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dut_probe_says_who_this_machine_is),
		cmocka_unit_test(test_dut_boot_id_changes_with_the_boot),
		cmocka_unit_test(test_dut_counters_carry_the_boot_id),
		cmocka_unit_test(test_dut_facts_kb_os_names_the_distribution),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
