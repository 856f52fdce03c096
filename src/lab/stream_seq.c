/* Sequence tracking of a test stream (traffic.h): portable, unit-tested everywhere. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lab/traffic.h"

void
lab_seq_update(struct lab_seq *s, uint64_t seq)
{
	uint64_t i;

	if (!s->seen) {
		s->seen = true;
		s->base = s->max = seq;
		s->count = 1;
		s->bits[(seq % LAB_SEQ_WINDOW) / 64] |= 1ULL << (seq % 64);
		return;
	}
	s->count++;
	if (seq > s->max) {
		if (seq - s->max >= LAB_SEQ_WINDOW)
			memset(s->bits, 0, sizeof(s->bits));
		else {
			for (i = s->max + 1; i < seq; i++)
				s->bits[(i % LAB_SEQ_WINDOW) / 64] &= ~(1ULL << (i % 64));
		}
		s->bits[(seq % LAB_SEQ_WINDOW) / 64] |= 1ULL << (seq % 64);
		s->max = seq;
		return;
	}
	if (seq < s->base) {	/* before the first one seen: late */
		s->reordered++;
		s->base = seq;
		return;
	}
	if (s->max - seq >= LAB_SEQ_WINDOW) {
		s->reordered++;
		return;
	}
	if (s->bits[(seq % LAB_SEQ_WINDOW) / 64] & (1ULL << (seq % 64))) {
		s->dups++;
		return;
	}
	s->bits[(seq % LAB_SEQ_WINDOW) / 64] |= 1ULL << (seq % 64);
	s->reordered++;
}
