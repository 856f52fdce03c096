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

static void
test_os_top_cpu_line_reads_the_five_states_and_refuses_a_cut_line(void **state)
{
	double v[5];
	int cpu;

	(void)state;
	assert_int_equal(os_top_cpu_line("CPU 5:  5.9% user,  0.0% nice,  3.9% system, 87.8% "
	    "interrupt,  2.4% idle", &cpu, v), 1);
	assert_int_equal(cpu, 5);
	assert_true(v[3] > 87.79 && v[3] < 87.81 && v[4] > 2.39 && v[4] < 2.41);
	assert_int_equal(os_top_cpu_line("CPU 1:   0.0% user,  0.0% nice,  0.0% system,  0.0% "
	    "interrupt,  100% idle", &cpu, v), 1);
	assert_true(v[4] == 100);
	assert_int_equal(os_top_cpu_line("CPU 2:   0.0% user,  0.0% nice,  0", &cpu, v), -1);
	assert_int_equal(os_top_cpu_line("CPU:  2.0% user,  0.0% nice,  1.0% system", &cpu, v), 0);
	assert_int_equal(os_top_cpu_line("CPU 0: 120.0% user, 0.0% nice, 0.0% system, 0.0% "
	    "interrupt, 0.0% idle", &cpu, v), -1);
}

static void
test_os_top_thread_row_takes_cpu_wcpu_and_the_command_with_spaces(void **state)
{
	struct os_top_cols cols;
	struct os_top_thread th;

	(void)state;
	assert_int_equal(os_top_thread_head("  PID USERNAME    PRI NICE   SIZE    RES STATE    C   "
	    "TIME    WCPU COMMAND", &cols), 1);
	assert_int_equal(cols.c, 7);
	assert_int_equal(cols.wcpu, 9);
	assert_int_equal(os_top_thread_row("   12 root        -64    -     0B   640K WAIT     1   "
	    "0:10  19.89% intr{swi1: netisr 1}", &cols, &th), 1);
	assert_int_equal(th.cpu, 1);
	assert_true(th.pct > 19.88 && th.pct < 19.9);
	assert_string_equal(th.command, "intr{swi1: netisr 1}");
	assert_int_equal(os_top_thread_row("   12 root  -64", &cols, &th), -1);
	assert_int_equal(os_top_thread_row("   12 root        -64    -     0B   640K WAIT     1   "
	    "0:10  19.89 intr", &cols, &th), -1);
	/* top without -P has no C column */
	assert_int_equal(os_top_thread_head("  PID USERNAME  THR PRI NICE   SIZE    RES STATE    "
	    "TIME    WCPU COMMAND", &cols), 1);
	assert_int_equal(cols.c, -1);
}

static void
test_os_top_thread_kind_names_queue_netisr_and_iflib_threads(void **state)
{
	char a[64], b[64];

	(void)state;
	assert_int_equal(os_top_thread_kind("[intr{irq264: ix0:rxq0}]", a, sizeof a, b, sizeof b),
	    OS_TOP_QUEUE);
	assert_string_equal(a, "ix0");
	assert_string_equal(b, "rxq0");
	assert_int_equal(os_top_thread_kind("intr{irq28: virtio_pci1}", a, sizeof a, b, sizeof b),
	    OS_TOP_QUEUE);
	assert_string_equal(a, "virtio_pci1");
	assert_string_equal(b, "irq28");
	assert_int_equal(os_top_thread_kind("intr{swi1: netisr 3}", a, sizeof a, b, sizeof b),
	    OS_TOP_NETISR);
	assert_string_equal(a, "3");
	assert_int_equal(os_top_thread_kind("[kernel{if_io_tqg_11}]", a, sizeof a, b, sizeof b),
	    OS_TOP_IFLIB);
	assert_string_equal(a, "11");
	assert_int_equal(os_top_thread_kind("kernel{igb0 que}", a, sizeof a, b, sizeof b),
	    OS_TOP_QUEUE);
	assert_string_equal(a, "igb0");
	assert_string_equal(b, "que");
	assert_int_equal(os_top_thread_kind("kernel{dummy que}", a, sizeof a, b, sizeof b), 0);
	assert_int_equal(os_top_thread_kind("idle{idle: cpu3}", a, sizeof a, b, sizeof b), 0);
	assert_int_equal(os_top_thread_kind("intr{swi4: clock (0)}", a, sizeof a, b, sizeof b), 0);
	assert_int_equal(os_top_thread_kind("kernel{if_config_tqg_0}", a, sizeof a, b, sizeof b), 0);
	assert_int_equal(os_top_thread_kind("top -aSHP", a, sizeof a, b, sizeof b), 0);
}

static struct os_counters
read_text(const char *text, int want_rc, const char *want_cause)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	assert_int_equal(os_counters_text(text, strlen(text), "t.txt", &c, &cause), want_rc);
	if (want_cause != NULL) {
		assert_non_null(cause);
		if (strstr(cause, want_cause) == NULL)
			fail_msg("'%s' does not contain '%s'", cause, want_cause);
	}
	free(cause);
	return c;
}

/* Two displays: the last one is what counts, a thread gone from it is gone. */
static void
test_os_counters_text_reads_top_displays_the_last_one_wins(void **state)
{
	static const char text[] =
	    "last pid:  1986;  load averages:  1.31,  0.79,  0.37  up 0+00:09:01    10:23:03\n"
	    "158 threads:   7 running, 108 sleeping, 43 waiting\n"
	    "CPU 0:  0.0% user,  0.0% nice,  0.3% system, 56.3% interrupt, 43.4% idle\n"
	    "Mem: 12M Active, 2416K Inact, 127M Wired, 27M Buf, 1816M Free\n"
	    "\n"
	    "  PID USERNAME    PRI NICE   SIZE    RES STATE    C   TIME    WCPU COMMAND\n"
	    "   12 root        -64    -     0B   640K WAIT     0   0:26  21.00% intr{irq28: ix0:rxq0}\n"
	    "   12 root        -60    -     0B   640K WAIT     1   0:10  19.89% intr{swi1: netisr 1}\n"
	    "\n"
	    "last pid:  1997;  load averages:  1.45,  0.82,  0.38  up 0+00:09:06    10:23:08\n"
	    "CPU 0:  1.9% user,  0.0% nice,  7.1% system, 51.8% interrupt, 39.2% idle\n"
	    "  PID USERNAME    PRI NICE   SIZE    RES STATE    C   TIME    WCPU COMMAND\n"
	    "    0 root        -76    -     0B   736K CPU0     0 612:40  98.63% [kernel{if_io_tqg_0}]\n";
	struct os_counters c = read_text(text, 0, NULL);

	(void)state;
	assert_int_equal(testutil_counter(&c, "top.cpu.0.interrupt"), 518);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.idle"), 392);
	assert_int_equal(testutil_counter(&c, "kthr.if_io_tqg.0.pct10"), 986);
	assert_int_equal(testutil_counter(&c, "kthr.if_io_tqg.0.cpu"), 0);
	assert_null(os_counters_get(&c, "ithr.ix0.rxq0.pct10"));
	assert_null(os_counters_get(&c, "kthr.netisr.1.pct10"));
	assert_true(os_counters_get(&c, "top.cpu.0.idle")->gauge);
	os_counters_free(&c);
}

static void
assert_note(const struct os_counters *c, const char *want)
{
	size_t i;

	for (i = 0; i < c->nnotes; i++)
		if (strstr(c->notes[i], want) != NULL)
			return;
	fail_msg("no note contains '%s' (%zu notes%s%s)", want, c->nnotes,
	    c->nnotes > 0 ? ", the first: " : "", c->nnotes > 0 ? c->notes[0] : "");
}

/* A cut CPU line: with its interrupt share the rest is idle (used in part); before it, skipped. */
static void
test_os_counters_text_uses_a_cut_top_line_as_far_as_it_goes(void **state)
{
	struct os_counters c;

	(void)state;
	c = read_text("CPU 0:  0.0% user,  0.0% nice,  0.3% system, 56.3% interrupt, 43.4% idle\n"
	    "CPU 1:  0.0% user,  0.0% nice,  0\n"
	    "CPU 2:  1.0% user,  0.0% nice, 19.0% system, 70.0% interrupt,  10\n", 0, NULL);
	assert_null(os_counters_get(&c, "top.cpu.1.idle"));
	assert_int_equal(testutil_counter(&c, "top.cpu.2.idle"), 100);
	assert_int_equal(c.nnotes, 1);
	assert_note(&c, "t.txt: 1 line skipped, 1 used in part (t.txt:2 top CPU line cut short "
	    "before its interrupt share: 'CPU 1:");
	assert_note(&c, "t.txt:3 top CPU line cut short, idle taken as the rest of 100%");
	os_counters_free(&c);
	c = read_text("  PID USERNAME    PRI NICE   SIZE    RES STATE    C   TIME    WCPU COMMAND\n"
	    "   12 root        -64    -     0B   640K WAIT     0   0:26  21.00\n", 0, NULL);
	assert_note(&c, "t.txt:2 top thread row without the columns of its header");
	os_counters_free(&c);
}

/* What people paste: prompt lines, top -C, vmstat -i | grep, top -aSH without -P. */
static void
test_os_counters_text_reads_a_forum_paste(void **state)
{
	static const char text[] =
	    "[root@fw]~# vmstat -i | grep igb\n"
	    "irq262: igb2:que 0               123456       4000\n"
	    "irq263: igb2:que 1               123457       3000\n"
	    "root@OPNsense:~ # top -aSH -C\n"
	    "last pid: 1986;  load averages:  1.31,  0.79,  0.37  up 0+00:09:01    10:23:03\n"
	    "CPU:  2.1% user,  0.0% nice, 50.3% system, 46.2% interrupt,  1.4% idle\n"
	    "\n"
	    "  PID USERNAME    PRI NICE   SIZE    RES STATE    C   TIME     CPU COMMAND\n"
	    "   12 root        -92    -     0B   640K WAIT     1   0:26  91.00% [intr{irq262: igb2:que}]\n"
	    "   12 root        -92    -     0B   640K WAIT     2   0:26  81.00% [intr{irq263: igb2:que}]\n"
	    "    0 root        -92    -     0B   640K -        0   9:26  94.00% [kernel{em1 taskq}]\n";
	struct os_counters c = read_text(text, 0, NULL);

	(void)state;
	assert_int_equal(testutil_counter(&c, "irq.igb2.que0"), 123456);
	assert_int_equal(testutil_counter(&c, "irq.igb2.que1"), 123457);
	/* top cut the queue names: each queue apart, by its interrupt */
	assert_int_equal(testutil_counter(&c, "ithr.igb2.irq262.pct10"), 910);
	assert_int_equal(testutil_counter(&c, "ithr.igb2.irq263.pct10"), 810);
	assert_int_equal(testutil_counter(&c, "ithr.em1.taskq.pct10"), 940);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.idle"), 14);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.interrupt"), 462);
	assert_note(&c, "t.txt: top without -P: its CPU: line (1.4% idle");
	assert_note(&c, "t.txt: 2 lines skipped, 0 used in part (t.txt:1 a prompt or command line: "
	    "'[root@fw]~# vmstat -i | grep igb'; t.txt:4 a prompt or command line");
	os_counters_free(&c);
}

/* Nothing read: -1 naming the file and what a FreeBSD paste holds. */
static void
test_os_counters_text_refuses_a_file_with_nothing_to_read(void **state)
{
	struct os_counters c;

	(void)state;
	c = read_text("hello\n\nworld\n", -1, "t.txt: nothing could be read: expected "
	    "FreeBSD/OPNsense/pfSense output: sysctl, vmstat -i");
	os_counters_free(&c);
}

/*
 * Real rows (BSDRP's X540 forwarding lab, FreeBSD 10.0, top -nCHSIzs1, bsdrp.net
 * documentation/examples/forwarding-performance-lab-of-an-ibm-system-x3550-m3-with-10-gigabit-
 * intel-x540-at2): four kernel{ix0 que} tasks of one name are four threads, not one.
 */
static void
test_os_counters_text_counts_same_named_queue_tasks_each(void **state)
{
	static const char text[] =
	    "  PID USERNAME PRI NICE   SIZE    RES STATE   C   TIME     CPU COMMAND\n"
	    "   11 root     -92    -     0K   816K WAIT    0  12:32  50.20% intr{irq258: ix0:que }\n"
	    "    0 root     -92    0     0K   560K CPU1    1  11:27  46.97% kernel{ix0 que}\n"
	    "    0 root     -92    0     0K   560K CPU0    0  11:15  46.58% kernel{ix0 que}\n"
	    "    0 root     -92    0     0K   560K CPU2    2  11:19  45.26% kernel{ix0 que}\n"
	    "    0 root     -92    0     0K   560K -       0  10:12  41.80% kernel{ix0 que}\n";
	struct os_counters c = read_text(text, 0, NULL);

	(void)state;
	assert_int_equal(testutil_counter(&c, "ithr.ix0.que.pct10"), 470);
	assert_int_equal(testutil_counter(&c, "ithr.ix0.que_b.pct10"), 466);
	assert_int_equal(testutil_counter(&c, "ithr.ix0.que_b.cpu"), 0);
	assert_int_equal(testutil_counter(&c, "ithr.ix0.que_c.pct10"), 453);
	assert_int_equal(testutil_counter(&c, "ithr.ix0.que_d.pct10"), 418);
	assert_int_equal(testutil_counter(&c, "ithr.ix0.irq258.pct10"), 502);
	assert_null(os_counters_get(&c, "ncpu"));	/* a C column: SMP, the count unknown */
	os_counters_free(&c);
}

/*
 * Real rows (BSDRP on an IBM eServer 306m, one CPU, FreeBSD 9.1, top -nCHSIzs1, bsdrp.net
 * documentation/examples/ibm-eserver-306m-with-intel-82546gb): no C column, one CPU.
 */
static void
test_os_counters_text_reads_one_cpu_from_a_top_without_c(void **state)
{
	static const char text[] =
	    "  PID USERNAME PRI NICE   SIZE    RES STATE    TIME    CPU COMMAND\n"
	    "    0 root     -92    0     0K   176K -        9:30 93.65% kernel{em1 taskq}\n"
	    "    0 root     -92    0     0K   176K -        0:27  3.76% kernel{em0 taskq}\n";
	struct os_counters c = read_text(text, 0, NULL);

	(void)state;
	assert_int_equal(testutil_counter(&c, "ncpu"), 1);
	assert_int_equal(testutil_counter(&c, "ithr.em1.taskq.pct10"), 937);
	assert_int_equal(testutil_counter(&c, "ithr.em1.taskq.cpu"), 0);
	assert_note(&c, "no C column: one active CPU");
	os_counters_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_os_top_cpu_line_reads_the_five_states_and_refuses_a_cut_line),
		cmocka_unit_test(test_os_top_thread_row_takes_cpu_wcpu_and_the_command_with_spaces),
		cmocka_unit_test(test_os_top_thread_kind_names_queue_netisr_and_iflib_threads),
		cmocka_unit_test(test_os_counters_text_reads_top_displays_the_last_one_wins),
		cmocka_unit_test(test_os_counters_text_uses_a_cut_top_line_as_far_as_it_goes),
		cmocka_unit_test(test_os_counters_text_reads_a_forum_paste),
		cmocka_unit_test(test_os_counters_text_refuses_a_file_with_nothing_to_read),
		cmocka_unit_test(test_os_counters_text_counts_same_named_queue_tasks_each),
		cmocka_unit_test(test_os_counters_text_reads_one_cpu_from_a_top_without_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
