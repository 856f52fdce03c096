#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "os/collect.h"
#include "os/os.h"
#include "remote/capture.h"
#include "util/util.h"
#include "util/util_json.h"
#include "testutil.h"

#define SEED FIXTURES "/os/seed000-dec750/"

/* The token of a script: what follows "T=" up to the newline. */
static void
token_of(const char *script, char *tok, size_t len)
{
	const char *p = strstr(script, "\nT=");

	assert_non_null(p);
	p += 3;
	snprintf(tok, len, "%.*s", (int)strcspn(p, "\n"), p);
}

/* Two scripts carry two random tokens; SECS is the only number put in; dash can read it. */
static void
test_capture_script_token_and_syntax(void **state)
{
	char *a = capture_script(7), *b = capture_script(7), ta[80], tb[80], *cmd;
	FILE *f;

	(void)state;
	token_of(a, ta, sizeof ta);
	token_of(b, tb, sizeof tb);
	assert_int_equal(strlen(ta), 16);
	assert_string_not_equal(ta, tb);
	assert_non_null(strstr(a, "S=${1:-7}\n"));
	assert_non_null(strstr(a, "echo \"::$T:: ntune-capture 1\"\n"));
	assert_null(strstr(a, "@T@"));
	assert_null(strstr(a, "[["));	/* no bash-isms */
	assert_null(strstr(a, "mktemp"));	/* writes nothing */
	xasprintf(&cmd, "sh -n >/dev/null 2>&1 <<'EOF'\n%sEOF\n", a);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(pclose(f), 0);
	free(cmd);
	free(a);
	free(b);
}

/* if.IF.SETTING read from the capture and live: the same value, or both fail. */
static void
same_tunable(struct os_ctx *ctx, struct os_ctx *live, const char *ifname, const char *setting)
{
	char *name, *v = NULL, *lv = NULL, *cause = NULL;
	int rc, lrc;

	xasprintf(&name, "if.%s.%s", ifname, setting);
	rc = os_tunable_get(ctx, name, &v, &cause);
	free(cause);
	cause = NULL;
	lrc = os_tunable_get(live, name, &lv, &cause);
	free(cause);
	if (rc != lrc || (rc == 0 && strcmp(v, lv) != 0))
		fail_msg("%s: capture %d '%s', live %d '%s'", name, rc, v != NULL ? v : "",
		    lrc, lv != NULL ? lv : "");
	free(v);
	free(lv);
	free(name);
}

/*
 * A Linux capture read by the Linux backend over its tree: the NICs and sysctls of this
 * machine as the live backend reads them; the tree is gone after os_close.
 */
static void
linux_capture_reads(const struct capture_set *set)
{
	struct os_ctx *ctx, *live;
	struct os_nic *nics, *lnics;
	struct os_system sys, lsys;
	char *cause = NULL, *v = NULL, *lv = NULL, *root;
	size_t n, ln, i;

	ctx = os_open_captures(set, &cause);
	if (ctx == NULL)
		fail_msg("%s", cause);
	assert_string_equal(os_backend_name(ctx), "linux");
	root = xstrdup(ctx->root);
	/* a temporary tree in TMPDIR (or /tmp) */
	assert_non_null(strstr(root, "/ntune-capture-"));
	assert_non_null(live = os_open_live("", &cause));
	/* the same NICs, with the same MTU and address, as the live backend sees */
	assert_int_equal(os_nics(ctx, &nics, &n, &cause), 0);
	assert_int_equal(os_nics(live, &lnics, &ln, &cause), 0);
	assert_int_equal(n, ln);
	for (i = 0; i < n; i++) {
		assert_string_equal(nics[i].name, lnics[i].name);
		assert_int_equal(nics[i].mtu, lnics[i].mtu);
		assert_string_equal(nics[i].mac, lnics[i].mac);
		assert_string_equal(nics[i].pci_id, lnics[i].pci_id);
		/* what ethtool printed here is what the ioctls answer (ethtool is in scripts/deps.sh) */
		assert_string_equal(nics[i].driver, lnics[i].driver);
		assert_string_equal(nics[i].driver_version, lnics[i].driver_version);
		assert_string_equal(nics[i].bus, lnics[i].bus);
		assert_int_equal(nics[i].combined_queues, lnics[i].combined_queues);
		assert_int_equal(nics[i].max_rx_queues, lnics[i].max_rx_queues);
		assert_int_equal(nics[i].rx_ring, lnics[i].rx_ring);
		assert_int_equal(nics[i].max_tx_ring, lnics[i].max_tx_ring);
		assert_int_equal(nics[i].coalesce_rx_usecs, lnics[i].coalesce_rx_usecs);
		assert_int_equal(nics[i].adaptive_rx, lnics[i].adaptive_rx);
		assert_int_equal(nics[i].tso, lnics[i].tso);
		assert_int_equal(nics[i].gro, lnics[i].gro);
		assert_int_equal(nics[i].rxcsum, lnics[i].rxcsum);
		assert_int_equal(nics[i].txcsum, lnics[i].txcsum);
		assert_string_equal(nics[i].unsupported, lnics[i].unsupported);
		same_tunable(ctx, live, nics[i].name, "qdisc");
		same_tunable(ctx, live, nics[i].name, "offload.tx-udp-segmentation");
		same_tunable(ctx, live, nics[i].name, "napi_thread_cpus");
		same_tunable(ctx, live, nics[i].name, "ring.rx");
		same_tunable(ctx, live, nics[i].name, "coalesce.adaptive-rx");
	}
	os_nics_free(nics, n);
	os_nics_free(lnics, ln);
	assert_int_equal(os_tunable_get(ctx, "net.core.somaxconn", &v, &cause), 0);
	assert_int_equal(os_tunable_get(live, "net.core.somaxconn", &lv, &cause), 0);
	assert_string_equal(v, lv);
	free(v);
	free(lv);
	assert_int_equal(os_system_info(ctx, &sys, &cause), 0);
	assert_int_equal(os_system_info(live, &lsys, &cause), 0);
	assert_string_equal(sys.netns, lsys.netns);
	os_close(live);
	os_close(ctx);
	assert_int_equal(access(root, F_OK), -1);	/* the tree went with it */
	free(root);
}

/* The script run here (Linux): its output parses, with the contract's Linux sections. */
static void
test_capture_script_runs_here(void **state)
{
	char *script = capture_script(1), *cmd, *cause = NULL, dir[] = "/tmp/ntune-cap-XXXXXX";
	struct capture_set set;
	struct strbuf out;
	const struct capture_section *s;
	char buf[4096];
	size_t n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* the script and a SECS of 1; run in an empty directory, which stays empty */
	xasprintf(&cmd, "cd %s && TMPDIR=%s sh -s 1 2>/dev/null <<'EOF'\n%sEOF\n", dir, dir, script);
	f = popen(cmd, "r");
	assert_non_null(f);
	strbuf_init(&out);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&out, buf, n);
	assert_int_equal(pclose(f), 0);
	assert_int_equal(capture_parse(out.buf, out.len, "here", &set, &cause), 0);
	assert_non_null(s = capture_get(&set, "uname.txt"));
	assert_int_equal(strncmp(s->text, "Linux", 5), 0);
	assert_non_null(s = capture_get(&set, "clock.txt"));
	assert_int_equal(strspn(s->text, "0123456789\n"), s->len);
	assert_non_null(capture_get(&set, "before.txt"));
	assert_non_null(capture_get(&set, "after.txt"));
	assert_non_null(s = capture_get(&set, "vmstat-i.txt"));
	assert_non_null(strstr(s->text, "CPU0"));
	assert_null(capture_get(&set, "kenv.txt"));
	assert_int_equal(rmdir(dir), 0);	/* nothing was written in it */
	linux_capture_reads(&set);
	capture_set_free(&set);
	strbuf_free(&out);
	free(cmd);
	free(script);
}

static const char paste[] =
    "$ sh c.sh 5\r\n"
    "::abcdefgh12:: ntune-capture 1\r\n"
    "::abcdefgh12:: begin uname.txt\r\n"
    "FreeBSD fw 14.1-RELEASE\r\n"
    "\r\n"
    "::abcdefgh12:: end uname.txt 0\r\n"
    "::abcdefgh12:: begin kenv.txt\r\n"
    "\r\n"
    "::abcdefgh12:: end kenv.txt 127\r\n"
    "::abcdefgh12:: begin sysctl.conf\r\n"
    "no newline at the end\r\n"
    "::abcdefgh12:: end sysctl.conf 0\r\n"
    "::abcdefgh12:: done\r\n"
    "$ \r\n";

/* A user's paste: CRLF, a prompt before and after; a failed command is an absent section. */
static void
test_capture_parse_paste(void **state)
{
	struct capture_set set;
	const struct capture_section *s;
	char *cause = NULL;

	(void)state;
	assert_int_equal(capture_parse(paste, strlen(paste), "c.txt", &set, &cause), 0);
	assert_int_equal(set.n, 3);
	assert_non_null(s = capture_get(&set, "uname.txt"));
	assert_string_equal(s->text, "FreeBSD fw 14.1-RELEASE\n");
	assert_int_equal(s->line, 3);
	assert_null(capture_get(&set, "kenv.txt"));
	assert_int_equal(set.v[1].status, 127);
	assert_non_null(s = capture_get(&set, "sysctl.conf"));
	assert_string_equal(s->text, "no newline at the end");
	assert_string_equal(set.origin, "c.txt");
	assert_true(capture_is_capture(paste, strlen(paste)));
	capture_set_free(&set);
}

/* Each broken capture: exit -1 and the cause naming origin:line. */
static void
test_capture_parse_errors(void **state)
{
	static const struct testutil_case bad[] = {
		{ "nothing here\n", "c.txt: not a capture (no '::TOKEN:: ntune-capture 1' line)" },
		{ "::abcdefgh12:: ntune-capture 2\n", "c.txt:1: capture format 2 (this ntune reads format 1)" },
		{ "::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin sysctl-a.txt\nkern.hz: 1000\nkern.",
		  "c.txt:4: section 'sysctl-a.txt' (begun at line 2) is cut short: no end line (the capture is truncated)" },
		{ "::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin a.txt\n\n::abcdefgh12:: end a.txt 0\n",
		  "c.txt:4: the capture ends without its '::abcdefgh12:: done' line (it is truncated)" },
		{ "junk\n::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin ../etc/passwd\n",
		  "c.txt:3: bad section name '../etc/passwd'" },
		{ "::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin a.txt\nx\n::abcdefgh12:: begin b.txt\n",
		  "c.txt:4: section 'a.txt' ends with 'begin b.txt'" },
		{ "::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin a.txt\nx\n::abcdefgh12:: end a.txt 256\n",
		  "c.txt:4: bad exit status '256' in the end line of section 'a.txt'" },
		{ "::abcdefgh12:: ntune-capture 1\n::abcdefgh12:: begin a.txt\n\n::abcdefgh12:: end a.txt 0\n"
		  "::abcdefgh12:: begin a.txt\n\n::abcdefgh12:: end a.txt 0\n::abcdefgh12:: done\n",
		  "c.txt:5: section 'a.txt' appears twice" },
	};
	struct capture_set set;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		cause = NULL;
		if (capture_parse(bad[i].in, strlen(bad[i].in), "c.txt", &set, &cause) != -1)
			fail_msg("case %zu parsed", i);
		if (strstr(cause, bad[i].want) == NULL)
			fail_msg("case %zu: '%s', want '%s'", i, cause, bad[i].want);
		assert_int_equal(set.n, 0);
		free(cause);
	}
}

/* The directory form: written atomically, read back the same; never over a full directory. */
static void
test_capture_dir_round_trip(void **state)
{
	struct capture_set set, back;
	char *dir, *cause = NULL;

	(void)state;
	assert_int_equal(capture_parse(paste, strlen(paste), "c.txt", &set, &cause), 0);
	xasprintf(&dir, "%s/cap", testutil_tmpdir);
	assert_int_equal(capture_write_dir(&set, dir, &cause), 0);
	assert_int_equal(capture_read_dir(dir, &back, &cause), 0);
	assert_int_equal(back.n, 2);	/* kenv.txt failed: not written */
	assert_string_equal(capture_get(&back, "uname.txt")->text, "FreeBSD fw 14.1-RELEASE\n");
	assert_string_equal(capture_get(&back, "sysctl.conf")->text, "no newline at the end");
	assert_int_equal(capture_write_dir(&set, dir, &cause), -1);
	assert_non_null(strstr(cause, "is not empty"));
	free(cause);
	cause = NULL;
	capture_set_free(&back);
	assert_int_equal(capture_load(dir, &back, &cause), 0);
	assert_int_equal(back.n, 2);
	capture_set_free(&back);
	capture_set_free(&set);
	free(dir);
}

static void
add_file(struct capture_set *set, const char *name, const char *file)
{
	char *data, *cause = NULL;
	size_t len;

	if (util_read_file(file, &data, &len, &cause) != 0)
		fail_msg("%s", cause);
	capture_set_add(set, name, data, len, 0);
	free(data);
}

/* A FreeBSD capture reads as the same files given to --from do. */
static void
test_capture_os_same_as_files(void **state)
{
	static const char *const files[] = {
		SEED "sysctl-a.txt", SEED "ifconfig-a.txt", SEED "pciconf-lv.txt", SEED "vmstat-i.txt",
		SEED "top-P.txt",
	};
	static const char *const names[] = {
		"sysctl-a.txt", "ifconfig-a.txt", "pciconf-lv.txt", "vmstat-i.txt", "top.txt",
	};
	struct capture_set set;
	struct os_ctx *a, *b;
	json_t *da, *db;
	char *cause = NULL, *ta, *tb;
	size_t i;

	(void)state;
	memset(&set, 0, sizeof set);
	set.origin = xstrdup("ssh://fw");
	capture_set_add(&set, "uname.txt", "FreeBSD fw 13.2-RELEASE-p7\n", 27, 0);
	for (i = 0; i < nitems(files); i++)
		add_file(&set, names[i], files[i]);
	assert_non_null(a = os_open_captures(&set, &cause));
	assert_non_null(b = os_open_files(files, nitems(files), &cause));
	da = os_collect(a, NULL, 0, OS_COLLECT_SNAPSHOT);
	db = os_collect(b, NULL, 0, OS_COLLECT_SNAPSHOT);
	ta = util_json_dumps(da, JSON_SORT_KEYS);
	tb = util_json_dumps(db, JSON_SORT_KEYS);
	assert_string_equal(ta, tb);
	assert_non_null(strstr(ta, "\"ax0\""));
	free(ta);
	free(tb);
	json_decref(da);
	json_decref(db);
	os_close(a);
	os_close(b);
	/* a capture of no known system, or of none */
	capture_set_add(&set, "uname.txt", "Plan9\n", 6, 0);
	assert_null(os_open_captures(&set, &cause));
	assert_non_null(strstr(cause, "ssh://fw: uname.txt names a system ntune does not read: 'Plan9'"));
	free(cause);
	capture_set_free(&set);
}

/* A `sysctl -a` value of several lines (kern.conftxt) is one value, not unknown lines. */
static void
test_capture_sysctl_a_multiline(void **state)
{
	static const char text[] = "kern.ostype: FreeBSD\nkern.conftxt: options\tCONFIG_AUTOGENERATED\n"
	    "ident\tGENERIC\noptions\tSMP\nkern.hz: 1000\nkern.cp_times: 1 2 3 4 5 6 7 8 9 10\n";
	struct os_cpu_times *ct;
	size_t n;
	struct capture_set set;
	struct os_ctx *ctx;
	char *cause = NULL, *v = NULL;

	(void)state;
	memset(&set, 0, sizeof set);
	set.origin = xstrdup("c.txt");
	capture_set_add(&set, "uname.txt", "FreeBSD\n", 8, 0);
	capture_set_add(&set, "sysctl-a.txt", text, strlen(text), 0);
	set.v[1].line = 2;
	assert_non_null(ctx = os_open_captures(&set, &cause));
	assert_int_equal(os_tunable_get(ctx, "kern.conftxt", &v, &cause), 0);
	assert_string_equal(v, "options\tCONFIG_AUTOGENERATED\nident\tGENERIC\noptions\tSMP");
	free(v);
	assert_int_equal(os_tunable_get(ctx, "kern.hz", &v, &cause), 0);
	assert_string_equal(v, "1000");
	free(v);
	/* kern.cp_times: user nice sys intr idle a CPU */
	assert_int_equal(os_cpu_times(ctx, &ct, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_true(ct[0].user == 1 && ct[0].system == 3 && ct[0].interrupt == 4 && ct[0].idle == 5);
	assert_true(ct[1].user == 6 && ct[1].nice == 7 && ct[1].idle == 10);
	free(ct);
	os_close(ctx);
	capture_set_free(&set);
}

/* A linux-tree.txt asking for a file or a link outside what a capture reads: refused. */
static void
test_capture_linux_tree_refuses(void **state)
{
	static const struct testutil_case bad[] = {
		{ "::F /etc/passwd\nroot:x:0:0\n", "c.txt:linux-tree.txt:1: not a path the capture reads: '/etc/passwd'" },
		{ "::F /sys/../etc/x\n1\n", "c.txt:linux-tree.txt:1: not a path the capture reads: '/sys/../etc/x'" },
		{ "::L /sys/class/net/x/device -> ../../../../etc\n", "c.txt:linux-tree.txt:1: not a link the capture reads: '/sys/class/net/x/device'" },
		{ "::L /sys/a -> /etc\n", "c.txt:linux-tree.txt:1: a link out of the capture's tree (refused): '/sys/a -> /etc'" },
		{ "::R /r\n==> /elsewhere/proc/stat <==\ncpu 1\n", "c.txt:linux-tree.txt:2: a file outside the capture's root: '/elsewhere/proc/stat'" },
		{ "stray text\n", "c.txt:linux-tree.txt:1: text outside any file: 'stray text'" },
		{ "::F /proc/stat\n1\n::F /proc/stat\n2\n", "c.txt:linux-tree.txt:3: the file appears twice '/proc/stat'" },
		{ "::L /sys/class/net/x/device -> y\n::F /sys/class/net/x/device/vendor\n1\n", "not a directory on the way to '/sys/class/net/x/device/vendor'" },
	};
	struct capture_set set;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < nitems(bad); i++) {
		memset(&set, 0, sizeof set);
		set.origin = xstrdup("c.txt");
		capture_set_add(&set, "uname.txt", "Linux h 6.1\n", 12, 0);
		capture_set_add(&set, "sysctl-a.txt", "net.core.somaxconn = 4096\n", 26, 0);
		capture_set_add(&set, "linux-tree.txt", bad[i].in, strlen(bad[i].in), 0);
		cause = NULL;
		if (os_open_captures(&set, &cause) != NULL)
			fail_msg("case %zu was read", i);
		if (strstr(cause, bad[i].want) == NULL)
			fail_msg("case %zu: '%s', want '%s'", i, cause, bad[i].want);
		free(cause);
		capture_set_free(&set);
	}
}

static void
boot_file(void *arg, const char *path, const char *text)
{
	strbuf_addf(arg, "[%s]%s", path, text);
}

/* The boot files of a capture: FreeBSD's four; Linux's sysctl.conf and each sysctl.d file. */
static void
test_capture_boot_files(void **state)
{
	struct capture_set set;
	struct strbuf sb;

	(void)state;
	memset(&set, 0, sizeof set);
	capture_set_add(&set, "uname.txt", "FreeBSD\n", 8, 0);
	capture_set_add(&set, "loader.conf.local", "a=\"1\"\n", 6, 0);
	capture_set_add(&set, "sysctl.conf", "b=2\n", 4, 1);	/* failed: absent */
	strbuf_init(&sb);
	capture_boot_files(&set, boot_file, &sb);
	strbuf_addc(&sb, '\0');
	assert_string_equal(sb.buf, "[/boot/loader.conf.local]a=\"1\"\n");
	strbuf_free(&sb);
	capture_set_free(&set);
	capture_set_add(&set, "uname.txt", "Linux\n", 6, 0);
	capture_set_add(&set, "sysctl.conf", "x = 1\n", 6, 0);
	capture_set_add(&set, "sysctl.conf.local", "# file: /etc/sysctl.d/10-a.conf\nnet.a = 1\n"
	    "# file: /etc/sysctl.d/20-b.conf\n# b\nnet.b = 2\n# file: /etc/passwd\nroot\n", 113, 0);
	strbuf_init(&sb);
	capture_boot_files(&set, boot_file, &sb);
	strbuf_addc(&sb, '\0');
	assert_string_equal(sb.buf, "[/etc/sysctl.conf]x = 1\n[/etc/sysctl.d/10-a.conf]net.a = 1\n"
	    "[/etc/sysctl.d/20-b.conf]# b\nnet.b = 2\n");
	strbuf_free(&sb);
	capture_set_free(&set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_script_token_and_syntax),
		cmocka_unit_test(test_capture_script_runs_here),
		cmocka_unit_test(test_capture_parse_paste),
		cmocka_unit_test(test_capture_parse_errors),
		cmocka_unit_test(test_capture_dir_round_trip),
		cmocka_unit_test(test_capture_os_same_as_files),
		cmocka_unit_test(test_capture_sysctl_a_multiline),
		cmocka_unit_test(test_capture_linux_tree_refuses),
		cmocka_unit_test(test_capture_boot_files),
	};

	return cmocka_run_group_tests(tests, testutil_tmpdir_setup, testutil_tmpdir_teardown);
}
