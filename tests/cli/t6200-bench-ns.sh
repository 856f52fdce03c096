#!/bin/sh
# ntune bench in a lab: interleaved A/B runs, verdict, results directory, faults, restore on signals.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_lab_up

rps() { ip netns exec "$P-dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus; }
ORIG=$(rps)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'if.dut0.rps_cpus=2\n' >"$TRASH/b.conf"
printf 'if.dut0.rps_cpus=%s\n' "$ORIG" >"$TRASH/orig.conf"
# Restored means: the knob reads as before, and no journal entry stays applied.
restored() {
	test "$(rps)" = "$ORIG" || { echo "rps_cpus is $(rps), was $ORIG"; return 1; }
	if ip netns exec "$P-dut" "$NTUNE" verify "$TRASH/orig.conf" >verify.out 2>&1; then :
	elif grep -q "not implemented" verify.out; then :
	else cat verify.out; return 1; fi
	! ntune history 2>/dev/null | grep -Eq " (applied|applying) "
}
BENCH="timeout 120 $NTUNE bench --prefix $P --duration 1 --warmup 0.5"

test_expect_success 'bench compares two profiles, prints a verdict and restores the settings' '
	$BENCH a.conf b.conf --runs 3 --max-runs 3 -o r1 >out 2>err &&
	cat out &&
	grep -Eq "(forwards .* (more|fewer) packets than a|no difference proven between b and a)" out &&
	grep -q "^stopped: \(decided\|max-runs\) after 3 runs each" out &&
	grep -q "run 1/8 .*(warm-up, discarded)" err &&
	restored
'
test_expect_success 'the results directory holds meta, profiles, runs, values and the verdict' '
	python3 -c "import json,sys; m=json.load(open(\"r1/meta.json\")); sys.exit(not (m[\"complete\"] and m[\"kind\"]==\"bench\" and m[\"stopped\"] in (\"decided\",\"max-runs\")))" &&
	cmp a.conf r1/profiles/a.conf && cmp b.conf r1/profiles/b.conf &&
	test $(wc -l <r1/runs.jsonl) = 8 &&
	test $(wc -l <r1/values/a.txt) = 3 && test $(wc -l <r1/values/b.txt) = 3 &&
	python3 -c "import json; v=json.load(open(\"r1/verdict.json\")); c=v[\"comparisons\"][0]; assert c[\"a\"]==\"a\" and c[\"b\"]==\"b\" and c[\"ratio\"]>0 and \"welch\" in c and \"mann_whitney\" in c, c"
'
test_expect_success 'every run was measured: forwarded pps per second and per-CPU load' '
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r1/runs.jsonl")]
	for r in runs:
	    assert r["ok"] and r["pps"] > 0 and r["packets"] > 0, r
	    assert len(r["per_second"]) == 1 and len(r["cpu_busy"]) >= 1, r
	assert [r["warmup"] for r in runs] == [True, True] + [False] * 6
	PY
'
test_expect_success 'runs are interleaved in blocks holding each profile once, mirrored (ABBA)' '
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r1/runs.jsonl") if not json.loads(l)["warmup"]]
	b1 = [r["label"] for r in runs if r["block"] == 1]
	b2 = [r["label"] for r in runs if r["block"] == 2]
	assert sorted(b1) == ["a", "b"] and b2 == b1[::-1], (b1, b2)
	PY
'
test_expect_success MINISTAT 'the values files are read by plain ministat' '
	ministat r1/values/a.txt r1/values/b.txt >m.out && grep -q "^x *3 " m.out
'
test_expect_success 'bench --json prints the verdict as JSON' '
	$BENCH a.conf b.conf --runs 2 --max-runs 2 --warmup 0 --json -o r2 >out.json 2>/dev/null &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"comparisons\"][0][\"n_a\"]==2 and d[\"looks\"]==1, d" &&
	restored
'
test_expect_success 'a profile with an unknown knob is refused before anything changes' '
	printf "if.dut0.rps_cpu=2\n" >bad.conf &&
	test_expect_code 2 $BENCH a.conf bad.conf -o r3 >/dev/null 2>err && cat err &&
	grep -q "bad.conf:1: unknown knob .if.dut0.rps_cpu." err && test ! -e r3 && restored
'
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
test_expect_success 'latency needs the generator'"'"'s timestamps' '
	test_expect_code 2 $NTUNE bench --prefix $P a.conf b.conf --metric latency --load iperf3 -o r11 2>err && grep -q "needs --load gen" err
'
test_expect_success 'a missing lab is named' '
	test_expect_code 2 $NTUNE bench --prefix "${P}x" a.conf b.conf -o r9 2>err && grep -q "no lab" err
'
test_expect_success 'ntune report renders a real bench' '
	ntune report r1 >/dev/null && grep -q "<svg" r1/report.html
'
test_done
