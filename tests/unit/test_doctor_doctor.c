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

/* Without clock.txt the samples are --duration apart; without samples, since boot. */
static void
test_doctor_interval_from_clock_duration_or_none(void **state)
{
	struct capture_set set;
	json_t *doc;

	(void)state;
	seed(&set, "clock.txt", NULL);
	doc = run(&set);
	assert_true(json_real_value(json_object_get(doc, "interval_s")) == 10);
	json_decref(doc);
	seed(&set, "after.txt", NULL);
	doc = run(&set);
	assert_true(json_real_value(json_object_get(doc, "interval_s")) == 0);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_seed000_ranks_the_queue_first_with_rss_and_the_socket_knobs_wasted),
		cmocka_unit_test(test_doctor_unreadable_line_is_a_wrong_item),
		cmocka_unit_test(test_doctor_interval_from_clock_duration_or_none),
		cmocka_unit_test(test_doctor_config_xml_items_by_line),
	};

	return cmocka_run_group_tests(tests, testutil_kb_setup, testutil_kb_teardown);
}
