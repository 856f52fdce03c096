#!/bin/sh
# scripts/call-graph.sh: no file of libntune calls back into a file that calls it
# (the call graph between the objects has no cycle), and such a cycle is found and named.
. "$(dirname "$0")/lib.sh"

graph="$SRCDIR/scripts/call-graph.sh"
lib="$(dirname "$NTUNE")/libntune.a"
test_prereq_NM() { command -v nm >/dev/null 2>&1 && command -v tsort >/dev/null 2>&1; }
test_prereq_CC() { command -v cc >/dev/null 2>&1 && command -v ar >/dev/null 2>&1; }

test_expect_success NM 'the files of libntune call each other without a cycle' '
	"$graph" "$lib" >out && cat out &&
	grep -q "^call graph: [0-9]* units, [0-9]* edges, 0 cycles$" out &&
	! grep -q "^cycle:" out
'
test_expect_success NM,CC 'two files calling each other are a cycle, named' '
	printf "void b(void);\nvoid a(void) { b(); }\n" >src_x_a.c &&
	printf "void a(void);\nvoid b(void) { a(); }\nvoid c(void) { }\n" >src_x_b.c &&
	printf "void c(void);\nvoid d(void) { c(); }\n" >src_x_d.c &&
	cc -c src_x_a.c src_x_b.c src_x_d.c &&
	ar rc two.a src_x_a.o src_x_b.o src_x_d.o &&
	test_expect_code 1 "$graph" two.a >out && cat out &&
	grep -Eqx "cycle: x/(a -> x/b -> x/a|b -> x/a -> x/b)" out &&
	grep -q "^call graph: 3 units, 3 edges, 1 cycles$" out
'
test_expect_success 'a missing library is a usage error' '
	test_expect_code 2 "$graph" "$TRASH/nowhere.a" 2>err &&
	grep -q "is not a file" err
'
test_done
