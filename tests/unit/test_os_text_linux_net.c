/*
 * The Linux network outputs read from pastes (src/os/text_linux_net.c): ip -s link, ethtool -S,
 * nstat, sar -n DEV, on real output as published (tests/fixtures/os/real-counters/, sources in
 * tests/fixtures/os/real-counters/SOURCES.md), each as the user pasted it: prompt lines, a wrapped line,
 * a last row cut short.
 */
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

#define REAL FIXTURES "/os/real-counters/"

/* The file read by the Linux paste reader: its exit status want_rc, the counters. */
static struct os_counters
read_real(const char *name, int want_rc)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char path[512], *text, *cause = NULL;
	size_t len;

	snprintf(path, sizeof path, REAL "%s", name);
	assert_int_equal(util_read_file(path, &text, &len, NULL), 0);
	assert_int_equal(os_counters_text_linux(text, len, name, &c, &cause), want_rc);
	free(cause);
	free(text);
	return c;
}

/* ip -s -s link, iproute2 before 5.x, its first line wrapped by the tracker: rx drops are dropped + missed. */
static void
test_text_linux_net_ip_s_s_link_missed(void **state)
{
	struct os_counters c = read_real("linux_ip-s-s-link_eth4_security-onion437.txt", 0);

	(void)state;
	assert_true(testutil_counter(&c, "if.eth4.ipackets") == 1745618628ULL);
	assert_true(testutil_counter(&c, "if.eth4.ibytes") == 1361950677217ULL);
	assert_true(testutil_counter(&c, "if.eth4.idrops") == 179 + 1725828);
	assert_true(testutil_counter(&c, "nic.eth4.rx_missed_errors") == 1725828);
	assert_true(testutil_counter(&c, "if.eth4.opackets") == 0);
	/* the prompt and the wrapped "state UP qlen 1000" are skipped, named */
	assert_true(testutil_has_note(&c, "2 lines skipped"));
	assert_true(testutil_has_note(&c, ":3 not a line of the outputs read: 'state UP qlen 1000'"));
	os_counters_free(&c);
}

/* ip -s link of lo as quoted in a GitHub issue (">$ ip -s link"): RX and TX. */
static void
test_text_linux_net_ip_s_link_lo(void **state)
{
	struct os_counters c = read_real("linux_ip-s-link_lo_iproute2-22.txt", 0);

	(void)state;
	assert_true(testutil_counter(&c, "if.lo.ipackets") == 2 && testutil_counter(&c, "if.lo.ibytes") == 100);
	assert_true(testutil_counter(&c, "if.lo.opackets") == 2 && testutil_counter(&c, "if.lo.odrops") == 0);
	assert_null(os_counters_get(&c, "nic.lo.rx_missed_errors"));
	os_counters_free(&c);
}

/* iproute2 5.x's header without its "N: IF:" line ("..." around it): nothing is guessed. */
static void
test_text_linux_net_ip_link_without_interface(void **state)
{
	struct os_counters c = read_real("linux_ip-s-link_newformat_cilium38391_partial.txt", -1);

	(void)state;
	assert_int_equal(c.n, 0);
	os_counters_free(&c);
}

/* ethtool -S after its command line: the drop counters kept under the interface it names. */
static void
test_text_linux_net_ethtool_S(void **state)
{
	struct os_counters c = read_real("linux_ethtool-S_eth0_be2net_ethq7_partial.txt", 0);

	(void)state;
	assert_true(testutil_counter(&c, "nic.eth0.rx_dropped_too_short") == 5710);
	assert_true(testutil_counter(&c, "nic.eth0.rx_dropped_header_too_small") == 1096);
	assert_true(testutil_counter(&c, "nic.eth0.rxpp_fifo_overflow_drop") == 0);
	/* what is not a drop is read, not kept; the last row, cut, is said */
	assert_null(os_counters_get(&c, "nic.eth0.rx_address_filtered"));
	assert_true(testutil_has_note(&c, "ethtool -S row cut short: '     rxq0: rx_bytes:'"));
	os_counters_free(&c);
	c = read_real("linux_ethtool-S_eth0_stmmac_cb2-21_partial.txt", 0);
	assert_true(testutil_has_note(&c, "1 used in part"));
	os_counters_free(&c);
}

/* "sudo ethtool -S IF" after a prompt names the interface too (text written for the test). */
static void
test_text_linux_net_ethtool_S_sudo(void **state)
{
	static const char text[] = "admin@router:~$ sudo ethtool -S enp1s0 | grep -v ': 0$'\n"
	    "NIC statistics:\n     rx_missed_errors: 12\n";
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	(void)state;
	assert_int_equal(os_counters_text_linux(text, strlen(text), "s.txt", &c, &cause), 0);
	assert_true(testutil_counter(&c, "nic.enp1s0.rx_missed_errors") == 12);
	os_counters_free(&c);
}

/* ethtool -S without the line naming its interface: skipped, said, never put on a guessed one. */
static void
test_text_linux_net_ethtool_S_without_interface(void **state)
{
	struct os_counters c = read_real("linux_ethtool-S_eth0_netdata988_partial.txt", -1);

	(void)state;
	assert_int_equal(c.n, 0);
	os_counters_free(&c);
}

/* nstat: its counters as snmp.NAME; the cut last row said. */
static void
test_text_linux_net_nstat(void **state)
{
	struct os_counters c = read_real("linux_nstat_telegraf1104_partial.txt", 0);

	(void)state;
	assert_true(testutil_counter(&c, "snmp.IpInReceives") == 510275104ULL);
	assert_true(testutil_counter(&c, "snmp.IpOutDiscards") == 2570);
	assert_true(testutil_counter(&c, "snmp.IcmpOutAddrMasks") == 6);
	assert_true(testutil_has_note(&c, "nstat row cut short: 'IcmpMsgInType0'"));
	os_counters_free(&c);
}

/* sar -n DEV: per-second rates as netstat -w's (ifw.IF.*), kB of 1024 bytes, with %ifutil too. */
static void
test_text_linux_net_sar_n_dev(void **state)
{
	struct os_counters c = read_real("linux_sar-n-DEV_em1-bond0_sysstat85_partial.txt", 0);

	(void)state;
	assert_true(testutil_counter(&c, "ifw.em1.ipackets") == 14212);
	assert_true(testutil_counter(&c, "ifw.em1.opackets") == 69997);
	assert_true(testutil_counter(&c, "ifw.em2.ibytes") == 440);	/* 0.43 kB/s */
	assert_true(testutil_counter(&c, "ifw.bond0.rows") == 1);
	assert_true(testutil_has_note(&c, "sar row cut short: 'Average:'"));
	os_counters_free(&c);
	c = read_real("linux_sar-n-DEV_eth2_ifutil_sysstat75.txt", 0);
	assert_true(testutil_counter(&c, "ifw.eth2.ipackets") == 133855);
	assert_true(testutil_counter(&c, "ifw.eth2.obytes") == 77957519);	/* 76130.39 x 1024 */
	os_counters_free(&c);
}

/* The blocks of several outputs one after another are each read by its content. */
static void
test_text_linux_net_blocks_one_after_another(void **state)
{
	static const char *const files[] = { "linux_ip-s-link_lo_iproute2-22.txt",
	    "linux_ethtool-S_eth0_be2net_ethq7_partial.txt", "linux_sar-n-DEV_eth2_ifutil_sysstat75.txt" };
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	struct strbuf sb;
	char path[512], *text, *cause = NULL;
	size_t i, len;

	(void)state;
	strbuf_init(&sb);
	for (i = 0; i < nitems(files); i++) {
		snprintf(path, sizeof path, REAL "%s", files[i]);
		assert_int_equal(util_read_file(path, &text, &len, NULL), 0);
		strbuf_add(&sb, text, len);
		strbuf_adds(&sb, "\n\n");
		free(text);
	}
	assert_int_equal(os_counters_text_linux(sb.buf, sb.len, "all.txt", &c, &cause), 0);
	assert_true(testutil_counter(&c, "if.lo.ipackets") == 2);
	assert_true(testutil_counter(&c, "nic.eth0.rx_dropped_too_short") == 5710);
	assert_true(testutil_counter(&c, "ifw.eth2.ipackets") == 133855);
	os_counters_free(&c);
	strbuf_free(&sb);
}

/* sar's columns end at another output's line: an mpstat row of as many columns is mpstat's (text written for the test). */
static void
test_text_linux_net_sar_then_mpstat(void **state)
{
	static const char text[] =
	    "15:54:04  IFACE  rxpck/s  txpck/s  rxkB/s  txkB/s  rxcmp/s  txcmp/s  rxmcst/s  %ifutil\n"
	    "15:54:05   eth2  1000.00  1000.00    1.00    1.00     0.00     0.00      0.00     0.01\n"
	    "12:00:01 AM  CPU  %usr  %nice  %sys  %iowait  %irq  %soft  %steal  %guest  %idle\n"
	    "12:00:02 AM    0  1.00   0.00  2.00     0.00  0.00  90.00    0.00    0.00   7.00\n";
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	(void)state;
	assert_int_equal(os_counters_text_linux(text, strlen(text), "m.txt", &c, &cause), 0);
	assert_true(testutil_counter(&c, "ifw.eth2.ipackets") == 1000);
	assert_null(os_counters_get(&c, "ifw.0.ipackets"));
	assert_non_null(os_counters_get(&c, "top.cpu.0.softirq"));
	os_counters_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_linux_net_ip_s_s_link_missed),
		cmocka_unit_test(test_text_linux_net_ip_s_link_lo),
		cmocka_unit_test(test_text_linux_net_ip_link_without_interface),
		cmocka_unit_test(test_text_linux_net_ethtool_S),
		cmocka_unit_test(test_text_linux_net_ethtool_S_sudo),
		cmocka_unit_test(test_text_linux_net_ethtool_S_without_interface),
		cmocka_unit_test(test_text_linux_net_nstat),
		cmocka_unit_test(test_text_linux_net_sar_n_dev),
		cmocka_unit_test(test_text_linux_net_blocks_one_after_another),
		cmocka_unit_test(test_text_linux_net_sar_then_mpstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
