#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "dut/dut.h"
#include "util/util.h"
#include "testutil.h"

static void
test_dut_option_stores_each_router_option(void **state)
{
	static const struct option rows[] = { DUT_LONGOPTS };
	struct dut_opts o;
	size_t i;

	(void)state;
	memset(&o, 0, sizeof o);
	assert_false(dut_opts_ssh_given(&o));
	for (i = 0; i < nitems(rows); i++)
		assert_int_equal(dut_option(&o, rows[i].val, "x"), 1);
	assert_string_equal(o.url, "x");
	assert_string_equal(o.ssh_config, "x");
	assert_string_equal(o.root, "x");
	assert_true(o.accept_new);
	assert_true(dut_opts_ssh_given(&o));
	assert_int_equal(dut_option(&o, 'x', "y"), 0);
	assert_int_equal(dut_option(&o, DUT_OPT_DUT - 1, "y"), 0);
	assert_string_equal(o.url, "x");
}

static void
test_dut_open_refuses_local_and_bad_urls_before_reaching(void **state)
{
	static const char *const bad[] = { "ftp://x", "ssh://-oProxyCommand=x", "ssh://a b", "" };
	struct dut_opts o = { NULL, NULL, NULL, false };
	struct dut d;
	char *cause = NULL;
	bool usage = false;
	size_t i;

	(void)state;
	o.url = "local";
	assert_int_equal(dut_open(&d, &o, true, &usage, &cause), -1);
	assert_true(usage);
	assert_non_null(strstr(cause, "not 'local'"));
	free(cause);
	for (i = 0; i < nitems(bad); i++) {
		o.url = bad[i];
		usage = false;
		cause = NULL;
		assert_int_equal(dut_open(&d, &o, true, &usage, &cause), -1);
		assert_true(usage);
		assert_non_null(strstr(cause, "invalid host"));
		free(cause);
	}
	o.url = NULL;
	assert_int_equal(dut_open(&d, &o, true, &usage, &cause), -1);
	free(cause);
}

/* A session's control directory exists while it is open, and is gone after. */
static void
test_dut_session_opens_and_closes_its_directory(void **state)
{
	struct dut_opts o = { NULL, "/dev/null", NULL, true };
	struct remote_ssh s;
	struct remote_host h, *hosts[] = { &h };
	char dir[sizeof s.ctl_dir], *cause = NULL;

	(void)state;
	memset(&s, 0, sizeof s);
	assert_int_equal(dut_host_parse("ssh://root@fw:2222", &s, &h, &cause), 0);
	assert_ptr_equal(h.ssh, &s);
	assert_string_equal(h.user, "root");
	assert_string_equal(h.host, "fw");
	assert_int_equal(h.port, 2222);
	assert_int_equal(dut_session_open(&s, &o, &cause), 0);
	assert_string_equal(s.config, "/dev/null");
	assert_true(s.accept_new);
	snprintf(dir, sizeof dir, "%s", s.ctl_dir);
	assert_int_equal(access(dir, F_OK), 0);
	dut_session_close(&s, hosts, 1);
	assert_int_equal(access(dir, F_OK), -1);
	assert_string_equal(s.ctl_dir, "");
	dut_session_close(&s, hosts, 1);	/* twice is fine */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dut_option_stores_each_router_option),
		cmocka_unit_test(test_dut_open_refuses_local_and_bad_urls_before_reaching),
		cmocka_unit_test(test_dut_session_opens_and_closes_its_directory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
