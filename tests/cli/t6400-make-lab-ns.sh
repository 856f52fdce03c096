#!/bin/sh
# scripts/make-lab.sh (`sudo make lab`), shortened: every stage runs, the lab is torn down.
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
export NTUNE_STATE_DIR="$TRASH/state"

test_expect_success 'make-lab.sh inspects, advises, benches, tunes, reports and tears down' '
	{ LAB_OUT="$TRASH/res" LAB_BUDGET=0.3 LAB_DURATION=0.5 LAB_RUNS=2 LAB_MAX_RUNS=2 \
		timeout 300 "$SRCDIR/scripts/make-lab.sh" >out 2>err || { cat out; tail -5 err; false; }; } &&
	cat out && tail -5 err &&
	grep -q "^==> 2/6 inspecting the DUT" err &&
	grep -q "if.dut0.rps_cpus=" res/advice.conf &&
	grep -Eq "^advice vs defaults: .*(forwards|no difference proven)" out &&
	grep -q "^tune: gain over the starting settings" out &&
	grep -q "^reports: .*/res/bench/report.html" out &&
	test -s res/bench/report.html && test -s res/tune/report.html && test -f res/tune/best.conf &&
	P=$(sed -n "s/^==> 1\/6 building the lab .\(lab[0-9]*\).*/\1/p" err) && test -n "$P" &&
	! ip netns list | grep -q "^$P-"
'
test_expect_success 'make-lab.sh tears the lab down when a stage fails' '
	test_expect_code 1 env LAB_OUT="$TRASH/res2" LAB_LOAD="exit 3" LAB_DURATION=0.5 LAB_RUNS=2 LAB_MAX_RUNS=2 \
		timeout 120 "$SRCDIR/scripts/make-lab.sh" >out 2>err &&
	tail -3 err && grep -q "make lab: ntune bench failed" err &&
	P=$(sed -n "s/^==> 1\/6 building the lab .\(lab[0-9]*\).*/\1/p" err) && test -n "$P" &&
	! ip netns list | grep -q "^$P-"
'
test_done
