/* The run order of a bench: seeded, interleaved, mirrored blocks. */
#include <stddef.h>
#include <stdint.h>

#include "bench/schedule.h"

uint64_t
bench_rand(uint64_t *state)
{
	uint64_t z;

	z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, n) without modulo bias. */
static size_t
rand_below(uint64_t *state, size_t n)
{
	uint64_t limit, r;

	limit = UINT64_MAX - UINT64_MAX % n;
	do
		r = bench_rand(state);
	while (r >= limit);
	return (size_t)(r % n);
}

void
bench_block_order(size_t nprofiles, size_t block, uint64_t seed, size_t *order)
{
	uint64_t state;
	size_t i, j, t;

	if (nprofiles == 0)
		return;
	/* Each pair of blocks draws from its own stream: any block can be recomputed alone. */
	state = seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(block / 2 + 1));
	for (i = 0; i < nprofiles; i++)
		order[i] = i;
	for (i = nprofiles - 1; i > 0; i--) {	/* Fisher-Yates */
		j = rand_below(&state, i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	if (block % 2 == 1) {
		for (i = 0; i < nprofiles / 2; i++) {
			t = order[i];
			order[i] = order[nprofiles - 1 - i];
			order[nprofiles - 1 - i] = t;
		}
	}
}
