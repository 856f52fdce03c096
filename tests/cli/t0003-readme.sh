#!/bin/sh
# The README's examples run as written and print what it shows (tests/cli/readme-blocks.py says how
# a block is read), the ones that need a router or root at least name real commands and options;
# its links lead somewhere, and it stays short (issue 26).
. "$(dirname "$0")/lib.sh"

README="$SRCDIR/README.md"
BLOCKS="$SRCDIR/tests/cli/readme-blocks.py"
python3 "$BLOCKS" list "$README" >"$TRASH/blocks" || test_skip_all 'cannot read the README blocks'

test_expect_success 'the README is at most 300 lines' '
	test "$(wc -l <"$README")" -le 300
'
test_expect_success 'most examples run here: at least 10 blocks, every skipped one says why' '
	test "$(grep -c " run " "$TRASH/blocks")" -ge 10 &&
	test "$(grep -c " skip " "$TRASH/blocks")" = "$(grep -c "^<!-- not run by t0003: ..* -->$" "$README")"
'

# Each runnable block in a directory of its own holding the clone's share/ and tests/ (what the
# examples name), so that nothing they write lands in the source tree.
while read -r id line mode first; do
	[ "$mode" = run ] || continue
	test_expect_success "README line $line runs as written: $first" '
		mkdir "b'"$id"'" &&
		ln -s "$SRCDIR/share" "b'"$id"'/share" && ln -s "$SRCDIR/tests" "b'"$id"'/tests" &&
		python3 "$BLOCKS" run "$README" '"$id"' "b'"$id"'"
	'
done <"$TRASH/blocks"

test_expect_success 'every ntune command of every block, run here or not, exists and takes the options given' '
	python3 "$BLOCKS" lint "$README" >lint.out &&
	test ! -s lint.out
'
test_expect_success 'every relative link of the README names a file of the tree' '
	grep -o "](\([^):]*\))" "$README" | sed "s/^](//; s/)$//; s/#.*//" | sort -u >links &&
	test -s links &&
	while read -r l; do
		test -e "$SRCDIR/$l" || { echo "README links to $l, which does not exist"; exit 1; }
	done <links
'
test_expect_success 'every man page section the README points to is a section of ntune(8)' '
	grep -o "\[ntune [^]]*\](man/ntune.8)" "$README" | sed "s/^\[//; s/\](man.*//" | sort -u >secs &&
	test "$(wc -l <secs)" -ge 15 &&
	sed -n "s/^\.S[sh] //p" "$SRCDIR/man/ntune.8" | sed "s/\\\\-/-/g" >man-secs &&
	while read -r s; do
		grep -qxF "$s" man-secs || { echo "ntune(8) has no section \"$s\""; exit 1; }
	done <secs
'
test_expect_success 'the report screenshot the README shows is a picture, not a blank page' '
	test "$(python3 "$FIXTURES/bench/pngcolors.py" "$SRCDIR/doc/report.png")" -gt 100
'
test_done
