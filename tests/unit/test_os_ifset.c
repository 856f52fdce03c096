/*
 * The if.<ifname>.<setting> table (os/ifset.c): every row is a setting that
 * if.<ifname>.<row> names, per-queue and ethtool -k feature settings map onto a
 * row, and what FreeBSD and `export --format sh` use is in the row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "os/ifset.h"

static void
test_ifset_every_row_is_named_by_if_knobs(void **state)
{
	char ifname[64], knob[128];
	const char *setting, *p;
	size_t i, j;

	(void)state;
	assert_true(os_nifsets >= 37);
	for (i = 0; i < os_nifsets; i++) {
		const struct os_ifset *r = &os_ifsets[i];

		assert_ptr_equal(os_ifset_find(r->name), r);
		for (j = i + 1; j < os_nifsets; j++)
			assert_string_not_equal(r->name, os_ifsets[j].name);
		/* A vlan name with dots splits before the setting. */
		snprintf(knob, sizeof knob, "if.eth0.100.%s", r->name);
		assert_int_equal(os_if_split(knob, ifname, sizeof ifname, &setting, NULL), 0);
		assert_string_equal(ifname, "eth0.100");
		assert_string_equal(setting, r->name);
		if (r->bsd == OS_IFSET_BSD_CAP)
			assert_non_null(r->bsd_arg);
		if (r->lx != OS_IFSET_LX_PAUSE && r->lx != OS_IFSET_LX_IRQS &&
		    r->lx != OS_IFSET_LX_QDISC && r->lx != OS_IFSET_LX_NAPI_THREADS)
			assert_non_null(r->lx_arg);
		/* sh commands quote the interface and know only %i, %v and %o. */
		for (p = r->sh; p != NULL && (p = strchr(p, '%')) != NULL; p += 2)
			assert_non_null(strchr("ivo", p[1]));
		if (r->sh != NULL)
			assert_non_null(strstr(r->sh, "'%i'"));
	}
}

static void
test_ifset_queue_and_feature_settings_use_a_row(void **state)
{
	const struct os_ifset *r;
	const char *attr;
	char dir[3];
	int q;

	(void)state;
	assert_int_equal(os_ifset_queue("rx-12.rps_cpus", dir, &q, &attr), 0);
	assert_string_equal(dir, "rx");
	assert_int_equal(q, 12);
	assert_string_equal(attr, "rps_cpus");
	assert_ptr_equal(os_ifset_lookup("rx-12.rps_cpus"), os_ifset_find("rps_cpus"));
	assert_ptr_equal(os_ifset_lookup("tx-0.xps_cpus"), os_ifset_find("xps_cpus"));
	/* A queue attribute of the other direction is not a setting. */
	assert_null(os_ifset_lookup("tx-1.rps_cpus"));
	assert_null(os_ifset_lookup("rx-.rps_cpus"));
	r = os_ifset_lookup("offload.rx-udp-gro-forwarding");
	assert_non_null(r);
	assert_int_equal(r->lx, OS_IFSET_LX_OFFLOAD);
	assert_null(r->lx_arg);
	assert_null(os_ifset_lookup("offload.Bad_Name"));
	assert_null(os_ifset_lookup("bogus"));
	assert_int_equal(os_ifset_find("offload.lro")->bsd, OS_IFSET_BSD_CAP);
	assert_int_equal(os_ifset_find("mtu")->bsd, OS_IFSET_BSD_MTU);
	assert_int_equal(os_ifset_find("ring.rx")->bsd, OS_IFSET_BSD_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifset_every_row_is_named_by_if_knobs),
		cmocka_unit_test(test_ifset_queue_and_feature_settings_use_a_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
