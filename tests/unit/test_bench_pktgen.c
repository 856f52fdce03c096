/*
 * The reader of pkt-gen's summary line (src/bench/remote_pktgen.c). The
 * outputs are built from the format strings of tx_output and main() in
 * luigirizzo/netmap apps/pkt-gen/pkt-gen.c (lines 2448, 2454, 2468, 3316-3329).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/dut_bench_impl.h"

static const char tx_out[] =
    "Sending on netmap:ix0: 8 queues, 1 threads and 1 cpus.\n"
    "198.18.0.1 -> 198.19.0.2:9 (00:1b:21:aa:bb:01 -> 00:1b:21:aa:bb:02)\n"
    "Sent 30000 packets 1800000 bytes 59 events 60 bytes each in 1.51 seconds.\n"
    "Speed: 19.868 Kpps Bandwidth: 9.536 Mbps (raw 9.536 Mbps). Average batch: 508.47 pkts\n";

static void
test_bench_pktgen_summary_reads_the_sent_line(void **state)
{
	struct bench_pktgen s;
	char *cause = NULL;

	(void)state;
	assert_int_equal(bench_pktgen_summary(tx_out, false, &s, &cause), 0);
	assert_null(cause);
	assert_false(s.nothing);
	assert_int_equal(s.packets, 30000);
	assert_int_equal(s.bytes, 1800000);
	assert_int_equal(s.events, 59);
	assert_int_equal(s.size, 60);
	assert_true(s.secs > 1.509 && s.secs < 1.511);
	assert_string_equal(s.line, "Sent 30000 packets 1800000 bytes 59 events 60 bytes each in 1.51 seconds.");
}

static void
test_bench_pktgen_summary_reads_received_with_crlf(void **state)
{
	struct bench_pktgen s;
	char *cause = NULL;

	(void)state;
	assert_int_equal(bench_pktgen_summary("Receiving from netmap:ix1: 8 queues, 1 threads and 1 cpus.\r\n"
	    "Received 27000 packets 1620000 bytes 60 events 60 bytes each in 2.49 seconds.\r\n", true, &s,
	    &cause), 0);
	assert_int_equal(s.packets, 27000);
	assert_true(s.secs > 2.489 && s.secs < 2.491);
}

static void
test_bench_pktgen_summary_reads_nothing_as_zero(void **state)
{
	struct bench_pktgen s;
	char *cause = NULL;

	(void)state;
	assert_int_equal(bench_pktgen_summary("Receiving from netmap:ix1: 1 queues, 1 threads and 1 cpus.\n"
	    "Received nothing.\n", true, &s, &cause), 0);
	assert_true(s.nothing);
	assert_int_equal(s.packets, 0);
	assert_int_equal(bench_pktgen_summary("Sent nothing.\n", false, &s, &cause), 0);
	assert_true(s.nothing);
}

static void
test_bench_pktgen_summary_wants_its_own_verb(void **state)
{
	struct bench_pktgen s;
	char *cause = NULL;

	(void)state;
	assert_int_equal(bench_pktgen_summary(tx_out, true, &s, &cause), -1);
	assert_non_null(strstr(cause, "no 'Received ...' summary line"));
	free(cause);
	cause = NULL;
	assert_int_equal(bench_pktgen_summary("", false, &s, &cause), -1);
	free(cause);
}

static void
test_bench_pktgen_summary_rejects_what_pkt_gen_never_prints(void **state)
{
	static const char *const bad[] = {
		"Sent 12 frames, more or less\n",
		"Sent 1 packets 60 bytes 1 events 60 bytes each in 1.00 seconds. and more\n",
		"Sent -5 packets 60 bytes 1 events 60 bytes each in 1.00 seconds.\n",
		"Sent 1 packets 60 bytes 1 events 60 bytes each in -1.00 seconds.\n",
		"Sent 1 packets 60 bytes 1 events 60 bytes each in nan seconds.\n",
		"Sent 1 packets 60 bytes 1 events 60 bytes each in 1.00 seconds\n",
		"Sent nothing at all.\n",
	};
	struct bench_pktgen s;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(bench_pktgen_summary(bad[i], false, &s, &cause), -1);
		assert_non_null(strstr(cause, "unexpected summary line 'Sent"));
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_pktgen_summary_reads_the_sent_line),
		cmocka_unit_test(test_bench_pktgen_summary_reads_received_with_crlf),
		cmocka_unit_test(test_bench_pktgen_summary_reads_nothing_as_zero),
		cmocka_unit_test(test_bench_pktgen_summary_wants_its_own_verb),
		cmocka_unit_test(test_bench_pktgen_summary_rejects_what_pkt_gen_never_prints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
