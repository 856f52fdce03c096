/*
 * The Linux paste reader (src/os/text_linux.c). The texts below are written for the test in
 * the formats of the programs named (not copied from a box); real pastes are in
 * tests/fixtures/pastes/.
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

static struct os_counters
read_linux(const char *text, int want_rc)
{
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	assert_int_equal(os_counters_text_linux(text, strlen(text), "l.txt", &c, &cause), want_rc);
	if (want_rc != 0)
		assert_non_null(strstr(cause, "l.txt: nothing could be read: expected Linux output"));
	free(cause);
	return c;
}

/* /proc/stat (USER_HZ ticks), softnet_stat (hex, CPU in column 13), /proc/net/dev, /proc/interrupts. */
static void
test_os_counters_text_linux_reads_proc_files(void **state)
{
	static const char text[] =
	    "user@gw:~$ cat /proc/stat /proc/net/softnet_stat\n"
	    "cpu  300 0 200 1000 5 0 400 0 0 0\n"
	    "cpu0 100 0 100 100 5 0 400 0 0 0\n"
	    "cpu1 200 0 100 900 0 0 0 0 0 0\n"
	    "intr 123456 0 0\n"
	    "ctxt 4242\n"
	    "00001000 00000002 00000003 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	    "00000010 00000000 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000002\n"
	    "Inter-|   Receive                                                |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	    "  eth0: 1000 10 1 2 3 0 0 0 2000 20 0 4 0 0 0 0\n"
	    "           CPU0       CPU1\n"
	    "  45:        100        200   PCI-MSI 524288-edge      eth0-TxRx-0\n"
	    " NMI:          0          0   Non-maskable interrupts\n";
	struct os_counters c = read_linux(text, 0);

	(void)state;
	assert_int_equal(testutil_counter(&c, "cpu.0.softirq"), 400);
	assert_int_equal(testutil_counter(&c, "cpu.1.idle"), 900);
	assert_int_equal(testutil_counter(&c, "cpu.0.iowait"), 5);
	assert_int_equal(testutil_counter(&c, "softnet.cpu0.processed"), 4096);
	assert_int_equal(testutil_counter(&c, "softnet.cpu0.dropped"), 2);
	assert_int_equal(testutil_counter(&c, "softnet.cpu2.processed"), 16);
	assert_int_equal(testutil_counter(&c, "if.eth0.idrops"), 5);
	assert_int_equal(testutil_counter(&c, "if.eth0.opackets"), 20);
	assert_int_equal(testutil_counter(&c, "irq.eth0.rxtx0"), 300);
	assert_int_equal(testutil_counter(&c, "irq.eth0.rxtx0.cpu1"), 200);
	assert_true(testutil_has_note(&c, "l.txt: 1 line skipped, 0 used in part (l.txt:1 a prompt or command"));
	os_counters_free(&c);
	/* /proc/interrupts of 40 CPUs: rows longer than the other outputs' */
	{
		struct strbuf sb;
		int k;

		strbuf_init(&sb);
		for (k = 0; k < 40; k++)
			strbuf_addf(&sb, "%sCPU%d", k == 0 ? "           " : "       ", k);
		strbuf_adds(&sb, "\n  45:");
		for (k = 0; k < 40; k++)
			strbuf_addf(&sb, " %10d", k == 39 ? 7 : 0);
		strbuf_adds(&sb, "   PCI-MSI 524288-edge      eth0-TxRx-0\n");
		c = read_linux(sb.buf, 0);
		assert_int_equal(testutil_counter(&c, "irq.eth0.rxtx0.cpu39"), 7);
		os_counters_free(&c);
		strbuf_free(&sb);
	}
	/* a paste cut inside its last softnet_stat row: the row's whole words are used */
	c = read_linux("00001000 00000002 00000003 00000000\n00000010 00000000 00000001 000\n", 0);
	assert_int_equal(testutil_counter(&c, "softnet.cpu1.processed"), 16);
	assert_true(testutil_has_note(&c, "l.txt: 0 lines skipped, 1 used in part (l.txt:2 softnet_stat row "
	    "cut short, its whole words used"));
	os_counters_free(&c);
}

/* procps top: %Cpu(s) alone is the box as one CPU; with `1` each %CpuN line; the last display wins. */
static void
test_os_counters_text_linux_reads_procps_top(void **state)
{
	static const char one[] =
	    "top - 10:23:03 up 3 days,  2:01,  1 user,  load average: 0.00, 0.01, 0.05\n"
	    "Tasks: 123 total,   1 running, 122 sleeping,   0 stopped,   0 zombie\n"
	    "%Cpu(s):  0.3 us,  0.2 sy,  0.0 ni, 49.5 id,  0.0 wa,  0.0 hi, 50.0 si,  0.0 st\n"
	    "MiB Mem :   7951.1 total,   6000.0 free,    951.1 used,   1000.0 buff/cache\n"
	    "MiB Swap:      0.0 total,      0.0 free,      0.0 used.   6700.0 avail Mem\n"
	    "\n"
	    "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n"
	    "     13 root      20   0       0      0      0 R  99.0   0.0   9:01.23 ksoftirqd/0\n";
	static const char per_cpu[] =
	    "top - 10:23:03 up 3 days,  2:01,  1 user,  load average: 0.00, 0.01, 0.05\n"
	    "%Cpu0  :  0.0 us,  0.0 sy,  0.0 ni,  0.0 id,  0.0 wa,  1.0 hi, 99.0 si,  0.0 st\n"
	    "%Cpu1  :  1.0 us,  1.0 sy,  0.0 ni, 98.0 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st\n"
	    "Cpu2  :  2.0%us,  1.0%sy,  0.0%ni, 97.0%id,  0.0%wa,  0.0%hi,  0.0%si,  0.0%st\n";
	struct os_counters c = read_linux(one, 0);

	(void)state;
	assert_int_equal(testutil_counter(&c, "top.cpu.0.softirq"), 500);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.idle"), 495);
	assert_null(os_counters_get(&c, "top.cpu.1.idle"));
	assert_true(testutil_has_note(&c, "no per-CPU lines: the CPU line of all CPUs (49.5% idle) read as"));
	/* the softirq thread of CPU 0 in the process list: CPU 0 is full, whatever the average */
	assert_int_equal(testutil_counter(&c, "kthr.ksoftirqd.0.pct10"), 990);
	assert_int_equal(testutil_counter(&c, "kthr.ksoftirqd.0.cpu"), 0);
	os_counters_free(&c);
	c = read_linux(per_cpu, 0);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.softirq"), 990);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.interrupt"), 10);
	assert_int_equal(testutil_counter(&c, "top.cpu.1.idle"), 980);
	assert_int_equal(testutil_counter(&c, "top.cpu.2.user"), 20);
	assert_int_equal(c.nnotes, 0);
	os_counters_free(&c);
}

/* BusyBox top (OpenWrt) and mpstat -P ALL; a paste of neither is refused naming the file. */
static void
test_os_counters_text_linux_reads_busybox_top_and_mpstat(void **state)
{
	static const char busybox[] =
	    "Mem: 53824K used, 69340K free, 1220K shrd, 4000K buff, 15796K cached\n"
	    "CPU:   0% usr   2% sys   0% nic   1% idle   0% io   0% irq  96% sirq\n"
	    "Load average: 0.52 0.34 0.28 2/54 1234\n"
	    "  PID  PPID USER     STAT   VSZ %VSZ %CPU COMMAND\n"
	    "    3     2 root     SW       0   0%  95% [ksoftirqd/0]\n";
	static const char mpstat[] =
	    "Linux 5.15.0-91-generic (gw) \t01/02/24 \t_x86_64_\t(2 CPU)\n"
	    "\n"
	    "10:23:03 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"
	    "10:23:04 AM  all    0.50    0.00    0.50    0.00    0.00   49.00    0.00    0.00    0.00   50.00\n"
	    "10:23:04 AM    0    0.00    0.00    0.00    0.00    0.00  100.00    0.00    0.00    0.00    0.00\n"
	    "Average:       1    1.00    0.00    1.00    0.00    0.00    0.00    0.00    0.00    0.00   98.00\n";
	struct os_counters c = read_linux(busybox, 0);

	(void)state;
	assert_int_equal(testutil_counter(&c, "top.cpu.0.softirq"), 960);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.idle"), 10);
	assert_int_equal(testutil_counter(&c, "kthr.ksoftirqd.0.pct10"), 950);
	os_counters_free(&c);
	c = read_linux(mpstat, 0);
	assert_int_equal(testutil_counter(&c, "top.cpu.0.softirq"), 1000);
	assert_int_equal(testutil_counter(&c, "top.cpu.1.idle"), 980);
	os_counters_free(&c);
	c = read_linux("CPU 0:  0.0% user,  0.0% nice,  0.3% system, 56.3% interrupt, 43.4% idle\n", -1);
	os_counters_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_os_counters_text_linux_reads_proc_files),
		cmocka_unit_test(test_os_counters_text_linux_reads_procps_top),
		cmocka_unit_test(test_os_counters_text_linux_reads_busybox_top_and_mpstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
