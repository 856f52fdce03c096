/*
 * One FreeBSD sample (issue 33 item 3): what it holds is os.h's OS_FBSD_SAMPLE, and doctor's
 * capture, live diagnose and bench's per-run counters run that list (a Linux one: the files of
 * OS_LINUX_SAMPLE_FILES, which the capture prints); CPU busy from tick
 * counters is one computation (os_cpu_ticks), whatever read the ticks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "os/os.h"
#include "os/os_impl.h"
#include "dut/dut.h"
#include "remote/capture.h"
#include "remote/remote.h"
#include "util/util.h"
#include "testutil.h"

/* The commands of the one list, one a line, without their "2>/dev/null". */
static char *
the_list(void)
{
	char *s = xstrdup(OS_FBSD_SAMPLE(";")), *p, *q;
	struct strbuf sb;

	strbuf_init(&sb);
	for (p = strtok(s, ";"); p != NULL; p = strtok(NULL, ";")) {
		while (*p == ' ')
			p++;
		if ((q = strstr(p, " 2>/dev/null")) != NULL)
			*q = '\0';
		strbuf_addf(&sb, "%s\n", p);
	}
	free(s);
	return strbuf_detach(&sb);
}

/* The capture script's bsd_counters (before.txt, after.txt) is the list, each command's status kept. */
static void
test_sample_capture_bsd_counters_is_the_list(void **state)
{
	char *script = capture_script(5), *body, *p, *want = OS_FBSD_SAMPLE(" || r=$?\n\t") "\n";
	const char *b, *e;

	(void)state;
	b = strstr(script, "bsd_counters() {\n\tr=0\n\t");
	assert_non_null(b);
	b += strlen("bsd_counters() {\n\tr=0\n\t");
	e = strstr(b, "\treturn $r\n}");
	assert_non_null(e);
	xasprintf(&body, "%.*s", (int)(e - b), b);
	assert_string_equal(body, want);
	/* and every command of the list is there, in its order */
	p = the_list();
	assert_non_null(strstr(p, "sysctl kern.cp_times\nnetstat -ibnd\nvmstat -i\nnetstat -Q\n"));
	assert_non_null(strstr(p, "\nnetstat -m\npfctl -si\npfctl -sm\n"));
	free(p);
	free(body);
	free(script);
}

/* The capture's linux_counters prints the Linux sample's files in their order, the optional one when there. */
static void
test_sample_capture_linux_counters_prints_the_files(void **state)
{
	static const char *const dirs[] = { "", "/proc", "/proc/net" };
	static const char *const files[] = { "proc/stat", "proc/net/dev", "proc/interrupts",
	    "proc/net/softnet_stat" };
	char *script = capture_script(5), *body, *cmd, path[512], out[256];
	const char *b, *e;
	size_t i, n;
	FILE *f;

	(void)state;
	for (i = 0; i < nitems(dirs); i++) {
		snprintf(path, sizeof path, "%s/root%s", testutil_tmpdir, dirs[i]);
		assert_int_equal(util_mkdir(path, NULL), 0);
	}
	for (i = 0; i < nitems(files); i++) {
		snprintf(path, sizeof path, "%s/root/%s", testutil_tmpdir, files[i]);
		assert_non_null(f = fopen(path, "w"));
		fprintf(f, "%zu\n", i);
		fclose(f);
	}
	assert_non_null(strstr(OS_LINUX_SAMPLE_FILES " " OS_LINUX_SAMPLE_OPTIONAL,
	    "/proc/stat /proc/net/dev /proc/interrupts /proc/net/softnet_stat"));
	assert_non_null(b = strstr(script, "linux_counters() {\n"));
	assert_non_null(e = strstr(b, "\n}\n"));
	xasprintf(&body, "%.*s", (int)(e + 3 - b), b);
	xasprintf(&cmd, "R='%s/root'; %s linux_counters", testutil_tmpdir, body);
	assert_non_null(f = popen(cmd, "r"));
	n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	assert_int_equal(pclose(f), 0);
	assert_string_equal(out, "0\n1\n2\n3\n");
	free(cmd);
	free(body);
	free(script);
}

/* Live diagnose on FreeBSD runs the list: stand-ins on PATH log what they are asked. */
static void
test_sample_live_runs_the_list(void **state)
{
	static const char *const cmds[] = { "sysctl", "netstat", "vmstat", "pfctl" };
	struct os_counters c = { 0 };
	char path[512], log[512], *cause = NULL, *got, *want, *oldpath;
	size_t i, len;
	FILE *f;

	(void)state;
	snprintf(log, sizeof log, "%s/log", testutil_tmpdir);
	for (i = 0; i < nitems(cmds); i++) {
		snprintf(path, sizeof path, "%s/%s", testutil_tmpdir, cmds[i]);
		assert_non_null(f = fopen(path, "w"));
		fprintf(f, "#!/bin/sh\necho \"%s $*\" >>'%s'\n", cmds[i], log);
		fclose(f);
		assert_int_equal(chmod(path, 0755), 0);
	}
	oldpath = xstrdup(getenv("PATH"));
	snprintf(path, sizeof path, "%s:%s", testutil_tmpdir, oldpath);
	setenv("PATH", path, 1);
	os_fbsd_counters(NULL, &c, &cause);
	setenv("PATH", oldpath, 1);
	free(cause);
	os_counters_free(&c);
	assert_int_equal(util_read_file(log, &got, &len, NULL), 0);
	want = the_list();
	assert_string_equal(got, want);
	free(want);
	free(got);
	free(oldpath);
}

/* bench's per-run counters of a FreeBSD DUT: kern.cp_times and netstat -ibnd by the readers. */
static void
test_sample_remote_counters_fbsd(void **state)
{
	struct dut_counters c;
	char *text, *out, *cause = NULL;
	size_t len;

	(void)state;
	assert_int_equal(util_read_file(FIXTURES "/doctor/seed000/before.txt", &text, &len, NULL), 0);
	xasprintf(&out, "boot_id { sec = 1733390000, usec = 0 }\n%s", text);
	assert_int_equal(dut_counters_parse(out, "ax0", "ax1", &c, "ssh://dut", &cause), 0);
	assert_string_equal(c.boot_id, "{ sec = 1733390000, usec = 0 }");
	assert_true(c.in_rx == 81234567890ULL && c.in_drop == 0);
	assert_true(c.out_tx == 81234500002ULL && c.out_drop == 0);
	assert_int_equal(c.ncpu, 8);
	/* CPU 0: user nice sys intr idle = 2811301 0 9123401 30112023 290001234 */
	assert_true(c.cpu[0].total == 2811301ULL + 9123401 + 30112023 + 290001234);
	assert_true(c.cpu[0].busy == 2811301ULL + 9123401 + 30112023);
	dut_counters_free(&c);
	assert_int_equal(dut_counters_parse(out, "ax0", "igb9", &c, "ssh://dut", &cause), -1);
	assert_string_equal(cause, "ssh://dut has no interface 'igb9'");
	free(cause);
	free(out);
	free(text);
}

/* A Linux DUT: /sys's counters, /proc/stat's ticks; guest time is not counted twice. */
static void
test_sample_remote_counters_linux(void **state)
{
	static const char out[] = "boot_id 6f1c\nif dut0 10 1 20 2\nif dut1 30 3 40 4\n"
	    "cpu0 100 5 50 800 10 3 7 2 9 9\ncpu1 1 2 3 4 5 6 7 8 0 0\n";
	struct dut_counters c;
	char *cause = NULL;

	(void)state;
	assert_int_equal(dut_counters_parse(out, "dut0", "dut1", &c, "ssh://dut", &cause), 0);
	assert_string_equal(c.boot_id, "6f1c");
	assert_true(c.in_rx == 10 && c.in_drop == 1 && c.out_tx == 40 && c.out_drop == 4);
	assert_int_equal(c.ncpu, 2);
	assert_true(c.cpu[0].total == 977 && c.cpu[0].busy == 977 - 800 - 10);
	assert_true(c.cpu[1].total == 36 && c.cpu[1].busy == 36 - 4 - 5);
	dut_counters_free(&c);
	/* a hostile DUT's huge ticks: summed modulo 2^64 as the kernel's counters wrap, no float cast */
	assert_int_equal(dut_counters_parse("boot_id b\nif dut0 1 1 1 1\nif dut1 1 1 1 1\n"
	    "cpu0 18446744073709551615 18446744073709551615 0 1 0 0 0 0\n", "dut0", "dut1", &c,
	    "ssh://dut", &cause), 0);
	assert_true(c.cpu[0].total == 18446744073709551615ULL && c.cpu[0].busy == 18446744073709551614ULL);
	dut_counters_free(&c);
}

/* The one computation: busy is all but idle and iowait; an absent (negative) state is none. */
static void
test_sample_cpu_ticks(void **state)
{
	double v[OS_CPU_STATES] = { 10, 0, 20, 5, 5, 50, 10, -1 }, busy;
	struct os_cpu_times a = { 0 }, b = { .user = 30, .system = 10, .idle = 50, .iowait = 10 };

	(void)state;
	assert_true(os_cpu_ticks(v, &busy) == 100 && busy == 40);
	assert_true(os_cpu_busy_pct(&a, &b) == 40);
	assert_true(os_cpu_busy_pct(&b, &b) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_capture_bsd_counters_is_the_list),
		cmocka_unit_test(test_sample_capture_linux_counters_prints_the_files),
		cmocka_unit_test(test_sample_live_runs_the_list),
		cmocka_unit_test(test_sample_remote_counters_fbsd),
		cmocka_unit_test(test_sample_remote_counters_linux),
		cmocka_unit_test(test_sample_cpu_ticks),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
