#!/bin/sh
# ntune(8) is a front door (issue 35 item 5): short, led by the owner's path (doctor, then
# bench --dut, then apply), its commands in the order of `ntune help`; what it moved to
# doc/guide.md is there under the heading it points to.
. "$(dirname "$0")/lib.sh"

MAN="$SRCDIR/man/ntune.8"
GUIDE="$SRCDIR/doc/guide.md"

test_expect_success 'ntune(8) is at most 2,000 lines' '
	{ test "$(wc -l <"$MAN")" -le 2000 || { echo "ntune(8) has $(wc -l <"$MAN") lines"; exit 1; }; }
'
test_expect_success 'NAME and DESCRIPTION lead with doctor, then bench --dut, then apply' '
	grep "^\.Nd " "$MAN" >nd &&
	grep -q "doctor.*bench.*apply" nd &&
	sed -n "/^\.Sh DESCRIPTION/,/^\.Sh /p" "$MAN" >desc &&
	d=$(grep -n "ntune doctor" desc | head -1 | cut -d: -f1) &&
	b=$(grep -n "ntune bench" desc | head -1 | cut -d: -f1) &&
	a=$(grep -n "ntune apply" desc | head -1 | cut -d: -f1) &&
	{ test -n "$d" && test -n "$b" && test -n "$a" && test "$d" -lt "$b" && test "$b" -lt "$a" ||
		{ echo "doctor at $d, bench at $b, apply at $a"; exit 1; }; }
'
test_expect_success 'its command sections come in the order of ntune help' '
	ntune help | sed -n "s/^   \([a-z][a-z]*\)  .*/\1/p" | grep -vx help >cmds &&
	test "$(wc -l <cmds)" -ge 20 &&
	sed -n "s/^\.Ss ntune \([a-z][a-z]*\).*/\1/p" "$MAN" >secs &&
	last=0 &&
	while read -r c; do
		n=$(grep -nx "$c" secs | head -1 | cut -d: -f1)
		if test -z "$n"; then
			# confirm, revert, history, diff, verify share one section
			n=$(grep -n "^\.Ss ntune .*\b$c\b" "$MAN" | head -1 | cut -d: -f1) &&
			n=$(sed -n "1,${n}p" "$MAN" | grep -c "^\.Ss ntune ")
		fi
		test -n "$n" && test "$n" -ge "$last" || { echo "$c: section $n comes before section $last"; exit 1; }
		last=$n
	done <cmds
'
test_expect_success 'every command section has its section "in full" in doc/guide.md' '
	sed -n "s/^\.Ss //p" "$MAN" | sed "s/\\\\-/-/g" >heads &&
	test "$(wc -l <heads)" -ge 20 &&
	while read -r h; do
		grep -qxF "## $h in full" "$GUIDE" || { echo "doc/guide.md has no \"## $h in full\""; exit 1; }
	done <heads
'
test_expect_success 'every section of doc/guide.md the page points to exists' '
	grep -o "Dq [^.]* in full" "$MAN" | sed "s/^Dq //; s/\\\\-/-/g" | sort -u >points &&
	test "$(wc -l <points)" -ge 15 &&
	while read -r p; do
		grep -qxF "## $p" "$GUIDE" || { echo "ntune(8) points to \"$p\", not in doc/guide.md"; exit 1; }
	done <points
'
test_expect_success 'doc/guide.md has a doctor section before the others' '
	first=$(grep -m1 "^## " "$GUIDE") &&
	{ test "$first" = "## ntune doctor" || { echo "the first section is \"$first\""; exit 1; }; }
'
test_done
