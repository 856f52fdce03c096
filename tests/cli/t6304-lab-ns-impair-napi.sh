#!/bin/sh
# lab up --impair napi-on-sender: dut0's receive path runs in a NAPI thread pinned to CPU 0
# (GRO and fraglist GRO on), as ntune verify sees it inside the DUT; lab down removes it all.
. "$(dirname "$0")/lib.sh"

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"

test_expect_success ROOT,IP 'the DUT has GRO, fraglist GRO and a NAPI thread on CPU 0' '
	ntune lab up --prefix "$P" --impair napi-on-sender 2>err &&
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1" &&
	grep -q "impaired: napi-on-sender" err &&
	printf "%s\n" if.dut0.offload.gro=on if.dut0.offload.rx-gro-list=on \
		if.dut0.napi_threaded=1 if.dut0.napi_thread_cpus=0 >planted.conf &&
	ip netns exec "$P-dut" "$NTUNE" verify planted.conf >out 2>&1 &&
	ntune lab status --prefix "$P" --json | grep -q "\"impair\": \"napi-on-sender\""
'
test_expect_success ROOT,IP 'an unimpaired lab differs from it' '
	ntune lab up --prefix "${P}u" 2>/dev/null &&
	test_at_exit "\"$NTUNE\" lab down --prefix ${P}u >/dev/null 2>&1" &&
	test_expect_code 1 ip netns exec "${P}u-dut" "$NTUNE" verify planted.conf >out 2>&1 &&
	ntune lab status --prefix "${P}u" --json | grep -q "\"impair\": \"none\""
'
test_done
