/* util/jtable: one table of fields writes a struct's JSON form and reads it back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/jtable.h"
#include "util/util_json.h"

struct rec {
	char	name[8];
	int	count;		/* -1: unknown */
	long	speed;
	int	up;		/* tristate */
	uint64_t packets;
	int	index;
	bool	ok;
	double	pps;
	int	rx;
	int	step;
};

static const struct jfield rec_fields[] = {
	JSTR(struct rec, NULL, "name", name),
	JNUM(struct rec, NULL, "count", J_INT, count),
	JNUM(struct rec, NULL, "speed", J_LONG, speed),
	JNUM(struct rec, NULL, "up", J_TRI, up),
	JNUM(struct rec, NULL, "packets", J_U64, packets),
	JNUM(struct rec, NULL, "index", J_IDX, index),
	JNUM(struct rec, NULL, "ok", J_BOOL, ok),
	JNUM(struct rec, NULL, "pps", J_DBL, pps),
	JNUM(struct rec, "channels", "rx", J_INT, rx),
	JNUMF(struct rec, NULL, "step", J_IDX, step, JF_OMIT0 | JF_OPT),
};

static const struct rec one = { "eth0", -1, 10000, -1, 1234567890123ULL, 0, true, 87.8, 4, 0 };

static char *
dump(const struct rec *r)
{
	json_t *o = json_object();
	char *s;

	jtable_to_json(o, r, rec_fields, sizeof rec_fields / sizeof *rec_fields);
	s = util_json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

static void
test_jtable_writes_in_table_order_with_unknowns_null(void **state)
{
	struct rec r = one;
	char *s;

	(void)state;
	s = dump(&r);
	assert_string_equal(s, "{\"name\":\"eth0\",\"count\":null,\"speed\":10000,\"up\":null,"
	    "\"packets\":1234567890123,\"index\":0,\"ok\":true,\"pps\":87.8,\"channels\":{\"rx\":4}}");
	free(s);
	r.step = 3;
	s = dump(&r);
	assert_non_null(strstr(s, ",\"step\":3}"));
	free(s);
}

static void
test_jtable_reads_back_what_it_wrote(void **state)
{
	json_t *o = json_object();
	struct rec r;
	char *cause = NULL;

	(void)state;
	jtable_to_json(o, &one, rec_fields, sizeof rec_fields / sizeof *rec_fields);
	memset(&r, 0x55, sizeof r);
	assert_int_equal(jtable_read(o, &r, rec_fields, sizeof rec_fields / sizeof *rec_fields,
	    "f.json", &cause), 0);
	assert_string_equal(r.name, "eth0");
	assert_int_equal(r.count, -1);
	assert_int_equal(r.speed, 10000);
	assert_int_equal(r.up, -1);
	assert_true(r.packets == one.packets);
	assert_true(r.ok);
	assert_true(r.pps == 87.8);
	assert_int_equal(r.rx, 4);
	assert_int_equal(r.step, 0);	/* JF_OPT, absent */
	json_decref(o);
}

/* Reads text strictly; the cause (or NULL when it reads). */
static char *
read_err(const char *text)
{
	json_t *o = json_loads(text, JSON_DECODE_INT_AS_REAL, NULL);
	struct rec r;
	char *cause = NULL;

	assert_non_null(o);
	if (jtable_read(o, &r, rec_fields, sizeof rec_fields / sizeof *rec_fields, "DIR/x.json:3",
	    &cause) == 0)
		assert_null(cause);
	json_decref(o);
	return cause;
}

static void
test_jtable_read_names_a_missing_or_mistyped_key(void **state)
{
	static const char ok[] = "{\"name\":\"eth0\",\"count\":null,\"speed\":10000,\"up\":null,"
	    "\"packets\":12,\"index\":0,\"ok\":true,\"pps\":87.8,\"channels\":{\"rx\":4}}";
	static const struct { const char *from, *to, *want; } cases[] = {
		/* A key renamed on one side only: the reader names the one it lacks. */
		{ "\"pps\"", "\"pkts_per_s\"", "DIR/x.json:3: key 'pps': missing" },
		{ "\"rx\"", "\"rxq\"", "DIR/x.json:3: key 'channels.rx': missing" },
		{ "\"name\":\"eth0\"", "\"name\":7", "DIR/x.json:3: key 'name': is not a string" },
		{ "\"pps\":87.8", "\"pps\":\"fast\"", "DIR/x.json:3: key 'pps': is not a number" },
		{ "\"packets\":12", "\"packets\":-1", "key 'packets': is not a count" },
		{ "\"speed\":10000", "\"speed\":1.5", "key 'speed': is not a whole number" },
		{ "\"ok\":true", "\"ok\":1", "key 'ok': is not true or false" },
		{ "\"up\":null", "\"up\":\"yes\"", "key 'up': is not true, false or null" },
	};
	char text[512], *cause;
	const char *at;
	size_t i;

	(void)state;
	assert_null(read_err(ok));
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		at = strstr(ok, cases[i].from);
		assert_non_null(at);
		snprintf(text, sizeof text, "%.*s%s%s", (int)(at - ok), ok, cases[i].to,
		    at + strlen(cases[i].from));
		cause = read_err(text);
		if (cause == NULL || strstr(cause, cases[i].want) == NULL)
			fail_msg("%s: got '%s', want '%s'", text, cause ? cause : "(read)", cases[i].want);
		free(cause);
	}
	cause = read_err("[1]");
	assert_string_equal(cause, "DIR/x.json:3: not a JSON object");
	free(cause);
}

static void
test_jtable_lenient_read_takes_missing_as_unknown(void **state)
{
	json_t *o = json_loads("{\"name\":\"a-much-too-long-name\",\"up\":true}", 0, NULL);
	struct rec r;

	(void)state;
	jtable_from_json(o, &r, rec_fields, sizeof rec_fields / sizeof *rec_fields);
	assert_string_equal(r.name, "a-much-");
	assert_int_equal(r.count, -1);
	assert_int_equal(r.up, 1);
	assert_true(r.packets == 0);
	assert_int_equal(r.rx, -1);
	json_decref(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jtable_writes_in_table_order_with_unknowns_null),
		cmocka_unit_test(test_jtable_reads_back_what_it_wrote),
		cmocka_unit_test(test_jtable_read_names_a_missing_or_mistyped_key),
		cmocka_unit_test(test_jtable_lenient_read_takes_missing_as_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
