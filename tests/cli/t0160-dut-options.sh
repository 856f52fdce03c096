#!/bin/sh
# One option set for every command that reaches a router (src/dut/dut.h DUT_LONGOPTS):
# each router command takes each router option, spelled the same, and with a router
# that cannot be reached fails on reaching it, not on an option. The options are read
# from dut.h, so a new row there is walked here too.
. "$(dirname "$0")/lib.sh"

test_prereq_SSH() { command -v ssh >/dev/null 2>&1; }

# The router commands and the operands each needs before it reaches the router.
router_commands() {
	cat <<-EOF
	inspect
	snapshot
	doctor
	apply a.conf
	confirm
	revert
	bench a.conf b.conf -o out-bench
	tune -o out-tune
	lab rfc2544 -o out-rfc2544
	EOF
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

test_expect_success 'each router command names every router option in its --help' '
	router_commands | while read -r c rest; do
		case $c in lab) c="lab rfc2544" ;; esac
		ntune $c --help >help || { echo "$c --help failed"; exit 1; }
		while read -r o kind; do
			grep -q -- "--$o\\b" help || { echo "ntune $c --help lacks --$o"; exit 1; }
		done <opts
	done
'

test_expect_success 'a command that names --dut in its --help is one of the router commands' '
	router_commands | sed "s/ .*//" >walked &&
	for c in $(ntune help | sed -n "s/^   \\([a-z][a-z0-9]*\\) .*/\\1/p"); do
		ntune $c --help >help 2>/dev/null || continue
		grep -q -- "--dut\\b" help || continue
		grep -qx "$c" walked || { echo "ntune $c takes --dut but is not walked"; exit 1; }
	done
'

test_expect_success SSH 'every router command takes every router option and fails on reaching the router' '
	: >ssh.cfg &&
	printf "net.inet.ip.forwarding=1\n" >a.conf &&
	printf "net.inet.ip.forwarding=0\n" >b.conf &&
	router_commands | while read -r c rest; do
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
	done
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
