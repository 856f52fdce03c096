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

#include "remote/remote.h"
#include "util/util.h"
#include "testutil.h"

static const char *const nasty[] = {
	"plain", "two words", "it's", "'", "''", "a;touch /tmp/x", "$(id)", "`id`", "\"dq\"",
	"back\\slash", "new\nline", "tab\there", "*", "~root", "-n", "$HOME", "!x", "a'b'c", "",
	"a!b", "!!", "!$", "\\!", "x!-1", "${x}", "{a,b}", "#c", "a>&2", "%1", "^x^y",
	" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
};

static void
test_remote_quote_escapes_single_quote(void **state)
{
	static const struct testutil_case quoted[] = {
		{ "it's", "'it'\\''s'" },
		{ "", "''" },
		{ "$(id); `id`", "'$(id); `id`'" },
		{ "a!b", "'a'\\!'b'" },
	};

	(void)state;
	testutil_each_equal(remote_quote, quoted, nitems(quoted));
}

/* Every word survives /bin/sh unchanged: printf gets exactly the original bytes back. */
static void
test_remote_command_round_trips_through_sh(void **state)
{
	char *argv[4], *cmd, buf[256];
	size_t i, n;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
		argv[0] = "printf";
		argv[1] = "%s|";
		argv[2] = (char *)nasty[i];
		argv[3] = NULL;
		cmd = remote_command(argv);
		f = popen(cmd, "r");
		assert_non_null(f);
		n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		assert_int_equal(pclose(f), 0);
		assert_int_equal(n, strlen(nasty[i]) + 1);
		assert_memory_equal(buf, nasty[i], strlen(nasty[i]));
		free(cmd);
	}
}

/* The output of shell -f -c cmd (shell: a path), NUL-terminated in buf; its exit status. */
static int
run_shell(const char *shell, const char *cmd, char *buf, size_t len)
{
	char *line;
	FILE *f;
	size_t n;
	int st;

	xasprintf(&line, "%s -f -c \"$NTUNE_T_CMD\"", shell);
	setenv("NTUNE_T_CMD", cmd, 1);
	f = popen(line, "r");
	free(line);
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	st = pclose(f);
	unsetenv("NTUNE_T_CMD");
	return st;
}

/*
 * OPNsense's root runs `ssh host CMD` as /bin/csh -c CMD (opnsense-shell), and
 * FreeBSD's csh is tcsh: every word without a line break survives tcsh as it
 * survives sh (! is history substitution there, even inside single quotes).
 * tcsh is installed by make deps (scripts/deps.sh).
 */
static void
test_remote_command_round_trips_through_csh(void **state)
{
	char *argv[4], *cmd, buf[256];
	size_t i;

	(void)state;
	if (access("/usr/bin/tcsh", X_OK) != 0)
		fail_msg("/usr/bin/tcsh is missing: make deps installs it");
	for (i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
		if (strchr(nasty[i], '\n') != NULL)
			continue;
		argv[0] = "printf";
		argv[1] = "%s|";
		argv[2] = (char *)nasty[i];
		argv[3] = NULL;
		cmd = remote_command(argv);
		if (run_shell("/usr/bin/tcsh", cmd, buf, sizeof buf) != 0 ||
		    strlen(buf) != strlen(nasty[i]) + 1 || memcmp(buf, nasty[i], strlen(nasty[i])) != 0)
			fail_msg("word '%s': tcsh -c %s printed '%s'", nasty[i], cmd, buf);
		free(cmd);
	}
}

static void
test_remote_parse_accepts_user_host_port(void **state)
{
	struct remote_host h;
	char *cause = NULL;

	(void)state;
	assert_int_equal(remote_parse("ssh://root@router.lan:2222", &h, &cause), 0);
	assert_string_equal(h.user, "root");
	assert_string_equal(h.host, "router.lan");
	assert_int_equal(h.port, 2222);
	assert_int_equal(remote_parse("ssh://[2001:2::1]:22", &h, &cause), 0);
	assert_string_equal(h.host, "2001:2::1");
	assert_int_equal(h.port, 22);
	assert_int_equal(remote_parse("ssh://dut", &h, &cause), 0);
	assert_string_equal(h.host, "dut");
	assert_string_equal(h.user, "");
	assert_int_equal(remote_parse("local", &h, &cause), 0);
	assert_true(h.local);
}

static void
test_remote_parse_rejects_shell_and_option_text(void **state)
{
	static const char *const bad[] = {
		"ssh://root@dut;reboot", "ssh://root@$(reboot)", "ssh://-oProxyCommand=x",
		"ssh://root@dut rm", "ssh://ro'ot@dut", "ssh://root@dut:22x", "ssh://root@dut:0",
		"ssh://", "root@dut", "ssh://root@dut\nx", "ssh://@dut", "ssh://-l@dut",
	};
	struct remote_host h;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(remote_parse(bad[i], &h, &cause), -1);
		assert_non_null(strstr(cause, "invalid host"));
		free(cause);
	}
}

static void
test_remote_ifname_valid_refuses_shell_text(void **state)
{
	(void)state;
	assert_true(remote_ifname_valid("ix0"));
	assert_true(remote_ifname_valid("vlan.100"));
	assert_false(remote_ifname_valid("ix0;reboot"));
	assert_false(remote_ifname_valid("$(id)"));
	assert_false(remote_ifname_valid("-x"));
	assert_false(remote_ifname_valid("a b"));
	assert_false(remote_ifname_valid("averyveryverylongname"));
}

/* The "local" host: commands run here through /bin/sh, no ssh. */
static struct remote_host
local_host(void)
{
	struct remote_host h;
	char *cause = NULL;

	if (remote_parse("local", &h, &cause) != 0)
		fail_msg("remote_parse local: %s", cause);
	return h;
}

/*
 * The script of `sh -c SCRIPT` may span lines (bench's pkt-gen and iperf3
 * wrappers): sent as one line, it prints the same through sh and tcsh as run
 * directly, with its own arguments.
 */
static void
test_remote_command_sends_multiline_sh_script(void **state)
{
	static const char script[] =
	    "a=$1; shift\n"
	    "printf '%s|' \"$a\" \"$@\"\n"
	    "if [ -n \"$a\" ]; then\n"
	    "  printf '%s' 'it''s \\n a!b %d \\\\ \\0101 \\c'\n"
	    "fi\n"
	    "for w in 1 2; do printf '<%s>' \"$w\"; done\n\n";
	static const char want[] = "c'd|e f|!x|its \\n a!b %d \\\\ \\0101 \\c<1><2>";
	char *argv[] = { "/bin/sh", "-c", (char *)script, "sh", "c'd", "e f", "!x", NULL };
	char *cmd, buf[512], *cause = NULL;

	(void)state;
	assert_int_equal(remote_words_check(argv, &cause), 0);
	cmd = remote_command(argv);
	assert_null(strchr(cmd, '\n'));
	assert_int_equal(run_shell("/bin/sh", cmd, buf, sizeof buf), 0);
	assert_string_equal(buf, want);
	assert_int_equal(run_shell("/usr/bin/tcsh", cmd, buf, sizeof buf), 0);
	assert_string_equal(buf, want);
	free(cmd);
}

/* A word with a line break is refused before anything runs, naming it. */
static void
test_remote_words_check_refuses_line_breaks(void **state)
{
	struct remote_host h = local_host();
	struct remote_result r;
	char *ok[] = { "printf", "a!b", NULL }, *bad[] = { "printf", "x\ny", NULL }, *cause = NULL;

	(void)state;
	assert_int_equal(remote_words_check(ok, &cause), 0);
	assert_int_equal(remote_run(&h, bad, NULL, 10, &r, &cause), -1);
	assert_non_null(strstr(cause, "'x\ny'"));
	assert_non_null(strstr(cause, "line break"));
	free(cause);
}

/* "local" runs through /bin/sh with the words quoted: a ; in an argument is data. */
static void
test_remote_run_local_passes_words_literally(void **state)
{
	struct remote_host h = local_host();
	struct remote_result r;
	char *argv[] = { "printf", "%s", "a;echo INJECTED", NULL }, *cause = NULL;

	(void)state;
	assert_int_equal(remote_run(&h, argv, NULL, 10, &r, &cause), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "a;echo INJECTED");
	remote_result_free(&r);
}

static void
test_remote_sh_reads_script_and_args(void **state)
{
	struct remote_host h = local_host();
	struct remote_result r;
	char *args[] = { "x y", "$(id)", NULL }, *cause = NULL;

	(void)state;
	assert_int_equal(remote_sh(&h, "printf '%s|' \"$1\" \"$2\"; exit 3\n", args, 10, &r, &cause), 0);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out, "x y|$(id)|");
	remote_result_free(&r);
}

/*
 * A child keeps none of our descriptors but its standard ones: an ssh or sh holding a
 * pipe end of another child kept that child's reader waiting (a local load host, 30 s).
 */
static void
test_remote_child_keeps_no_other_descriptor(void **state)
{
	struct remote_host h = local_host();
	struct remote_result r;
	char *script, *cause = NULL;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	xasprintf(&script, "[ -d /proc/$$/fd ] || exit 77\nfor f in %d %d; do if [ -e /proc/$$/fd/$f ]; then "
	    "echo open $f; fi; done\n", p[0], p[1]);
	assert_int_equal(remote_sh(&h, script, NULL, 10, &r, &cause), 0);
	if (r.status != 77) {
		if (r.status != 0)
			fail_msg("exit %d: %s %s", r.status, r.out, r.err);
		assert_string_equal(r.out, "");
	}
	remote_result_free(&r);
	free(script);
	close(p[0]);
	close(p[1]);
}

static void
test_remote_run_times_out(void **state)
{
	struct remote_host h = local_host();
	struct remote_result r;
	char *argv[] = { "sleep", "5", NULL }, *cause = NULL;

	(void)state;
	assert_int_equal(remote_run(&h, argv, NULL, 0.3, &r, &cause), 0);
	assert_true(r.timed_out);
	assert_string_equal(remote_result_why(&r), "no answer in time");
	remote_result_free(&r);
}

static void
test_remote_argv_checks_host_keys_and_batch_mode(void **state)
{
	struct remote_ssh s = { .config = "/etc/x.conf", .connect_timeout = 7 };
	struct remote_host h;
	char **v, *cause = NULL, *joined;
	size_t i, len = 0;

	(void)state;
	snprintf(s.ctl_dir, sizeof s.ctl_dir, "/tmp/ntune-ssh.abc");
	assert_int_equal(remote_parse("ssh://root@dut:2222", &h, &cause), 0);
	h.ssh = &s;
	v = remote_argv(&h, "uname -a");
	for (i = 0; v[i] != NULL; i++)
		len += strlen(v[i]) + 1;
	joined = calloc(1, len + 1);
	for (i = 0; v[i] != NULL; i++) {
		strcat(joined, v[i]);
		strcat(joined, " ");
	}
	assert_string_equal(joined, "ssh -F /etc/x.conf -o BatchMode=yes -o ConnectTimeout=7 "
	    "-o ServerAliveInterval=5 -o ServerAliveCountMax=3 -o StrictHostKeyChecking=yes "
	    "-o ControlMaster=auto -o ControlPath=/tmp/ntune-ssh.abc/%C -o ControlPersist=300 -T "
	    "-p 2222 -l root -- dut uname -a ");
	free(joined);
	remote_argv_free(v);
	s.accept_new = true;
	v = remote_argv(&h, "true");
	for (i = 0; v[i] != NULL && strcmp(v[i], "StrictHostKeyChecking=accept-new") != 0; i++)
		;
	assert_non_null(v[i]);
	remote_argv_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_quote_escapes_single_quote),
		cmocka_unit_test(test_remote_command_round_trips_through_sh),
		cmocka_unit_test(test_remote_command_round_trips_through_csh),
		cmocka_unit_test(test_remote_words_check_refuses_line_breaks),
		cmocka_unit_test(test_remote_command_sends_multiline_sh_script),
		cmocka_unit_test(test_remote_parse_accepts_user_host_port),
		cmocka_unit_test(test_remote_parse_rejects_shell_and_option_text),
		cmocka_unit_test(test_remote_ifname_valid_refuses_shell_text),
		cmocka_unit_test(test_remote_run_local_passes_words_literally),
		cmocka_unit_test(test_remote_sh_reads_script_and_args),
		cmocka_unit_test(test_remote_child_keeps_no_other_descriptor),
		cmocka_unit_test(test_remote_run_times_out),
		cmocka_unit_test(test_remote_argv_checks_host_keys_and_batch_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
