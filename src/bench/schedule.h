/*
 * The run order of a bench (schedule.c).
 */
#ifndef NTUNE_BENCH_SCHEDULE_H
#define NTUNE_BENCH_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

/* A small, seeded, portable PRNG (splitmix64) so that a run order can be replayed. */
uint64_t bench_rand(uint64_t *state);

/*
 * The order of the profiles in block `block` (0-based): every block holds each
 * profile once. Even blocks are a seeded random permutation; each odd block is
 * the mirror of the block before it, so two profiles run A B B A ... or
 * B A A B ... and every profile takes every position equally often (drift on
 * a noisy machine cancels instead of masquerading as a gain).
 * order[] receives nprofiles indexes.
 */
void	bench_block_order(size_t nprofiles, size_t block, uint64_t seed, size_t *order);

#endif
