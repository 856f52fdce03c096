#!/bin/sh
# bench --metric efficiency: each run's value is its forwarded packets per CPU-second the DUT
# spent (dut_cpu in runs.jsonl: softirq of every CPU + the NAPI threads of dut0 and dut1),
# and the verdict says so.
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"
NTUNE_LAB_DIR="$TRASH/labstate"
export NTUNE_LAB_DIR

test_expect_success 'an unknown --metric is refused, efficiency among the choices' '
	test_expect_code 2 ntune bench a.conf b.conf --metric watts 2>err &&
	grep -q "metric is pps, bps, latency or efficiency, not .watts." err
'
test_expect_success '--help says what efficiency counts and what it cannot separate' '
	ntune bench --help >help &&
	grep -q "softirq time of every CPU plus the CPU time of the NAPI threads of dut0" help &&
	grep -q "holds the sink.s receive" help &&
	ntune tune --help | grep -q "packets per CPU-second the DUT spent"
'
test_expect_success ROOT,IP,NAPI_PIDS 'bench --metric efficiency: values are pps per DUT CPU-second, from softirq or from the NAPI thread' '
	ntune lab up --prefix "$P" 2>/dev/null &&
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1" &&
	printf "# as it is\n" >a.conf &&
	printf "if.dut0.offload.gro=on\nif.dut0.napi_threaded=1\n" >b.conf &&
	timeout 120 "$NTUNE" bench --prefix "$P" --metric efficiency --duration 1 --warmup 0 \
		--runs 2 --max-runs 2 -o r a.conf b.conf >out 2>err &&
	grep -q "Avg pkt/CPU-s" out &&
	grep -q "DUT CPU [0-9.]* (softirq [0-9.]* + NAPI threads [0-9.]*)" err &&
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r/runs.jsonl") if l.strip()]
	v = json.load(open("r/verdict.json"))
	assert v["comparisons"][0]["metric"] == "efficiency", v["comparisons"][0]
	for label in ("a", "b"):
	    mine = [r for r in runs if r["label"] == label and not r["warmup"]]
	    got = [float(x) for x in open("r/values/%s.txt" % label)]
	    assert len(got) == 2 and len(mine) == 2, (got, mine)
	    for g, r in zip(got, mine):
	        assert r["dut_cpu_from"] == "softirq+napi", r
	        assert abs(r["dut_cpu"] - r["dut_cpu_softirq"] - r["dut_cpu_napi"]) < 1e-9, r
	        w = r["pps"] / r["dut_cpu"]
	        assert abs(g - w) <= 1e-6 * w + 1e-3, (label, got, w)
	        assert g > 0 and r["all_cpu"] > 0, r
	        if label == "a":
	            # softirq NAPI: the DUT works in softirq, no thread of its own
	            assert r["dut_napi_threads"] == 0 and r["dut_cpu_napi"] == 0, r
	            assert r["dut_cpu_softirq"] > 0, r
	        else:
	            # threaded NAPI on dut0: its thread is found and its time counted
	            assert r["dut_napi_threads"] >= 1 and r["dut_cpu_napi"] > 0, r
	PY
'
test_done
