#!/bin/sh
# ntune tune --dut with boot-time candidates whose reboots go wrong: a DUT that comes back with a
# loader tunable changed (the read-back refuses the step), Ctrl-C during a reboot wait (partial
# results kept, the original boot-time settings brought back with one more reboot). Apart from
# t6311 so that each file stays inside the suite's 600 s: every reboot re-creates a namespace.
# The DUT is the ssh rig's, made to look like FreeBSD (tests/cli/rig-freebsd.sh), reached agentless.
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"
fbsd_standins

cat >"$TRASH/boot.cand" <<-\EOF2
	name: netisr threads per CPU
	kind: bundle
	arg:  net.isr.maxthreads=-1 net.isr.bindthreads=1
	why:  one bound netisr thread per CPU (boot time)
EOF2
HOSTS=$FBSD_REBOOT_HOSTS
TUNE="timeout 500 $NTUNE tune $HOSTS --cand $TRASH/boot.cand --runs 2 --max-runs 2 --duration 0.5 --warmup 0 --pairs 0"

test_expect_success 'a DUT that comes back with a boot-time setting changed: the step is rejected, the knob named' '
	echo "net.isr.bindthreads=0" >"$RIG/dut/fbsd-after-boot.conf" &&
	ctl $TUNE --budget 4 -o t2 >out2 2>err2 &&
	tail -20 err2 &&
	grep -q "step 1: rejected: the DUT.s settings differ from .s01-try. after applying it, not measured: net.isr.bindthreads wants 1, has 0" err2 &&
	rm "$RIG/dut/fbsd-after-boot.conf" &&
	restored
'
test_expect_success 'Ctrl-C during a reboot wait: partial results kept, the original boot-time settings back' '
	{ ip netns exec "$N-ctl" $TUNE --budget 4 -o t3 >/dev/null 2>err3 & } &&
	pid=$! && i=0 &&
	while [ $i -lt 900 ] && ! grep -q "rebooting the DUT (switch to s01-try)" err3; do sleep 0.1; i=$((i + 1)); done &&
	kill -INT $pid && test_expect_code 130 wait $pid && tail -12 err3 &&
	grep -q "interrupted by signal 2 while waiting for the DUT to" err3 &&
	grep -q "rebooting the DUT (restore the original settings)" err3 &&
	grep -q "\"stopped\": \"interrupted\"" t3/meta.json &&
	restored
'
test_done
