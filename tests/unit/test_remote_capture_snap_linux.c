/*
 * The capture of a bench's per-run snapshot (src/remote/capture_snap.c): the capture
 * script without its top sample, run here (Linux) as the DUT's sh runs it.
 */
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

#include "remote/capture.h"
#include "util/util.h"

/* Runs script with sh -s ARGS here and parses what it printed into set. */
static void
run_here(const char *script, const char *args, struct capture_set *set)
{
	char *cmd, *cause = NULL, buf[4096], dir[] = "/tmp/ntune-snap-XXXXXX";
	struct strbuf out;
	size_t n;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	xasprintf(&cmd, "cd %s && sh -s %s 2>/dev/null <<'EOF'\n%sEOF\n", dir, args, script);
	assert_non_null(f = popen(cmd, "r"));
	strbuf_init(&out);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&out, buf, n);
	assert_int_equal(pclose(f), 0);
	assert_int_equal(capture_parse(out.buf, out.len, "here", set, &cause), 0);
	assert_int_equal(rmdir(dir), 0);	/* it wrote nothing */
	strbuf_free(&out);
	free(cmd);
}

/* The snapshot's script leaves top out and nothing else: the sections a snapshot reads are there. */
static void
test_snapshot_script_has_no_top_sample(void **state)
{
	char *script = capture_script_snapshot();
	struct capture_set set;

	(void)state;
	assert_int_equal(strncmp(script, "NTUNE_CAPTURE_TOP=no\n#!/bin/sh\n", 31), 0);
	run_here(script, "1", &set);
	assert_null(capture_get(&set, "top.txt"));
	assert_non_null(capture_get(&set, "uname.txt"));
	assert_non_null(capture_get(&set, "sysctl-a.txt"));
	assert_non_null(capture_get(&set, "linux-tree.txt"));
	assert_non_null(capture_get(&set, "before.txt"));
	assert_non_null(capture_get(&set, "after.txt"));
	capture_set_free(&set);
	free(script);
}

/* The same script without that line samples top as before (when this machine has top). */
static void
test_capture_script_keeps_its_top_sample(void **state)
{
	char *script = capture_script(1);
	struct capture_set set;

	(void)state;
	if (system("command -v top >/dev/null 2>&1") != 0)
		skip();
	run_here(script, "1", &set);
	assert_non_null(capture_get(&set, "top.txt"));
	capture_set_free(&set);
	free(script);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_script_has_no_top_sample),
		cmocka_unit_test(test_capture_script_keeps_its_top_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
