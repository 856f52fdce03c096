#!/bin/sh
# A planted bottleneck: `lab up --impair rp-filter` (strict rp_filter on dut0, the route back
# to the generator by dut1) forwards nothing; tune finds the knob that fixes it, keeps it, and
# leaves the lab as impaired as it found it. Up to 8 runs each: on a loaded machine one slow
# run of three left step 1's Welch p at 0.06 against a zero baseline (CI, stop 31), and the
# sequential test needs room to add runs.
. "$(dirname "$0")/lib.sh"

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"
rpf() { ip netns exec "$P-dut" cat /proc/sys/net/ipv4/conf/dut0/rp_filter; }
# Frames that reach sink0 while `ntune gen` sends for a second.
forwarded() {
	a=$(ip netns exec "$P-sink" cat /sys/class/net/sink0/statistics/rx_packets) &&
	ntune lab exec --prefix "$P" gen -- "$NTUNE" gen --duration 1 --quiet >/dev/null 2>&1 &&
	b=$(ip netns exec "$P-sink" cat /sys/class/net/sink0/statistics/rx_packets) &&
	echo $((b - a))
}

test_expect_success ROOT,IP 'lab up --impair rp-filter: the DUT forwards nothing' '
	ntune lab up --prefix "$P" --impair rp-filter 2>err &&
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1" &&
	grep -q "impaired: rp-filter" err &&
	ntune lab status --prefix "$P" | grep -q "impaired: rp-filter" &&
	test "$(rpf)" = 1 && n=$(forwarded) && test "$n" -lt 100
'
test_expect_success ROOT,IP 'tune finds and keeps the fix first, the lab stays impaired' '
	{ timeout 300 "$NTUNE" tune --lab --prefix "$P" --budget 1 --duration 0.5 --runs 3 \
		--max-runs 8 --warmup 0 -o t >out 2>err || { tail -5 err; false; }; } &&
	{ grep -q "^1 *kept *net.ipv4.conf.dut0.rp_filter=2" out &&
	  grep -q "^net.ipv4.conf.dut0.rp_filter=2$" t/best.conf || { cat out; grep s01 err; false; }; } &&
	test "$(rpf)" = 1
'
test_expect_success ROOT,IP 'best.conf applied, the DUT forwards again' '
	ntune apply t/best.conf --netns "$P-dut" --no-persist >/dev/null 2>&1 &&
	n=$(forwarded) && test "$n" -gt 1000 &&
	ntune revert >/dev/null 2>&1 && test "$(rpf)" = 1
'
test_expect_success ROOT,IP 'an unknown impairment is refused' '
	test_expect_code 2 ntune lab up --prefix "${P}x" --impair slow-dns 2>err &&
	grep -q "unknown impairment .slow-dns." err
'
test_done
