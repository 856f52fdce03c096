#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bench/schedule.h"

static void
test_bench_block_order_holds_each_profile_once(void **state)
{
	size_t order[5], seen[5], b, i;

	(void)state;
	for (b = 0; b < 20; b++) {
		memset(seen, 0, sizeof seen);
		bench_block_order(5, b, 42, order);
		for (i = 0; i < 5; i++) {
			assert_true(order[i] < 5);
			seen[order[i]]++;
		}
		for (i = 0; i < 5; i++)
			assert_int_equal(seen[i], 1);
	}
}

static void
test_bench_block_order_mirrors_odd_blocks(void **state)
{
	size_t even[4], odd[4], i, b;

	(void)state;
	for (b = 0; b < 10; b += 2) {
		bench_block_order(4, b, 7, even);
		bench_block_order(4, b + 1, 7, odd);
		for (i = 0; i < 4; i++)
			assert_int_equal(odd[i], even[3 - i]);
	}
}

/* Two profiles: every pair of blocks is ABBA or BAAB, never AB AB or AA. */
static void
test_bench_block_order_two_profiles_is_abba(void **state)
{
	size_t o0[2], o1[2], b, first_a = 0;

	(void)state;
	for (b = 0; b < 200; b += 2) {
		bench_block_order(2, b, 1234, o0);
		bench_block_order(2, b + 1, 1234, o1);
		assert_int_not_equal(o0[0], o0[1]);
		assert_int_equal(o0[1], o1[0]);
		assert_int_equal(o0[0], o1[1]);
		if (o0[0] == 0)
			first_a++;
	}
	/* Randomized: A starts about half of the 100 pairs. */
	assert_true(first_a > 25 && first_a < 75);
}

static void
test_bench_block_order_is_reproducible_from_the_seed(void **state)
{
	size_t a[6], b[6], c[6], blk;
	int differ = 0;

	(void)state;
	for (blk = 0; blk < 8; blk++) {
		bench_block_order(6, blk, 99, a);
		bench_block_order(6, blk, 99, b);
		assert_memory_equal(a, b, sizeof a);
		bench_block_order(6, blk, 100, c);
		if (memcmp(a, c, sizeof a) != 0)
			differ = 1;
	}
	assert_true(differ);
}

static void
test_bench_rand_is_splitmix64(void **state)
{
	uint64_t s = 0;

	(void)state;
	/* Reference values of splitmix64 seeded with 0. */
	assert_true(bench_rand(&s) == 0xe220a8397b1dcdafULL);
	assert_true(bench_rand(&s) == 0x6e789e6aa1b965f4ULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bench_block_order_holds_each_profile_once),
		cmocka_unit_test(test_bench_block_order_mirrors_odd_blocks),
		cmocka_unit_test(test_bench_block_order_two_profiles_is_abba),
		cmocka_unit_test(test_bench_block_order_is_reproducible_from_the_seed),
		cmocka_unit_test(test_bench_rand_is_splitmix64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
