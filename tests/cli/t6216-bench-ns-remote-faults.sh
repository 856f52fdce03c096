#!/bin/sh
# ntune bench --dut over the ssh rig (scripts/ssh-rig.sh), beyond the one bench of t6210: iperf3 as
# the load, load arguments and the ntune path as literal words, an unknown host key, Ctrl-C in a
# trial. Moved out of t6210 (make check proves one remote bench; this file is make check-full only).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-bench.sh"

test_expect_success IPERF3 'bench --dut --load iperf3: bit/s from what the iperf3 server on the sink host received' '
	ctl $BENCH a.conf b.conf --load iperf3 --metric bps --runs 2 --max-runs 2 --warmup 0 -o r9 >out9 2>err9 &&
	grep -q "^stopped: \(decided\|max-runs\) after 2 runs each" out9 &&
	python3 - <<-\PY &&
	import json
	runs = [json.loads(l) for l in open("r9/runs.jsonl")]
	assert len(runs) == 4, runs
	for r in runs:
	    # bit/s are the bytes the server received over its own intervals (its clock)
	    assert r["ok"] and r["bytes"] > 0 and r["duration_s"] > 0.5, r
	    assert abs(r["bps"] - r["bytes"] * 8 / r["duration_s"]) < 1e-6 * r["bps"], r
	    assert r["dut"]["out_packets"] > 0 and r["dut"]["in_packets"] > 0, r
	vals = [float(l) for l in open("r9/values/a.txt")]
	assert len(vals) == 2 and all(v > 0 for v in vals), vals
	PY
	restored
'
test_expect_success 'the ntune path and load arguments arrive as literal words on the hosts' '
	test_expect_code 2 ctl $BENCH a.conf b.conf --ntune "ntune;touch $TRASH/pwned" -o r4 2>e7 &&
	# The DUT is run agentless whatever --ntune says (issue 35); the generator needs ntune gen.
	grep -q "no .ntune;touch .*pwned. on ssh://gen" e7 &&
	test_expect_code 1 ctl $BENCH a.conf b.conf --runs 2 --max-runs 2 --warmup 0 \
		--gen-args "--size \$(touch\${IFS}$TRASH/pwned)" -o r5 2>e8 &&
	grep -q "ntune gen on ssh://gen failed: .*invalid --size .\$(touch" e8 &&
	test ! -e pwned && restored
'
test_expect_success 'an unknown DUT host key is refused; --ssh-accept-new takes it' '
	sed "s|$RIG/known_hosts|$TRASH/kh|" "$RIG/ssh_config" >cfg &&
	grep -v "^198.19.254.2 " "$RIG/known_hosts" >kh &&
	test_expect_code 2 ctl $NTUNE bench a.conf b.conf --dut ssh://dut --gen ssh://gen --sink ssh://sink \
		--ssh-config "$TRASH/cfg" -o r6 2>e9 &&
	grep -q "Host key verification failed" e9 && test ! -e r6 &&
	ctl timeout 120 $NTUNE bench a.conf b.conf --dut ssh://dut --gen ssh://gen --sink ssh://sink \
		--ssh-config "$TRASH/cfg" --ssh-accept-new --duration 0.5 --warmup 0 --runs 2 --max-runs 2 -o r7 >/dev/null 2>e10 &&
	grep -q "^198.19.254.2 " kh && restored
'
test_expect_success 'Ctrl-C during a trial: the DUT settings are restored, the partial results kept' '
	{ ip netns exec "$N-ctl" $NTUNE bench a.conf b.conf $HOSTS --duration 20 --warmup 0 --runs 2 --max-runs 2 -o r8 >/dev/null 2>e11 & } &&
	pid=$! && i=0 &&
	while [ $i -lt 300 ] && ! gen_running; do sleep 0.1; i=$((i + 1)); done &&
	gen_running &&
	kill -INT $pid && test_expect_code 130 wait $pid &&
	grep -q "settings restored; partial results kept in r8" e11 &&
	python3 -c "import json; m=json.load(open(\"r8/meta.json\")); assert m[\"complete\"] is False and m[\"stopped\"] == \"interrupted\", m" &&
	restored &&
	sleep 1 && ! gen_running
'
test_done
