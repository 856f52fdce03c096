#!/bin/sh
# ntune tune: a candidate added from data alone (--cand FILE) is tried; the
# diagnosis (the baseline's, or --diagnosis FILE) puts the knobs it names first,
# and the log and summary.json say why each step came where it did.
. "$(dirname "$0")/lib.sh"

cat >"$TRASH/two.cand" <<-\EOF2
	name: if.dut0.napi_threaded
	kind: flip
	why:  poll dut0 in a kernel thread (the test's own list)

	name: if.dut1.txqueuelen
	kind: times
	arg:  4
	why:  a longer transmit queue on dut1 (a candidate only this file has)
EOF2
cat >"$TRASH/diag.json" <<-\EOF2
	{"schema": "ntune-diagnosis", "version": 1, "os": "linux", "netns": "", "findings": [
	 {"kind": "qdisc-drops", "entity": "dut1", "certainty": "likely",
	  "summary": "the egress qdisc of dut1 drops 900 packets/s",
	  "knobs": [{"name": "if.dut1.qdisc"}, {"name": "if.dut1.txqueuelen"}]}]}
EOF2

test_expect_success 'a bad candidate file is refused with its file and line before anything starts' '
	printf "name: if.dut0.napi_threaded\nkind: sometimes\nwhy: w\n" >bad.cand &&
	test_expect_code 2 ntune tune --cand bad.cand --prefix nosuchlab 2>err &&
	grep -q "bad.cand:1: unknown kind .sometimes." err &&
	test_expect_code 2 ntune tune --cand missing.cand --prefix nosuchlab 2>err &&
	grep -q "missing.cand" err
'
test_expect_success 'a file that is not a diagnosis is refused' '
	echo "{\"findings\": []}" >bad.json &&
	test_expect_code 2 ntune tune --diagnosis bad.json --prefix nosuchlab 2>err &&
	grep -q "bad.json: not an ntune diagnosis" err
'

P=$(test_unique)
export NTUNE_STATE_DIR="$TRASH/state"
TUNE="timeout 200 $NTUNE tune --lab --prefix $P --cand two.cand --duration 0.5 --runs 2 --max-runs 2 --warmup 0 --pairs 0 --no-fresh-final --budget 0.25"
qlen() { ip netns exec "$P-dut" cat /sys/class/net/dut1/tx_queue_len; }

test_expect_success ROOT,IP 'lab up' '
	ntune lab up --prefix "$P" >/dev/null 2>&1 &&
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1" && qlen >qlen.before
'
test_expect_success ROOT,IP 'the knob a diagnosis names goes first, tried from the data file alone' '
	{
		$TUNE --diagnosis diag.json -o t1 >out 2>err &&
		grep -q "^ntune tune: 2 candidate changes for $P-dut" err &&
		grep -q "^ntune tune: order: the knobs named by the 1 finding of diag.json first" err &&
		grep -q "^ntune tune: step 1/2: if.dut1.txqueuelen=4000 (now 1000)" err &&
		grep -q "why now: the diagnosis found qdisc-drops on dut1 (likely) and names if.dut1.txqueuelen" err &&
		qlen >now && diff -u qlen.before now ||
		{ tail -20 err; false; }
	}
'
test_expect_success ROOT,IP 'summary.json says why each step came where it did' '
	python3 - <<-\PY
	import json
	s = json.load(open("t1/summary.json"))
	assert s["order"] == "diagnosis", s["order"]
	assert s["diagnosis"]["file"] == "diag.json", s["diagnosis"]
	assert s["diagnosis"]["findings"][0]["kind"] == "qdisc-drops", s["diagnosis"]
	st = s["steps"][0]
	assert st["change"] == "if.dut1.txqueuelen=4000", st
	assert st["finding"] == "qdisc-drops" and "names if.dut1.txqueuelen" in st["order"], st
	assert st["max_runs"] == 2, st
	for x in s["steps"][1:]:
	    assert x["finding"] is None and "order (line 1)" in x["order"], x
	PY
'
test_expect_success ROOT,IP 'without --diagnosis the baseline is diagnosed into diagnosis.json' '
	{
		$TUNE -o t2 >out 2>err &&
		grep -q "^ntune tune: baseline 1/2 (the settings in force, diagnosed)" err &&
		test -s t2/diagnosis.json &&
		grep -q "\"schema\": \"ntune-diagnosis\"" t2/diagnosis.json &&
		python3 -c "import json; s = json.load(open(\"t2/summary.json\")); assert s[\"diagnosis\"][\"file\"] == \"diagnosis.json\", s" ||
		{ tail -20 err; false; }
	}
'
test_done
