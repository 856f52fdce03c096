/* src/doctor: the pass over a capture held in memory, and the list it gives. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "doctor/doctor.h"
#include "os/os.h"
#include "remote/capture.h"
#include "util/util.h"
#include "testutil.h"

#define SEED	FIXTURES "/doctor/seed000"

/* The seed000 capture directory, with section name replaced by text (NULL: removed). */
static void
seed(struct capture_set *set, const char *name, const char *text)
{
	char *cause = NULL;

	if (capture_read_dir(SEED, set, &cause) == -1)
		fail_msg("%s", cause);
	if (name == NULL)
		return;
	if (text != NULL) {
		capture_set_add(set, name, text, strlen(text), 0);
		return;
	}
	capture_set_add(set, name, "", 0, 1);	/* a failed command: an absent section */
}

static json_t *
run(struct capture_set *set)
{
	struct doctor_opts o = { .source = "test", .dir = "out", .duration = 10,
	    .kb = testutil_kb };
	struct doctor_doc d;
	char *cause = NULL;
	json_t *doc;

	if (doctor_run(set, &o, &d, &cause) == -1)
		fail_msg("doctor_run: %s", cause);
	capture_set_free(set);
	assert_int_equal(doctor_items(&d), d.nitems);
	/* what --json prints: the document written through its table */
	doc = doctor_doc_json(&d);
	doctor_doc_free(&d);
	return doc;
}

static json_t *
item(json_t *doc, const char *kind)
{
	json_t *it;
	size_t i;

	json_array_foreach(json_object_get(doc, "items"), i, it) {
		if (strcmp(json_string_value(json_object_get(it, "kind")), kind) == 0)
			return it;
	}
	return NULL;
}

static const char *
str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void
test_doctor_seed000_ranks_the_queue_first_with_rss_and_the_socket_knobs_wasted(void **state)
{
	struct capture_set set;
	json_t *doc, *it, *c;

	(void)state;
	seed(&set, NULL, NULL);
	doc = run(&set);
	it = json_array_get(json_object_get(doc, "items"), 0);
	assert_string_equal(str(it, "kind"), "bottleneck");
	assert_string_equal(str(it, "id"), "one-queue on ax0");
	c = json_array_get(json_object_get(it, "changes"), 0);
	assert_string_equal(str(c, "name"), "net.inet.rss.enabled");
	assert_string_equal(str(c, "action"), "reboot");
	assert_string_equal(str(c, "file"), "/boot/loader.conf.local");
	assert_int_equal(json_integer_value(json_object_get(c, "line")), 5);
	assert_non_null(strstr(str(it, "bench"), "--dut ssh://root@dec750.lan --dut-in ax0 "
	    "--dut-out ax1 --reboot"));
	it = item(doc, "wasted");
	assert_non_null(it);
	assert_int_equal(json_integer_value(json_object_get(it, "count")), 5);
	assert_non_null(strstr(str(it, "title"), "sys/netinet/ip_fastfwd.c:233"));
	assert_int_equal(json_array_size(json_object_get(doc, "items")), 5);
	json_decref(doc);
}

/* A line the profile reader cannot read is an item of its own, named by file and line. */
static void
test_doctor_unreadable_line_is_a_wrong_item(void **state)
{
	struct capture_set set;
	json_t *doc, *it;
	size_t i;
	bool seen = false;

	(void)state;
	seed(&set, "sysctl.conf", "net.inet.ip.redirect=0\nthis is not a setting\n");
	doc = run(&set);
	json_array_foreach(json_object_get(doc, "items"), i, it) {
		if (strcmp(str(it, "id"), "unreadable line /etc/sysctl.conf:2") == 0) {
			assert_string_equal(str(it, "kind"), "wrong");
			seen = true;
		}
	}
	assert_true(seen);
	json_decref(doc);
}

/* seed's capture with section name replaced by text and a second one by text2. */
static void
seed2(struct capture_set *set, const char *name, const char *text, const char *name2,
    const char *text2)
{
	seed(set, name, text);
	capture_set_add(set, name2, text2, strlen(text2), 0);
}

static double
interval_s(json_t *doc)
{
	return json_real_value(json_object_get(doc, "interval_s"));
}

/*
 * Without clock.txt the samples are the tick counters' 10.00 s apart (1270 ticks a CPU at
 * seed000's stathz 127), without them and clock.txt --duration; without samples, since boot.
 */
static void
test_doctor_interval_from_ticks_clock_duration_or_none(void **state)
{
	struct capture_set set;
	json_t *doc;

	(void)state;
	seed(&set, "clock.txt", NULL);
	doc = run(&set);
	assert_true(interval_s(doc) == 10);
	assert_string_equal(str(doc, "interval_from"), "cpu-ticks");
	assert_null(json_object_get(doc, "interval_note"));
	json_decref(doc);
	/* no stathz: kern.clockrate removed from sysctl-a.txt */
	seed2(&set, "clock.txt", NULL, "sysctl-a.txt", "kern.hz: 1000\n");
	doc = run(&set);
	assert_true(interval_s(doc) == 10);
	assert_string_equal(str(doc, "interval_from"), "duration");
	assert_string_equal(str(doc, "interval_note"),
	    "the clock rate of the tick counters is unknown");
	json_decref(doc);
	seed(&set, "after.txt", NULL);
	doc = run(&set);
	assert_true(interval_s(doc) == 0);
	assert_null(json_object_get(doc, "interval_from"));
	assert_string_equal(str(json_array_get(json_object_get(doc, "items"), 0), "kind"),
	    "bottleneck");
	json_decref(doc);
}

/* A config.xml <sysctl> block indented as in the file: its items are read, by their line. */
static void
test_doctor_config_xml_items_by_line(void **state)
{
	static const char xml[] =
	    "  <sysctl version=\"1.0.2\">\n"
	    "    <item>\n"
	    "      <tunable>kern.ipc.maxsockbuf</tunable>\n"
	    "      <value>8388608</value>\n"
	    "    </item>\n"
	    "  </sysctl>\n";
	struct capture_set set;
	json_t *doc, *it, *c;
	size_t i;
	bool seen = false;

	(void)state;
	seed(&set, "config-sysctl.xml", xml);
	doc = run(&set);
	it = item(doc, "wasted");
	assert_non_null(it);
	json_array_foreach(json_object_get(it, "changes"), i, c) {
		if (strcmp(str(c, "file"), "config-sysctl.xml") == 0) {
			assert_string_equal(str(c, "name"), "kern.ipc.maxsockbuf");
			assert_int_equal(json_integer_value(json_object_get(c, "line")), 2);	/* its <item> */
			seen = true;
		}
	}
	assert_true(seen);
	json_decref(doc);
}

/* Two FreeBSD samples of 2 CPUs, kern.cp_times as `sysctl kern.cp_times` prints it. */
#define FB_BEFORE	"kern.cp_times: 2811301 0 9123401 30112023 290001234 " \
			"2700122 0 8912340 29001231 291233411\n"
/* CPU 0: 13 + 51 + 127 + 1119 = 1310 ticks; CPU 1: 6 + 38 + 25 + 1261 = 1330 */
#define FB_AFTER	"kern.cp_times: 2811314 0 9123452 30112150 290002353 " \
			"2700128 0 8912378 29001256 291234672\n"

/*
 * Issue 33 item 3: what a FreeBSD sample of the capture holds (bsd_counters: the commands of
 * OS_FBSD_SAMPLE_MORE after kern.cp_times) reaches doctor's diagnosis: the NIC's missed packets
 * (dev.ix.0.mac_stats), ip's netisr queue drops, mbuf denials (netstat -m) and a full pf state
 * table (pfctl -si, -sm) over the interval. The texts are written for the test in the formats
 * of those commands.
 */
#define FB_MORE(missed, qdrops, denied, states) \
	"dev.ix.0.mac_stats.missed_packets: " missed "\n" \
	"net.inet.ip.intr_queue_drops: " qdrops "\n" \
	"0/" denied "/0 requests for mbufs denied (mbufs/clusters/mbuf+clusters)\n" \
	"Status: Enabled for 0 days 01:02:03           Debug: Urgent\n" \
	"\n" \
	"State Table                          Total             Rate\n" \
	"  current entries                    " states "\n" \
	"\n" \
	"states        hard limit    10000\n"

static void
test_doctor_fbsd_sample_gets_nic_ip_mbuf_and_pf_terms(void **state)
{
	struct capture_set set;
	json_t *doc, *m;
	char *script = capture_script(10);

	(void)state;
	/* the capture script's FreeBSD sample runs them */
	assert_non_null(strstr(script, "\t" OS_FBSD_SAMPLE_MORE "\n"));
	free(script);
	seed2(&set, "before.txt", FB_BEFORE FB_MORE("1000", "10", "0", "9000"), "after.txt",
	    FB_AFTER FB_MORE("51000", "5010", "400", "9900"));
	doc = run(&set);
	m = json_object_get(json_object_get(doc, "diagnosis"), "metrics");
	assert_true(json_number_value(json_object_get(m, "nic.ix0.rx_missed")) > 4000);
	assert_true(json_number_value(json_object_get(m, "ip.intr_queue_drops")) > 400);
	assert_true(json_number_value(json_object_get(m, "mbuf.denied")) > 30);
	assert_true(json_number_value(json_object_get(m, "pf.fill_pct")) == 99);
	assert_non_null(item(doc, "bottleneck"));
	json_decref(doc);
}

/* (1310 + 1330) ticks / (2 CPUs x stathz 127) = 10.39 s, where clock.txt says 10. */
static void
test_doctor_interval_fbsd_ticks_exact(void **state)
{
	struct capture_set set;
	json_t *doc;

	(void)state;
	seed2(&set, "before.txt", FB_BEFORE, "after.txt", FB_AFTER);
	doc = run(&set);
	assert_true(interval_s(doc) == 2640.0 / 254.0);
	assert_string_equal(str(doc, "interval_from"), "cpu-ticks");
	json_decref(doc);
	/* stathz from a sample's own kern.clockrate wins over sysctl-a.txt's */
	seed2(&set, "before.txt", FB_BEFORE, "after.txt", FB_AFTER
	    "kern.clockrate: { hz = 1000, tick = 1000, profhz = 8128, stathz = 128 }\n");
	doc = run(&set);
	assert_true(interval_s(doc) == 2640.0 / 256.0);
	json_decref(doc);
}

/* Counters that cannot tell: clock.txt's 10 s, and why not the counters. */
static void
test_doctor_interval_fbsd_falls_back_to_the_clock(void **state)
{
	static const struct {
		const char *after, *note;
	} c[] = {
		{ "kern.cp_times: 2811314 0 9123452 30112150 290002353\n",
		    "the samples have tick counters of 2 and 1 CPUs" },
		{ "kern.cp_times: 2811314 0 9123452 30112150 290002353 "
		    "2700128 0 8912378 29001256 291233000\n",
		    "the tick counters of CPU 1 went down (331847104 to 331846762)" },
		{ "net.inet.ip.intr_queue_drops: 0\n", "no CPU tick counters in after.txt" },
		/* 1 s of ticks where the clock says 10 */
		{ "kern.cp_times: 2811301 0 9123401 30112023 290001361 "
		    "2700122 0 8912340 29001231 291233538\n",
		    "the tick counters say 1.00 s, clock.txt 10 s" },
		/* none at all */
		{ "kern.cp_times: 2811301 0 9123401 30112023 290001234 "
		    "2700122 0 8912340 29001231 291233411\n", "the tick counters say 0.00 s" },
	};
	struct capture_set set;
	json_t *doc;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		seed2(&set, "before.txt", FB_BEFORE, "after.txt", c[i].after);
		doc = run(&set);
		assert_true(interval_s(doc) == 10);
		assert_string_equal(str(doc, "interval_from"), "clock");
		assert_string_equal(str(doc, "interval_note"), c[i].note);
		json_decref(doc);
	}
}

/* linux-clean's capture with section name's text edited: line from replaced by to. */
static void
linux_seed(struct capture_set *set, const char *name, const char *from, const char *to)
{
	const struct capture_section *s;
	char *cause = NULL, *text, *at;

	if (capture_read_dir(FIXTURES "/doctor/linux-clean", set, &cause) == -1)
		fail_msg("%s", cause);
	if (name == NULL)
		return;
	assert_non_null(s = capture_get(set, name));
	text = xstrndup(s->text, s->len);
	assert_non_null(at = strstr(text, from));
	xasprintf(&at, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	capture_set_add(set, name, at, strlen(at), 0);
	free(at);
	free(text);
}

/*
 * /proc/stat's cpuN lines of linux-clean: each CPU 30 user + 20 system + 800 idle + 150
 * softirq = 1000 USER_HZ ticks, 10.00 s; with CPU 3's idle 100 ticks more, 4100 / 400.
 */
static void
test_doctor_interval_linux_ticks_exact(void **state)
{
	struct capture_set set;
	json_t *doc;

	(void)state;
	linux_seed(&set, NULL, NULL, NULL);
	doc = run(&set);
	assert_true(interval_s(doc) == 10);
	assert_string_equal(str(doc, "interval_from"), "cpu-ticks");
	json_decref(doc);
	linux_seed(&set, "after.txt", "cpu3 81264 120 40231 9013145 ",
	    "cpu3 81264 120 40231 9013245 ");
	doc = run(&set);
	assert_true(interval_s(doc) == 4100.0 / 400.0);
	assert_string_equal(str(doc, "interval_from"), "cpu-ticks");
	json_decref(doc);
}

/* A CPU gone from after.txt, a counter gone down: clock.txt, and why. */
static void
test_doctor_interval_linux_falls_back_to_the_clock(void **state)
{
	struct capture_set set;
	json_t *doc;

	(void)state;
	linux_seed(&set, "after.txt", "cpu3 81264 120 40231 9013145 3012 0 51384 0 0 0\n", "");
	doc = run(&set);
	assert_true(interval_s(doc) == 10);
	assert_string_equal(str(doc, "interval_from"), "clock");
	assert_string_equal(str(doc, "interval_note"),
	    "the samples have tick counters of 4 and 3 CPUs");
	json_decref(doc);
	linux_seed(&set, "after.txt", "cpu2 81264 120 40231 9013145 ",
	    "cpu2 81264 120 40231 9011145 ");
	doc = run(&set);
	assert_string_equal(str(doc, "interval_from"), "clock");
	assert_string_equal(str(doc, "interval_note"),
	    "the tick counters of CPU 2 went down (9188156 to 9187156)");
	json_decref(doc);
}

/* doctor_tick_interval itself, on counters read by the FreeBSD text parser. */
static void
test_doctor_tick_interval_reasons(void **state)
{
	struct os_counters a = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_counters b = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL, *why = NULL;
	double secs = -1;

	(void)state;
	if (os_counters_text(FB_BEFORE, strlen(FB_BEFORE), "before.txt", &a, &cause) != 0 ||
	    os_counters_text(FB_AFTER, strlen(FB_AFTER), "after.txt", &b, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(doctor_tick_interval(&a, &b, 127, &secs, &why), 0);
	assert_true(secs == 2640.0 / 254.0);
	assert_int_equal(doctor_tick_interval(&a, &b, 0, &secs, &why), -1);
	assert_string_equal(why, "the clock rate of the tick counters is unknown");
	free(why);
	why = NULL;
	assert_int_equal(doctor_tick_interval(&b, &a, 127, &secs, &why), -1);
	assert_string_equal(why, "the tick counters of CPU 0 went down (332049269 to 332047959)");
	free(why);
	os_counters_free(&a);
	os_counters_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_seed000_ranks_the_queue_first_with_rss_and_the_socket_knobs_wasted),
		cmocka_unit_test(test_doctor_unreadable_line_is_a_wrong_item),
		cmocka_unit_test(test_doctor_interval_from_ticks_clock_duration_or_none),
		cmocka_unit_test(test_doctor_interval_fbsd_ticks_exact),
		cmocka_unit_test(test_doctor_fbsd_sample_gets_nic_ip_mbuf_and_pf_terms),
		cmocka_unit_test(test_doctor_interval_fbsd_falls_back_to_the_clock),
		cmocka_unit_test(test_doctor_interval_linux_ticks_exact),
		cmocka_unit_test(test_doctor_interval_linux_falls_back_to_the_clock),
		cmocka_unit_test(test_doctor_tick_interval_reasons),
		cmocka_unit_test(test_doctor_config_xml_items_by_line),
	};

	return cmocka_run_group_tests(tests, testutil_kb_setup, testutil_kb_teardown);
}
