/*
 * The if.<ifname>.<setting> table (share/knobs/if.settings, read by os/ifset.c):
 * every row is a setting that if.<ifname>.<row> names, per-queue and ethtool -k
 * feature settings map onto a row, what FreeBSD and `export --format sh` use is in
 * the row, a bad line is refused naming file and line, and a row added to a copy
 * of the file is a setting with no other change.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "os/ifset.h"
#include "tmpdir.h"

static void
test_ifset_every_row_is_named_by_if_knobs(void **state)
{
	const struct os_ifsets *t;
	char ifname[64], knob[128], *cause = NULL;
	const char *setting, *p;
	size_t i, j;

	(void)state;
	t = os_ifsets_table(NULL, &cause);
	if (t == NULL)
		fail_msg("%s", cause);
	assert_true(t->n >= 37);
	for (i = 0; i < t->n; i++) {
		const struct os_ifset *r = &t->v[i];

		assert_ptr_equal(os_ifset_find(r->name), r);
		for (j = i + 1; j < t->n; j++)
			assert_string_not_equal(r->name, t->v[j].name);
		/* A vlan name with dots splits before the setting. */
		snprintf(knob, sizeof knob, "if.eth0.100.%s", r->name);
		assert_int_equal(os_if_split(knob, ifname, sizeof ifname, &setting, NULL), 0);
		assert_string_equal(ifname, "eth0.100");
		assert_string_equal(setting, r->name);
		if (r->bsd == OS_IFSET_BSD_CAP)
			assert_non_null(r->bsd_arg);
		if (r->lx != OS_IFSET_LX_PAUSE && r->lx != OS_IFSET_LX_IRQS &&
		    r->lx != OS_IFSET_LX_QDISC && r->lx != OS_IFSET_LX_NAPI_THREADS)
			assert_non_null(r->lx_arg);
		/* sh commands quote the interface and know only %i, %v and %o. */
		for (p = r->sh; p != NULL && (p = strchr(p, '%')) != NULL; p += 2)
			assert_non_null(strchr("ivo", p[1]));
		if (r->sh != NULL)
			assert_non_null(strstr(r->sh, "'%i'"));
	}
}

static void
test_ifset_queue_and_feature_settings_use_a_row(void **state)
{
	const struct os_ifset *r;
	const char *attr;
	char dir[3];
	int q;

	(void)state;
	assert_int_equal(os_ifset_queue("rx-12.rps_cpus", dir, &q, &attr), 0);
	assert_string_equal(dir, "rx");
	assert_int_equal(q, 12);
	assert_string_equal(attr, "rps_cpus");
	assert_ptr_equal(os_ifset_lookup("rx-12.rps_cpus"), os_ifset_find("rps_cpus"));
	assert_ptr_equal(os_ifset_lookup("tx-0.xps_cpus"), os_ifset_find("xps_cpus"));
	/* A queue attribute of the other direction is not a setting. */
	assert_null(os_ifset_lookup("tx-1.rps_cpus"));
	assert_null(os_ifset_lookup("rx-.rps_cpus"));
	r = os_ifset_lookup("offload.rx-udp-gro-forwarding");
	assert_non_null(r);
	assert_int_equal(r->lx, OS_IFSET_LX_OFFLOAD);
	assert_null(r->lx_arg);
	assert_null(os_ifset_lookup("offload.Bad_Name"));
	assert_null(os_ifset_lookup("bogus"));
	assert_int_equal(os_ifset_find("offload.lro")->bsd, OS_IFSET_BSD_CAP);
	assert_int_equal(os_ifset_find("mtu")->bsd, OS_IFSET_BSD_MTU);
	assert_int_equal(os_ifset_find("ring.rx")->bsd, OS_IFSET_BSD_NONE);
}

/* What the methods of a few shipped rows are, as ifset.c's C table had them. */
static void
test_ifset_shipped_rows_keep_their_methods(void **state)
{
	const struct os_ifset *r;

	(void)state;
	r = os_ifset_find("txqueuelen");
	assert_int_equal(r->value, OS_IFSET_COUNT);
	assert_int_equal(r->lx, OS_IFSET_LX_IOCTL);
	assert_string_equal(r->lx_arg, "tx_queue_len");
	assert_string_equal(r->sh, "ip link set dev '%i' txqueuelen %v");
	r = os_ifset_find("offload.rxcsum");
	assert_int_equal(r->lx, OS_IFSET_LX_OFFLOAD);
	assert_string_equal(r->bsd_arg, "rxcsum");
	assert_string_equal(r->sh, "ethtool -K '%i' rx %o");
	r = os_ifset_find("flow-control");
	assert_int_equal(r->value, OS_IFSET_FLOW);
	assert_null(r->lx_arg);
	r = os_ifset_find("napi_threaded");
	assert_int_equal(r->lx, OS_IFSET_LX_SYSFS);
	assert_string_equal(r->lx_arg, "threaded");
	assert_null(r->sh);
	assert_string_equal(os_ifset_find("rps_cpus")->sh,
	    "for q in /sys/class/net/'%i'/queues/rx-*/rps_cpus; do echo %v > \"$q\"; done");
}

/* Each bad line is refused with "f:LINE: what" and nothing is kept. */
static void
test_os_ifsets_parse_rejects_bad_lines_naming_file_and_line(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "", "f: no setting" },
		{ "# only a comment\n\n", "f: no setting" },
		{ "mtu count ioctl:mtu mtu\n", "f:1: expected 5 columns" },
		{ "\nmtu count ioctl:mtu\n", "f:2: expected 5 columns" },
		{ "Mtu count ioctl:mtu - -\n", "f:1: bad setting name 'Mtu'" },
		{ "rx-1.x count sysfs:x - -\n", "f:1: bad setting name 'rx-1.x'" },
		{ "a..b count sysfs:x - -\n", "f:1: bad setting name 'a..b'" },
		{ "x number sysfs:x - -\n", "f:1: unknown value 'number'" },
		{ "x count ethtool:x - -\n", "f:1: unknown linux method 'ethtool'" },
		{ "x count ring:rx-huge - -\n", "f:1: linux method ring needs one of: rx tx" },
		{ "x count ring: - -\n", "f:1: linux method ring needs one of:" },
		{ "x count ring - -\n", "f:1: linux method ring needs one of:" },
		{ "x flow pause:rx - -\n", "f:1: linux method pause takes no argument" },
		{ "x count sysfs:../../etc/passwd - -\n", "f:1: linux method sysfs needs a name" },
		{ "x count sysfs - -\n", "f:1: linux method sysfs needs a name" },
		{ "x onoff sysfs:x - -\n", "f:1: linux method sysfs does not take onoff values" },
		{ "x.y count queues:rx - -\n", "f:1: a queues setting is the queue file's name" },
		{ "x onoff offload:x cap:vlan -\n", "f:1: freebsd method cap needs one of: tso" },
		{ "x count sysfs:x cap:tso -\n", "f:1: freebsd method cap does not take count values" },
		{ "x count sysfs:x mtu:1 -\n", "f:1: freebsd method mtu takes no argument" },
		{ "x count sysfs:x sysctl -\n", "f:1: unknown freebsd method 'sysctl'" },
		{ "x count sysfs:x - echo %i\n", "f:1: sh: the interface must be quoted" },
		{ "x count sysfs:x - echo '%i' %s\n", "f:1: sh: unknown '%s'" },
		{ "x count sysfs:x - echo '%i' 100%\n", "f:1: sh: unknown '%'" },
		{ "x count sysfs:x - -\nx count sysfs:y - -\n",
		    "f:2: setting 'x' given twice (first at line 1)" },
	};
	struct os_ifsets t;
	char *cause;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		assert_int_equal(os_ifsets_parse("f", cases[i].text, strlen(cases[i].text), &t,
		    &cause), -1);
		if (cause == NULL || strncmp(cause, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: '%s': want '%s...', got '%s'", i, cases[i].text,
			    cases[i].want, cause != NULL ? cause : "(none)");
		assert_int_equal(t.n, 0);
		assert_null(t.v);
		free(cause);
	}
}

static void
test_os_ifsets_parse_reads_columns_and_the_sh_rest_of_line(void **state)
{
	static const char text[] = "# comment\n\n  group  count  sysfs:netdev_group  -  "
	    "ip link set dev '%i' group %v  \n"
	    "offload.tso onoff offload:tso cap:tso -\n";
	struct os_ifsets t;
	char *cause = NULL;

	(void)state;
	assert_int_equal(os_ifsets_parse("f", text, strlen(text), &t, &cause), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.v[0].name, "group");
	assert_int_equal(t.v[0].line, 3);
	assert_int_equal(t.v[0].value, OS_IFSET_COUNT);
	assert_int_equal(t.v[0].lx, OS_IFSET_LX_SYSFS);
	assert_string_equal(t.v[0].lx_arg, "netdev_group");
	assert_int_equal(t.v[0].bsd, OS_IFSET_BSD_NONE);
	assert_null(t.v[0].bsd_arg);
	assert_string_equal(t.v[0].sh, "ip link set dev '%i' group %v");
	assert_int_equal(t.v[1].bsd, OS_IFSET_BSD_CAP);
	assert_string_equal(t.v[1].bsd_arg, "tso");
	assert_null(t.v[1].sh);
	os_ifsets_free(&t);
}

/* A copy of the shipped file with one more line: the new setting is a setting. */
static void
test_os_ifsets_load_a_copy_with_a_new_row_adds_the_setting(void **state)
{
	char dir[] = "/tmp/ntune-ifsets-XXXXXX", *path, *def, *text, *cause = NULL;
	const struct os_ifset *r;
	const char *setting;
	char ifname[32];
	size_t len;
	FILE *f;

	(void)state;
	tmpdir_make(dir);
	def = os_ifsets_path();
	if (util_read_file(def, &text, &len, &cause) == -1)
		fail_msg("%s", cause);
	xasprintf(&path, "%s/if.settings", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite(text, 1, len, f);
	fputs("group count sysfs:netdev_group - ip link set dev '%i' group %v\n", f);
	fclose(f);
	assert_null(os_ifset_find("group"));
	assert_int_equal(os_if_split("if.eth0.group", ifname, sizeof ifname, &setting, NULL), -1);

	assert_int_equal(os_ifsets_load(path, &cause), 0);
	assert_non_null(r = os_ifset_find("group"));
	assert_string_equal(r->lx_arg, "netdev_group");
	assert_int_equal(os_if_split("if.eth0.100.group", ifname, sizeof ifname, &setting, NULL), 0);
	assert_string_equal(ifname, "eth0.100");
	assert_string_equal(setting, "group");
	assert_non_null(os_ifset_find("ring.rx"));

	/* A broken file leaves the table in use as it was. */
	assert_non_null(f = fopen(path, "a"));
	fputs("broken\n", f);
	fclose(f);
	assert_int_equal(os_ifsets_load(path, &cause), -1);
	assert_non_null(strstr(cause, "if.settings:"));
	assert_non_null(strstr(cause, ": expected 5 columns"));
	free(cause);
	assert_non_null(os_ifset_find("group"));
	cause = NULL;
	assert_int_equal(os_ifsets_load(NULL, &cause), 0);
	assert_null(os_ifset_find("group"));
	free(text);
	free(def);
	free(path);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifset_every_row_is_named_by_if_knobs),
		cmocka_unit_test(test_ifset_queue_and_feature_settings_use_a_row),
		cmocka_unit_test(test_ifset_shipped_rows_keep_their_methods),
		cmocka_unit_test(test_os_ifsets_parse_rejects_bad_lines_naming_file_and_line),
		cmocka_unit_test(test_os_ifsets_parse_reads_columns_and_the_sh_rest_of_line),
		cmocka_unit_test(test_os_ifsets_load_a_copy_with_a_new_row_adds_the_setting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
