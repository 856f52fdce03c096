#!/bin/sh
# ntune bench in a lab: interleaved A/B runs, verdict, results directory, refusals, report
# (faults, signals, iperf3 and latency: t6201).
# test-set: check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lab-bench.sh"

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
