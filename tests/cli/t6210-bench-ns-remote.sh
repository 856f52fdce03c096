#!/bin/sh
# ntune bench --dut ssh://...: a DUT, a generator and a sink that are separate "hosts" (network
# namespaces, each with its own real OpenSSH server, keys made here), the controller in a fourth
# namespace reaching them only over ssh (scripts/ssh-rig.sh). The DUT has ntune installed and is
# reached agentless all the same: its ntune is named, never run (issue 35).
# test-set: check
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-bench.sh"

# The rig's hosts see the tree under test wherever it is (a clone under /root included: issue 26),
# and each keeps a home of its own: bash reads that home's .bashrc, not this machine's /root/.bashrc.
test_expect_success 'each rig host has a private home and sees the ntune under test' '
	for h in dut gen sink; do
		echo "RIG_HOME_OF=$h" >"$RIG/$h/home/.bashrc" &&
		ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes $h "echo \$HOME \$RIG_HOME_OF; ntune --version" >out &&
		cat out && test "$(head -1 out)" = "$RIG/$h/home $h" && grep -q "^ntune [0-9]" out &&
		ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes $h "test -x \"$NTUNE\" && test -d \"$SRCDIR/share\"" || exit 1
	done
'
test_expect_success 'bench --dut compares two profiles on the DUT over ssh and restores its settings' '
	ctl $BENCH a.conf b.conf --runs 3 --max-runs 3 -o r1 >out 2>err &&
	cat out &&
	grep -Eq "(forwards .* (more|fewer) packets than a|no difference proven between b and a)" out &&
	grep -q "^stopped: \(decided\|max-runs\) after 3 runs each" out &&
	grep -q "DUT ssh://dut: Linux .*; ntune [0-9.]* there, not used: agentless; boot [0-9a-f-]*" err &&
	restored
'
test_expect_success 'each run holds the sink'\''s count, the generator'\''s, and the DUT'\''s idle counters' '
	python3 - "$RIG" <<-\PY
	import json, sys
	boot = open(sys.argv[1] + "/dut/boot_id").read().strip()
	runs = [json.loads(l) for l in open("r1/runs.jsonl")]
	assert len(runs) == 8, len(runs)
	for r in runs:
	    assert r["ok"] and r["pps"] > 0 and r["packets"] > 0, r
	    # loss is what the generator sent minus what the sink counted
	    assert r["sent"] == r["gen"]["packets"] and r["drops"] == r["sent"] - r["packets"], r
	    assert r["dut"]["boot_id"] == boot, r
	    # the DUT forwarded what reached the sink (nothing else crosses dut1)
	    assert r["dut"]["out_packets"] >= r["packets"] and r["dut"]["in_packets"] >= r["packets"], r
	    assert len(r["cpu_busy"]) >= 1
	    # the DUT is a host of its own: its CPU time (efficiency) is all its CPUs busy
	    assert r["dut_cpu_from"] == "dut-host", r
	    assert abs(r["dut_cpu"] - sum(r["cpu_busy"]) / 100) < 1e-9 and r["dut_cpu"] == r["all_cpu"], r
	PY
'
test_expect_success 'the results name every host: uname, ntune version, boot id; snapshots around each run' '
	python3 - "$RIG" <<-\PY
	import json, os, sys
	h = json.load(open("r1/hosts.json"))
	for role in ("dut", "gen", "sink"):
	    assert h[role]["url"] == "ssh://" + role and h[role]["os"] == "Linux", h[role]
	    assert h[role]["ntune_version"].startswith("ntune "), h[role]
	    assert h[role]["boot_id"] == open(sys.argv[1] + "/" + role + "/boot_id").read().strip()
	assert h["boots"][0]["why"] == "found" and h["path"]["dut_in"] == "dut0"
	for n in range(1, 9):
	    for when in ("before", "after"):
	        s = json.load(open("r1/dut/run-%d-%s.json" % (n, when)))
	        assert s["schema"] == "ntune-inspect", s.keys()
	PY
'
test_expect_success 'the DUT applied each profile agentless with a dead-man job and reverted it after the run' '
	ls "$DUT_J" | grep -E "^[0-9]{8}T[0-9]{6}Z-" >entries && cat entries &&
	test $(wc -l <entries) = 4 &&
	for e in $(cat entries); do
		test "$(cat "$DUT_J/$e/state")" = reverted && test "$(cat "$DUT_J/$e/reverted")" = user &&
		test -s "$DUT_J/$e/deadline" && test -s "$DUT_J/$e/wait" || { grep . "$DUT_J/$e"/*; exit 1; }
	done &&
	dut_clean
'
test_expect_success '--load iperf3 over --dut compares bit/s; pps and latency are refused' '
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut ssh://dut --load iperf3 2>e12 &&
	grep -q "with --dut and --load iperf3 the metric is bps" e12 &&
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut ssh://dut --metric latency --rate 1000 2>e13 &&
	grep -q "latency needs gen and sink on one clock" e13
'
test_expect_success '--plan prints the runs and the DUT time and contacts nobody' '
	$NTUNE bench a.conf b.conf --dut ssh://nowhere.invalid --plan --runs 3 --max-runs 6 --duration 10 >plan &&
	cat plan &&
	grep -q "^plan: 2 profiles on ssh://nowhere.invalid; generator local, sink local" plan &&
	grep -q "measured runs: 6 to 12" plan &&
	grep -q "reboots: 0" plan &&
	grep -q "DUT time: at most 14 runs" plan &&
	grep -q "^nothing was started" plan
'
# Shell injection: host names, interface names, the ntune path and load arguments never reach a
# shell unquoted; each is refused or arrives as one literal word.
test_expect_success 'a host, an interface or an address with shell text is refused before any connection' '
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut "ssh://root@dut;touch $TRASH/pwned" 2>e1 &&
	grep -q "invalid host" e1 &&
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut "ssh://\$(touch $TRASH/pwned)" 2>e2 &&
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut ssh://dut --dut-in "dut0;touch$TRASH/pwned" 2>e3 &&
	grep -q "invalid interface name" e3 &&
	test_expect_code 2 $NTUNE bench a.conf b.conf --dut ssh://dut --dst "198.19.0.2
touch $TRASH/pwned" 2>e4 &&
	grep -q "invalid --dst" e4 &&
	test ! -e pwned
'
test_expect_success 'a profile value with shell text is refused by the knowledge base, nothing applied' '
	printf "if.dut0.rps_cpus=2;touch %s/pwned\n" "$TRASH" >bad.conf &&
	printf "if.dut0.rps_cpus=\$(touch %s/pwned)\n" "$TRASH" >bad2.conf &&
	test_expect_code 2 ctl $BENCH a.conf bad.conf -o r2 2>e5 &&
	grep -q "bad.conf:1: if.dut0.rps_cpus" e5 &&
	test_expect_code 2 ctl $BENCH a.conf bad2.conf -o r3 2>e6 &&
	grep -q "bad2.conf:1: if.dut0.rps_cpus" e6 &&
	test ! -e pwned && test ! -e r2 && restored
'
test_done
