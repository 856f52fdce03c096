#!/bin/sh
# Planted bottlenecks that live in a host-wide sysctl: `lab up --impair conntrack-small` (NAT
# mode, nf_conntrack_max 128) and `--impair backlog-rps` (RPS on dut0, netdev_max_backlog 64).
# One lab at a time holds the host value, lab down puts the original back exactly (also after
# a crash), and tune finds and keeps the larger conntrack table first.
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"
NTUNE_LAB_DIR="$TRASH/labstate"
export NTUNE_LAB_DIR
CT=/proc/sys/net/netfilter/nf_conntrack_max
BL=/proc/sys/net/core/netdev_max_backlog
# The host-wide sysctls are changed: wait for any other test that changes them (t2201 takes
# the same lock), and put the originals back whatever happens.
exec 7>/tmp/ntune-t2201-host-sysctl.lock
flock -w 600 7 || { echo "ntune t6309: another run holds the host-sysctl lock" >&2; exit 1; }
CTMAX=$(cat $CT 2>/dev/null || echo)
BACKLOG=$(cat $BL)
test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1; \"$NTUNE\" lab down --prefix ${P}b >/dev/null 2>&1"
[ -n "$CTMAX" ] && [ "$CTMAX" != 128 ] && test_at_exit "echo $CTMAX >$CT"
[ "$BACKLOG" != 64 ] && test_at_exit "echo $BACKLOG >$BL"
# SMP: RPS to another CPU than the generator's needs two.
test_prereq_SMP() { [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; }
# Frames that reach sink0 while `ntune gen` sends 1024 flows for a second.
forwarded() {
	a=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets) &&
	ntune lab exec --prefix "$1" gen -- "$NTUNE" gen --duration 1 --flows 1024 --cpus 0 \
		--quiet >/dev/null 2>&1 &&
	b=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets) &&
	echo $((b - a))
}

test_expect_success ROOT,IP 'conntrack-small needs NAT mode' '
	test_expect_code 2 ntune lab up --prefix "$P" --impair conntrack-small 2>err &&
	grep -q "needs --mode nat" err && test "$(cat $CT)" = "$CTMAX" &&
	! ntune lab status --prefix "$P" | grep -q "^lab $P: up"
'
test_expect_success ROOT,IP 'lab up --impair conntrack-small: host table of 128, the original recorded' '
	ntune lab up --prefix "$P" --mode nat --impair conntrack-small 2>err &&
	grep -q "impaired: conntrack-small" err && forwarded "$P" >impaired &&
	grep -q "host-wide net.netfilter.nf_conntrack_max=128 (was $CTMAX; lab down puts it back)" err &&
	test "$(cat $CT)" = 128 &&
	ntune lab status --prefix "$P" --json >st.json &&
	python3 - "$CTMAX" <<-\PY
	import json, sys
	s = json.load(open("st.json"))
	h = s["host_sysctl"]
	assert s["impair"] == "conntrack-small" and s["mode"] == "nat", s
	assert h == {"name": "net.netfilter.nf_conntrack_max", "value": "128",
	             "original": sys.argv[1]}, h
	PY
'
test_expect_success ROOT,IP 'another lab cannot change the host value while it is held' '
	test_expect_code 2 ntune lab up --prefix "${P}b" --impair backlog-rps 2>err &&
	grep -q "host-wide .net.netfilter.nf_conntrack_max. is held by lab .$P." err &&
	test "$(cat $BL)" = "$BACKLOG" && test "$(cat $CT)" = 128
'
test_expect_success ROOT,IP 'tune finds and keeps the larger table first; the lab stays impaired' '
	{ timeout 300 "$NTUNE" tune --lab --prefix "$P" --host-knobs --flows 1024 --budget 1 \
		--duration 1 --runs 3 --max-runs 6 --warmup 0 -o t >out 2>err ||
		{ tail -5 err; false; }; } &&
	cat out && grep "finding:\|step 1/" err &&
	grep -q "finding: the conntrack table is full (1[23][0-9] of 128 entries)" err &&
	grep -q "^1 *kept *net.netfilter.nf_conntrack_max=2048" out &&
	grep -q "^net.netfilter.nf_conntrack_max=2048$" t/best.conf &&
	test "$(cat $CT)" = 128
'
# The impaired rate is the fresh lab's (test 2): the tune's runs left entries in the table that
# a smaller nf_conntrack_max does not remove (bench empties the table before each run).
test_expect_success ROOT,IP 'best.conf applied, the DUT forwards several times more' '
	before=$(cat impaired) &&
	ntune apply t/best.conf --netns "$P-dut" --no-persist >/dev/null 2>&1 &&
	after=$(forwarded "$P") &&
	ntune revert >/dev/null 2>&1 && test "$(cat $CT)" = 128 &&
	echo "impaired $before, with best.conf $after" &&
	test "$after" -gt $((before * 2))
'
test_expect_success ROOT,IP 'lab down puts the exact original back' '
	ntune lab down --prefix "$P" 2>/dev/null && test "$(cat $CT)" = "$CTMAX" &&
	test ! -e /run/ntune/lab-host-sysctl.json
'
test_expect_success ROOT,IP,SMP 'lab up --impair backlog-rps: RPS on dut0 to the last CPU, a host backlog of 64' '
	ntune lab up --prefix "${P}b" --impair backlog-rps 2>err &&
	grep -q "host-wide net.core.netdev_max_backlog=64 (was $BACKLOG;" err &&
	test "$(cat $BL)" = 64 &&
	mask=$(ntune lab exec --prefix "${P}b" dut -- cat /sys/class/net/dut0/queues/rx-0/rps_cpus) &&
	test "$((0x$mask))" = $((1 << ($(getconf _NPROCESSORS_ONLN) - 1)))
'
test_expect_success ROOT,IP,SMP 'a crashed lab (namespaces gone, no lab down): the next lab down puts it back' '
	ip netns delete "${P}b-gen" && ip netns delete "${P}b-dut" && ip netns delete "${P}b-sink" &&
	test "$(cat $BL)" = 64 &&
	ntune lab down --prefix "${P}b" 2>/dev/null && test "$(cat $BL)" = "$BACKLOG" &&
	test ! -e /run/ntune/lab-host-sysctl.json
'
test_done
