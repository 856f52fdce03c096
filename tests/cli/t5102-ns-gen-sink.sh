#!/bin/sh
# ntune gen and ntune sink in a lab: no options needed inside it, counts, loss, latency, RPS.
# test-set: check
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"

test_require ROOT
p=$(test_unique)
test_lab_files
test_at_exit "\"$NTUNE\" lab down --prefix $p >/dev/null 2>&1"

dut1_tx() { ip netns exec "$p-dut" cat /sys/class/net/dut1/statistics/tx_packets; }
jnum() { sed -n "s/^  \"$1\": \\([0-9.e+-]*\\),*\$/\\1/p" "$2" | head -1; }

test_expect_success 'setup: a route lab with two queues' 'ntune lab up --prefix "$p" --queues 2 2>/dev/null'

test_expect_success 'gen needs no options under ip netns exec in the gen namespace' '
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --duration 1 >out 2>err &&
	grep -q "^sent [1-9][0-9]* packets in 1.00 s" out &&
	grep -q "^gen    1 s" err
'
test_expect_success 'gen needs no options under ntune lab exec gen' '
	timeout 20 "$NTUNE" lab exec --prefix "$p" gen -- "$NTUNE" gen --duration 1 --quiet >out &&
	grep -q "(64-byte frames, 1 flow, 1 thread, tx_ring" out
'
test_expect_success 'gen refuses to run in the DUT namespace without --iface' '
	test_expect_code 2 ip netns exec "$p-dut" "$NTUNE" gen --duration 1 2>err &&
	grep -q "run gen in .$p-gen." err
'
test_expect_success 'gen --json has the documented keys' '
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 1000 --json --quiet >g.json &&
	for k in duration_s packets bytes pps bps retries method per_second; do
		grep -q "\"$k\":" g.json || { echo "no $k"; exit 1; }
	done &&
	test "$(jnum packets g.json)" = 1000 && test "$(jnum bytes g.json)" = 64000
'
test_expect_success 'gen --count smaller than --threads sends exactly that many' '
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 3 --threads 4 --quiet >out &&
	grep -q "^sent 3 packets" out
'
test_expect_success 'sink counts every frame, per flow, without loss or reordering' '
	rm -f s.err &&
	{ timeout 30 ip netns exec "$p-sink" "$NTUNE" sink --idle 0.5 --duration 20 --flows --json --quiet >s.json 2>s.err & } &&
	spid=$! && test_wait_for "receiving on" s.err &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 40000 --rate 40000 --flows 4 --quiet >/dev/null &&
	wait $spid &&
	test "$(jnum packets s.json)" = 40000 && test "$(jnum lost s.json)" = 0 &&
	test "$(jnum reordered s.json)" = 0 && test "$(jnum duplicates s.json)" = 0 &&
	test "$(grep -c "\"sport\": 4915[2-5]," s.json)" = 4 &&
	grep -q "\"p99\":" s.json
'
test_expect_success 'sink with --method sendmmsg traffic sees the same frames' '
	rm -f s.err &&
	{ timeout 30 ip netns exec "$p-sink" "$NTUNE" sink --count 5000 --duration 20 --json --quiet >s.json 2>s.err & } &&
	spid=$! && test_wait_for "receiving on" s.err &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 5000 --rate 50000 --method sendmmsg --quiet >out &&
	wait $spid && grep -q sendmmsg out && test "$(jnum packets s.json)" = 5000
'
test_expect_success 'sink detects loss from the sequence numbers' '
	ip netns exec "$p-dut" nft -f - <<-EOF &&
	table ip lossy { chain c { type filter hook forward priority 0; numgen inc mod 10 == 0 drop; }; }
	EOF
	test_when_finished "ip netns exec $p-dut nft delete table ip lossy" &&
	rm -f s.err &&
	{ timeout 30 ip netns exec "$p-sink" "$NTUNE" sink --idle 0.5 --duration 20 --json --quiet >s.json 2>s.err & } &&
	spid=$! && test_wait_for "receiving on" s.err &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --count 10000 --rate 20000 --quiet >/dev/null &&
	wait $spid &&
	got=$(jnum packets s.json) && lost=$(jnum lost s.json) && echo "received $got, lost $lost" &&
	test "$got" -le 9000 && test "$got" -ge 8000 &&
	test $((lost * 1000 / (got + lost))) -ge 95 && test $((lost * 1000 / (got + lost))) -le 105
'
test_expect_success 'sink --values writes one pps a line that ministat reads' '
	rm -f s.err &&
	{ timeout 30 ip netns exec "$p-sink" "$NTUNE" sink --duration 3.5 --values v.txt --quiet >/dev/null 2>s.err & } &&
	spid=$! && test_wait_for "receiving on" s.err &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --duration 3 --rate 10000 --quiet >/dev/null &&
	wait $spid && test "$(wc -l <v.txt)" -ge 2 && ! grep -qv "^[0-9][0-9]*$" v.txt &&
	{ ! command -v ministat >/dev/null || ministat -n v.txt >/dev/null; }
'
test_expect_success 'a sink that sees nothing says so and exits 1' '
	test_expect_code 1 ip netns exec "$p-sink" "$NTUNE" sink --duration 1 --quiet >/dev/null 2>err &&
	grep -q "no test frames arrived on .sink0." err
'
test_expect_success NOT_SANITIZED 'sink keeps up with gen at full speed (within 1% of the DUT forwarded count)' '
	rm -f s.err &&
	{ timeout 30 ip netns exec "$p-sink" "$NTUNE" sink --idle 0.5 --duration 20 --json --quiet >s.json 2>s.err & } &&
	spid=$! && test_wait_for "receiving on" s.err && a=$(dut1_tx) &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --duration 3 --threads 2 --quiet >/dev/null &&
	wait $spid && b=$(dut1_tx) && got=$(jnum packets s.json) && fwd=$((b - a)) &&
	echo "forwarded $fwd, sink $got" &&
	test "$got" -gt 0 && test $((got * 100)) -ge $((fwd * 99))
'
test_expect_success 'gen keeps sending when RPS on dut0 fills the backlog' '
	ip netns exec "$p-dut" sh -c "echo 2 > /sys/class/net/dut0/queues/rx-0/rps_cpus; echo 2 > /sys/class/net/dut0/queues/rx-1/rps_cpus" &&
	a=$(dut1_tx) &&
	timeout 20 ip netns exec "$p-gen" "$NTUNE" gen --duration 2 --json --quiet >g.json &&
	b=$(dut1_tx) && echo "forwarded $((b - a)), gen $(jnum packets g.json), retries $(jnum retries g.json)" &&
	test $((b - a)) -gt 1000 && test "$(jnum packets g.json)" -gt 1000
'
test_expect_success 'gen --dst-mac sends where the next hop has no neighbour entry' '
	n=$(test_unique)-nn && ip netns add "$n" && test_at_exit "ip netns del $n 2>/dev/null" &&
	ip -n "$n" link add name va type veth peer name vb && ip -n "$n" addr add 198.18.5.1/24 dev va &&
	ip -n "$n" link set va up && ip -n "$n" link set vb up &&
	! ip netns exec "$n" "$NTUNE" gen --iface-any --dst 198.18.5.2 --count 100 2>err &&
	grep -q "no neighbour entry for 198.18.5.2 on .va. (give --dst-mac)" err &&
	ip netns exec "$n" "$NTUNE" gen --iface-any --dst 198.18.5.2 --dst-mac 02:00:00:00:00:01 --count 100 --quiet &&
	test "$(ip netns exec "$n" cat /sys/class/net/vb/statistics/rx_packets)" -ge 100
'
test_done
