#!/bin/sh
# The programs ntune sends an agentless DUT (issue 34): their golden copies in
# tests/fixtures/agentless (compared with what ntune generates by test_apply_remote_script,
# NTUNE_UPDATE_GOLDEN=1 writes them) and the shell files they are made of (src/apply/*.sh)
# parse under sh, dash and BusyBox ash, pass shellcheck, and carry agentless-lib.sh byte for byte.
# Red once: a golden copy with an unterminated quote fails the sh -n case (checked by hand:
# printf "x='\n" >>copy; sh -n copy exits 2).
. "$(dirname "$0")/lib.sh"

G="$FIXTURES/agentless"
test_prereq_DASH() { command -v dash >/dev/null 2>&1; }
test_prereq_BUSYBOX() { command -v busybox >/dev/null 2>&1; }
test_prereq_SHELLCHECK() { command -v shellcheck >/dev/null 2>&1; }

test_expect_success 'the golden copies are there: FreeBSD (OPNsense, pfSense) and Linux, apply, confirm, revert' '
	for f in freebsd-apply freebsd-apply-trial-boot freebsd-confirm freebsd-revert linux-apply \
	    linux-confirm linux-revert linux-renew freebsd-history linux-history; do
		test -s "$G/$f.golden" && tail -n 1 "$G/$f.golden" | grep -qx "ntune_main \"\$@\"" || return 1
	done
'
test_expect_success 'each parses under sh' '
	for f in "$G"/*.golden "$SRCDIR"/src/apply/*.sh; do sh -n "$f" || return 1; done
'
test_expect_success DASH 'each parses under dash' '
	for f in "$G"/*.golden "$SRCDIR"/src/apply/*.sh; do dash -n "$f" || return 1; done
'
test_expect_success BUSYBOX 'each parses under BusyBox ash' '
	for f in "$G"/*.golden "$SRCDIR"/src/apply/*.sh; do busybox ash -n "$f" || return 1; done
'
test_expect_success SHELLCHECK 'each passes shellcheck (warnings and errors)' '
	shellcheck -s sh -S warning "$G"/*.golden "$SRCDIR"/src/apply/*.sh "$SRCDIR"/tests/cli/standin/fault/*
'
test_expect_success 'the apply programs carry agentless-lib.sh and agentless-wait.sh byte for byte' '
	for f in "$G"/freebsd-apply.golden "$G"/linux-apply.golden; do
		python3 -c "
import sys
prog = open(sys.argv[1]).read()
for part in sys.argv[2:]:
    assert open(part).read() in prog, part
" "$f" "$SRCDIR/src/apply/agentless-lib.sh" "$SRCDIR/src/apply/agentless-wait.sh" || return 1
	done
'
test_done
