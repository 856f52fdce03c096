#!/bin/sh
# One option set for every command that reaches a router (src/dut/dut.h DUT_LONGOPTS):
# each router command takes each router option, spelled the same, and with a router
# that cannot be reached fails on reaching it, not on an option. The options are read
# from dut.h, so a new row there is walked here too.
. "$(dirname "$0")/lib.sh"

test_prereq_SSH() { command -v ssh >/dev/null 2>&1; }

# The operands a router command needs before it reaches the router (none: none).
operands() {
	case $1 in
	apply|verify) echo a.conf ;;
	diff) echo a.conf b.conf ;;
	export) echo a.conf --format sh ;;
	bench) echo a.conf b.conf -o out-bench ;;
	tune) echo -o out-tune ;;
	"lab rfc2544") echo -o out-rfc2544 ;;
	esac
}

# The router commands: every command whose --help names --dut (lab's is lab rfc2544).
router_commands() {
	for c in $(ntune help | sed -n "s/^   \([a-z][a-z0-9]*\) .*/\1/p"); do
		[ "$c" = lab ] && c="lab rfc2544"
		# shellcheck disable=SC2086
		if ntune $c --help 2>/dev/null | grep -q -- "--dut\b"; then echo "$c"; fi
	done
}

# A router nothing listens for: port 1 of this machine refuses at once.
URL=ssh://nobody@127.0.0.1:1

test_expect_success 'the router options are the rows of DUT_LONGOPTS' '
	sed -n "/^#define DUT_LONGOPTS/,/^\$/p" "$SRCDIR/src/dut/dut.h" |
	    sed -n "s/.*{ \"\\([a-z-]*\\)\", \\([a-z_]*\\),.*/\\1 \\2/p" >opts &&
	grep -q "^dut required_argument$" opts &&
	grep -q "^ssh-config required_argument$" opts &&
	test "$(wc -l <opts)" -ge 4
'

test_expect_success 'the router commands are at least the nine that reach a router' '
	router_commands >cmds && cat cmds &&
	for c in inspect snapshot doctor apply confirm revert bench tune "lab rfc2544"; do
		grep -qx "$c" cmds || { echo "ntune $c --help does not name --dut"; exit 1; }
	done
'

test_expect_success 'each router command names every router option in its --help' '
	while read -r c; do
		# shellcheck disable=SC2086
		ntune $c --help >help || { echo "$c --help failed"; exit 1; }
		while read -r o kind; do
			grep -q -- "--$o\\b" help || { echo "ntune $c --help lacks --$o"; exit 1; }
		done <opts
	done <cmds
'

test_expect_success SSH 'every router command takes every router option and fails on reaching the router' '
	: >ssh.cfg &&
	printf "net.inet.ip.forwarding=1\n" >a.conf &&
	printf "net.inet.ip.forwarding=0\n" >b.conf &&
	while read -r c; do
		rest=$(operands "$c")
		while read -r o kind; do
			case $o in
			dut) extra= ;;
			ssh-config) extra="--ssh-config ssh.cfg" ;;
			*) if [ "$kind" = no_argument ]; then extra=--$o; else extra="--$o $TRASH/nowhere"; fi ;;
			esac
			rm -rf out-bench out-tune out-rfc2544
			# shellcheck disable=SC2086
			ntune $c $rest --dut "$URL" $extra </dev/null >out 2>err
			rc=$?
			if [ $rc = 0 ] || grep -q "unknown option\\|usage:" err ||
			    ! grep -q "cannot reach\\|cannot read" err || ! grep -q "127.0.0.1" err; then
				echo "ntune $c $rest --dut $URL $extra: exit $rc:"; cat err; exit 1
			fi
		done <opts
	done <cmds
'

test_expect_success SSH 'the read commands take the router as an operand too, not with --dut' '
	for c in inspect snapshot doctor; do
		test_expect_code 2 ntune $c "$URL" --ssh-accept-new 2>err &&
		grep -q "cannot read .$URL" err &&
		test_expect_code 2 ntune $c "$URL" --dut "$URL" 2>err &&
		grep -q "not both" err || exit 1
	done
'

test_done
