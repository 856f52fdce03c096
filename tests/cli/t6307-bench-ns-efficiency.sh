#!/bin/sh
# bench --metric efficiency: each run's value is its forwarded packets per busy CPU-second
# (pps over the sum of the per-CPU busy fractions it recorded), and the verdict says so.
. "$(dirname "$0")/lib.sh"

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"
NTUNE_LAB_DIR="$TRASH/labstate"
export NTUNE_LAB_DIR

test_expect_success 'an unknown --metric is refused, efficiency among the choices' '
	test_expect_code 2 ntune bench a.conf b.conf --metric watts 2>err &&
	grep -q "metric is pps, bps, latency or efficiency, not .watts." err
'
test_expect_success ROOT,IP 'bench --metric efficiency: values are pps per busy CPU-second' '
	ntune lab up --prefix "$P" 2>/dev/null &&
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1" &&
	printf "# as it is\n" >a.conf && printf "# as it is too\n" >b.conf &&
	timeout 120 "$NTUNE" bench --prefix "$P" --metric efficiency --duration 1 --warmup 0 \
		--runs 2 --max-runs 2 -o r a.conf b.conf >out 2>err &&
	grep -q "Avg pkt/CPU-s" out &&
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r/runs.jsonl") if l.strip()]
	v = json.load(open("r/verdict.json"))
	assert v["comparisons"][0]["metric"] == "efficiency", v["comparisons"][0]
	for label in ("a", "b"):
	    want = [r["pps"] / (sum(r["cpu_busy"]) / 100) for r in runs
	            if r["label"] == label and not r["warmup"]]
	    got = [float(x) for x in open("r/values/%s.txt" % label)]
	    assert len(got) == 2 and len(want) == 2, (got, want)
	    for g, w in zip(got, want):
	        assert abs(g - w) <= 1e-6 * w + 1e-3, (label, got, want)
	        assert g > 0, got
	PY
'
test_done
