#!/bin/sh
# ntune tune --dut ssh://...: the tuner against a DUT that is another "host" (the ssh rig of
# scripts/ssh-rig.sh: namespaces with real sshd, the controller reaching them only over ssh).
# The candidates' knobs are read on the DUT, each step applied there with read-back, measured
# by the remote runner, and the best re-measured on the DUT against its start. The DUT is reached
# agentless although ntune is installed there (issue 35): a knob only ntune could set is left out.
. "$(dirname "$0")/lib.sh"

test_expect_success 'tune --dut refuses what it does not do, before any connection' '
	test_expect_code 2 ntune tune --dut ssh://nowhere.invalid --keep 2>e1 &&
	grep -q "keep is for a lab" e1 &&
	test_expect_code 2 ntune tune --dut ssh://nowhere.invalid --reboot 2>e2 &&
	grep -q "reboot is bench.s: tune --dut reboots the DUT only for the steps that change a boot-time knob" e2 &&
	test_expect_code 2 ntune tune --dut "ssh://dut;touch $TRASH/pwned" 2>e3 &&
	grep -q "invalid host" e3 && test ! -e pwned &&
	test_expect_code 2 ntune tune --gen ssh://gen 2>e4 &&
	grep -q "go with --dut" e4
'

# The rest needs the ssh rig (root, ip, sshd): without it, it is skipped.
. "$(dirname "$0")/rig.sh"
. "$(dirname "$0")/rig-tune.sh"
cat >>"$TRASH/remote.cand" <<-\EOF2

	name: if.dut0.no_such_setting
	kind: flip
	why:  a knob the DUT does not have
EOF2
TUNE="timeout 400 $NTUNE tune $HOSTS --cand $TRASH/remote.cand --duration 0.5 --warmup 0 --runs 2 --max-runs 3 --pairs 0"

test_expect_success 'tune --dut tries the candidates on the DUT over ssh and restores its settings' '
	{
		ip netns exec "$N-ctl" $TUNE --budget 2 -o t1 >out 2>err &&
		grep -q "^ntune tune: DUT ssh://dut: Linux" err &&
		grep -q "candidate changes for ssh://dut" err &&
		grep -q "^ntune tune: DUT ssh://dut: Linux .*; ntune [0-9.]* there, not used: agentless; boot " err &&
		grep -q "note: if.dut0.no_such_setting left out: " err &&
		grep -q "note: if.dut0.rps_cpus left out: if.dut0.rps_cpus is not available in the DUT (its placement is sysfs; the DUT is reached agentless: sysctl knobs and loader tunables only)" err &&
		grep -q "^ntune tune: step [12]/[0-9]*: net.core.somaxconn=$(($(head -n 1 "$TRASH/before") * 4)) (now $(head -n 1 "$TRASH/before"))" err &&
		grep -q "why now: the candidate list.s order (line 1)" err &&
		restored ||
		{ tail -25 err; false; }
	}
'
test_expect_success 'the results hold the hosts and every step; a gain is only one re-measured on the DUT' '
	python3 - <<-\PY
	import json
	h = json.load(open("t1/hosts.json"))
	assert h["dut"]["url"] == "ssh://dut" and h["dut"]["os"] == "Linux", h["dut"]
	s = json.load(open("t1/summary.json"))
	assert s["steps"] and any(t["change"].startswith("net.core.somaxconn=") for t in s["steps"]), s["steps"]
	# the baseline diagnosed under the load (t6329 asserts the order it gives)
	assert s["diagnosis"].get("file") == "diagnosis.json", s["diagnosis"]
	runs = [json.loads(l) for l in open("t1/runs.jsonl")]
	# every run was measured through the DUT by the remote runner (its counters idle around it)
	assert runs and all("dut" in r and r["ok"] for r in runs), runs[:1]
	if s["kept"]:
	    assert s["final_lab"] is None and s["verdict"], s
	    assert any(r["label"] == "best" for r in runs) and any(r["label"] == "start" for r in runs)
	m = json.load(open("t1/meta.json"))
	assert m["kind"] == "tune" and m["complete"] and m["stopped"] in ("done", "budget"), m
	PY
'
test_done
