#!/bin/sh
# ntune bench in a lab, what goes wrong: a profile the DUT refuses, a load that dies or sends
# nothing, SIGINT and SIGTERM mid-run, and the other loads and metrics (iperf3, latency). Moved
# out of t6200 (make check proves one bench; this file is make check-full only).
# 1 s iperf3 runs must each carry over 1 Mbit/s: a figure a concurrent load moves (iperf3 sent
# 11 packets in one run while five lab tests ran at once).
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-bench.sh"

test_expect_success 'a profile the DUT refuses is reported, nothing left applied' '
	printf "if.dut0.rps_cpus=2\nif.dut0.channels.rx=2\n" >refused.conf &&
	test_expect_code 1 $BENCH a.conf refused.conf --runs 2 --warmup 0 -o r12 >/dev/null 2>err && cat err &&
	grep -q "cannot apply .refused.: .*if.dut0.channels.rx" err &&
	grep -q "\"complete\": false" r12/meta.json && restored
'
test_expect_success 'a load command that dies is reported, the run kept as failed, settings restored' '
	test_expect_code 1 $BENCH a.conf b.conf --runs 2 --warmup 0 --load "sleep 0.2; echo generator exploded >&2; exit 3" -o r4 >/dev/null 2>err &&
	cat err &&
	grep -q "the load command died after .* (exit status 3): generator exploded" err &&
	grep -q "\"complete\": false" r4/meta.json && grep -q "\"stopped\": \"error\"" r4/meta.json &&
	grep -q "\"ok\":false" r4/runs.jsonl && restored
'
test_expect_success 'a run with zero packets is an error, not a result' '
	test_expect_code 1 $BENCH a.conf b.conf --runs 2 --warmup 0 --load "sleep 30" -o r5 >/dev/null 2>err &&
	cat err && grep -q "zero packets" err && restored
'
test_expect_success 'SIGINT mid-run restores the settings and keeps partial results marked incomplete' '
	{ $BENCH a.conf b.conf b.conf --runs 3 --duration 2 --warmup 0 -o r6 >/dev/null 2>err & } &&
	pid=$! && i=0 &&
	while [ $i -lt 100 ] && ! grep -q "^ntune bench: run 2/" err; do sleep 0.1; i=$((i+1)); done &&
	sleep 0.7 && kill -INT $pid && test_expect_code 130 wait $pid && cat err &&
	grep -q "interrupted by signal 2" err && grep -q "settings restored" err &&
	grep -q "\"stopped\": \"interrupted\"" r6/meta.json && grep -q "\"complete\": false" r6/meta.json &&
	test -s r6/runs.jsonl && restored
'
test_expect_success 'SIGTERM mid-run restores the settings too' '
	{ $BENCH b.conf a.conf --runs 3 --duration 2 --warmup 0 -o r7 >/dev/null 2>err & } &&
	pid=$! && i=0 &&
	while [ $i -lt 100 ] && ! grep -q "each look tests" err; do sleep 0.1; i=$((i+1)); done &&
	sleep 1 && kill -TERM $pid && test_expect_code 143 wait $pid && cat err && restored
'
test_expect_success IPERF3 'iperf3 as the load, compared in bit/s' '
	{ $BENCH a.conf b.conf --runs 2 --max-runs 2 --warmup 0 --load iperf3 --metric bps -o r8 >out 2>err || { cat err; false; }; } &&
	python3 -c "import json; rs=[json.loads(l) for l in open(\"r8/runs.jsonl\")]; assert all(r[\"ok\"] and r[\"bps\"] > 1e6 for r in rs), rs" &&
	awk "\$1 < 1e6 { exit 1 }" r8/values/a.txt r8/values/b.txt &&
	grep -q "Avg bit/s" out && grep -q "\"metric\": \"bps\"" r8/verdict.json &&
	restored
'
test_expect_success 'latency at the sink as the metric (lower is better)' '
	{ $BENCH a.conf a.conf --runs 2 --max-runs 2 --warmup 0 --metric latency --rate 20000 -o r10 >out 2>err || { cat err; false; }; } &&
	grep -q "Avg p99 us" out && grep -q "\"metric\": \"latency_p99_us\"" r10/verdict.json &&
	python3 -c "import json; rs=[json.loads(l) for l in open(\"r10/runs.jsonl\")]; assert all(r[\"latency_us\"][\"p99\"] > 0 for r in rs), rs" &&
	restored
'
test_done
