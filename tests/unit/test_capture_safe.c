/*
 * Nothing is written, chmodded or removed through a link (issue 33 item 7): files written
 * in a -o DIR where links were planted (util_write_file_in, bench's results directory), a
 * capture's tree after it was opened, a config.xml section filtered to its <sysctl> part.
 * A canary outside, of known content and mode, is compared after each.
 */
#include <sys/stat.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench/results.h"
#include "os/os.h"
#include "remote/capture.h"
#include "util/util.h"
#include "testutil.h"

static char outside[512], canary[600];

/* A fresh directory outside, holding canary ("canary\n", mode 0640). */
static void
make_canary(const char *name)
{
	FILE *f;

	snprintf(outside, sizeof outside, "%s/outside-%s", testutil_tmpdir, name);
	snprintf(canary, sizeof canary, "%s/canary", outside);
	assert_int_equal(mkdir(outside, 0755), 0);
	assert_non_null(f = fopen(canary, "w"));
	fputs("canary\n", f);
	fclose(f);
	assert_int_equal(chmod(canary, 0640), 0);
}

/* The canary as it was, and nothing else in its directory (n entries besides . and ..). */
static void
canary_same(size_t n)
{
	struct stat st;
	char *data, *cmd;
	size_t len;

	assert_int_equal(lstat(canary, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(util_read_file(canary, &data, &len, NULL), 0);
	assert_string_equal(data, "canary\n");
	free(data);
	xasprintf(&cmd, "test \"$(ls -A '%s' | wc -l)\" -eq %zu", outside, n);
	if (system(cmd) != 0)
		fail_msg("'%s' holds other than %zu files", outside, n);
	free(cmd);
}

static char *
dir_in_tmp(const char *name)
{
	char *d;

	xasprintf(&d, "%s/%s", testutil_tmpdir, name);
	assert_int_equal(mkdir(d, 0755), 0);
	return d;
}

/* A link DIR/link -> to planted, then DIR/name written: refused with want in the cause. */
static void
planted_write(const char *dir, const char *link, const char *to, const char *name,
    const char *want)
{
	char *p, *cause = NULL;

	xasprintf(&p, "%s/%s", dir, link);
	assert_int_equal(symlink(to, p), 0);
	assert_int_equal(util_write_text_at(dir, name, "planted\n", &cause), -1);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s', want '%s'", cause, want);
	free(cause);
	free(p);
}

/* -o DIR with a link planted as a file, as a directory, and a name climbing out. */
static void
test_write_in_planted_links(void **state)
{
	char *dir = dir_in_tmp("o"), *p, *cause = NULL;

	(void)state;
	make_canary("w");
	planted_write(dir, "doctor.json", canary, "doctor.json", "doctor.json': a symbolic link "
	    "(not written through)");
	planted_write(dir, "profiles", outside, "profiles/a.conf", "/profiles': a symbolic link "
	    "(not followed)");
	assert_int_equal(util_write_text_at(dir, "../outside-w/canary", "x\n", &cause), -1);
	free(cause);
	canary_same(1);
	/* a plain file: written, no temporary file left */
	assert_int_equal(util_write_text_at(dir, "plain.txt", "ok\n", &cause), 0);
	xasprintf(&p, "test \"$(ls -A '%s' | wc -l)\" -eq 3", dir);
	assert_int_equal(system(p), 0);
	free(p);
	free(dir);
}

/* bench -o DIR: a planted runs.jsonl, a planted profiles directory. */
static void
test_bench_results_planted_links(void **state)
{
	char *dir = dir_in_tmp("b"), *p, *cause = NULL;
	char *argv[] = { "bench" };

	(void)state;
	make_canary("b");
	xasprintf(&p, "%s/runs.jsonl", dir);
	assert_int_equal(symlink(canary, p), 0);
	assert_int_equal(bench_results_create(dir, "bench", 1, argv, &cause), -1);
	assert_non_null(strstr(cause, "runs.jsonl' is a symbolic link (no file is written"));
	free(cause);
	free(p);
	xasprintf(&p, "test \"$(ls -A '%s')\" = runs.jsonl", dir);	/* nothing half-written */
	assert_int_equal(system(p), 0);
	free(p);
	xasprintf(&p, "%s/runs.jsonl", dir);
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_int_equal(bench_results_create(dir, "bench", 1, argv, &cause), 0);
	xasprintf(&p, "%s/profiles", dir);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(symlink(outside, p), 0);	/* planted after the directory was checked */
	assert_int_equal(bench_results_profile(dir, "a", "x=1\n", &cause), -1);
	assert_non_null(strstr(cause, "/profiles': a symbolic link (not followed)"));
	free(cause);
	free(p);
	canary_same(1);
	free(dir);
}

/*
 * A capture's tree changed under it after it was opened (a link planted where the samples
 * go): doctor's sample is neither written through it nor is a file removed through it.
 */
static void
test_capture_sample_not_through_links(void **state)
{
	static const char tree[] = "::F /proc/stat\ncpu 1 2 3 4\n::F /proc/net/dev\nx\n";
	static const char sample[] = "cpu  1 2 3 4 5 6 7 8\ncpu0 1 2 3 4 5 6 7 8\n"
	    "Inter-|   Receive\n face |bytes\n  lo: 1 2 3\n           CPU0\n 30:  1  PCI-MSI eth0\n";
	struct capture_set set;
	struct os_ctx *ctx;
	char *cause = NULL, *p, *q;

	(void)state;
	make_canary("s");
	xasprintf(&p, "%s/softnet_stat", outside);
	assert_int_equal(util_write_file_atomic(p, "", 0, 0644, NULL), 0);
	free(p);
	memset(&set, 0, sizeof set);
	capture_set_add(&set, "uname.txt", "Linux h 6.1\n", 12, 0);
	capture_set_add(&set, "sysctl-a.txt", "kernel.x = 1\n", 13, 0);
	capture_set_add(&set, "linux-tree.txt", tree, strlen(tree), 0);
	if ((ctx = os_open_captures(&set, &cause)) == NULL)
		fail_msg("%s", cause);
	xasprintf(&p, "%s/proc/net", ctx->root);
	xasprintf(&q, "%s/proc/net.old", ctx->root);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(capture_linux_sample(ctx, "before.txt", sample, strlen(sample), &cause),
	    -1);
	assert_non_null(strstr(cause, "/proc/net': a symbolic link (not followed)"));
	free(cause);
	canary_same(2);		/* the canary and softnet_stat, no dev */
	os_close(ctx);
	capture_set_free(&set);
	free(p);
	free(q);
}

/* 0 when the tree's link at path is ../../../../bus/pci (the top's bus/pci), its driver under it. */
static int
readlink_in(struct os_ctx *ctx, const char *path)
{
	char *full, buf[256];
	ssize_t n;
	int rc;

	xasprintf(&full, "%s%s", ctx->root, path);
	n = readlink(full, buf, sizeof buf - 1);
	free(full);
	buf[n > 0 ? n : 0] = '\0';
	rc = strcmp(buf, strstr(path, "driver") != NULL ? "../../../../bus/pci/drivers/igb" :
	    "../../../../bus/pci");
	if (rc != 0)
		print_error("%s -> '%s'\n", path, buf);
	return rc;
}

/* Links that loop, or leave the tree only through another link: refused, naming the line. */
static void
test_capture_links_loop_or_chain(void **state)
{
	static const struct testutil_case bad[] = {
		{ "::L /sys/x/a -> b\n::L /sys/x/b -> a\n", "linux-tree.txt:1: a link out of the capture's tree (refused): '/sys/x/a -> b'" },
		{ "::L /sys/x/up -> ../..\n::L /proc/stat -> ../sys/x/up/../etc/passwd\n", "linux-tree.txt:2: a link out of the capture's tree (refused): '/proc/stat -> ../sys/x/up/../etc/passwd'" },
		{ "::L /sys/x/device -> y\n::L /sys/x/y -> ../../../../../dev/zero\n", "linux-tree.txt:1: a link out of the capture's tree (refused): '/sys/x/device -> y'" },
	};
	/* a device deeper in the box's /sys than in the tree: its driver link keeps its name */
	static const char good[] = "::D /sys/x/p/q\n::L /sys/x/up -> ..\n::L /sys/x/p/q/d -> ../../../x/up/x/p\n"
	    "::L /sys/x/p/q/driver -> ../../../../../../../../bus/pci/drivers/igb\n"
	    "::L /sys/x/p/q/subsystem -> ../../../../../../../../bus/pci\n";
	struct capture_set set;
	struct os_ctx *ctx;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i <= nitems(bad); i++) {
		memset(&set, 0, sizeof set);
		capture_set_add(&set, "uname.txt", "Linux h 6.1\n", 12, 0);
		capture_set_add(&set, "sysctl-a.txt", "kernel.x = 1\n", 13, 0);
		capture_set_add(&set, "linux-tree.txt", i < nitems(bad) ? bad[i].in : good,
		    strlen(i < nitems(bad) ? bad[i].in : good), 0);
		cause = NULL;
		ctx = os_open_captures(&set, &cause);
		if (i == nitems(bad)) {
			if (ctx == NULL)
				fail_msg("links that stay in the tree refused: %s", cause);
			assert_int_equal(readlink_in(ctx, "/sys/x/p/q/driver"), 0);
			assert_int_equal(readlink_in(ctx, "/sys/x/p/q/subsystem"), 0);
			os_close(ctx);
		} else if (ctx != NULL)
			fail_msg("case %zu was read", i);
		else if (strstr(cause, bad[i].want) == NULL)
			fail_msg("case %zu: '%s', want '%s'", i, cause, bad[i].want);
		free(cause);
		capture_set_free(&set);
	}
}

/* A config.xml section keeps its <sysctl> elements only, line numbers and all. */
static void
test_capture_config_xml_filtered(void **state)
{
	static const struct testutil_case xml[] = {
		{ "<opnsense><pw>S1</pw><sysctl><item>a</item></sysctl><k>S2</k></opnsense>\n", "<sysctl><item>a</item></sysctl>\n" },
		{ "  <sysctl>\n    <item>a</item>\n  </sysctl>\n", "  <sysctl>\n    <item>a</item>\n  </sysctl>\n" },
		{ "<a>S1</a>\n<sysctl/><b>S2</b>\n<sysctlx>S3</sysctlx>\n", "\n\n\n" },
		{ "<x>S1</x><sysctl version=\"1\"><item>a</item>\n<pw>S2</pw>\n", " \n\n" },
		{ "<x>S1</x><sysctl><item>a</item></sysctl><sysctl><item>b</item></sysctl>", "<sysctl><item>a</item></sysctl><sysctl><item>b</item></sysctl>" },
	};
	struct capture_set set;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(xml); i++) {
		memset(&set, 0, sizeof set);
		capture_set_add(&set, "config-sysctl.xml", xml[i].in, strlen(xml[i].in), 0);
		capture_set_add(&set, "sysctl.conf", xml[i].in, strlen(xml[i].in), 0);
		if (strcmp(capture_get(&set, "config-sysctl.xml")->text, xml[i].want) != 0)
			fail_msg("case %zu: '%s'", i, capture_get(&set, "config-sysctl.xml")->text);
		assert_int_equal(capture_get(&set, "config-sysctl.xml")->len, strlen(xml[i].want));
		assert_string_equal(capture_get(&set, "sysctl.conf")->text, xml[i].in);
		capture_set_free(&set);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_in_planted_links),
		cmocka_unit_test(test_bench_results_planted_links),
		cmocka_unit_test(test_capture_sample_not_through_links),
		cmocka_unit_test(test_capture_links_loop_or_chain),
		cmocka_unit_test(test_capture_config_xml_filtered),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
