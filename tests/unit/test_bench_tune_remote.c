/*
 * The tuner's read of its candidates' knobs on a DUT (src/bench/tune_remote.c,
 * bench_remote_knobs): always agentless, so a knob agentless mode cannot set (an
 * ifconfig, ethtool or sysfs one) is not read there and its error names why; the
 * others are read with the DUT's own commands. The DUT here is "local" (the
 * commands run on this machine, no ssh), reached as a Linux DUT.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "bench/dut_bench.h"
#include "bench/tune_remote.h"
#include "share_kb.h"

static const char *
error_of(json_t *values, const char *name)
{
	return json_string_value(json_object_get(json_object_get(values, name), "error"));
}

static void
test_bench_remote_knobs_names_what_agentless_mode_cannot_set(void **state)
{
	struct bench_remote b;
	char *names[] = { "if.lo.rps_cpus", "net.core.somaxconn", "net.no_such.knob" };
	char *cause = NULL, *value = NULL, *why = NULL;
	json_t *values = NULL;
	const char *e;

	(void)state;
	memset(&b, 0, sizeof b);
	assert_int_equal(remote_parse("local", &b.dut, &cause), 0);
	b.dut_facts.os = OS_PLATFORM_LINUX;
	b.os = "linux";
	b.kb = share_kb();
	assert_int_equal(bench_remote_knobs(&b, names, 3, &values, &cause), 0);
	/* a /sys attribute: not read, its placement named */
	e = error_of(values, "if.lo.rps_cpus");
	assert_non_null(e);
	assert_string_equal(e, "its placement is sysfs; the DUT is reached agentless: sysctl knobs "
	    "and loader tunables only");
	assert_int_equal(bench_remote_knob_get(values, "if.lo.rps_cpus", &value, &why), -1);
	assert_string_equal(why, e);
	free(why);
	/* a sysctl: read from /proc/sys (where this machine has it), else the DUT lacks it */
	if (access("/proc/sys/net/core/somaxconn", R_OK) == 0) {
		assert_int_equal(bench_remote_knob_get(values, "net.core.somaxconn", &value, &why), 0);
		assert_true(atoi(value) > 0);
		free(value);
	}
	assert_string_equal(error_of(values, "net.no_such.knob"), "the DUT does not have it");
	json_decref(values);
	kb_free((struct kb *)b.kb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_remote_knobs_names_what_agentless_mode_cannot_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
