#!/bin/sh
# The test library itself: a check that fails makes its test fail. Each case writes a small
# test file that uses the real lib.sh on a stand-in command, runs it, and reads its TAP output
# and exit status (0 all passed, 1 a test failed, 77 everything skipped).
. "$(dirname "$0")/lib.sh"

# write_inner NAME: a test file made of lib.sh, stdin and test_done.
write_inner() {
	{ printf '. "%s/tests/cli/lib.sh"\n' "$SRCDIR"; cat; printf 'test_done\n'; } >"$TRASH/$1.sh"
}
# run_inner NAME: runs it; its output in NAME.out, its exit status in NAME.rc.
run_inner() {
	{ sh "$1.sh" >"$1.out" 2>&1; echo $? >"$1.rc"; } &&
	sed "s/^/$1: /" "$1.out"
}

# write_refusal NAME MESSAGE STATUS: an inner test that wants exit status 2 and "unknown knob"
# on stderr, of a stand-in command that prints MESSAGE and exits STATUS.
write_refusal() {
	write_inner "$1" <<EOF
test_expect_success 'the refusal names the knob and exits 2' '
	test_expect_code 2 sh -c "echo \"$2\" >&2; exit $3" 2>err &&
	grep -q "unknown knob" err
'
EOF
}

write_refusal right "unknown knob x" 2
test_expect_success 'a right message and exit status pass (the control)' '
	run_inner right && test "$(cat right.rc)" = 0 &&
	grep -q "^ok 1 - the refusal names the knob and exits 2$" right.out &&
	grep -q "^1\.\.1$" right.out
'

write_refusal wrong-message "something else" 2
test_expect_success 'a wrong message fails the test although the exit status is right' '
	run_inner wrong-message && test "$(cat wrong-message.rc)" = 1 &&
	grep -q "^not ok 1 - the refusal names the knob and exits 2$" wrong-message.out &&
	grep -q "^# failed 1 of 1$" wrong-message.out
'

write_refusal wrong-status "unknown knob x" 1
test_expect_success 'a wrong exit status fails the test although the message is right' '
	run_inner wrong-status && test "$(cat wrong-status.rc)" = 1 &&
	grep -q "^not ok 1 - " wrong-status.out &&
	grep -q "exited 1, wanted 2" wrong-status.out
'

write_inner not-restored <<\EOF
echo 5 >"$TRASH/value"
original() { test "$(cat "$TRASH/value")" = 5; }
test_expect_success 'a failing write restores what was written before it' '
	test_expect_code 1 sh -c "echo 6 >\"$TRASH/value\"; echo \"cannot set x\" >&2; exit 1" 2>err &&
	grep -q "cannot set" err &&
	original
'
EOF
test_expect_success 'a failed original-state check fails the test after the right status and message' '
	run_inner not-restored && test "$(cat not-restored.rc)" = 1 &&
	grep -q "^not ok 1 - a failing write restores" not-restored.out
'

write_inner crash <<\EOF
test_expect_success 'a refused input is an orderly failure' '
	test_must_fail sh -c "kill -SEGV \$\$"
'
test_expect_success 'success is not a failure' '
	test_must_fail true
'
test_expect_success 'an orderly failure is one' '
	test_must_fail sh -c "exit 2"
'
EOF
test_expect_success 'test_must_fail refuses a crash and a success' '
	run_inner crash && test "$(cat crash.rc)" = 1 &&
	grep -q "^not ok 1 - " crash.out && grep -q "died (exit 139)" crash.out &&
	grep -q "^not ok 2 - " crash.out && grep -q "^ok 3 - " crash.out
'

write_inner prereq <<\EOF
test_prereq_PRESENT() { :; }
test_expect_success NO_SUCH_TOOL 'needs a tool that is not there' 'false'
test_expect_success PRESENT,NO_SUCH_TOOL 'needs two, one missing' 'false'
test_expect_success PRESENT 'needs one that is there' 'true'
test_set_prereq LATER
test_expect_success LATER 'a prerequisite set by the file' 'true'
EOF
test_expect_success 'a missing prerequisite skips the test in TAP form, naming it' '
	run_inner prereq && test "$(cat prereq.rc)" = 0 &&
	grep -q "^ok 1 # SKIP needs a tool that is not there (missing NO_SUCH_TOOL)$" prereq.out &&
	grep -q "^ok 2 # SKIP needs two, one missing (missing NO_SUCH_TOOL)$" prereq.out &&
	grep -q "^ok 3 - needs one that is there$" prereq.out &&
	grep -q "^ok 4 - a prerequisite set by the file$" prereq.out
'

write_inner all-skipped <<\EOF
test_expect_success NO_SUCH_TOOL 'needs a tool that is not there' 'false'
EOF
write_inner require <<\EOF
test_prereq_PRESENT() { :; }
test_require PRESENT,NO_SUCH_TOOL
test_expect_success 'never reached' 'false'
EOF
test_expect_success 'a file whose tests are all skipped exits 77, meson'"'"'s skip' '
	run_inner all-skipped && test "$(cat all-skipped.rc)" = 77 &&
	run_inner require && test "$(cat require.rc)" = 77 &&
	grep -q "^1\.\.0 # SKIP missing NO_SUCH_TOOL$" require.out && ! grep -q "never reached" require.out
'

write_inner chain <<\EOF
test_expect_success 'a check after a line without && is not lost' '
	false
	true
'
EOF
test_expect_success 'a broken &&-chain fails the test instead of ignoring a check' '
	run_inner chain && test "$(cat chain.rc)" = 1 &&
	grep -q "^not ok 1 - " chain.out && grep -q "broken &&-chain" chain.out
'

write_inner cleanup <<\EOF
test_expect_success 'a failing test' '
	test_when_finished "echo cleaned >\"$TRASH/mark\"" &&
	false
'
test_expect_success 'the cleanup of the failed test ran' 'test "$(cat "$TRASH/mark")" = cleaned'
test_expect_success 'a failing cleanup fails its test' 'test_when_finished false && true'
EOF
test_expect_success 'test_when_finished runs after a failure and its own failure counts' '
	run_inner cleanup && test "$(cat cleanup.rc)" = 1 &&
	grep -q "^not ok 1 - " cleanup.out && grep -q "^ok 2 - " cleanup.out &&
	grep -q "^not ok 3 - " cleanup.out && grep -q "^# failed 2 of 3$" cleanup.out
'

test_expect_success 'no test file uses the deleted helper or ends a body in exit $rc' '
	! grep -n "test_expect_failure_status\|exit \$rc$\|exit 0$\|test_need_root" "$SRCDIR"/tests/cli/t[0-9]*.sh |
		grep -v "^$SRCDIR/tests/cli/t0000-lib.sh:"
'

# The host lock (tests/README.md): files named *-ns-* or *-ns.sh take it shared, a file with the
# line '# test-lock: exclusive' alone; a file that starts a process which outlives it does not
# pass the lock on to it. A lock file of this test's own (NTUNE_TEST_LOCK); each stand-in file
# logs when it starts and ends.
# write_locked NAME [MARKER]: a stand-in of NAME.sh that holds what it took for 2 s, and leaves
# a `sleep 30` behind.
write_locked() {
	{ printf '#!/bin/sh\n'; [ -n "${2:-}" ] && printf '%s\n' "$2"
	  printf '. "%s/tests/cli/lib.sh"\n' "$SRCDIR"
	  printf 'echo "start $(date +%%s%%N)" >>"%s/%s.log"\n' "$TRASH" "$1"
	  printf 'sleep 30 </dev/null >/dev/null 2>&1 &\necho $! >>"%s/left.pids"\nsleep 2\n' "$TRASH"
	  printf 'echo "end $(date +%%s%%N)" >>"%s/%s.log"\nexit 0\n' "$TRASH" "$1"; } >"$TRASH/$1.sh"
}
# stamp NAME start|end: when NAME's stand-in logged it (ns).
stamp() { sed -n "s/^$2 //p" "$TRASH/$1.log"; }
# started NAME: waits up to 10 s for NAME's start.
started() { test_wait_for "^start" "$TRASH/$1.log"; test -s "$TRASH/$1.log"; }
test_at_exit "kill \$(cat '$TRASH/left.pids' 2>/dev/null) 2>/dev/null"
write_locked t9001-ns-a
write_locked t9002-b-ns
write_locked t9003-ns-x "# test-lock: exclusive"
write_locked t9004-plain
export NTUNE_TEST_LOCK="$TRASH/host.lock"
test_expect_success ROOT 'the host lock: two shared files run at the same time' '
	{ sh t9001-ns-a.sh & } && started t9001-ns-a && sh t9002-b-ns.sh && wait &&
	test "$(stamp t9002-b-ns start)" -lt "$(stamp t9001-ns-a end)"
'
test_expect_success ROOT 'the host lock: an exclusive file waits for a shared one, a shared one for it' '
	rm -f t900*.log &&
	{ sh t9001-ns-a.sh & } && started t9001-ns-a && { sh t9003-ns-x.sh & } && started t9003-ns-x &&
	sh t9002-b-ns.sh && wait &&
	test "$(stamp t9003-ns-x start)" -ge "$(stamp t9001-ns-a end)" &&
	test "$(stamp t9002-b-ns start)" -ge "$(stamp t9003-ns-x end)"
'
test_expect_success ROOT 'the host lock: a shared file that comes while an exclusive one waits, waits for it' '
	rm -f t900*.log &&
	{ sh t9001-ns-a.sh & } && started t9001-ns-a && { sh t9003-ns-x.sh & } && sleep 0.5 &&
	sh t9002-b-ns.sh && wait &&
	test "$(stamp t9003-ns-x start)" -ge "$(stamp t9001-ns-a end)" &&
	test "$(stamp t9002-b-ns start)" -ge "$(stamp t9003-ns-x end)"
'
test_expect_success ROOT 'the host lock: a file with neither name nor marker takes none; what a file left running holds none' '
	rm -f t900*.log &&
	{ sh t9003-ns-x.sh & } && started t9003-ns-x && sh t9004-plain.sh &&
	test "$(stamp t9004-plain start)" -lt "$(stamp t9003-ns-x end)" && wait &&
	start=$(date +%s) && sh t9003-ns-x.sh && test $(($(date +%s) - start)) -lt 10
'
unset NTUNE_TEST_LOCK
test_done
