#!/bin/sh
# ntune tune in a lab: candidates benched against the best so far, kept only when proven better.
. "$(dirname "$0")/lib.sh"

test_lab_up

knobs() { ip netns exec "$P-dut" sh -c 'cat /sys/class/net/dut0/queues/rx-0/rps_cpus /sys/class/net/dut1/queues/rx-0/rps_cpus; tc qdisc show dev dut1 | head -1'; }
knobs >"$TRASH/before"
restored() {
	knobs >now && diff -u "$TRASH/before" now &&
	! ntune history 2>/dev/null | grep -Eq " (applied|applying) "
}
# ASan runs are several times slower: a longer budget still reaches the first step.
BUDGET=0.5; [ "${NTUNE_SANITIZE:-none}" = none ] || BUDGET=1
TUNE="timeout 300 $NTUNE tune --lab --prefix $P --duration 0.5 --runs 2 --max-runs 3 --warmup 0"

test_expect_success 'tune tries candidates within its budget and restores the settings' '
	{
		$TUNE --budget $BUDGET -o t1 >out 2>err && cat out &&
		grep -q "candidate changes for $P-dut" err &&
		grep -q "note: net.core.netdev_budget left out: .*host-global" err &&
		grep -q "^ntune tune: step 1/" err &&
		grep -q "^best profile: t1/best.conf" out &&
		restored ||
		{ echo "stderr:"; tail -8 err; ntune history; false; }
	}
'
test_expect_success 'summary.json holds the path; no kept change is worse or unproven' '
	python3 - <<-\PY
	import json
	s = json.load(open("t1/summary.json"))
	assert s["steps"], s
	assert s["kept"] == sum(1 for x in s["steps"] if x["kept"])
	# A gain is only reported as re-measured in a fresh lab (not the tuned one).
	assert "final_lab" in s, s
	if s["kept"] == 0:
	    assert s["final_lab"] is None, s
	if s["final_lab"]:
	    assert s["final_lab"] != "'"$P"'" and s["final_lab"].startswith("'"$P"'"[:20]), s
	for x in s["steps"]:
	    assert "change" in x and "verdict" in x and "kept" in x, x
	    if x["kept"]:
	        assert x["stopped"] == "decided" and x["pct"] > 0, x
	m = json.load(open("t1/meta.json"))
	assert m["kind"] == "tune" and m["complete"] and m["stopped"] in ("done", "budget"), m
	PY
'
test_expect_success 'best.conf passes ntune check and applies in the DUT' '
	grep -q "^# ntune tune: the changes proven better" t1/best.conf &&
	ip netns exec "$P-dut" "$NTUNE" check t1/best.conf &&
	if grep -q "^[a-z]" t1/best.conf; then
		ntune apply t1/best.conf --netns "$P-dut" --no-persist >apply.out 2>&1 &&
		ntune revert >/dev/null 2>&1 && restored
	fi
'
test_expect_success 'the report shows the tuner path' '
	ntune report t1 >/dev/null && grep -q "The tuner.s path" t1/report.html &&
	grep -q "if.dut0.napi_thread_cpus=" t1/report.html
'
test_expect_success 'SIGINT during a tune restores the settings, results marked incomplete' '
	{ $TUNE --budget 2 -o t2 >/dev/null 2>err & } &&
	pid=$! && i=0 &&
	while [ $i -lt 150 ] && ! grep -q "ntune tune: run 2/" err; do sleep 0.1; i=$((i+1)); done &&
	sleep 0.3 && kill -INT $pid && test_expect_code 130 wait $pid && tail -5 err &&
	grep -q "\"stopped\": \"interrupted\"" t2/meta.json && test -f t2/summary.json && restored
'
test_expect_success 'an unknown --goal is refused' '
	test_expect_code 2 ntune tune --goal jitter 2>err && grep -q "goal is pps, throughput, latency or efficiency, not .jitter." err
'
test_done
