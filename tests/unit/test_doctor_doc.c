/* src/doctor/doc.c: the ntune-doctor document written and read back through one typed table. */
#include <math.h>
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
#include "util/util_json.h"
#include "testutil.h"

/* doctor_run over the seed000 capture (a bottleneck, changes with and without 'was'...). */
static void
seed_doc(struct doctor_doc *d)
{
	struct doctor_opts o = { .source = "test", .dir = "out", .duration = 10,
	    .kb = testutil_kb };
	struct capture_set set;
	char *cause = NULL;

	if (capture_read_dir(FIXTURES "/doctor/seed000", &set, &cause) == -1 ||
	    doctor_run(&set, &o, d, &cause) == -1)
		fail_msg("%s", cause);
	capture_set_free(&set);
}

static char *
dumps(const struct doctor_doc *d)
{
	json_t *j = doctor_doc_json(d);
	char *s = util_json_dumps(j, JSON_INDENT(2));

	json_decref(j);
	return s;
}

static char *
write_tmp(const char *name, const char *text)
{
	char *path, *cause = NULL;

	xasprintf(&path, "%s/%s", testutil_tmpdir, name);
	if (util_write_file_atomic(path, text, strlen(text), 0644, &cause) == -1)
		fail_msg("%s", cause);
	return path;
}

static void
test_doctor_doc_reads_back_what_it_wrote(void **state)
{
	struct doctor_doc d, back;
	char *a, *b, *path, *cause = NULL;
	const struct doctor_change *c;

	(void)state;
	seed_doc(&d);
	a = dumps(&d);
	path = write_tmp("doctor.json", a);
	if (doctor_doc_load(path, &back, &cause) == -1)
		fail_msg("%s", cause);
	b = dumps(&back);
	assert_string_equal(a, b);
	/* the struct itself, as the text and the page use it */
	assert_string_equal(back.schema, DOCTOR_SCHEMA);
	assert_int_equal(back.nitems, 5);
	assert_string_equal(back.items[0].id, "one-queue on ax0");
	c = &back.items[0].changes[0];
	assert_string_equal(c->file, "/boot/loader.conf.local");
	assert_int_equal(c->line, 5);
	assert_string_equal(c->action, "reboot");
	assert_null(c->was);
	assert_int_equal(back.items[4].count, 5);
	assert_null(back.load);
	assert_string_equal(back.system.nics[0].name, "ax0");
	assert_int_equal(back.ncpu, back.system.ncpu);
	assert_non_null(back.diagnosis);
	free(a);
	free(b);
	free(path);
	doctor_doc_free(&d);
	doctor_doc_free(&back);
}

/* A load: its rows; an unknown rate and unknown router rates are null, and read back as unknown. */
static void
test_doctor_doc_load_object_with_unknowns_null(void **state)
{
	struct doctor_doc d, back;
	struct doctor_load l = { .kind = "gen", .gen = "ssh://gen", .sink = "local", .dut_in = "ax0",
	    .dut_out = "ax1", .rate = -1, .size = 64, .sent = 1000, .received = 990,
	    .offered_pps = 500, .achieved_pps = 495, .secs = 2, .dut_in_pps = 499,
	    .dut_out_pps = NAN };
	json_t *j;
	char *s, *cause = NULL;

	(void)state;
	seed_doc(&d);
	d.load = xmalloc(sizeof *d.load);
	*d.load = l;
	j = doctor_doc_json(&d);
	s = util_json_dumps(json_object_get(j, "load"), JSON_COMPACT);
	assert_string_equal(s, "{\"kind\":\"gen\",\"generator\":\"ssh://gen\",\"sink\":\"local\","
	    "\"dut_in\":\"ax0\",\"dut_out\":\"ax1\",\"rate_asked_pps\":null,\"size\":64,\"sent\":1000,"
	    "\"received\":990,\"offered_pps\":500.0,\"achieved_pps\":495.0,\"bps\":0.0,\"secs\":2.0,"
	    "\"dut_in_pps\":499.0,\"dut_out_pps\":null}");
	if (doctor_doc_read(j, "doc", &back, &cause) == -1)
		fail_msg("%s", cause);
	assert_non_null(back.load);
	assert_true(isnan(back.load->rate) && isnan(back.load->dut_out_pps));
	assert_true(back.load->dut_in_pps == 499 && back.load->sent == 1000);
	free(s);
	json_decref(j);
	doctor_doc_free(&d);
	doctor_doc_free(&back);
}

/* Each broken document (the seed's, one key changed) and the complaint naming file and key. */
static void
test_doctor_doc_refuses_a_missing_or_mistyped_key(void **state)
{
	static const struct {
		const char *edit, *want;
	} cases[] = {
		{ "del items/0/rank", "key 'items[0].rank': missing" },
		{ "str items/1/changes/0/line", "key 'items[1].changes[0].line': is not a whole number" },
		{ "str system/ncpu", "key 'system.ncpu': is not a whole number" },
		{ "int fine/0", "key 'fine[0]': is not a string" },
		{ "int items/0/title", "key 'items[0].title': is not a string" },
		{ "del cpu/1/busy", "key 'cpu[1].busy': missing" },
		{ "int diagnosis", "key 'diagnosis': is not an object (or null)" },
		{ "int items/0/set", "key 'items[0].set': is not an object (or null)" },
		{ "int items", "key 'items': is not an array" },
		{ "del profiles", "key 'profiles': missing" },
		{ "schema", "not an ntune-doctor document of version 1 (schema 'ntune-other', version 1)" },
	};
	struct doctor_doc d, back;
	json_t *j, *o;
	char *text, *path, *cause, *want, key[64], *k, *last;
	size_t i;

	(void)state;
	seed_doc(&d);
	for (i = 0; i < nitems(cases); i++) {
		j = doctor_doc_json(&d);
		o = j;
		snprintf(key, sizeof key, "%s", strchr(cases[i].edit, ' ') != NULL ?
		    strchr(cases[i].edit, ' ') + 1 : "schema");
		/* walk to the parent of the last path element */
		for (k = key; (last = strchr(k, '/')) != NULL; k = last + 1) {
			*last = '\0';
			o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
		}
		if (strncmp(cases[i].edit, "del ", 4) == 0)
			json_object_del(o, k);
		else if (strncmp(cases[i].edit, "schema", 6) == 0)
			json_object_set_new(o, k, json_string("ntune-other"));
		else if (json_is_array(o))
			json_array_set_new(o, (size_t)atoi(k), strncmp(cases[i].edit, "str ", 4) == 0 ?
			    json_string("5") : json_integer(3));
		else
			json_object_set_new(o, k, strncmp(cases[i].edit, "str ", 4) == 0 ?
			    json_string("5") : json_integer(3));
		text = util_json_dumps(j, JSON_INDENT(2));
		path = write_tmp("bad.json", text);
		cause = NULL;
		if (doctor_doc_load(path, &back, &cause) == 0)
			fail_msg("%s: read", cases[i].edit);
		xasprintf(&want, "%s: %s", path, cases[i].want);
		if (strcmp(cause, want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].edit, cause, want);
		free(want);
		free(cause);
		free(path);
		free(text);
		json_decref(j);
	}
	doctor_doc_free(&d);
}

static void
test_doctor_doc_load_names_the_line_of_broken_json(void **state)
{
	struct doctor_doc d;
	char *path = write_tmp("cut.json", "{\n  \"schema\": \"ntune-doctor\",\n  \"version\": \n"),
	    *cause = NULL;

	(void)state;
	assert_int_equal(doctor_doc_load(path, &d, &cause), -1);
	assert_true(strncmp(cause, path, strlen(path)) == 0 && strncmp(cause + strlen(path), ":4: ",
	    4) == 0);
	free(cause);
	free(path);
}

static int
setup(void **state)
{
	return testutil_kb_setup(state) || testutil_tmpdir_setup(state);
}

static int
teardown(void **state)
{
	return testutil_kb_teardown(state) || testutil_tmpdir_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_doc_reads_back_what_it_wrote),
		cmocka_unit_test(test_doctor_doc_load_object_with_unknowns_null),
		cmocka_unit_test(test_doctor_doc_refuses_a_missing_or_mistyped_key),
		cmocka_unit_test(test_doctor_doc_load_names_the_line_of_broken_json),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
