#!/bin/sh
# ntune stat prints what ministat 20150715 prints: stdout byte for byte, the same
# exit status and the same first error line after the program name. The expected
# results come from the real ministat (scripts/stat-golden.sh), one case a row.
# test-asan: full
. "$(dirname "$0")/lib.sh"

cases="$GOLDEN/stat/cases"
fx="$FIXTURES/stat"

while IFS='	' read -r name args; do
	case $name in ''|'#'*) continue ;; esac
	test_expect_success "ntune stat $args: same output and status as ministat ($name)" "
		{ (cd '$fx' && eval \"\\\"\\\$NTUNE\\\" stat $args\") >out 2>err </dev/null; echo \$? >rc; } &&
		head -n 1 err | sed 's/^ntune stat: //' >>rc &&
		diff -u '$GOLDEN/stat/$name.out' out &&
		diff -u '$GOLDEN/stat/$name.rc' rc
	"
done <"$cases"

test_done
