#!/bin/sh
# Dispatch and usage: the command table in src/main.c.
. "$(dirname "$0")/lib.sh"

test_expect_success 'ntune --version prints the version' '
	ntune --version | grep -Eq "^ntune [0-9]+\.[0-9]+\.[0-9]+$"
'
test_expect_success 'ntune help lists every command' '
	ntune help >out &&
	for c in stat inspect snapshot top explain check advise apply confirm revert history diff verify export lab gen sink bench tune report; do
		grep -q "^   $c " out || { echo "missing $c"; exit 1; }
	done
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
	for c in stat inspect snapshot top explain check advise apply confirm revert history diff verify export lab gen sink bench tune report; do
		ntune $c --help >out || exit 1
		grep -q "^usage: ntune $c" out || exit 1
	done
'
test_expect_success 'ntune help COMMAND shows that command' '
	ntune help top | grep -q "^usage: ntune top"
'
test_expect_success 'an unknown global option exits 2' 'test_expect_code 2 ntune --frobnicate 2>/dev/null'
test_expect_success MANDOC 'the man page is lint-clean' '
	mandoc -Tlint -Wwarning "$SRCDIR/man/ntune.8"
'
test_expect_success 'the man page has a section for every command' '
	for c in stat inspect snapshot top explain check advise apply export lab gen sink bench tune report; do
		grep -q "^\.Ss ntune $c" "$SRCDIR/man/ntune.8" || { echo "no section for $c"; exit 1; }
	done
'
test_done
