#!/bin/sh
# ntune doctor ssh://dut --gen ssh://gen --sink ssh://sink (issue 28 item 2: "under a load from
# --gen/--sink hosts when given"): on the ssh rig, ntune sink and ntune gen run on their own hosts
# (bench --dut's load, its options), and the capture script's two samples are taken on the DUT
# while that load goes through it; doctor says what ran (offered, achieved, lost) and the DUT's own
# counters over the samples show the load's packets on dut0 and dut1. The generator is stopped once
# the samples are taken, the DUT is only read, a load that cannot run is exit 2 with nothing written.
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-bench.sh"

D="--ssh-config $RIG/ssh_config --duration 2"
LOAD="--gen ssh://gen --sink ssh://sink --rate 20000"
# The DUT's network settings (net.* is the namespace's own; counters and gauges left out).
dut_settings() { ip netns exec "$N-dut" sysctl -a 2>/dev/null | grep "^net\." | grep -v "count\|_max_size\|stat\|hash" | LC_ALL=C sort; }
# doctor's two exit statuses of a list: 0 nothing to fix, 1 findings (the rig's host decides which).
doctor_list() { "$@"; rc=$?; test $rc = 0 || test $rc = 1; }
dut_settings >"$TRASH/settings.before"
pktgen_running() {
	for p in $(ip netns pids "$N-gen"); do tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline"; echo; done |
		grep -q "pkt-gen"
}

test_expect_success 'without a load: the DUT idle over the samples, no load in the JSON' '
	doctor_list ctl $NTUNE doctor ssh://dut $D --json >idle.json 2>idle.err &&
	python3 - <<-\PY
	import json
	d = json.load(open("idle.json"))
	assert "load" not in d, d.keys()
	m = d["diagnosis"]["metrics"]
	assert m.get("if.dut0.rx_pps", 0) < 100, m.get("if.dut0.rx_pps")
	PY
'
test_expect_success 'doctor with --gen/--sink: the load ran during the samples, its figures and the DUT'"'"'s' '
	doctor_list ctl $NTUNE doctor ssh://dut $D $LOAD -o out >list 2>err &&
	cat list err &&
	grep -Eq "^ntune doctor: .*; samples [0-9]+\.[0-9]{2} s apart \(by the CPU tick counters\)$" list &&
	grep -q "^load: ntune gen from ssh://gen through dut0 -> dut1 to ssh://sink, 64-byte frames, 20000 pps asked$" list &&
	grep -Eq "^      offered [0-9]+ pps, achieved [0-9]+ pps, lost [0-9]+ of [0-9]+ \([0-9.]+%\)$" list &&
	grep -Eq "^      the router over the samples: dut0 in [0-9]+ pps, dut1 out [0-9]+ pps$" list &&
	grep -q "DUT ssh://dut: Linux" err &&
	python3 - <<-\PY
	import json
	d = json.load(open("out/doctor.json"))
	l = d["load"]
	assert l["kind"] == "gen" and l["generator"] == "ssh://gen" and l["sink"] == "ssh://sink", l
	assert l["dut_in"] == "dut0" and l["dut_out"] == "dut1" and l["rate_asked_pps"] == 20000, l
	assert l["size"] == 64 and l["sent"] > 20000 * 2 and 0 < l["received"] <= l["sent"], l
	assert 16000 < l["offered_pps"] < 22000 and 0.8 * l["offered_pps"] < l["achieved_pps"], l
	# the DUT own counters over the two samples carry the load on both of its ports
	m = d["diagnosis"]["metrics"]
	assert 14000 < m["if.dut0.rx_pps"] < 24000 and 14000 < m["if.dut1.tx_pps"] < 24000, m
	assert l["dut_in_pps"] == m["if.dut0.rx_pps"] and l["dut_out_pps"] == m["if.dut1.tx_pps"], l
	t0, t1 = (int(x) for x in open("out/capture/clock.txt").read().split())
	assert d["interval_from"] == "cpu-ticks", (d["interval_from"], d.get("interval_note"))
	assert 1.9 <= d["interval_s"] <= t1 - t0 + 1.01, (d["interval_s"], t1 - t0)
	PY
'
test_expect_success 'the generator stopped with the samples: nothing of the load runs on after doctor' '
	! gen_running &&
	python3 -c "
import json
l = json.load(open(\"out/doctor.json\"))[\"load\"]
# sent for the settle, the capture and its samples: far less than its limit (settle + 2 + 120 s)
assert l[\"sent\"] < 20000 * 60, l
"
'
test_expect_success 'the DUT was only read: its settings as before, no journal' '
	dut_settings >settings.after && diff -u "$TRASH/settings.before" settings.after &&
	test -z "$(ls -A "$RIG/dut/state")"
'
test_expect_success 'a sink host that cannot be reached: exit 2 naming it, nothing written' '
	test_expect_code 2 ctl $NTUNE doctor ssh://dut $D --gen ssh://gen --sink ssh://nohost.invalid -o out2 >stdout 2>err2 &&
	cat err2 && test ! -s stdout && test ! -e out2 && grep -q "^ntune doctor: .*nohost.invalid" err2
'
test_expect_success 'a load the sink never sees (wrong --dst): exit 2, the load named, nothing written' '
	test_expect_code 2 ctl $NTUNE doctor ssh://dut $D $LOAD --dst 198.19.0.99 -o out3 >stdout 2>err3 &&
	cat err3 && test ! -s stdout && test ! -e out3 &&
	grep -q "^ntune doctor: the load from ssh://gen to ssh://sink failed, nothing diagnosed: " err3 &&
	! gen_running
'
test_expect_success '--load pkt-gen: netmap'"'"'s pkt-gen (tests/cli/pkt-gen-standin) stopped once the samples are taken' '
	for h in gen sink; do cp "$SRCDIR/tests/cli/pkt-gen-standin" "$RIG/$h/bin/pkt-gen"; done &&
	doctor_list ctl $NTUNE doctor ssh://dut $D $LOAD --load pkt-gen --gen-args "-w 1" --sink-args "-w 1" \
		--json >pg.json 2>pg.err &&
	cat pg.err &&
	python3 - <<-\PY &&
	import json
	d = json.load(open("pg.json"))
	l, m = d["load"], d["diagnosis"]["metrics"]
	assert l["kind"] == "pkt-gen" and l["sent"] > 0 and 0 < l["received"] <= l["sent"], l
	assert 14000 < m["if.dut0.rx_pps"] < 24000, m["if.dut0.rx_pps"]
	# stopped with the samples: far fewer frames than its limit (settle + 2 + 120 s at 20000 pps)
	assert l["sent"] < 20000 * 60, l
	PY
	! pktgen_running
'
test_expect_success 'the load options go with ssh://router and gen or pkt-gen: usage errors' '
	test_expect_code 2 $NTUNE doctor --from "$FIXTURES/doctor/seed000" --gen ssh://gen 2>e1 &&
	grep -q "go with ssh://\[user@\]router" e1 &&
	test_expect_code 2 $NTUNE doctor ssh://dut --rate 1000 2>e2 &&
	grep -q "a load needs --gen HOST or --sink HOST" e2 &&
	test_expect_code 2 $NTUNE doctor ssh://dut --gen ssh://gen --load iperf3 2>e3 &&
	grep -q "\-\-load is gen or pkt-gen" e3 &&
	test_expect_code 2 $NTUNE doctor ssh://dut --gen ssh://gen --dut-in "a;b" 2>e4 &&
	grep -q "invalid interface name" e4
'
test_done
