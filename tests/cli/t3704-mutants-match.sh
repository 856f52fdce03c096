#!/bin/sh
# scripts/mutants.txt is kept in step with the code: every mutant's pattern occurs exactly once
# in its file (scripts/mutate.py --check, no build). A change to a line a mutant names fails
# here first, naming the mutant; fix its pattern (or its id) in the same commit.
# test-asan: full
. "$(dirname "$0")/lib.sh"

test_expect_success 'every mutant pattern occurs exactly once in its file' '
	{ python3 "$SRCDIR/scripts/mutate.py" --check >out 2>&1; echo $? >rc; } &&
	cat out && test "$(cat rc)" = 0
'
test_expect_success 'a pattern that occurs twice or not at all is an error naming the mutant' '
	mkdir -p t/scripts t/src &&
	cp "$SRCDIR/scripts/mutate.py" t/scripts/ &&
	printf "one\ntwo\ntwo\n" >t/src/f.c &&
	printf "id: twice\nfile: src/f.c\nfind: two\nrepl: 2\ntests: x\nwhy: y\n\nid: gone\nfile: src/f.c\nfind: three\nrepl: 3\ntests: x\nwhy: y\n" >t/scripts/mutants.txt &&
	test_expect_code 2 python3 t/scripts/mutate.py --check >out 2>err &&
	grep -q "mutants.txt:1: twice: pattern occurs 2 times in src/f.c (must be once)" out &&
	grep -q "mutants.txt:8: gone: pattern occurs 0 times in src/f.c (must be once)" out &&
	grep -q "the list is out of step with the code" err
'
test_done
