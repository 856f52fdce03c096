#!/bin/sh
# ntune lab up/down/status/exec: namespaces, veths, modes, cleanup, refusals.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT
p=$(test_unique)
test_lab_files
test_at_exit "\"$NTUNE\" lab down --prefix $p >/dev/null 2>&1; ip netns del $p-gen 2>/dev/null; ip netns del $p-dut 2>/dev/null; ip netns del $p-sink 2>/dev/null"

leftovers() { ls /run/netns 2>/dev/null | grep "^$p-" ; ls "$NTUNE_LAB_DIR" 2>/dev/null | grep "^$p\\." ; }

# traffic MODE-LABEL [GEN OPTIONS]: 2000 frames from gen must all reach the sink.
traffic() {
	rm -f sink.err; timeout 20 ip netns exec "$p-sink" "$NTUNE" sink --count 2000 --duration 10 --quiet --json >sink.json 2>sink.err &
	spid=$!
	test_wait_for "receiving on" sink.err
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 2000 --rate 20000 --quiet "$@" >gen.out || return 1
	wait $spid || { cat sink.json; return 1; }
	grep -q "\"packets\": 2000," sink.json || { cat sink.json; return 1; }
}

test_expect_success 'up creates the three namespaces with their veths' '
	ntune lab up --prefix "$p" 2>err &&
	grep -q "lab .$p. up: route mode" err &&
	test -e "/run/netns/$p-gen" && test -e "/run/netns/$p-dut" && test -e "/run/netns/$p-sink" &&
	ip -n "$p-gen" -o link show gen0 | grep -q "state UP" &&
	ip -n "$p-dut" -o link show dut0 | grep -q "link-netns $p-gen" &&
	ip -n "$p-sink" -o addr show sink0 | grep -q "198.19.0.2/24" &&
	ip -n "$p-sink" -o addr show sink0 | grep -q "2001:2:0:2::2/64"
'
test_expect_success 'the DUT forwards and has static neighbours' '
	test "$(ip netns exec "$p-dut" cat /proc/sys/net/ipv4/ip_forward)" = 1 &&
	ip -n "$p-dut" neigh show dev dut1 | grep -q "198.19.0.2 lladdr 02:4e:54:13:00:02 PERMANENT" &&
	ip -n "$p-gen" neigh show dev gen0 | grep -q "2001:2:0:1::2 lladdr 02:4e:54:12:00:02 PERMANENT"
'
test_expect_success 'status lists every interface with counters' '
	ntune lab status --prefix "$p" >out &&
	grep -q "^lab $p: up (route mode, 1 queue)" out &&
	for i in gen0 dut0 dut1 sink0; do grep -q " $i  *up " out || exit 1; done &&
	ntune lab status --prefix "$p" --json >s.json &&
	grep -q "\"mode\": \"route\"" s.json && grep -q "\"rx_packets\"" s.json
'
test_expect_success 'up refuses a prefix that is already up' '
	test_expect_code 2 ntune lab up --prefix "$p" 2>err && grep -q "already up" err
'
test_expect_success 'exec runs a command inside a role namespace with its own /sys' '
	test "$(ntune lab exec --prefix "$p" dut -- cat /proc/sys/net/ipv4/ip_forward)" = 1 &&
	ntune lab exec --prefix "$p" sink -- ls /sys/class/net >out && grep -q "^sink0$" out && ! grep -q "^dut0$" out
'
test_expect_success 'exec passes on the exit status of the command' '
	test_expect_code 7 ntune lab exec --prefix "$p" gen -- sh -c "exit 7"
'
test_expect_success 'IPv4 test frames cross the route lab' 'traffic'
test_expect_success 'IPv6 test frames cross the route lab' 'traffic --ipv6 --size 128'
test_expect_success 'down removes exactly what up created' '
	ntune lab down --prefix "$p" 2>err && grep -q "3 namespaces removed" err &&
	test -z "$(leftovers)"
'
test_expect_success 'down is idempotent' 'ntune lab down --prefix "$p" 2>/dev/null'
test_expect_success 'nat mode masquerades on dut1 and forwards' '
	ntune lab up --prefix "$p" --mode nat 2>/dev/null &&
	ip netns exec "$p-dut" nft list ruleset | grep -q "oifname \"dut1\" masquerade" &&
	traffic && ntune lab down --prefix "$p" 2>/dev/null && test -z "$(leftovers)"
'
test_expect_success 'bridge mode bridges dut0 and dut1 and forwards' '
	ntune lab up --prefix "$p" --mode bridge 2>/dev/null &&
	ip -n "$p-dut" -o link show dut0 | grep -q "master br0" &&
	ip -n "$p-dut" -o link show dut1 | grep -q "master br0" &&
	traffic && ntune lab down --prefix "$p" 2>/dev/null && test -z "$(leftovers)"
'
test_expect_success '--queues and --mtu reach every veth' '
	ntune lab up --prefix "$p" --queues 2 --mtu 9000 2>/dev/null &&
	ip netns exec "$p-gen" ls /sys/class/net/gen0/queues >q && grep -q "^tx-1$" q && grep -q "^rx-1$" q &&
	ip -n "$p-sink" -o link show sink0 | grep -q "mtu 9000" &&
	traffic --size 9000 && ntune lab down --prefix "$p" 2>/dev/null && test -z "$(leftovers)"
'
test_expect_success 'down after a crash finds the namespaces by prefix' '
	ntune lab up --prefix "$p" 2>/dev/null && rm -f "$NTUNE_LAB_DIR/$p.json" &&
	ntune lab down --prefix "$p" 2>/dev/null && test -z "$(leftovers)"
'
test_expect_success 'a prefix used by a namespace that is not ntune'"'"'s is refused and left alone' '
	ip netns add "$p-dut" &&
	test_expect_code 2 ntune lab up --prefix "$p" 2>err && grep -q "was not made by ntune" err &&
	test_expect_code 2 ntune lab down --prefix "$p" 2>err && grep -q "not made by ntune" err &&
	test -e "/run/netns/$p-dut" && ! test -e "/run/netns/$p-gen" &&
	ip netns del "$p-dut"
'
test_expect_success 'gen refuses a namespace that is only named like a lab' '
	ip netns add "$p-gen" &&
	{ ip netns exec "$p-gen" "$NTUNE" gen --duration 1 2>err; rc=$?; ip netns del "$p-gen"; [ $rc = 2 ]; } &&
	grep -q "not inside an ntune lab namespace" err
'
test_expect_success 'a failure half way rolls back: nothing is left' '
	mkdir -p bin && ln -sf "$(command -v ip)" bin/ip &&
	test_expect_code 2 env PATH="$TRASH/bin" "$NTUNE" lab up --prefix "$p" --mode nat 2>err &&
	grep -q "nftables NAT is not available" err &&
	test -z "$(leftovers)"
'
test_done
