#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "os/platform.h"

static void
test_os_platform_parse_reads_any_case_and_refuses_others(void **state)
{
	(void)state;
	assert_int_equal(os_platform_parse("opnsense"), OS_PLATFORM_OPNSENSE);
	assert_int_equal(os_platform_parse("OPNsense"), OS_PLATFORM_OPNSENSE);
	assert_int_equal(os_platform_parse("FreeBSD"), OS_PLATFORM_FREEBSD);
	assert_int_equal(os_platform_parse("pfSense"), OS_PLATFORM_PFSENSE);
	assert_int_equal(os_platform_parse("Linux"), OS_PLATFORM_LINUX);
	assert_int_equal(os_platform_parse("openbsd"), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_parse(NULL), OS_PLATFORM_UNKNOWN);
	assert_string_equal(os_platform_name(OS_PLATFORM_PFSENSE), "pfsense");
	assert_string_equal(os_platform_label(OS_PLATFORM_OPNSENSE), "OPNsense");
	assert_string_equal(os_platform_name(OS_PLATFORM_UNKNOWN), "unknown");
}

/* doc/interfaces.md, "Adding a platform alias": one row in platform.c's table. */
static void
test_os_platform_alias_is_parsed_but_never_printed(void **state)
{
	(void)state;
	assert_int_equal(os_platform_parse("pfSense-Plus"), OS_PLATFORM_PFSENSE);
	assert_int_equal(os_platform_in_text("Netgate pfsense-plus 23.09"), OS_PLATFORM_PFSENSE);
	assert_string_equal(os_platform_name(OS_PLATFORM_PFSENSE), "pfsense");
	assert_string_equal(os_platform_label(OS_PLATFORM_PFSENSE), "pfSense");
	assert_int_equal(os_platform_family(OS_PLATFORM_PFSENSE), OS_PLATFORM_FREEBSD);
	assert_string_equal(os_platform_list(), "freebsd, opnsense, pfsense, linux");
}

static void
test_os_platform_family_puts_distributions_under_freebsd(void **state)
{
	(void)state;
	assert_int_equal(os_platform_family(OS_PLATFORM_OPNSENSE), OS_PLATFORM_FREEBSD);
	assert_int_equal(os_platform_family(OS_PLATFORM_PFSENSE), OS_PLATFORM_FREEBSD);
	assert_int_equal(os_platform_family(OS_PLATFORM_FREEBSD), OS_PLATFORM_FREEBSD);
	assert_int_equal(os_platform_family(OS_PLATFORM_LINUX), OS_PLATFORM_LINUX);
	assert_true(os_platform_is_distro(OS_PLATFORM_OPNSENSE));
	assert_false(os_platform_is_distro(OS_PLATFORM_FREEBSD));
	assert_false(os_platform_is_distro(OS_PLATFORM_UNKNOWN));
}

static void
test_os_platform_in_text_finds_distribution_names(void **state)
{
	(void)state;
	assert_int_equal(os_platform_in_text("pfSense Plus 23.09"), OS_PLATFORM_PFSENSE);
	assert_int_equal(os_platform_in_text("OPNsense 24.1"), OS_PLATFORM_OPNSENSE);
	assert_int_equal(os_platform_in_text("FreeBSD 14.1-RELEASE-p5 GENERIC"),
	    OS_PLATFORM_UNKNOWN);
}

static void
test_os_platform_from_root_reads_the_marker_files(void **state)
{
	char dir[] = "/tmp/ntune-platform-XXXXXX", path[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(os_platform_from_root(dir, path, sizeof path), OS_PLATFORM_UNKNOWN);
	snprintf(path, sizeof path, "%s/etc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/etc/platform", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("pfSense\n", f);
	fclose(f);
	assert_int_equal(os_platform_from_root(dir, NULL, 0), OS_PLATFORM_PFSENSE);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof path, "%s/etc", dir);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void
test_os_platform_of_uname_reads_the_first_word_as_a_family(void **state)
{
	(void)state;
	assert_int_equal(os_platform_of_uname("FreeBSD fw 14.1-RELEASE FreeBSD 14.1-RELEASE"),
	    OS_PLATFORM_FREEBSD);
	assert_int_equal(os_platform_of_uname("Linux\n"), OS_PLATFORM_LINUX);
	assert_int_equal(os_platform_of_uname("FreeBSD"), OS_PLATFORM_FREEBSD);
	/* spelled as uname spells it; a distribution's name is not what uname says */
	assert_int_equal(os_platform_of_uname("OPNsense"), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_of_uname("linux"), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_of_uname("Darwin mac 23.0"), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_of_uname("FreeBSDx"), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_of_uname(""), OS_PLATFORM_UNKNOWN);
	assert_int_equal(os_platform_of_uname(NULL), OS_PLATFORM_UNKNOWN);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_os_platform_parse_reads_any_case_and_refuses_others),
		cmocka_unit_test(test_os_platform_alias_is_parsed_but_never_printed),
		cmocka_unit_test(test_os_platform_family_puts_distributions_under_freebsd),
		cmocka_unit_test(test_os_platform_in_text_finds_distribution_names),
		cmocka_unit_test(test_os_platform_from_root_reads_the_marker_files),
		cmocka_unit_test(test_os_platform_of_uname_reads_the_first_word_as_a_family),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
