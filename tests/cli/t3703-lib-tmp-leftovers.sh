#!/bin/sh
# The harness's /tmp check (tests/cli/lib.sh test_tmp_clean): each test file's TMPDIR is in its
# trash, and a test after which something is left there fails, naming it; the next test starts
# clean. ntune makes its temporary trees in TMPDIR (a Linux capture read through the Linux
# backend, src/remote/capture_linux.c), so every CLI test checks that they are gone.
. "$(dirname "$0")/lib.sh"

# write_inner NAME: a test file made of lib.sh, stdin and test_done (as t0000 does).
write_inner() {
	{ printf '. "%s/tests/cli/lib.sh"\n' "$SRCDIR"; cat; printf 'test_done\n'; } >"$TRASH/$1.sh"
}

write_inner leak <<'EOF_INNER'
test_expect_success 'makes a directory in TMPDIR and leaves it' '
	mktemp -d "${TMPDIR:-/tmp}/ntune-leak.XXXXXX" >/dev/null
'
test_expect_success 'the next test starts clean' '
	test -z "$(ls -A "$TMPDIR")"
'
test_expect_success 'one that removes what it made passes' '
	d=$(mktemp -d "${TMPDIR:-/tmp}/ntune-tidy.XXXXXX") && rm -rf "$d"
'
EOF_INNER
test_expect_success 'a test that leaves a file in TMPDIR fails naming it; the others pass' '
	{ sh leak.sh >leak.out 2>&1; echo $? >leak.rc; } &&
	cat leak.out &&
	test "$(cat leak.rc)" = 1 &&
	grep -q "^not ok 1 - makes a directory in TMPDIR and leaves it$" leak.out &&
	grep -q "^#   left behind in TMPDIR (would be in /tmp outside the tests): ntune-leak\.[A-Za-z0-9]*$" leak.out &&
	grep -q "^ok 2 - the next test starts clean$" leak.out &&
	grep -q "^ok 3 - one that removes what it made passes$" leak.out &&
	grep -q "^# failed 1 of 3$" leak.out
'
test_expect_success 'TMPDIR is the trash'"'"'s own, empty at the start of a test' '
	case $TMPDIR in "$TRASH"/*) ;; *) false ;; esac &&
	test -z "$(ls -A "$TMPDIR")"
'
test_done
