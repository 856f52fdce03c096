#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "os/os_impl.h"
#include "util/util.h"
#include "testutil.h"

/* The rows after the first are averaged (older releases print the first since boot). */
static void
test_os_netstat_w_reads_human_counts_and_skips_the_first_row(void **state)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_netstat_w w;

	(void)state;
	assert_int_equal(os_netstat_w_banner("            input        (Total)           output", &w), 1);
	assert_string_equal(w.name, "total");
	assert_int_equal(os_netstat_w_header("   packets  errs idrops      bytes    packets  errs      "
	    "bytes colls drops", &w), 1);
	assert_int_equal(w.ncols, 9);
	assert_int_equal(os_netstat_w_row("  9.9M 0 0 9.9G 9.9M 0 9.9G 0 0", &w, &c), 1);
	assert_int_equal(os_netstat_w_row("  370k 12 0 38M 1.5M 0 38M 0 7", &w, &c), 1);
	assert_int_equal(os_netstat_w_row("  372k 14 0 38M 1.5M 0 38M 0 9", &w, &c), 1);
	assert_int_equal(testutil_counter(&c, "ifw.total.ipackets"), 371000);
	assert_int_equal(testutil_counter(&c, "ifw.total.ierrors"), 13);
	assert_int_equal(testutil_counter(&c, "ifw.total.opackets"), 1500000);
	assert_int_equal(testutil_counter(&c, "ifw.total.ibytes"), 38 * 1024 * 1024);
	assert_int_equal(testutil_counter(&c, "ifw.total.odrops"), 8);
	assert_int_equal(testutil_counter(&c, "ifw.total.rows"), 3);
	assert_int_equal(os_netstat_w_row("  372k 14 0 38M", &w, &c), -1);
	assert_int_equal(os_netstat_w_row("  372x 14 0 38M 1.5M 0 38M 0 9", &w, &c), -1);
	assert_int_equal(os_netstat_w_header("packets errs widgets bytes packets errs bytes colls", &w), -1);
	assert_int_equal(os_netstat_w_banner("input (ix0) output extra", &w), 0);
	os_counters_free(&c);
}

static void
test_os_systat_ifstat_reads_in_and_out_rates(void **state)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char ifname[64] = "";

	(void)state;
	assert_int_equal(os_systat_ifstat_head("      Interface           Traffic               Peak"
	    "                Total"), 1);
	assert_int_equal(os_systat_ifstat_line("            ix0  in    112.500 MB/s        115.001 MB/s"
	    "          950.211 GB", ifname, sizeof ifname, &c), 1);
	assert_string_equal(ifname, "ix0");
	assert_int_equal(os_systat_ifstat_line("                 out     1.000 KB/s          1.400 KB/s"
	    "           20.112 GB", ifname, sizeof ifname, &c), 1);
	assert_int_equal(testutil_counter(&c, "ifs.ix0.ibytes"), (uint64_t)(112.5 * 1024 * 1024));
	assert_int_equal(testutil_counter(&c, "ifs.ix0.obytes"), 1024);
	/*
	 * systat's bit units (":scale mbit"), powers of 1000 (usr.bin/systat/convtbl.c); the line
	 * is real: BSDRP's MLPPP example (bsdrp.net documentation/examples/aggregating-multiple-isp-links)
	 */
	assert_int_equal(os_systat_ifstat_line("            ng0  in     17.271 Mb/s         18.694 Mb/s"
	    "            3.743 GB", ifname, sizeof ifname, &c), 1);
	assert_string_equal(ifname, "ng0");
	assert_int_equal(testutil_counter(&c, "ifs.ng0.ibytes"), (uint64_t)(17.271e6 / 8 + 0.5));
	assert_int_equal(os_systat_ifstat_line("ix0 in 1.2 Xb/s 1.4 Mb/s 9.1 GB", ifname, sizeof ifname,
	    &c), -1);
	assert_int_equal(os_systat_ifstat_line("ix0 in 1.2 XB/s 1.4 MB/s 9.1 GB", ifname, sizeof ifname,
	    &c), -1);
	assert_int_equal(os_systat_ifstat_line("hw.ncpu: 4", ifname, sizeof ifname, &c), 0);
	os_counters_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_os_netstat_w_reads_human_counts_and_skips_the_first_row),
		cmocka_unit_test(test_os_systat_ifstat_reads_in_and_out_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
