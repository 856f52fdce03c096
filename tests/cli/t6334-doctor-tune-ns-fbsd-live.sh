#!/bin/sh
# FreeBSD diagnosis end to end on the rig: the FreeBSD-look DUT (rig-freebsd.sh: uname says
# FreeBSD, /proc/sys a FreeBSD MIB) has no ntune, and its base commands are the stand-ins of
# tests/cli/standin/freebsd answering live (STANDIN_LIVE=1): netstat -ibnd from the namespace's
# interface counters, kern.cp_times and top -P from /proc/stat, vmstat -i from /proc/interrupts,
# ifconfig -a from its interfaces, netstat -Q from the MIB; dmesg prints a real FreeBSD message
# buffer (tests/fixtures/dut/fbsd-live). A token bucket on dut1 (tc tbf: Linux's send queue, what
# the stand-in's Drop column counts as FreeBSD's IFCOUNTER_OQDROPS) drops what exceeds its rate.
# (a) doctor ssh://dut --gen --sink under the load names output-drops on dut1, its drops per
# second the load's own loss (what the generator sent less what the sink got), and none without
# the load; (b) tune --dut writes DIR/diagnosis.json from the DUT's FreeBSD text, says the order
# it took from it, and keeps a dut/ snapshot of each run. The CPU figures are the host's (a
# network namespace has no CPU times of its own): a cpu-bound finding may come and go with the
# other tests' load and is not asserted on.
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts; the DUT gets the stand-ins, live.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
DATA=$RIG/dut/standin
mkdir -p "$DATA"
cp "$FIXTURES/dut/fbsd-live/dmesg.txt" "$FIXTURES/dut/fbsd-live/kenv.txt" \
	"$FIXTURES/dut/fbsd-live/pciconf-lv.txt" "$FIXTURES/dut/seed000-dec750/netstat-m.txt" "$DATA/"
for c in sysctl daemon netstat top vmstat ifconfig dmesg kenv pciconf cpuset; do
	cat >"$RIG/dut/bin/$c" <<-EOF
	#!/bin/sh
	STANDIN_DIR=$DATA STANDIN_LIVE=\${STANDIN_LIVE-1} exec $SRCDIR/tests/cli/standin/freebsd/$c "\$@"
	EOF
	chmod +x "$RIG/dut/bin/$c"
done
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
D="--ssh-config $RIG/ssh_config --duration 2"
LOAD="--gen ssh://gen --sink ssh://sink --rate 20000"
doctor_list() { "$@"; rc=$?; test $rc = 0 || test $rc = 1; }

test_expect_success 'the DUT: FreeBSD by its uname, no ntune, its counters live' '
	! on_dut command -v ntune &&
	test "$(on_dut uname -s)" = FreeBSD &&
	on_dut netstat -ibnd >n1 && cat n1 &&
	grep -q "^dut0 .*<Link#" n1 && grep -q "^dut1 .*<Link#" n1 &&
	on_dut sysctl kern.cp_times hw.ncpu >s1 && cat s1 &&
	test "$(sed -n "s/^hw.ncpu: //p" s1)" = "$(grep -c "^cpu[0-9]" /proc/stat)"
'
# A token bucket on the DUT's outside port: 4 Mbit/s, about 8000 of the load's 64-byte frames a second.
ip netns exec "$N-dut" tc qdisc add dev dut1 root tbf rate 4mbit burst 4kb latency 5ms

test_expect_success 'doctor ssh://dut, no load: the DUT idle over its samples, no output drops' '
	{ doctor_list ctl $NTUNE doctor ssh://dut $D --json >idle.json 2>idle.err || { cat idle.err; false; }; } &&
	python3 - <<-\PY
	import json
	d = json.load(open("idle.json"))
	m = d["diagnosis"]["metrics"]
	print({k: v for k, v in m.items() if k.startswith("if.dut")}, [f["kind"] for f in d["diagnosis"]["findings"]])
	assert "load" not in d, d.keys()
	assert m["if.dut0.rx_pps"] < 100 and m["if.dut1.odrops"] == 0, m
	assert "output-drops" not in [f["kind"] for f in d["diagnosis"]["findings"]], d["diagnosis"]["findings"]
	PY
'
# (a) The load through the bucket: dut1 drops what it cannot send. Its Drop column (live) accounts
# for what came in on dut0 and did not leave on dut1, and the share it drops is the share the
# load lost (the sink counts the load on its own); the interval is from the stand-in's tick counters
# (the host's /proc/stat at kern.clockrate's stathz 127), not the load's own clock, so the
# rates themselves are compared only with room.
test_expect_success 'doctor --gen --sink: output-drops on dut1, grounded in the live counters' '
	{ doctor_list ctl $NTUNE doctor ssh://dut $D $LOAD -o out >list 2>err || { cat list err; false; }; } &&
	cat list err &&
	grep -Eq "^ntune doctor: dut, freebsd 14.3-RELEASE, [0-9]+ CPUs, NICs \(none known: no NIC driver in the capture\); samples [0-9]+\.[0-9]{2} s apart \(by the CPU tick counters\)$" list &&
	grep -q "^ntune doctor: DUT ssh://dut: FreeBSD dut 14.3-RELEASE .*; no ntune there: agentless" err &&
	grep -Eq "^[0-9]+\. bottleneck: output-drops on dut1 \(possible\)$" list &&
	grep -Eq "^   dut1 dropped [0-9]{4,} packets/s on output \(netstat -d Drop\)" list &&
	grep -Eq "^   evidence: if.dut1.odrops=[0-9]{4,} if.dut1.opackets=[0-9]+ if.dut1.oerrors=0$" list &&
	python3 - <<-\PY &&
	import json
	d = json.load(open("out/doctor.json"))
	l, m = d["load"], d["diagnosis"]["metrics"]
	print(l)
	print({k: v for k, v in m.items() if k.startswith("if.dut")})
	f = [f for f in d["diagnosis"]["findings"] if f["kind"] == "output-drops"]
	assert f and "dut1" in f[0]["summary"], d["diagnosis"]["findings"]
	inn, out, drop = m["if.dut0.ipackets"], m["if.dut1.opackets"], m["if.dut1.odrops"]
	assert drop > 1000 and out > 1000, m
	# what came in left or was dropped by the bucket (the samples read dut0 and dut1 together)
	assert abs(inn - out - drop) <= 0.03 * inn + 100, (inn, out, drop)
	share, lost = drop / (out + drop), 1 - l["received"] / l["sent"]
	assert abs(share - lost) < 0.15, (share, lost)
	assert 0.25 * l["offered_pps"] < m["if.dut0.rx_pps"] < 1.6 * l["offered_pps"], (m["if.dut0.rx_pps"], l)
	assert l["dut_in_pps"] == m["if.dut0.rx_pps"] and l["dut_out_pps"] == m["if.dut1.tx_pps"], l
	PY
	cmp "$FIXTURES/dut/fbsd-live/dmesg.txt" out/capture/dmesg.txt &&
	grep "^dut0 " out/capture/before.txt >in0 && grep "^dut0 " out/capture/after.txt >in1 && ! cmp -s in0 in1
'

# (b) tune --dut: its baseline diagnosed from the DUT's FreeBSD text, the order said, a snapshot
# of the DUT before and after each run; the DUT ends as it started.
printf "name: net.isr.dispatch\nkind: enum\narg:  deferred\nwhy:  queue to netisr\n" >"$TRASH/rt.cand"
J=$RIG/dut/root/var/db/ntune-agentless
test_expect_success 'tune --dut: DIR/diagnosis.json from the DUT'"'"'s FreeBSD text, the order taken from it, dut/ snapshots' '
	{ ctl timeout 600 $NTUNE tune --dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config "$RIG/ssh_config" \
		--dut-root "$RIG/dut/root" --cand "$TRASH/rt.cand" --runs 2 --max-runs 2 \
		--duration 0.5 --warmup 0 --pairs 0 --seed 1 --budget 5 -o t1 >tout 2>terr ||
		{ echo "tune exit $?"; tail -30 terr; false; }; } &&
	cat tout && grep "baseline\|order\|finding" terr &&
	grep -q "^ntune tune: DUT ssh://dut: FreeBSD dut 14.3-RELEASE .*; no ntune there: agentless" terr &&
	{ grep -q "^order: the knobs of [0-9]* findings* of the DUT.s diagnosis under the load, diagnosis.json first (" tout ||
	  grep -q "^order: the candidate list.s (no finding in the DUT.s diagnosis under the load, diagnosis.json)$" tout; } &&
	grep -q "^ntune tune: baseline (the settings in force, diagnosed): the load through dut0 -> dut1, .* then the DUT.s counters sampled 1 s apart$" terr &&
	grep -Eq "^ntune tune: order: (the knobs named by the [0-9]+ findings? of|no finding in) the baseline.s diagnosis \(diagnosis.json\)" terr &&
	python3 - <<-\PY &&
	import json, os
	d = json.load(open("t1/diagnosis.json"))
	assert d["schema"] == "ntune-diagnosis" and d["version"] == 1 and d["interval_s"] >= 1, d.get("schema")
	m = d["metrics"]
	print({k: v for k, v in m.items() if k.startswith("if.dut")}, [f["kind"] for f in d["findings"]])
	assert m["if.dut0.rx_pps"] > 1000 and m["if.dut1.tx_pps"] > 1000 and m["if.dut1.odrops"] > 1000, m
	assert "output-drops" in [f["kind"] for f in d["findings"]], d["findings"]
	s = json.load(open("t1/summary.json"))
	assert s["diagnosis"]["file"] == "diagnosis.json", s["diagnosis"]
	assert [f["summary"] for f in s["diagnosis"]["findings"]] == [f["summary"] for f in d["findings"]]
	runs = [json.loads(l) for l in open("t1/runs.jsonl")]
	assert runs and all(r["ok"] for r in runs), runs
	for r in runs:
	    for w in ("before", "after"):
	        p = "t1/dut/run-%d-%s.json" % (r["run"], w)
	        snap = json.load(open(p))
	        assert snap["system"]["os"] == "FreeBSD" and snap["errors"] == [], (p, snap["system"], snap["errors"])
	        assert any(c["name"] == "dut0" and c["ipackets"] > 0 for c in snap["if_counters"]), p
	print(len(runs), "runs, each with its dut/ snapshots")
	PY
	test "$(fbsd_oid net.isr.dispatch)" = direct &&
	! grep -lx applied "$J"/*/state 2>/dev/null | grep -q .
'
test_done
