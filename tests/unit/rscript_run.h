/*
 * What the tests of the agentless programs share (test_apply_remote_script.c,
 * test_apply_remote_faults.c): a scratch root with a FreeBSD MIB directory for the
 * sysctl stand-in (tests/cli/standin/freebsd/sysctl), the programs run there by sh with
 * the fault stand-ins of tests/cli/standin/fault first in PATH, and their files read back
 * (inline: a test that uses some of them, test_apply_remote_local.c, builds without the rest).
 */
#ifndef NTUNE_TESTS_RSCRIPT_RUN_H
#define NTUNE_TESTS_RSCRIPT_RUN_H

static const struct rscript_knob two[] = {
	{ "net.isr.dispatch", "deferred", "direct", false, false, false, RSCRIPT_FILE_SYSCTL },
	{ "net.inet.ip.intr_queue_maxlen", "2048", "256", false, false, false, RSCRIPT_FILE_SYSCTL },
};

static char root[] = "/tmp/ntune-rscript-XXXXXX";

static inline void
put(const char *rel, const char *text)
{
	char *p;

	xasprintf(&p, "%s%s", root, rel);
	assert_int_equal(util_write_file_atomic(p, text, strlen(text), 0644, NULL), 0);
	free(p);
}

static inline char *
get(const char *rel)
{
	char *p, *d = NULL;
	size_t len;

	xasprintf(&p, "%s%s", root, rel);
	if (util_read_file(p, &d, &len, NULL) == -1)
		d = NULL;
	free(p);
	return d;
}

/*
 * Runs script (cut to len bytes when len > 0) with sh, after the shell commands prep (a
 * file-size limit) and with the environment words vars (the faults of
 * tests/cli/standin/fault); its exit status, its output in root/out.
 */
static inline int
run_with(const char *script, size_t len, const char *prep, const char *vars)
{
	char *path, *cmd, *st;
	FILE *f;
	int rc;

	xasprintf(&path, "%s/script.sh", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(script, 1, len > 0 ? len : strlen(script), f);
	fclose(f);
	xasprintf(&cmd, "cd '%s' && rm -f count status && { (%s exec env PATH=\"%s/tests/cli/standin/fault:%s/tests/"
	    "cli/standin/freebsd:$PATH\" SYSCTL_STANDIN_MIB=\"$PWD/mib\" NTUNE_FAULT_COUNT=\"$PWD/count\" %s sh -s) "
	    "<script.sh 2>&1; echo $? >status; } | /bin/cat >out", root, prep, NTUNE_SRCDIR, NTUNE_SRCDIR, vars);
	assert_int_equal(system(cmd), 0);
	st = get("/status");
	assert_non_null(st);
	rc = atoi(st);
	free(st);
	free(cmd);
	free(path);
	return rc;
}

static inline int
run(const char *script, size_t len)
{
	return run_with(script, len, "", "");
}

static inline void
expect(const char *rel, const char *want)
{
	char *got = get(rel);

	if (want == NULL) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static inline int
setup_root(void **state)
{
	char *cmd;

	(void)state;
	tmpdir_make(root);
	xasprintf(&cmd, "mkdir -p '%s/mib/net/isr' '%s/mib/net/inet/ip' '%s/etc' '%s/boot'", root, root,
	    root, root);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	put("/mib/net/isr/dispatch", "direct\n");
	put("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/etc/sysctl.conf.local", "# mine\nkern.ipc.somaxconn=1024\n");
	return 0;
}

static inline int
teardown_root(void **state)
{
	(void)state;
	tmpdir_remove(root);
	return 0;
}

/* Waits up to secs for root/rel to read want (NULL: to be gone); true when it did. */
static inline bool
wait_for(const char *rel, const char *want, double secs)
{
	char *got;
	bool ok;
	int i;

	for (i = 0; i < (int)(secs * 10); i++) {
		got = get(rel);
		ok = want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0;
		free(got);
		if (ok)
			return true;
		usleep(100000);
	}
	return false;
}

#define FSTATE	"/var/db/ntune-agentless"
#define RCD	"/usr/local/etc/rc.d/ntune_agentless_guard.sh"
#define SYSHOOK	"/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard"
#define SA	"PATH=\"" NTUNE_SRCDIR "/tests/cli/standin/freebsd:$PATH\" SYSCTL_STANDIN_MIB=\"$PWD/mib\" "

/* Runs the shell command fmt (in root) and says whether it exited 0. */
static inline void
sh_ok(const char *fmt, const char *arg)
{
	char *cmd, *line;

	xasprintf(&line, fmt, arg);
	xasprintf(&cmd, "cd '%s' && %s", root, line);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(line);
}

#define CONF0	"# mine\nkern.ipc.somaxconn=1024\n"

/* The scratch root as setup_root made it: the originals, no journal, no boot hook. */
static inline void
reset_root(void)
{
	/* a dead-man a failed test left behind (its entry is removed here) stops first */
	sh_ok("pkill -f '%s/va[r]/db/ntune-agentless' 2>/dev/null; rm -rf var usr", root);
	put("/mib/net/isr/dispatch", "direct\n");
	put("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/etc/sysctl.conf.local", CONF0);
}

/* The output of the last run holds text. */
static inline void
said(const char *text)
{
	char *out = get("/out");

	assert_non_null(out);
	if (strstr(out, text) == NULL)
		fail_msg("'%s' not in the output:\n%s", text, out);
	free(out);
}

#endif
