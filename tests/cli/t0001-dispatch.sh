#!/bin/sh
# Dispatch and usage: the command table in src/main.c.
. "$(dirname "$0")/lib.sh"

test_expect_success 'ntune --version prints the version' '
	ntune --version | grep -Eq "^ntune [0-9]+\.[0-9]+\.[0-9]+$"
'
test_expect_success 'ntune help lists every command' '
	ntune help >out &&
	for c in stat inspect snapshot top explain check advise apply confirm revert history diff verify export diagnose doctor lab gen sink bench tune report; do
		test "$(grep -c "^   $c " out)" = 1 || { echo "$c listed $(grep -c "^   $c " out) times"; exit 1; }
	done
'
test_expect_success 'ntune help leads with doctor, grouped by the owner'"'"'s path' '
	ntune help >out &&
	sed -n 3p out | grep -q "^answer: " &&
	sed -n 4p out | grep -q "^   doctor " &&
	grep "^[a-z][a-z]*: .*:$\|^statistics:$" out | cut -d: -f1 >groups &&
	printf "%s\n" answer prove change lab statistics >want && diff -u want groups
'
test_expect_success 'ntune with no command prints usage and exits 2' '
	test_expect_code 2 ntune 2>err && grep -q "^usage: ntune" err
'
test_expect_success 'an unknown command suggests the nearest one' '
	test_expect_code 2 ntune stt 2>err && grep -q "unknown command .stt. (did you mean .stat.?)" err
'
test_expect_success 'an ambiguous prefix names its candidates' '
	test_expect_code 2 ntune s 2>err && grep -q "ambiguous command .s.: stat, snapshot, sink" err
'
test_expect_success 'a unique prefix selects the command' '
	ntune sta --help | grep -q "^usage: ntune stat"
'
test_expect_success 'every command has --help on stdout with exit 0' '
	for c in stat inspect snapshot top explain check advise apply confirm revert history diff verify export diagnose doctor lab gen sink bench tune report; do
		ntune $c --help >out || exit 1
		grep -q "^usage: ntune $c" out || exit 1
	done
'
test_expect_success 'ntune help COMMAND shows that command' '
	ntune help top | grep -q "^usage: ntune top"
'
test_expect_success 'an unknown global option exits 2' 'test_expect_code 2 ntune --frobnicate 2>/dev/null'

# The argument spec of each command (src/cli/cli.c cmd_dispatch): one check for all.
test_expect_success 'an unknown option of a command: exit 2, the option named, that command'"'"'s usage' '
	test_expect_code 2 ntune advise --frobnicate >out 2>err &&
	test ! -s out &&
	grep -q "^ntune advise: unknown option .--frobnicate.$" err &&
	grep -q "^usage: ntune advise " err &&
	test_expect_code 2 ntune explain -x 2>err &&
	grep -q "^ntune explain: unknown option .-x.$" err
'
test_expect_success 'an option without its value: exit 2, named, with the usage' '
	test_expect_code 2 ntune check --os 2>err &&
	grep -q "^ntune check: option .--os. needs a value$" err &&
	grep -q "^usage: ntune check " err
'
test_expect_success 'too few or too many operands: exit 2 with the usage, nothing run' '
	test_expect_code 2 ntune diff a.conf 2>err &&
	grep -q "^ntune diff: needs 2 arguments, not 1$" err &&
	grep -q "^usage: ntune diff " err &&
	test_expect_code 2 ntune report 2>err && grep -q "^ntune report: needs 1 argument, not 0$" err &&
	test_expect_code 2 ntune inspect ssh://a extra 2>err &&
	grep -q "^ntune inspect: unexpected argument .extra.$" err &&
	test_expect_code 2 ntune bench only.conf 2>err &&
	grep -q "^ntune bench: needs at least 2 arguments, not 1$" err
'
test_expect_success '--help and -h anywhere among the options print the usage on stdout, exit 0' '
	ntune check --json --help >out 2>err && grep -q "^usage: ntune check" out && test ! -s err &&
	ntune diff -h >out && grep -q "^usage: ntune diff" out
'
test_expect_success 'a subcommand is dispatched the same way, with its own usage' '
	test_expect_code 2 ntune lab status --all 2>err &&
	grep -q "^ntune lab status: unknown option .--all.$" err &&
	grep -q "^usage: ntune lab status " err &&
	ntune lab up --help >out && grep -q "^usage: ntune lab up " out &&
	ntune help lab >out && grep -q "^       ntune lab rfc2544 " out
'
test_expect_success MANDOC 'the man page is lint-clean' '
	mandoc -Tlint -Wwarning "$SRCDIR/man/ntune.8"
'
test_expect_success 'the man page has a section for every command' '
	for c in stat inspect snapshot top explain check advise apply export doctor lab gen sink bench tune report; do
		grep -q "^\.Ss ntune $c" "$SRCDIR/man/ntune.8" || { echo "no section for $c"; exit 1; }
	done
'
test_done
