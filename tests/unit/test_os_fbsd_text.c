/* FreeBSD text parsers (src/os/fbsd_text.c) on real outputs and the seeds' dumps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "os/fbsd_text.h"
#include "os/os.h"
#include "os/os_json.h"
#include "util/util.h"

#define REAL FIXTURES "/os/real/"

/* The document built from the given fixture files (relative to tests/fixtures/os/). */
static json_t *
doc_of(const char *first, ...)
{
	struct fbsd_text *t = fbsd_text_new();
	va_list ap;
	const char *f;
	char path[1024], *data, *cause = NULL;
	size_t len;
	json_t *d;

	va_start(ap, first);
	for (f = first; f != NULL; f = va_arg(ap, const char *)) {
		snprintf(path, sizeof path, "%s/os/%s", FIXTURES, f);
		if (util_read_file(path, &data, &len, &cause) != 0)
			fail_msg("%s", cause);
		fbsd_text_add(t, data, len, f);
		free(data);
	}
	va_end(ap);
	d = fbsd_text_doc(t);
	fbsd_text_free(t);
	return d;
}

static json_t *
nic(json_t *d, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(d, "nics"), i, e)
		if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0)
			return e;
	fail_msg("no NIC '%s'", name);
	return NULL;
}

static long long
jint(json_t *o, const char *path)
{
	char buf[128], *save, *k;
	json_t *v = o;

	snprintf(buf, sizeof buf, "%s", path);
	for (k = strtok_r(buf, ".", &save); k != NULL; k = strtok_r(NULL, ".", &save))
		v = json_object_get(v, k);
	if (!json_is_integer(v))
		fail_msg("'%s' is not an integer", path);
	return json_integer_value(v);
}

static const char *
jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}

static int
has_error(json_t *d, const char *needle)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(d, "errors"), i, e)
		if (strstr(json_string_value(e), needle) != NULL)
			return 1;
	return 0;
}

static void
test_fbsd_text_parses_every_real_fixture(void **state)
{
	DIR *dir;
	struct dirent *de;
	char path[1024], *data;
	size_t len, n = 0;

	(void)state;
	assert_non_null(dir = opendir(REAL));
	while ((de = readdir(dir)) != NULL) {
		struct fbsd_text *t;
		json_t *d;
		int linux_file = strncmp(de->d_name, "linux_", 6) == 0;
		int conf = strstr(de->d_name, ".conf") != NULL;

		if (de->d_name[0] == '.' || strncmp(de->d_name, "SOURCES", 7) == 0)
			continue;
		snprintf(path, sizeof path, "%s%s", REAL, de->d_name);
		assert_int_equal(util_read_file(path, &data, &len, NULL), 0);
		t = fbsd_text_new();
		fbsd_text_add(t, data, len, de->d_name);
		if (!conf && fbsd_text_kinds(t)[0] == '\0')
			fail_msg("%s: no kind of output recognized", de->d_name);
		d = fbsd_text_doc(t);
		assert_non_null(json_object_get(d, "cpu"));
		if (linux_file)
			assert_string_equal(jstr(json_object_get(d, "system"), "os"), "Linux");
		if (conf)
			assert_true(has_error(d, "loader.conf/sysctl.conf profile"));
		/* files the sources list as cut short must say so */
		if ((strstr(de->d_name, "partial") != NULL || strstr(de->d_name, "fragment") != NULL) &&
		    strstr(de->d_name, "dmesg") == NULL)
			if (json_array_size(json_object_get(d, "errors")) == 0)
				fail_msg("%s: cut short but no error", de->d_name);
		json_decref(d);
		fbsd_text_free(t);
		free(data);
		n++;
	}
	closedir(dir);
	assert_true(n >= 30);
}

static void
test_fbsd_text_kinds_detected_by_content(void **state)
{
	static const struct {
		const char *file, *kind;
	} cases[] = {
		{ "real/pciconf-lv_opnsense_netgate6100_x553-ix.txt", "pciconf" },
		{ "real/vmstat-i_freebsd14.3_4cpu_igc-4rxq.txt", "vmstat-i" },
		{ "real/top-P_freebsd14.3_4cpu_3snapshots.txt", "top-P" },
		{ "real/netstat-ibnd_freebsd14.3_igc_opnsense-like.txt", "netstat-i" },
		{ "real/netstat-Q_freebsd14.3_4cpu_pppoe.txt", "netstat-Q" },
		{ "real/sysctl-kern.smp_freebsd_ten64-nxp-ls1088_8c8t.txt", "sysctl" },
		{ "real/topology-spec_truenas13.1_i7-3770_4c8t.xml", "topology_spec" },
		{ "real/dmesg_opnsense24.1_atom-c3558r_ix-x553_partial.txt", "dmesg" },
		{ "seed000-dec750/ifconfig-a.txt", "ifconfig" },
		{ "seed000-dec750/cpuset-irq.txt", "cpuset" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		json_t *d = doc_of(cases[i].file, NULL);

		if (strstr(jstr(d, "inputs"), cases[i].kind) == NULL)
			fail_msg("%s: kinds '%s', wanted '%s'", cases[i].file, jstr(d, "inputs"),
			    cases[i].kind);
		json_decref(d);
	}
}

static void
test_fbsd_text_vmstat_gives_queue_irqs(void **state)
{
	json_t *d = doc_of("real/vmstat-i_freebsd14.3_4cpu_igc-4rxq.txt", NULL), *n, *q;

	(void)state;
	n = nic(d, "igc1");
	assert_int_equal(json_array_size(json_object_get(n, "queues")), 4);
	q = json_array_get(json_object_get(n, "queues"), 2);
	assert_int_equal(jint(q, "irq"), 137);
	assert_string_equal(jstr(q, "irq_name"), "igc1:rxq2");
	assert_int_equal(jint(q, "interrupts"), 11778416956LL);
	assert_int_equal(json_array_size(json_object_get(nic(d, "igc3"), "queues")), 0);
	assert_int_equal(json_array_size(json_object_get(d, "errors")), 0);
	json_decref(d);
}

static void
test_fbsd_text_vmstat_cut_line_is_reported_with_its_number(void **state)
{
	json_t *d = doc_of("real/vmstat-i_freebsd13-14_8cpu_igb-em_partial.txt", NULL);

	(void)state;
	assert_true(has_error(d, "vmstat-i_freebsd13-14_8cpu_igb-em_partial.txt:27: vmstat -i line cut short"));
	assert_int_equal(json_array_size(json_object_get(nic(d, "igb0"), "queues")), 4);
	json_decref(d);
}

static void
test_fbsd_text_pciconf_old_format_reads_chip(void **state)
{
	json_t *d = doc_of("real/pciconf-lcbv_opnsense21.1.3_msi-ms7b24_chelsio-t6-oldformat.txt", NULL);
	json_t *n = nic(d, "t6nex0");

	(void)state;
	assert_string_equal(jstr(n, "pci_id"), "1425:6403");
	assert_string_equal(jstr(n, "bus"), "pci0:1:0:4");
	assert_non_null(strstr(jstr(n, "pci_name"), "Chelsio"));
	json_decref(d);
}

static void
test_fbsd_text_pciconf_new_format_names_the_nic(void **state)
{
	json_t *d = doc_of("real/pciconf-lv_opnsense_netgate6100_x553-ix.txt", NULL);
	json_t *n = nic(d, "ix0");

	(void)state;
	assert_string_equal(jstr(n, "pci_id"), "8086:15c4");
	assert_non_null(strstr(jstr(n, "pci_name"), "X553"));
	assert_int_equal(json_array_size(json_object_get(d, "nics")), 4);
	json_decref(d);
}

static void
test_fbsd_text_topology_cut_short_keeps_groups_seen(void **state)
{
	struct fbsd_topology tp;
	char *data;
	size_t len;

	(void)state;
	assert_int_equal(util_read_file(REAL "topology-spec_truenas13.1_i7-3770_4c8t.xml", &data,
	    &len, NULL), 0);
	assert_int_equal(fbsd_topology_parse(data, &tp), 0);
	assert_int_equal(tp.ncpu, 8);
	assert_true(tp.truncated);
	assert_true(tp.smt);
	assert_int_equal(tp.cpu_core[0], tp.cpu_core[1]);
	assert_int_not_equal(tp.cpu_core[1], tp.cpu_core[2]);
	assert_int_equal(tp.cpu_core[5], 2);
	assert_int_equal(tp.cpu_core[7], -1);
	fbsd_topology_free(&tp);
	free(data);
}

static void
test_fbsd_text_topology_finds_numa_nodes(void **state)
{
	struct fbsd_topology tp;
	char *data;
	size_t len;

	(void)state;
	assert_int_equal(util_read_file(REAL "topology-spec_freebsd_40cpu-2numa-smt.xml", &data,
	    &len, NULL), 0);
	assert_int_equal(fbsd_topology_parse(data, &tp), 0);
	assert_int_equal(tp.ncpu, 40);
	assert_int_equal(tp.nnodes, 1);	/* the excerpt ends inside node 0 */
	assert_int_equal(tp.cpu_node[19], 0);
	assert_int_equal(tp.cpu_node[20], -1);
	fbsd_topology_free(&tp);
	free(data);
	assert_int_equal(fbsd_topology_parse("not xml", &tp), -1);
}

static void
test_fbsd_text_top_P_keeps_the_last_snapshot(void **state)
{
	json_t *d = doc_of("real/top-P_freebsd14.3_4cpu_3snapshots.txt", NULL), *l;

	(void)state;
	l = json_object_get(d, "cpu_load");
	assert_int_equal(json_array_size(l), 4);
	assert_int_equal(jint(json_object_get(d, "cpu"), "threads"), 4);
	assert_true(json_real_value(json_object_get(json_array_get(l, 3), "idle")) > 90);
	assert_int_equal(json_array_size(json_object_get(d, "errors")), 0);
	json_decref(d);
}

static void
test_fbsd_text_top_P_cut_line_is_reported(void **state)
{
	json_t *d = doc_of("real/top-aSHIP_opnsense_ryzen7-9700x_partial.txt", NULL);

	(void)state;
	assert_true(has_error(d, ":5: top -P line cut short"));
	json_decref(d);
}

static void
test_fbsd_text_netstat_ibnd_gives_counters_and_mtu(void **state)
{
	json_t *d = doc_of("real/netstat-ibnd_freebsd14.3_igc_opnsense-like.txt", NULL), *c, *e;
	size_t i;
	int found = 0;

	(void)state;
	assert_int_equal(jint(nic(d, "igc0"), "mtu"), 1492);
	assert_string_equal(jstr(nic(d, "igc1"), "mac"), "00:e2:69:67:13:65");
	c = json_object_get(d, "if_counters");
	json_array_foreach(c, i, e)
		if (strcmp(jstr(e, "name"), "igc1") == 0) {
			assert_int_equal(jint(e, "ipackets"), 26709769326LL);
			assert_int_equal(jint(e, "ierrors"), 2814);
			found = 1;
		}
	assert_true(found);
	assert_int_equal(json_array_size(json_object_get(d, "errors")), 0);
	json_decref(d);
}

static void
test_fbsd_text_netstat_Q_gives_netisr_settings(void **state)
{
	json_t *d = doc_of("real/netstat-Q_freebsd14.3_4cpu_pppoe.txt", NULL);
	json_t *s = json_object_get(d, "sysctls");

	(void)state;
	assert_string_equal(jstr(s, "net.isr.dispatch"), "direct");
	assert_string_equal(jstr(s, "net.isr.numthreads"), "4");
	assert_string_equal(jstr(s, "net.isr.maxqlimit"), "10240");
	assert_string_equal(jstr(s, "net.isr.bindthreads"), "1");
	json_decref(d);
}

static void
test_fbsd_text_sysctl_cut_name_is_reported(void **state)
{
	json_t *d = doc_of("real/sysctl-dev.ix.0_pfsense_partial.txt", NULL);

	(void)state;
	assert_true(has_error(d, ":37: last line cut short"));
	assert_string_equal(jstr(json_object_get(d, "sysctls"), "dev.ix.0.fc"), "3");
	assert_string_equal(jstr(nic(d, "ix0"), "firmware"), "eTrack 0x800003e2 PHY FW V286");
	json_decref(d);
}

static void
test_fbsd_text_dmesg_gives_queues_and_rings(void **state)
{
	json_t *d = doc_of("real/dmesg_opnsense24.1_atom-c3558r_ix-x553_partial.txt", NULL);
	json_t *n = nic(d, "ix0");

	(void)state;
	assert_int_equal(jint(n, "channels.rx"), 4);
	assert_int_equal(jint(n, "rings.rx"), 2048);
	assert_string_equal(jstr(n, "mac"), "00:a0:57:72:b3:8d");
	assert_string_equal(jstr(n, "pci_name"), "Intel(R) X553 N (SFP+)");
	json_decref(d);
}

static void
test_fbsd_text_seed000_dec750(void **state)
{
	json_t *d = doc_of("seed000-dec750/sysctl-a.txt", "seed000-dec750/vmstat-i.txt",
	    "seed000-dec750/ifconfig-a.txt", "seed000-dec750/pciconf-lv.txt",
	    "seed000-dec750/top-P.txt", "seed000-dec750/cpuset-irq.txt", NULL);
	json_t *cpu = json_object_get(d, "cpu"), *n, *q;

	(void)state;
	assert_string_equal(jstr(cpu, "model"), "AMD Ryzen Embedded V1500B");
	assert_int_equal(jint(cpu, "threads"), 8);
	assert_int_equal(jint(cpu, "cores"), 4);
	assert_true(json_is_true(json_object_get(cpu, "smt")));
	assert_int_equal(jint(json_array_get(json_object_get(cpu, "cpus"), 5), "core"), 2);
	assert_string_equal(jstr(json_object_get(d, "system"), "distro"), "OPNsense");
	n = nic(d, "ax1");
	assert_string_equal(jstr(n, "pci_id"), "1022:1458");
	assert_int_equal(jint(n, "speed_mbps"), 10000);
	assert_int_equal(json_array_size(json_object_get(n, "queues")), 4);
	q = json_array_get(json_object_get(n, "queues"), 3);
	assert_int_equal(jint(q, "irq"), 91);
	assert_int_equal(jint(q, "irq_cpu"), 3);
	/* the seed's top -P after tuning: CPU 5 at 87.8% interrupt */
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(d, "cpu_load"), 5),
	    "interrupt")) > 87.7);
	assert_string_equal(jstr(json_object_get(d, "sysctls"), "machdep.hyperthreading_intr_allowed"), "0");
	assert_int_equal(json_array_size(json_object_get(d, "errors")), 0);
	json_decref(d);
}

static void
test_fbsd_text_seed001_xeon_ix(void **state)
{
	json_t *d = doc_of("seed001-xeon-ix/sysctl-a.txt", "seed001-xeon-ix/pciconf-lv.txt",
	    "seed001-xeon-ix/vmstat-i.txt", NULL);
	json_t *cpu = json_object_get(d, "cpu"), *n;

	(void)state;
	assert_int_equal(jint(cpu, "threads"), 6);
	assert_true(json_is_false(json_object_get(cpu, "smt")));
	n = nic(d, "ix0");
	assert_string_equal(jstr(n, "pci_id"), "8086:1528");
	assert_string_equal(jstr(n, "pci_name"), "Intel Corporation Ethernet Controller 10-Gigabit X540-AT2");
	assert_int_equal(json_array_size(json_object_get(n, "queues")), 6);
	assert_int_equal(jint(json_array_get(json_object_get(n, "queues"), 0), "irq"), 264);
	assert_string_equal(jstr(json_object_get(d, "sysctls"), "hw.ix.rx_process_limit"), "256");
	/* kern.version's second line is part of its value */
	assert_non_null(strstr(jstr(json_object_get(d, "sysctls"), "kern.version"), "amd64-builder"));
	json_decref(d);
}

static void
test_linux_text_ethtool_channels_rings_and_driver(void **state)
{
	json_t *d = doc_of("real/linux_ethtool-l_eno1_rx4-tx4_separate.txt", NULL), *n;

	(void)state;
	n = nic(d, "eno1");
	assert_int_equal(jint(n, "channels.rx"), 4);
	assert_int_equal(jint(n, "channels.tx"), 1);
	assert_int_equal(jint(n, "channels.max_tx"), 4);
	assert_true(json_is_null(json_object_get(json_object_get(n, "channels"), "combined")));
	json_decref(d);
	/* -g with the poster's "<---- default is small" note, then -i of the same NIC */
	d = doc_of("real/linux_ethtool-g_enp3s0f0_e1000e_annotated.txt",
	    "real/linux_ethtool-i_enp3s0f0_e1000e.txt", NULL);
	n = nic(d, "enp3s0f0");
	assert_int_equal(jint(n, "rings.rx"), 256);
	assert_int_equal(jint(n, "rings.max_rx"), 4096);
	assert_string_equal(jstr(n, "driver"), "e1000e");
	assert_string_equal(jstr(n, "firmware"), "5.6-2");
	assert_string_equal(jstr(n, "bus"), "0000:03:00.0");
	assert_int_equal(json_array_size(json_object_get(d, "errors")), 0);
	json_decref(d);
}

static void
test_linux_text_proc_interrupts_gives_queues_and_cpus(void **state)
{
	json_t *d = doc_of("real/linux_proc-interrupts_i40e-vfio_4cpu_partial.txt", NULL), *n, *q;

	(void)state;
	assert_int_equal(jint(json_object_get(d, "cpu"), "threads"), 4);
	n = nic(d, "enP1s15");
	assert_int_equal(json_array_size(json_object_get(n, "queues")), 3);
	q = json_array_get(json_object_get(n, "queues"), 0);
	assert_int_equal(jint(q, "irq"), 10);
	assert_int_equal(jint(q, "irq_cpu"), 0);
	assert_int_equal(jint(q, "interrupts"), 119);
	assert_true(has_error(d, ":14: /proc/interrupts text ends without a newline"));
	json_decref(d);
	d = doc_of("real/linux_proc-interrupts-grep-eth_r8125-rss_3cpu_partial.txt", NULL);
	assert_int_equal(json_array_size(json_object_get(nic(d, "eth0"), "queues")), 7);
	assert_true(has_error(d, ":9: /proc/interrupts line cut short"));
	json_decref(d);
}

static void
test_fbsd_text_unrecognized_file_says_what_was_expected(void **state)
{
	struct fbsd_text *t = fbsd_text_new();
	json_t *d;
	const char *junk = "hello world\nthis is not a dump\n";

	(void)state;
	fbsd_text_add(t, junk, strlen(junk), "junk.txt");
	d = fbsd_text_doc(t);
	assert_true(has_error(d, "junk.txt: unrecognized content (expected sysctl -a"));
	json_decref(d);
	fbsd_text_free(t);
}

static void
test_fbsd_text_mixed_outputs_in_one_file(void **state)
{
	struct fbsd_text *t = fbsd_text_new();
	json_t *d;
	const char *text =
	    "hw.ncpu: 2\n"
	    "interrupt                          total       rate\n"
	    "irq264: em0:irq0                 100          1\n"
	    "Total                            100          1\n"
	    "em0@pci0:0:3:0:\tclass=0x020000 rev=0x02 hdr=0x00 vendor=0x8086 device=0x100e\n"
	    "    vendor     = 'Intel Corporation'\n"
	    "    class      = network\n";

	(void)state;
	fbsd_text_add(t, text, strlen(text), "mixed.txt");
	assert_string_equal(fbsd_text_kinds(t), "sysctl vmstat-i pciconf");
	d = fbsd_text_doc(t);
	assert_int_equal(jint(json_object_get(d, "cpu"), "threads"), 2);
	assert_string_equal(jstr(nic(d, "em0"), "pci_id"), "8086:100e");
	json_decref(d);
	fbsd_text_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fbsd_text_parses_every_real_fixture),
		cmocka_unit_test(test_fbsd_text_kinds_detected_by_content),
		cmocka_unit_test(test_fbsd_text_vmstat_gives_queue_irqs),
		cmocka_unit_test(test_fbsd_text_vmstat_cut_line_is_reported_with_its_number),
		cmocka_unit_test(test_fbsd_text_pciconf_old_format_reads_chip),
		cmocka_unit_test(test_fbsd_text_pciconf_new_format_names_the_nic),
		cmocka_unit_test(test_fbsd_text_topology_cut_short_keeps_groups_seen),
		cmocka_unit_test(test_fbsd_text_topology_finds_numa_nodes),
		cmocka_unit_test(test_fbsd_text_top_P_keeps_the_last_snapshot),
		cmocka_unit_test(test_fbsd_text_top_P_cut_line_is_reported),
		cmocka_unit_test(test_fbsd_text_netstat_ibnd_gives_counters_and_mtu),
		cmocka_unit_test(test_fbsd_text_netstat_Q_gives_netisr_settings),
		cmocka_unit_test(test_fbsd_text_sysctl_cut_name_is_reported),
		cmocka_unit_test(test_fbsd_text_dmesg_gives_queues_and_rings),
		cmocka_unit_test(test_fbsd_text_seed000_dec750),
		cmocka_unit_test(test_fbsd_text_seed001_xeon_ix),
		cmocka_unit_test(test_linux_text_ethtool_channels_rings_and_driver),
		cmocka_unit_test(test_linux_text_proc_interrupts_gives_queues_and_cpus),
		cmocka_unit_test(test_fbsd_text_unrecognized_file_says_what_was_expected),
		cmocka_unit_test(test_fbsd_text_mixed_outputs_in_one_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
