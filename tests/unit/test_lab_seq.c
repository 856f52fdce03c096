#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lab/traffic.h"

static uint64_t
lost(const struct lab_seq *s)
{
	uint64_t expect = s->max - s->base + 1, got = s->count - s->dups;

	return expect > got ? expect - got : 0;
}

static void
test_lab_seq_update_counts_nothing_wrong_in_order(void **state)
{
	struct lab_seq s;
	uint64_t i;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 100; i < 20100; i++)
		lab_seq_update(&s, i);
	assert_int_equal(s.count, 20000);
	assert_int_equal(s.dups, 0);
	assert_int_equal(s.reordered, 0);
	assert_int_equal(lost(&s), 0);
}

static void
test_lab_seq_update_finds_gaps_as_loss(void **state)
{
	struct lab_seq s;
	uint64_t i;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 1000; i++)
		if (i % 10 != 3)
			lab_seq_update(&s, i);
	assert_int_equal(lost(&s), 100);
	assert_int_equal(s.reordered, 0);
	lab_seq_update(&s, 100000);	/* a jump past the window */
	assert_int_equal(lost(&s), 100 + 100000 - 1000);
}

static void
test_lab_seq_update_tells_late_frames_from_duplicates(void **state)
{
	struct lab_seq s;

	(void)state;
	memset(&s, 0, sizeof(s));
	lab_seq_update(&s, 1);
	lab_seq_update(&s, 3);
	lab_seq_update(&s, 2);		/* late: reordered, fills the gap */
	lab_seq_update(&s, 3);		/* again: duplicate */
	lab_seq_update(&s, 2);		/* again: duplicate */
	assert_int_equal(s.reordered, 1);
	assert_int_equal(s.dups, 2);
	assert_int_equal(lost(&s), 0);
	lab_seq_update(&s, 0);		/* before the first one seen */
	assert_int_equal(s.reordered, 2);
	assert_int_equal(lost(&s), 0);
}

static void
test_lab_seq_update_forgets_bits_that_leave_the_window(void **state)
{
	struct lab_seq s;
	uint64_t i;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 3 * LAB_SEQ_WINDOW; i += 2)
		lab_seq_update(&s, i);
	/* an odd number inside the window was never seen: late, not a duplicate */
	lab_seq_update(&s, 3 * LAB_SEQ_WINDOW - 5);
	assert_int_equal(s.dups, 0);
	assert_int_equal(s.reordered, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab_seq_update_counts_nothing_wrong_in_order),
		cmocka_unit_test(test_lab_seq_update_finds_gaps_as_loss),
		cmocka_unit_test(test_lab_seq_update_tells_late_frames_from_duplicates),
		cmocka_unit_test(test_lab_seq_update_forgets_bits_that_leave_the_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
