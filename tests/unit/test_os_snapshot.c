/* The snapshot backend, the inspect document and the platform layer's helpers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "os/os.h"
#include "os/os_impl.h"
#include "os/collect.h"
#include "os/snapshot.h"
#include "util/util.h"

static const char *const names[] = { "net.core.netdev_budget", "net.ipv4.tcp_rmem",
	"if.eth0.rps_cpus", "net.nope" };

static void
test_snapshot_round_trip_gives_the_same_document(void **state)
{
	struct os_ctx *live, *snap;
	char *cause = NULL, *text;
	json_t *a, *b, *parsed;
	static const char *const keys[] = { "system", "cpu", "nics", "tunables" };
	size_t i;

	(void)state;
	assert_non_null(live = os_open_live(FIXTURES "/os/linux-vm", &cause));
	a = os_collect(live, names, nitems(names), OS_COLLECT_SNAPSHOT);
	os_close(live);
	assert_true(json_object_size(json_object_get(a, "sysctls")) > 20);
	assert_true(json_array_size(json_object_get(a, "cpu_times")) == 2);
	text = json_dumps(a, 0);
	assert_non_null(parsed = os_snapshot_parse(text, strlen(text), "s.json", &cause));
	free(text);
	snap = os_open_doc(parsed);
	b = os_collect(snap, names, nitems(names), 0);
	for (i = 0; i < nitems(keys); i++)
		if (!json_equal(json_object_get(a, keys[i]), json_object_get(b, keys[i])))
			fail_msg("'%s' differs after the round trip", keys[i]);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(b, "tunables"), 3), "kind")), "absent");
	os_close(snap);
	json_decref(a);
	json_decref(b);
}

static void
test_snapshot_parse_names_file_and_line(void **state)
{
	char *cause = NULL;
	const char *bad = "{\n\"schema\": \"ntune-inspect\",\n\"version\": 1,\n oops\n}";

	(void)state;
	assert_null(os_snapshot_parse(bad, strlen(bad), "snap.json", &cause));
	assert_non_null(strstr(cause, "snap.json:4: invalid JSON"));
	free(cause);
	cause = NULL;
	assert_null(os_snapshot_parse("{\"a\":1}", 7, "x.json", &cause));
	assert_non_null(strstr(cause, "not an ntune snapshot"));
	free(cause);
	cause = NULL;
	bad = "{\"schema\": \"ntune-inspect\", \"version\": 99}";
	assert_null(os_snapshot_parse(bad, strlen(bad), "new.json", &cause));
	assert_non_null(strstr(cause, "unsupported snapshot version"));
	free(cause);
}

static void
test_snapshot_with_wrong_types_still_answers(void **state)
{
	const char *text = "{\"schema\": \"ntune-inspect\", \"version\": 1, \"cpu\": 3,"
	    " \"nics\": [{\"name\": 5, \"queues\": {\"x\": 1}}, 7], \"tunables\": [1, {\"name\": 2}],"
	    " \"sysctls\": {\"net.a\": 1, \"net.b\": \"2\"}}";
	struct os_ctx *ctx;
	json_t *d;
	char *cause = NULL, *v;

	(void)state;
	assert_non_null(d = os_snapshot_parse(text, strlen(text), "t.json", &cause));
	ctx = os_open_doc(d);
	d = os_collect(ctx, names, nitems(names), OS_COLLECT_SNAPSHOT);
	assert_true(json_array_size(json_object_get(d, "errors")) > 0);
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.b", &v, &cause), 0);
	assert_string_equal(v, "2");
	free(v);
	assert_int_equal(ctx->ops->tunable_get(ctx, "net.a", &v, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(ctx->ops->tunable_set(ctx, "net.b", "3", &cause), -1);
	assert_non_null(strstr(cause, "read-only"));
	free(cause);
	json_decref(d);
	os_close(ctx);
}

static void
test_open_files_refuses_json_mixed_with_text(void **state)
{
	const char *const paths[] = { FIXTURES "/os/seed000-dec750/top-P.txt",
		FIXTURES "/os/snapshot-linux-vm.json" };
	char *cause = NULL;

	(void)state;
	assert_null(os_open_files(paths, 2, &cause));
	assert_non_null(strstr(cause, "must be the only --from file"));
	free(cause);
	cause = NULL;
	assert_null(os_open_files((const char *const[]){ "/nonexistent.json" }, 1, &cause));
	assert_non_null(strstr(cause, "/nonexistent.json"));
	free(cause);
}

static void
test_os_cpulist_and_mask_round_trip(void **state)
{
	unsigned char set[OS_MAXCPU];
	char buf[256];

	(void)state;
	assert_int_equal(os_cpulist_parse("0-3,8,10-11", set, NULL), 0);
	os_cpulist_format(set, buf, sizeof buf);
	assert_string_equal(buf, "0-3,8,10-11");
	os_cpumask_format(set, 12, buf, sizeof buf);
	assert_string_equal(buf, "d0f");
	assert_int_equal(os_cpumask_parse("00000001,00000003", set, NULL), 0);
	assert_true(set[0] && set[1] && set[32] && !set[2]);
	os_cpumask_format(set, 40, buf, sizeof buf);
	assert_string_equal(buf, "00000001,00000003");
	assert_int_equal(os_cpulist_parse("3-1", set, NULL), -1);
	assert_int_equal(os_cpulist_parse("a", set, NULL), -1);
	assert_int_equal(os_cpumask_parse("xyz", set, NULL), -1);
	assert_int_equal(os_cpulist_first("5,2"), 2);
}

static int
exists_vlan(const char *ifname)
{
	return strcmp(ifname, "eth0.100") == 0;
}

static void
test_os_if_split_handles_dotted_interface_names(void **state)
{
	char ifname[64];
	const char *setting;

	(void)state;
	assert_int_equal(os_if_split("if.eth0.ring.rx", ifname, sizeof ifname, &setting, NULL), 0);
	assert_string_equal(ifname, "eth0");
	assert_string_equal(setting, "ring.rx");
	assert_int_equal(os_if_split("if.eth0.100.mtu", ifname, sizeof ifname, &setting,
	    exists_vlan), 0);
	assert_string_equal(ifname, "eth0.100");
	assert_string_equal(setting, "mtu");
	assert_int_equal(os_if_split("if.eth0.rx-12.rps_cpus", ifname, sizeof ifname, &setting,
	    NULL), 0);
	assert_string_equal(setting, "rx-12.rps_cpus");
	assert_int_equal(os_if_split("if.eth0.bogus", ifname, sizeof ifname, &setting, NULL), -1);
	assert_int_equal(os_if_split("net.core.x", ifname, sizeof ifname, &setting, NULL), -1);
	assert_int_equal(os_if_split("if..mtu", ifname, sizeof ifname, &setting, NULL), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_round_trip_gives_the_same_document),
		cmocka_unit_test(test_snapshot_parse_names_file_and_line),
		cmocka_unit_test(test_snapshot_with_wrong_types_still_answers),
		cmocka_unit_test(test_open_files_refuses_json_mixed_with_text),
		cmocka_unit_test(test_os_cpulist_and_mask_round_trip),
		cmocka_unit_test(test_os_if_split_handles_dotted_interface_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
