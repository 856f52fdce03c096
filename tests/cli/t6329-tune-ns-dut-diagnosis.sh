#!/bin/sh
# tune --dut ssh://... orders its candidates by a diagnosis of the DUT under the tune's own load,
# as the lab tune does: the capture script's two samples are read on the DUT (agentless: nothing
# but sh there) while the generator sends through it, the diagnosis is kept in DIR/diagnosis.json
# (the lab's ntune-diagnosis document, which `ntune report` shows) and the output says what
# ordered the candidates. A DUT that cannot be diagnosed is a note, not a failed tune. `ntune
# doctor -o DIR`'s doctor.json is a --diagnosis FILE too. With and without ntune on the DUT, reached
# agentless either way (issue 35); the DUT ends as it started.
# test-set: full
. "$(dirname "$0")/lib.sh"

test_expect_success '--diagnosis: a doctor.json that is not one is refused naming the file, before any connection' '
	echo "{\"schema\": \"ntune-doctor\", \"version\": 1}" >bad.json &&
	test_expect_code 2 ntune tune --dut ssh://nowhere.invalid --diagnosis bad.json 2>e1 &&
	grep -q "^ntune tune: bad.json: key .*missing" e1 &&
	printf "{\n\"schema\":" >cut.json &&
	test_expect_code 2 ntune tune --dut ssh://nowhere.invalid --diagnosis cut.json 2>e2 &&
	grep -q "^ntune tune: cut.json:2: " e2
'

# The rest needs the ssh rig (root, ip, sshd): without it, it is skipped.
. "$(dirname "$0")/rig.sh"
. "$(dirname "$0")/rig-tune.sh"
TUNE="timeout 400 $NTUNE tune $HOSTS --cand $TRASH/remote.cand --duration 0.5 --warmup 0 --runs 2 --max-runs 2 --pairs 0 --budget 1"
# DIR/diagnosis.json: the lab's document (ntune-diagnosis 1, read by its own table: `ntune
# report`), two samples of the DUT's counters with the load's packets on both of its ports.
diagnosed() {
	python3 - "$1" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1] + "/diagnosis.json"))
	assert d["schema"] == "ntune-diagnosis" and d["version"] == 1, d.get("schema")
	assert d["interval_s"] >= 1, d["interval_s"]
	m = d["metrics"]
	assert m["if.dut0.rx_pps"] > 1000 and m["if.dut1.tx_pps"] > 1000, m
	s = json.load(open(sys.argv[1] + "/summary.json"))
	assert s["diagnosis"]["file"] == "diagnosis.json", s["diagnosis"]
	assert [f["summary"] for f in s["diagnosis"]["findings"]] == [f["summary"] for f in d["findings"]]
	PY
}
# What the tune said of its order, on standard output and in its log.
order_said() {
	{ grep -q "^order: the knobs of [0-9]* findings* of the DUT.s diagnosis under the load, diagnosis.json first (" "$1" ||
	  grep -q "^order: the candidate list.s (no finding in the DUT.s diagnosis under the load, diagnosis.json)$" "$1"; } &&
	grep -q "^ntune tune: baseline (the settings in force, diagnosed): the load through dut0 -> dut1, .* then the DUT.s counters sampled 1 s apart$" "$2" &&
	grep -Eq "^ntune tune: order: (the knobs named by the [0-9]+ findings? of|no finding in) the baseline.s diagnosis \(diagnosis.json\)" "$2"
}

test_expect_success 'tune --dut, ntune on the DUT (unused): diagnosed under the load first, ordered by it, restored' '
	{ ctl $TUNE -o t1 >out 2>err || { echo "tune exit $?"; tail -30 err; false; }; } &&
	cat out && grep "baseline\|order\|finding" err &&
	order_said out err && diagnosed t1 && restored &&
	python3 - <<-\PY &&
	import json
	d = json.load(open("t1/diagnosis.json"))
	s = json.load(open("t1/summary.json"))
	cands = ("net.core.somaxconn", "net.ipv4.tcp_notsent_lowat")
	named = [f["kind"] for f in d["findings"] if any(k["name"] in cands for k in f["knobs"])]
	first = s["steps"][0]
	# a finding that names the knob of a candidate puts it first; else the order of the list (RPS,
	# which the diagnosis of the rig DUT may name, is no candidate: agentless mode does not set /sys)
	if named:
	    assert first["order"].startswith("the diagnosis found " + named[0]), first["order"]
	else:
	    assert first["change"].startswith("net.core.somaxconn="), first
	    assert first["order"].startswith("the candidate list"), first["order"]
	print("findings:", [f["kind"] for f in d["findings"]], "step 1:", first["change"])
	PY
	ntune report t1 >/dev/null &&
	grep -q "<h2>Diagnosis of the baseline under load</h2>" t1/report.html
'
test_expect_success 'a doctor.json orders tune --plan: doctor, then tune with its diagnosis' '
	{ ctl timeout 120 $NTUNE doctor ssh://dut --ssh-config "$RIG/ssh_config" --duration 1 -o doc >/dev/null 2>derr; test $? -le 1; } &&
	ctl $NTUNE tune $HOSTS --cand "$TRASH/remote.cand" --diagnosis doc/doctor.json --plan >plan 2>perr &&
	cat plan &&
	grep -Eq "^  order: the knobs of the [0-9]+ findings? of doc/doctor.json first$" plan &&
	ctl $NTUNE tune $HOSTS --cand "$TRASH/remote.cand" --diagnosis doc/doctor.json --plan --json >plan.json &&
	python3 - <<-\PY
	import json
	p = json.load(open("plan.json"))
	assert all(s["order"] for s in p["steps"]), p["steps"]
	PY
'
test_expect_success 'a DUT whose capture cannot be read (its sysctl broken): the tune goes on in the list order, saying why' '
	printf "#!/bin/sh\necho \"sysctl: broken\" >&2; exit 3\n" >"$RIG/dut/bin/sysctl" && chmod +x "$RIG/dut/bin/sysctl" &&
	{ ctl $TUNE -o t2 >out2 2>err2; rc=$?; rm -f "$RIG/dut/bin/sysctl"; test $rc = 0; } &&
	cat out2 && grep "order\|baseline" err2 &&
	grep -q "^order: no diagnosis of the DUT (.*): the candidate list.s order$" out2 &&
	test ! -e t2/diagnosis.json && restored
'
# The last case: it takes ntune off the DUT for good (only the generator and the sink keep it).
test_expect_success 'tune --dut, no ntune on the DUT (agentless): diagnosed the same, restored' '
	cp -P "$RIG/bin/ntune" "$RIG/gen/bin/" && cp -P "$RIG/bin/ntune" "$RIG/sink/bin/" && rm -f "$RIG/bin/ntune" &&
	! ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut command -v ntune &&
	printf "name: net.core.somaxconn\nkind: set\narg:  2048\nwhy:  a longer listen queue\n" >"$TRASH/sc.cand" &&
	somax=$(ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn) &&
	{ ctl timeout 400 $NTUNE tune $HOSTS --cand "$TRASH/sc.cand" --duration 0.5 \
		--warmup 0 --runs 2 --max-runs 2 --pairs 0 --budget 1 -o t3 >out3 2>err3 ||
		{ echo "tune exit $?"; tail -30 err3; false; }; } &&
	cat out3 && grep "baseline\|order\|finding" err3 &&
	grep -q "no ntune there: agentless" err3 &&
	order_said out3 err3 && diagnosed t3 &&
	test "$(ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn)" = "$somax" && restored &&
	! grep -lx applied "$RIG"/dut/root/var/lib/ntune-agentless/*/state 2>/dev/null | grep -q .
'
test_done
