/*
 * Runs the FreeBSD backend (src/os/freebsd.c, built against the shim) on a fake
 * sysctl MIB made from the seed 000 DEC750 `sysctl -a` fixture: the MIB walk,
 * oidfmt kinds (CTLFLAG_TUN/RDTUN), kenv for loader-only tunables, typed sets,
 * kern.cp_times and hw.intrcnt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_sysctl.h"
#include "os/fbsd_text.h"
#include "os/os.h"
#include "os/os_impl.h"
#include "util/util.h"

static struct os_ctx *
open_fake(void)
{
	static const char *const kenv[] = { "hw.ax.loader_only=7", NULL };
	struct fbsd_text *t = fbsd_text_new();
	struct os_ctx *ctx;
	char *data, *cause = NULL;
	const char **names, **values, *key;
	json_t *doc, *sysctls, *v;
	size_t len, n = 0;

	if (util_read_file(FIXTURES "/os/seed000-dec750/sysctl-a.txt", &data, &len, &cause) != 0)
		fail_msg("%s", cause);
	fbsd_text_add(t, data, len, "sysctl-a.txt");
	free(data);
	doc = fbsd_text_doc(t);
	fbsd_text_free(t);
	sysctls = json_object_get(doc, "sysctls");
	names = xcalloc(json_object_size(sysctls), sizeof *names);
	values = xcalloc(json_object_size(sysctls), sizeof *values);
	json_object_foreach(sysctls, key, v) {
		names[n] = key;
		values[n++] = json_string_value(v);
	}
	fake_sysctl_load(names, values, n, kenv);
	free(names);
	free(values);
	json_decref(doc);
	ctx = xcalloc(1, sizeof *ctx);
	ctx->ops = &os_freebsd_ops;
	ctx->root = xstrdup("");
	assert_int_equal(os_freebsd_init(ctx, &cause), 0);
	return ctx;
}

static void
close_fake(struct os_ctx *ctx)
{
	os_close(ctx);
	fake_sysctl_free();
}

static void
test_freebsd_cpu_and_nics_from_the_mib(void **state)
{
	struct os_ctx *ctx = open_fake();
	struct os_system sys;
	struct os_cpu cpu;
	struct os_nic *nics;
	size_t n;
	char *cause = NULL;

	(void)state;
	assert_int_equal(ctx->ops->system(ctx, &sys, &cause), 0);
	assert_string_equal(sys.os, "FreeBSD");
	assert_string_equal(sys.version, "13.2-RELEASE-p7");
	assert_string_equal(sys.distro, "OPNsense");
	assert_int_equal(ctx->ops->cpu(ctx, &cpu, &cause), 0);
	assert_string_equal(cpu.model, "AMD Ryzen Embedded V1500B");
	assert_int_equal(cpu.threads, 8);
	assert_int_equal(cpu.cores, 4);
	assert_int_equal(cpu.smt, OS_ON);
	assert_int_equal(cpu.cpu_core[7], 3);
	os_cpu_free(&cpu);
	assert_int_equal(ctx->ops->nics(ctx, &nics, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_string_equal(nics[0].name, "ax0");
	assert_string_equal(nics[0].pci_id, "1022:1458");
	assert_string_equal(nics[0].bus, "pci0:6:0:2");
	/* the queues and their vectors come from hw.intrnames / hw.intrcnt */
	assert_int_equal(nics[0].nqueues, 4);
	assert_int_equal(nics[0].queues[1].irq, 83);
	assert_int_equal(nics[0].queues[1].interrupts, 977);
	/* cpuset_getaffinity(CPU_WHICH_IRQ): the fake puts irq 83 on CPU 83 % 4 */
	assert_int_equal(nics[0].queues[1].irq_cpu, 3);
	assert_string_equal(nics[0].queues[1].irq_affinity, "3");
	os_nics_free(nics, n);
	close_fake(ctx);
}

static void
test_freebsd_tunable_kinds_follow_ctlflags_and_kenv(void **state)
{
	static const struct {
		const char *name;
		enum os_tunable_kind kind;
	} cases[] = {
		{ "net.isr.maxthreads", OS_TUNABLE_LOADER },	/* CTLFLAG_RDTUN */
		{ "net.isr.dispatch", OS_TUNABLE_BOTH },	/* CTLFLAG_RWTUN */
		{ "kern.ipc.maxsockbuf", OS_TUNABLE_RUNTIME },
		{ "hw.ncpu", OS_TUNABLE_READONLY },
		{ "hw.ax.loader_only", OS_TUNABLE_LOADER },	/* only in kenv */
		{ "net.inet.nope", OS_TUNABLE_NONE },
	};
	struct os_ctx *ctx = open_fake();
	enum os_tunable_kind k;
	size_t i;
	char *v = NULL, *cause = NULL;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(ctx->ops->tunable_kind(ctx, cases[i].name, &k, NULL), 0);
		if (k != cases[i].kind)
			fail_msg("%s: kind %d, wanted %d", cases[i].name, k, cases[i].kind);
	}
	assert_int_equal(ctx->ops->tunable_get(ctx, "hw.ax.loader_only", &v, &cause), 0);
	assert_string_equal(v, "7");
	free(v);
	close_fake(ctx);
}

static void
test_freebsd_set_writes_typed_values_and_refuses_loader_tunables(void **state)
{
	struct os_ctx *ctx = open_fake();
	char *v = NULL, *cause = NULL;

	(void)state;
	assert_int_equal(ctx->ops->tunable_set(ctx, "kern.ipc.maxsockbuf", "16777216", &cause), 0);
	assert_int_equal(ctx->ops->tunable_get(ctx, "kern.ipc.maxsockbuf", &v, &cause), 0);
	assert_string_equal(v, "16777216");
	free(v);
	assert_int_equal(ctx->ops->tunable_set(ctx, "net.isr.dispatch", "deferred", &cause), 0);
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.isr.dispatch", &v, &cause), 0);
	assert_string_equal(v, "deferred");
	free(v);
	assert_int_equal(ctx->ops->tunable_set(ctx, "net.isr.maxthreads", "-1", &cause), -1);
	assert_non_null(strstr(cause, "loader tunable"));
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_set(ctx, "kern.ipc.maxsockbuf", "lots", &cause), -1);
	assert_non_null(strstr(cause, "not an integer"));
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_set(ctx, "hw.ncpu", "2", &cause), -1);
	assert_non_null(strstr(cause, "read-only"));
	free(cause);
	close_fake(ctx);
}

static int
collect(const char *name, const char *value, void *arg)
{
	(void)value;
	if (strncmp(name, "net.isr.", 8) != 0)
		fail_msg("'%s' is outside the prefix", name);
	(*(int *)arg)++;
	return 0;
}

static void
test_freebsd_walk_lists_a_subtree_and_counters(void **state)
{
	struct os_ctx *ctx = open_fake();
	struct os_cpu_times *t;
	struct os_irq *irqs;
	size_t n;
	int count = 0;
	char *cause = NULL;

	(void)state;
	assert_int_equal(ctx->ops->tunable_list(ctx, "net.isr.", collect, &count, &cause), 0);
	assert_int_equal(count, 6);
	assert_int_equal(ctx->ops->cpu_times(ctx, &t, &n, &cause), 0);
	assert_int_equal(n, 8);
	assert_int_equal(t[7].user, 170);
	assert_int_equal(t[7].interrupt, 370);
	assert_int_equal(t[7].idle, 470);
	free(t);
	assert_int_equal(ctx->ops->irqs(ctx, &irqs, &n, &cause), 0);
	assert_int_equal(n, 6);
	assert_string_equal(irqs[1].name, "irq82: ax0:rxq0");
	assert_int_equal(irqs[1].total, 981);
	os_irqs_free(irqs, n);
	close_fake(ctx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_freebsd_cpu_and_nics_from_the_mib),
		cmocka_unit_test(test_freebsd_tunable_kinds_follow_ctlflags_and_kenv),
		cmocka_unit_test(test_freebsd_set_writes_typed_values_and_refuses_loader_tunables),
		cmocka_unit_test(test_freebsd_walk_lists_a_subtree_and_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
