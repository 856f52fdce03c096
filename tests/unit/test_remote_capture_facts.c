/*
 * The facts of a Linux capture's ethtool, tc and /proc sections (src/remote/capture_facts.c),
 * on real command text: the pastes of tests/fixtures/os/real (other people's machines) and
 * tests/fixtures/os/ethtool-vm (this CI machine: Debian 12's ethtool 6.1 on virtio_net and
 * a veth, Linux 6.18; each file ends with "status N", the exit status ethtool gave).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "remote/capture_facts.h"
#include "util/util.h"
#include "testutil.h"

#define REAL FIXTURES "/os/real/"
#define VM FIXTURES "/os/ethtool-vm/"

/* A fixture file as one "::IF name STATUS" block (its "status N" last line, else 0). */
static void
add_block(struct strbuf *sb, const char *ifname, const char *path)
{
	char *text, *st;
	size_t len;
	int status = 0;

	if (util_read_file(path, &text, &len, NULL) != 0)
		fail_msg("cannot read %s", path);
	while (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	st = strrchr(text, '\n') != NULL ? strrchr(text, '\n') + 1 : text;
	if (strncmp(st, "status ", 7) == 0) {
		status = atoi(st + 7);
		*st = '\0';
	}
	strbuf_addf(sb, "::IF %s %d\n%s%s", ifname, status, text,
	    text[0] != '\0' && text[strlen(text) - 1] != '\n' ? "\n" : "");
	free(text);
}

/* The facts of one ethtool section made of the blocks given as (name, path) pairs. */
static int
facts_of(struct capture_facts *f, char opt, char **cause, ...)
{
	struct strbuf sb;
	const char *name, *path;
	va_list ap;
	int rc;

	strbuf_init(&sb);
	va_start(ap, cause);
	while ((name = va_arg(ap, const char *)) != NULL) {
		path = va_arg(ap, const char *);
		add_block(&sb, name, path);
	}
	va_end(ap);
	rc = capture_facts_ethtool(f, opt, "cap:ethtool.txt", sb.buf != NULL ? sb.buf : "", sb.len,
	    cause);
	strbuf_free(&sb);
	return rc;
}

static const char *
text_of(struct capture_facts *f, const char *ifname)
{
	return capture_facts_if(f, ifname)->text.buf != NULL ? capture_facts_if(f, ifname)->text.buf : "";
}

static void
has(struct capture_facts *f, const char *ifname, const char *line)
{
	char *want;

	xasprintf(&want, "%s\n", line);
	if (strstr(text_of(f, ifname), want) == NULL)
		fail_msg("%s: no '%s' in:\n%s", ifname, line, text_of(f, ifname));
	free(want);
}

/* ethtool -i and -l as people pasted them (e1000e, ena, separate RX/TX, "Other"). */
static void
test_capture_facts_real_pastes(void **state)
{
	struct capture_facts f;
	char *cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_int_equal(facts_of(&f, 'i', &cause, "enp3s0f0", REAL "linux_ethtool-i_enp3s0f0_e1000e.txt",
	    NULL), 0);
	has(&f, "enp3s0f0", "driver e1000e");
	has(&f, "enp3s0f0", "driver_version 6.11.8");
	has(&f, "enp3s0f0", "firmware 5.6-2");
	has(&f, "enp3s0f0", "bus 0000:03:00.0");
	assert_int_equal(facts_of(&f, 'l', &cause,
	    "eno1", REAL "linux_ethtool-l_eno1_rx4-tx4_separate.txt",
	    "ens3f0", REAL "linux_ethtool-l_ens3f0_combined64.txt",
	    "eth0", REAL "linux_ethtool-l_eth0_ena_combined2.txt",
	    "ens10f0", REAL "linux_ethtool-l_ens10f0_combined64-tabs.txt", NULL), 0);
	has(&f, "eno1", "channels.max.rx 4");
	has(&f, "eno1", "channels.rx 4");
	has(&f, "eno1", "channels.tx 1");
	has(&f, "eno1", "channels.combined 0");		/* n/a: the ioctl's 0 */
	has(&f, "ens3f0", "channels.max.combined 64");
	has(&f, "ens3f0", "channels.combined 1");
	has(&f, "ens3f0", "channels.other 1");
	has(&f, "eth0", "channels.combined 2");
	has(&f, "ens10f0", "channels.max.tx 64");
	capture_facts_free(&f);
	/* a forum paste with a note after a number is not ethtool's: named, with its line */
	memset(&f, 0, sizeof f);
	assert_int_equal(facts_of(&f, 'g', &cause, "enp3s0f0",
	    REAL "linux_ethtool-g_enp3s0f0_e1000e_annotated.txt", NULL), -1);
	assert_non_null(strstr(cause, "cap:ethtool.txt:10: not a count: 'RX:"));
	free(cause);
	capture_facts_free(&f);
}

/* This machine's ethtool on virtio_net and a veth, and what it says when a driver lacks one. */
static void
test_capture_facts_this_vm(void **state)
{
	struct capture_facts f;
	char *cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	if (facts_of(&f, 'i', &cause, "eth0", VM "eth0-i.txt", "lo", VM "lo-i.txt", NULL) != 0)
		fail_msg("%s", cause);
	has(&f, "eth0", "driver virtio_net");
	has(&f, "eth0", "firmware ");
	has(&f, "lo", "unsupported driver info");
	assert_int_equal(facts_of(&f, 'g', &cause, "eth0", VM "eth0-g.txt", NULL), 0);
	has(&f, "eth0", "ring.rx 256");
	has(&f, "eth0", "ring.max.tx 256");
	has(&f, "eth0", "ring.rx-mini 0");
	assert_int_equal(facts_of(&f, 'l', &cause, "eth0", VM "eth0-l.txt", NULL), 0);
	has(&f, "eth0", "channels.combined 1");
	assert_int_equal(facts_of(&f, 'c', &cause, "eth0", VM "eth0-c.txt", NULL), 0);
	has(&f, "eth0", "coalesce.adaptive-rx 0");
	has(&f, "eth0", "coalesce.adaptive-tx 0");	/* n/a */
	has(&f, "eth0", "coalesce.rx-usecs 0");
	has(&f, "eth0", "coalesce.rx-frames 1");
	assert_int_equal(facts_of(&f, 'a', &cause, "eth0", VM "eth0-a.txt", NULL), 0);
	has(&f, "eth0", "unsupported flow control");
	assert_int_equal(facts_of(&f, 'k', &cause, "eth0", VM "eth0-k.txt",
	    "dut0", VM "veth-dut0-k.txt", NULL), 0);
	/* legacy flags by ntune's short name and the kernel feature they stand for alone */
	has(&f, "dut0", "offload.tso on");
	has(&f, "dut0", "offload.txcsum on");
	has(&f, "dut0", "offload.gro off");
	has(&f, "dut0", "offload.rx-gro off");
	has(&f, "dut0", "offload.lro off");
	has(&f, "dut0", "offload.tx-udp-segmentation off");
	has(&f, "dut0", "offload.tx-checksum-ipv4 off");	/* a feature of a flag, tab-indented */
	has(&f, "dut0", "offload.rx-gro-list off");
	has(&f, "eth0", "offload.gro on");
	assert_null(strstr(text_of(&f, "dut0"), "offload.generic-receive-offload"));
	capture_facts_free(&f);
}

/* The failure of a block is the group's note: unsupported, or unread with what ethtool said. */
static void
test_capture_facts_failed_blocks(void **state)
{
	static const char text[] =
	    "::IF eth0 1\nnetlink error: Operation not supported\n"
	    "::IF eth1 1\nnetlink error: No such device\n"
	    "::IF eth2 75\n"
	    "::IF eth3 1\nCannot get device ring settings: Invalid argument\n";
	struct capture_facts f;
	char *cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_int_equal(capture_facts_ethtool(&f, 'g', "c", text, strlen(text), &cause), 0);
	has(&f, "eth0", "unsupported rings");
	has(&f, "eth1", "unread rings: netlink error: No such device");
	has(&f, "eth2", "unread rings: ethtool failed and said nothing");
	has(&f, "eth3", "unsupported rings");
	capture_facts_free(&f);
}

static void
refused(char opt, const char *text, const char *want)
{
	struct capture_facts f;
	char *cause = NULL;

	memset(&f, 0, sizeof f);
	if (capture_facts_ethtool(&f, opt, "ssh://dut:ethtool.txt", text, strlen(text), &cause) != -1)
		fail_msg("accepted: %s", text);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s' does not say '%s'", cause, want);
	free(cause);
	capture_facts_free(&f);
}

/* Garbage is named with its section and line; an interface name that is not one is refused. */
static void
test_capture_facts_refuses(void **state)
{
	(void)state;
	refused('i', "driver: x\n", "ssh://dut:ethtool.txt:1: text before the first '::IF' line");
	refused('i', "::IF eth0 0\ndriver: x\n::IF eth0 0\ndriver: y\n",
	    ":3: an interface given twice: 'eth0'");
	refused('i', "::IF -oops 0\n", ":1: bad interface block line");
	refused('i', "::IF a;b 0\n", ":1: bad interface block line");
	refused('i', "::IF eth0 256\n", ":1: bad exit status");
	refused('i', "::IF eth0 0\nversion: 1\n", ":1: the block of 'eth0' is not what ethtool -i prints");
	refused('k', "::IF eth0 0\nFeatures for eth0:\nrx-gro: maybe\n", ":3: not on or off");
	refused('k', "::IF eth0 0\nrx gro: on\n", ":2: not a line of ethtool -k");
	refused('l', "::IF eth0 0\nPre-set maximums:\nRX: 4\n", "is not what ethtool -l prints");
	refused('c', "::IF eth0 0\nAdaptive RX: on\n", ":2: not a line of ethtool -c");
	assert_false(capture_ifname_ok("..", 2));
	assert_false(capture_ifname_ok("sixteen-chars-xx", 16));
	assert_true(capture_ifname_ok("igb0.100", 8));
	assert_true(capture_ifname_ok("wg0@x+1", 7));
}

/* tc qdisc show: the root qdisc of each interface; handle 0 is the kernel's own ("default"). */
static void
test_capture_facts_qdisc(void **state)
{
	struct capture_facts f;
	char *text, *cause = NULL;
	size_t len;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_int_equal(util_read_file(VM "tc-qdisc-show-ns.txt", &text, &len, NULL), 0);
	assert_int_equal(capture_facts_qdisc(&f, "c", text, len, &cause), 0);
	free(text);
	has(&f, "dut0", "qdisc default");	/* its ingress qdisc is not the root */
	has(&f, "dut1", "qdisc pfifo_fast");
	has(&f, "lo", "qdisc default");
	assert_int_equal(util_read_file(VM "tc-qdisc-show.txt", &text, &len, NULL), 0);
	assert_int_equal(capture_facts_qdisc(&f, "c", text, len, &cause), 0);
	free(text);
	has(&f, "eth0", "qdisc default");
	capture_facts_free(&f);
	memset(&f, 0, sizeof f);
	assert_int_equal(capture_facts_qdisc(&f, "h:tc-qdisc.txt", "qdisc fq 8001 dev x root\n", 25,
	    &cause), -1);
	assert_non_null(strstr(cause, "h:tc-qdisc.txt:1: not a qdisc line"));
	free(cause);
	assert_int_equal(capture_facts_qdisc(&f, "h", "garbage\n", 8, &cause), -1);
	free(cause);
	capture_facts_free(&f);
}

/* napi/IF-ID threads: one list when all agree, else each (newest first); none: the online CPUs. */
static void
test_capture_facts_napi(void **state)
{
	static const char text[] = "napi/eth0-8193 0-3\nnapi/eth0-8194 2\nnapi/eth00-1 1\n"
	    "napi/enp3s0f0np 3\nnapi/eth1-9 \n";
	struct capture_facts f;
	char *v, *cause = NULL;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_int_equal(capture_facts_napi(&f, "c", text, strlen(text), &cause), 0);
	assert_int_equal(f.nthreads, 4);	/* the one without a CPU list went */
	assert_non_null(v = capture_facts_napi_cpus(&f, "eth0", "1", "0-3"));
	assert_string_equal(v, "2 0-3");
	free(v);
	assert_non_null(v = capture_facts_napi_cpus(&f, "eth0", "0", "0-3"));
	assert_string_equal(v, "0-3");		/* not threaded: no threads of its own */
	free(v);
	assert_non_null(v = capture_facts_napi_cpus(&f, "eth1", "1", "0-1"));
	assert_string_equal(v, "0-1");
	free(v);
	/* "napi/enp3s0f0np1-5" is cut at 15 characters by the kernel */
	assert_non_null(v = capture_facts_napi_cpus(&f, "enp3s0f0np1", "1", "0-3"));
	assert_string_equal(v, "3");
	free(v);
	capture_facts_free(&f);
	memset(&f, 0, sizeof f);
	assert_int_equal(capture_facts_napi(&f, "h:napi-threads.txt", "napi/x-1 0-x\n", 13, &cause),
	    -1);
	assert_non_null(strstr(cause, "h:napi-threads.txt:1: not a CPU list"));
	free(cause);
	assert_int_equal(capture_facts_napi(&f, "h", "kworker/0 1\n", 12, &cause), -1);
	free(cause);
	capture_facts_free(&f);
}

/* The namespace's name: ours by inode, none when we are the host's (init's). */
static void
test_capture_facts_netns(void **state)
{
	static const char inns[] = "self 4026532611\ninit 4026531840\nns 4026532999 other\n"
	    "ns 4026532611 nt123-dut\n";
	static const char host[] = "self 4026531840\ninit 4026531840\nns 4026532611 nt123-dut\n";
	char name[64], *cause = NULL;

	(void)state;
	assert_int_equal(capture_facts_netns("c", inns, strlen(inns), name, sizeof name, &cause), 0);
	assert_string_equal(name, "nt123-dut");
	assert_int_equal(capture_facts_netns("c", host, strlen(host), name, sizeof name, &cause), 0);
	assert_string_equal(name, "");
	assert_int_equal(capture_facts_netns("h:netns.txt", "self x\n", 7, name, sizeof name, &cause),
	    -1);
	assert_non_null(strstr(cause, "h:netns.txt:1: not a line of the namespace list"));
	free(cause);
}

struct modes {
	char	 got[512];
};

static int
mode_fn(void *arg, const char *path, int mode)
{
	struct modes *m = arg;
	size_t n = strlen(m->got);

	snprintf(m->got + n, sizeof m->got - n, "%s %o\n", path, (unsigned)mode);
	return 0;
}

/* ls -ld of /proc/sys files (this VM's): each path with its read and write bits. */
static void
test_capture_facts_modes(void **state)
{
	static const char text[] =
	    "--w------- 1 root root 0 Dec  5 22:13 ./net/ipv4/route/flush\n"
	    "-r--r--r-- 1 root root 0 Dec  5 22:13 ./net/core/rmem_max\n"
	    "-rw------- 1 0 0 0 Dec  5 14:23 ./vm/stat_refresh\n";
	struct modes m = { "" };
	char *cause = NULL;

	(void)state;
	assert_int_equal(capture_facts_modes("c", text, strlen(text), mode_fn, &m, &cause), 0);
	assert_string_equal(m.got, "/proc/sys/net/ipv4/route/flush 200\n"
	    "/proc/sys/net/core/rmem_max 444\n/proc/sys/vm/stat_refresh 600\n");
	assert_int_equal(capture_facts_modes("h:sysctl-modes.txt",
	    "-rw-r--r-- 1 0 0 0 Dec 5 ./../etc/passwd\n", 41, mode_fn, &m, &cause), -1);
	assert_non_null(strstr(cause, "h:sysctl-modes.txt:1: not a line of ls -ld"));
	free(cause);
	assert_int_equal(capture_facts_modes("h", "drwxr-xr-x 1 0 0 0 Dec 5 ./net\n", 31, mode_fn, &m,
	    &cause), -1);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_facts_real_pastes),
		cmocka_unit_test(test_capture_facts_this_vm),
		cmocka_unit_test(test_capture_facts_failed_blocks),
		cmocka_unit_test(test_capture_facts_refuses),
		cmocka_unit_test(test_capture_facts_qdisc),
		cmocka_unit_test(test_capture_facts_napi),
		cmocka_unit_test(test_capture_facts_netns),
		cmocka_unit_test(test_capture_facts_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
