/*
 * The Linux backend: on a captured /proc + /sys tree of the CI machine, on real
 * /proc/interrupts excerpts, and live inside a private network namespace (veth
 * pair created here) for the if.* and sysctl tunables. The live part unshares a
 * network and mount namespace for this test process, so the host is never touched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "os/os.h"
#include "os/os_json.h"
#include "util/util.h"

#define TREE FIXTURES "/os/linux-vm"

static void
test_linux_tree_reads_cpu_and_system(void **state)
{
	struct os_ctx *ctx;
	struct os_system sys;
	struct os_cpu cpu;
	char *cause = NULL;

	(void)state;
	assert_non_null(ctx = os_open_live(TREE, &cause));
	assert_string_equal(ctx->ops->name, "linux");
	assert_int_equal(ctx->ops->system(ctx, &sys, &cause), 0);
	assert_string_equal(sys.os, "Linux");
	assert_string_equal(sys.distro, "Debian GNU/Linux 12 (bookworm)");
	assert_int_equal(ctx->ops->cpu(ctx, &cpu, &cause), 0);
	assert_int_equal(cpu.threads, 2);
	assert_int_equal(cpu.cores, 2);
	assert_int_equal(cpu.smt, OS_OFF);
	assert_int_equal(cpu.numa_nodes, 1);
	os_cpu_free(&cpu);
	os_close(ctx);
}

/*
 * One reader per format (issue 33 item 1): the counters the backend reads from the captured
 * tree and those the paste reader reads from a paste of the same files are the same.
 */
static void
test_linux_tree_and_a_paste_of_its_files_give_the_same_counters(void **state)
{
	struct os_counters live = { NULL, 0, NULL, 0, NULL, 0 }, paste = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_ctx *ctx;
	struct strbuf sb;
	char *cause = NULL, *data;
	const struct os_counter *p;
	size_t len, i, same = 0;

	(void)state;
	assert_non_null(ctx = os_open_live(TREE, &cause));
	assert_int_equal(os_counters_collect(ctx, &live, false, &cause), 0);
	os_close(ctx);
	strbuf_init(&sb);
	strbuf_adds(&sb, "user@vm:~$ cat /proc/stat /proc/net/dev\n");
	assert_int_equal(util_read_file(TREE "/proc/stat", &data, &len, &cause), 0);
	strbuf_add(&sb, data, len);
	free(data);
	assert_int_equal(util_read_file(TREE "/proc/net/dev", &data, &len, &cause), 0);
	strbuf_add(&sb, data, len);
	free(data);
	assert_int_equal(os_counters_text_linux(sb.buf, sb.len, "paste.txt", &paste, &cause), 0);
	strbuf_free(&sb);
	for (i = 0; i < live.n; i++) {
		/* not the gauges the backend adds from the NIC list (if.X.rxqueues, .rps, .veth) */
		if ((strncmp(live.v[i].name, "cpu.", 4) != 0 && strncmp(live.v[i].name, "if.", 3) != 0) ||
		    live.v[i].gauge)
			continue;
		if ((p = os_counters_get(&paste, live.v[i].name)) == NULL)
			fail_msg("the paste has no %s", live.v[i].name);
		assert_int_equal(p->value, live.v[i].value);
		same++;
	}
	assert_true(same >= 16 + 8);	/* 2 CPUs x 8 states, an interface's 8 counters or more */
	os_counters_free(&live);
	os_counters_free(&paste);
}

static void
test_linux_tree_maps_virtio_queues_to_irqs(void **state)
{
	struct os_ctx *ctx;
	struct os_nic *nics;
	size_t n, i;
	char *cause = NULL;
	const struct os_nic *eth0 = NULL;

	(void)state;
	assert_non_null(ctx = os_open_live(TREE, &cause));
	assert_int_equal(ctx->ops->nics(ctx, &nics, &n, &cause), 0);
	for (i = 0; i < n; i++)
		if (strcmp(nics[i].name, "eth0") == 0)
			eth0 = &nics[i];
	assert_non_null(eth0);
	assert_string_equal(eth0->driver, "virtio_net");
	assert_string_equal(eth0->bus, "0000:00:03.0");
	assert_string_equal(eth0->pci_id, "1af4:1041");
	assert_int_equal(eth0->nqueues, 2);
	assert_string_equal(eth0->queues[0].kind, "rx");
	assert_int_equal(eth0->queues[0].irq, 38);
	assert_string_equal(eth0->queues[0].irq_name, "virtio2-input.0");
	assert_string_equal(eth0->queues[1].kind, "tx");
	assert_int_equal(eth0->queues[1].irq, 39);
	os_nics_free(nics, n);
	os_close(ctx);
}

static void
test_linux_tree_tunables_read_but_never_write(void **state)
{
	struct os_ctx *ctx;
	char *cause = NULL, *v = NULL;
	enum os_tunable_kind k;

	(void)state;
	assert_non_null(ctx = os_open_live(TREE, &cause));
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.core.netdev_budget", &v, &cause), 0);
	assert_string_equal(v, "300");
	free(v);
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.ipv4.tcp_rmem", &v, &cause), 0);
	assert_null(strchr(v, '\t'));
	free(v);
	assert_int_equal(ctx->ops->tunable_get(ctx, "if.eth0.irq_affinity", &v, &cause), 0);
	free(v);
	assert_int_equal(ctx->ops->tunable_set(ctx, "net.core.netdev_budget", "600", &cause), -1);
	assert_non_null(strstr(cause, "read-only"));
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.core.nope", &v, &cause), -1);
	assert_string_equal(cause, "unknown sysctl 'net.core.nope'");
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_get(ctx, "net./../../etc", &v, &cause), -1);
	assert_non_null(strstr(cause, "invalid sysctl name"));
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_kind(ctx, "cpu.governor", &k, NULL), 0);
	assert_int_equal(k, OS_TUNABLE_NONE);
	os_close(ctx);
}

static int
count_cb(const char *name, const char *value, void *arg)
{
	(void)value;
	if (strncmp(name, "net.core.", 9) != 0)
		return 1;
	(*(int *)arg)++;
	return 0;
}

static void
test_linux_tree_lists_sysctls_under_a_prefix(void **state)
{
	struct os_ctx *ctx;
	char *cause = NULL;
	int n = 0;

	(void)state;
	assert_non_null(ctx = os_open_live(TREE, &cause));
	assert_int_equal(ctx->ops->tunable_list(ctx, "net.core.", count_cb, &n, &cause), 0);
	assert_true(n > 20);
	os_close(ctx);
}

/* A tree with only proc/interrupts (and the files every backend open needs). */
static char *
interrupts_tree(const char *fixture)
{
	char tmpl[] = "/tmp/ntune-test-os.XXXXXX", *dir, path[1024], *data, *cause = NULL;
	size_t len;

	assert_non_null(dir = mkdtemp(tmpl));
	dir = xstrdup(dir);
	snprintf(path, sizeof path, "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/os/real/%s", FIXTURES, fixture);
	if (util_read_file(path, &data, &len, &cause) != 0)
		fail_msg("%s", cause);
	snprintf(path, sizeof path, "%s/proc/interrupts", dir);
	assert_int_equal(util_write_file_atomic(path, data, len, 0644, &cause), 0);
	free(data);
	return dir;
}

static void
remove_tree(char *dir)
{
	char path[1024];

	snprintf(path, sizeof path, "%s/proc/interrupts", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
	free(dir);
}

static void
test_linux_real_proc_interrupts_per_queue(void **state)
{
	static const struct {
		const char *file;
		size_t ncpu;
		const char *irq, *desc;
	} cases[] = {
		{ "linux_proc-interrupts_i40e-vfio_4cpu_partial.txt", 4, "11", NULL },
		{ "linux_proc-interrupts-grep-eth_r8125-rss_3cpu_partial.txt", 3, "30", "eth0-0" },
	};
	size_t c, n, i;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *dir = interrupts_tree(cases[c].file), *cause = NULL;
		struct os_ctx *ctx;
		struct os_irq *irqs;
		int found = 0;

		assert_non_null(ctx = os_open_live(dir, &cause));
		if (ctx->ops->irqs(ctx, &irqs, &n, &cause) != 0)
			fail_msg("%s: %s", cases[c].file, cause);
		assert_true(n > 0);
		for (i = 0; i < n; i++) {
			assert_int_equal(irqs[i].ncpu, cases[c].ncpu);
			if (strcmp(irqs[i].name, cases[c].irq) == 0) {
				found = 1;
				if (cases[c].desc != NULL)
					assert_string_equal(irqs[i].desc, cases[c].desc);
			}
		}
		if (!found)
			fail_msg("%s: no IRQ %s", cases[c].file, cases[c].irq);
		os_irqs_free(irqs, n);
		os_close(ctx);
		remove_tree(dir);
	}
}

static void
test_linux_proc_interrupts_without_header_is_an_error(void **state)
{
	char *dir = interrupts_tree("linux_proc-interrupts_ice-e810_16cpu_fragment.txt");
	char *cause = NULL;
	struct os_ctx *ctx;
	struct os_irq *irqs;
	size_t n;

	(void)state;
	assert_non_null(ctx = os_open_live(dir, &cause));
	assert_int_equal(ctx->ops->irqs(ctx, &irqs, &n, &cause), -1);
	assert_non_null(strstr(cause, "no CPU header line"));
	free(cause);
	os_close(ctx);
	remove_tree(dir);
}

static void
test_linux_missing_root_is_refused(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_null(os_open_live("/nonexistent/ntune-tree", &cause));
	assert_non_null(strstr(cause, "/nonexistent/ntune-tree/proc"));
	free(cause);
}

/* ---- live, in a network namespace of our own ---- */

static int have_netns;

static int
netns_setup(void)
{
	if (geteuid() != 0 || (access("/usr/sbin/ip", X_OK) != 0 && access("/sbin/ip", X_OK) != 0))
		return 0;
	if (unshare(CLONE_NEWNET | CLONE_NEWNS) != 0)
		return 0;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) != 0)
		return -1;
	if (system("ip link add va numtxqueues 4 numrxqueues 4 type veth peer name vb "
	    "numtxqueues 4 numrxqueues 4 && ip link set va up && ip link set vb up") != 0)
		return -1;
	have_netns = 1;
	return 0;
}

static char *
get(struct os_ctx *ctx, const char *name)
{
	char *v = NULL, *cause = NULL;

	if (ctx->ops->tunable_get(ctx, name, &v, &cause) != 0)
		fail_msg("get %s: %s", name, cause);
	return v;
}

static void
set_ok(struct os_ctx *ctx, const char *name, const char *value)
{
	char *cause = NULL, *v;

	if (ctx->ops->tunable_set(ctx, name, value, &cause) != 0)
		fail_msg("set %s=%s: %s", name, value, cause);
	v = get(ctx, name);
	if (strcmp(v, value) != 0)
		fail_msg("set %s=%s: reads back '%s'", name, value, v);
	free(v);
}

static void
set_fails(struct os_ctx *ctx, const char *name, const char *value, const char *msg)
{
	char *cause = NULL;

	assert_int_equal(ctx->ops->tunable_set(ctx, name, value, &cause), -1);
	if (strstr(cause, msg) == NULL)
		fail_msg("set %s=%s: '%s' does not say '%s'", name, value, cause, msg);
	free(cause);
}

static void
test_linux_netns_if_tunables_set_and_read_back(void **state)
{
	struct os_ctx *ctx;
	char *cause = NULL, *v;
	enum os_tunable_kind k;

	(void)state;
	if (!have_netns)
		skip();
	assert_non_null(ctx = os_open_live("", &cause));
	set_ok(ctx, "if.va.channels.rx", "2");
	set_ok(ctx, "if.va.channels.rx", "4");
	set_fails(ctx, "if.va.channels.rx", "9", "maximum is 4");
	set_ok(ctx, "if.va.offload.gro", "on");
	set_ok(ctx, "if.va.offload.gro", "off");
	set_ok(ctx, "if.va.offload.tso", "off");
	set_ok(ctx, "if.va.offload.tso", "on");
	set_fails(ctx, "if.va.offload.lro", "on", "does not support");
	set_fails(ctx, "if.va.offload.gro", "maybe", "use on or off");
	set_ok(ctx, "if.va.rps_cpus", "3");
	set_ok(ctx, "if.va.rps_cpus", "1 2 3 1");
	set_ok(ctx, "if.va.rx-2.rps_cpus", "1");
	set_fails(ctx, "if.va.rps_cpus", "1 2", "one per queue (4)");
	set_fails(ctx, "if.va.rps_cpus", "xyz", "not a hex CPU mask");
	set_ok(ctx, "if.va.rps_flow_cnt", "256");
	set_ok(ctx, "if.va.xps_cpus", "1");
	set_ok(ctx, "if.va.mtu", "9000");
	set_ok(ctx, "if.va.txqueuelen", "5000");
	assert_string_equal((v = get(ctx, "if.va.qdisc")), "default");
	free(v);
	set_ok(ctx, "if.va.qdisc", "pfifo_fast");
	set_ok(ctx, "if.va.qdisc", "default");
	set_fails(ctx, "if.va.qdisc", "x;rm", "invalid value");
	set_fails(ctx, "if.va.ring.rx", "512", "does not support");
	set_fails(ctx, "if.nope0.mtu", "1500", "no interface 'nope0'");
	set_fails(ctx, "if.va.irq_affinity", "0", "no queue interrupts");
	/* net.* sysctls are per namespace: safe to write here */
	set_ok(ctx, "net.ipv4.ip_forward", "1");
	set_ok(ctx, "net.ipv4.ip_forward", "0");
	assert_int_equal(ctx->ops->tunable_kind(ctx, "if.va.ring.rx", &k, NULL), 0);
	assert_int_equal(k, OS_TUNABLE_NONE);
	assert_int_equal(ctx->ops->tunable_kind(ctx, "if.va.offload.gro", &k, NULL), 0);
	assert_int_equal(k, OS_TUNABLE_RUNTIME);
	os_close(ctx);
}

static void
test_linux_netns_nic_report_of_veth(void **state)
{
	struct os_ctx *ctx;
	struct os_nic *nics;
	size_t n, i;
	char *cause = NULL;
	int found = 0;

	(void)state;
	if (!have_netns)
		skip();
	assert_non_null(ctx = os_open_live("", &cause));
	assert_int_equal(ctx->ops->nics(ctx, &nics, &n, &cause), 0);
	for (i = 0; i < n; i++) {
		if (strcmp(nics[i].name, "vb") != 0)
			continue;
		found = 1;
		assert_string_equal(nics[i].driver, "veth");
		assert_int_equal(nics[i].rx_queues, 4);
		assert_int_equal(nics[i].nqueues, 4);
		assert_true(nics[i].up);
	}
	assert_true(found);
	os_nics_free(nics, n);
	os_close(ctx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_tree_reads_cpu_and_system),
		cmocka_unit_test(test_linux_tree_and_a_paste_of_its_files_give_the_same_counters),
		cmocka_unit_test(test_linux_tree_maps_virtio_queues_to_irqs),
		cmocka_unit_test(test_linux_tree_tunables_read_but_never_write),
		cmocka_unit_test(test_linux_tree_lists_sysctls_under_a_prefix),
		cmocka_unit_test(test_linux_real_proc_interrupts_per_queue),
		cmocka_unit_test(test_linux_proc_interrupts_without_header_is_an_error),
		cmocka_unit_test(test_linux_missing_root_is_refused),
		cmocka_unit_test(test_linux_netns_if_tunables_set_and_read_back),
		cmocka_unit_test(test_linux_netns_nic_report_of_veth),
	};

	if (netns_setup() != 0) {
		fprintf(stderr, "cannot set up the test network namespace\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
