#!/bin/sh
# doctor's ranking (src/doctor/items.c): the bottlenecks the samples show come first, by the
# diagnosis' certainty; then what the box's files get wrong (certain), what is not in effect
# (certain), what does nothing for forwarding (certain), and warnings (likely: a warning is
# a possible problem, not a proven one). Items are numbered from 1.
. "$(dirname "$0")/lib.sh"

test_expect_success 'seed 000: bottlenecks by certainty, then the files, each with its certainty' '
	test_expect_code 1 ntune doctor --from "$FIXTURES/doctor/seed000" >out &&
	grep -E "^[0-9]+\. " out >items &&
	printf "%s\n" "1. bottleneck: one-queue on ax0 (likely)" \
		"2. bottleneck: queue-thread-busy on ax0 (likely)" \
		"3. bottleneck: cpu-saturated (possible)" \
		"4. not-in-effect: not in effect (certain)" \
		"5. wasted: useless for forwarding (certain)" >want &&
	diff -u want items
'
test_expect_success 'real files: wrong before not in effect, warnings last and only likely' '
	test_expect_code 1 ntune doctor --from "$FIXTURES/doctor/real" >out &&
	grep -E "^[0-9]+\. " out >items &&
	printf "%s\n" "1. wrong: not taken by the kernel (certain)" \
		"2. not-in-effect: not in effect (certain)" \
		"3. warning: warnings (likely)" >want &&
	diff -u want items
'
test_done
