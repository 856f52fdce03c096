#!/bin/sh
# scripts/include-graph.sh: the `#include "..."` graph of src/ has no cycle, and a
# cycle introduced into it is found and named.
# test-asan: full
. "$(dirname "$0")/lib.sh"

graph="$SRCDIR/scripts/include-graph.sh"

test_expect_success 'the include graph of src/ has no cycle' '
	"$graph" "$SRCDIR/src" >out &&
	grep -q "^include graph: [0-9]* units, [0-9]* edges, 0 cycles$" out &&
	! grep -q "^cycle:" out
'
test_expect_success 'nsenter.c including lab.h again is the lab cycle, named' '
	cp -R "$SRCDIR/src" src &&
	sed "s|#include \"lab/nsenter.h\"|&\n#include \"lab/lab.h\"|" "$SRCDIR/src/lab/nsenter.c" >src/lab/nsenter.c &&
	test_expect_code 1 "$graph" src >out &&
	grep -qx "cycle: lab/lab -> lab/nsenter -> lab/lab" out &&
	grep -q ", 1 cycles$" out
'
test_expect_success 'the conversions file including the collector is the os cycle, named' '
	rm -rf src && cp -R "$SRCDIR/src" src &&
	printf "#include \"os/collect.h\"\n" >>src/os/os_json.c &&
	test_expect_code 1 "$graph" src >out &&
	cat out &&
	grep -Eqx "cycle: (os/collect -> os/os_json -> os/collect|os/os_json -> os/collect -> os/os_json)" out
'
test_expect_success 'a module and its private X_impl.h header are one unit, not a cycle' '
	mkdir -p m/a && printf "#include \"a/x_impl.h\"\n" >m/a/x.c &&
	printf "#include \"a/x.h\"\n" >m/a/x_impl.h && : >m/a/x.h &&
	"$graph" m >out && grep -q ", 0 cycles$" out
'
test_expect_success 'a missing directory is a usage error' '
	test_expect_code 2 "$graph" "$TRASH/nowhere" 2>err &&
	grep -q "is not a directory" err
'
test_done
