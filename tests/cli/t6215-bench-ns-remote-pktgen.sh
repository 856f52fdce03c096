#!/bin/sh
# bench --dut and lab rfc2544 --dut with --load pkt-gen: netmap's pkt-gen on the load hosts, driven
# over ssh by ntune's POSIX sh helper (src/bench/remote_pktgen.c). There is no netmap here, so the
# gen and sink hosts of the ssh rig (scripts/ssh-rig.sh) get tests/cli/pkt-gen-standin as their
# `pkt-gen`: it takes pkt-gen's options and prints pkt-gen's lines (its header lists the lines of
# luigirizzo/netmap apps/pkt-gen/pkt-gen.c each one mirrors) around real frames, sent by ntune gen
# and counted by ntune sink through the rig's DUT. What is tested is ntune's side: the words sent
# (the DUT's MAC read over ssh, the source address, -l without the FCS, -R/-n), the link waits, the
# receiver stopped after the load, the summaries read into sent/received/loss, and the failures.
# The real pkt-gen has not run against it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"
for h in gen sink; do cp "$SRCDIR/tests/cli/pkt-gen-standin" "$RIG/$h/bin/pkt-gen"; done
# The DUT is reached agentless (its ntune unused): profile b is one of its namespace's sysctls.
somax() { ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn; }
ORIG=$(somax)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'net.core.somaxconn=1003\n' >"$TRASH/b.conf"
# Real loss in the DUT: it drops every tenth forwarded test frame.
ip netns exec "$N-dut" nft -f - <<-EOF
table inet t6215
delete table inet t6215
table inet t6215 {
	chain forward_loss { type filter hook forward priority 0; udp dport 9 numgen inc mod 10 0 drop; }
}
EOF
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
# Short link waits for the stand-in (pkt-gen's getopt: the last -w wins).
FAST='--sink-args=-w 1'
BENCH="timeout 400 $NTUNE bench $HOSTS --load pkt-gen --runs 2 --max-runs 2 --duration 1 --warmup 0 --seed 1"

test_expect_success 'bench --dut --load pkt-gen measures through the DUT from pkt-gen'\''s own summaries' '
	ctl $BENCH "$FAST" --gen-args "-w 1 -S \$(touch\${IFS}$TRASH/pwned)" --rate 20000 \
		"$TRASH/a.conf" "$TRASH/b.conf" -o r1 >out 2>err &&
	cat err &&
	grep -q "^ntune bench: run 4/4 " err &&
	test "$(somax)" = "$ORIG" && dut_clean &&
	test ! -e pwned &&
	python3 - "$RIG" <<-\PY
	import json, sys
	rig = sys.argv[1]
	runs = [json.loads(l) for l in open("r1/runs.jsonl")]
	assert len(runs) == 4 and all(r["ok"] for r in runs), runs
	tx = [json.loads(l)["argv"] for l in open(rig + "/gen/pkt-gen.log")]
	rx = [json.loads(l)["argv"] for l in open(rig + "/sink/pkt-gen.log")]
	assert len(tx) == len(rx) == 4, (tx, rx)
	for r, a in zip(runs, tx):
	    # -R 20000 -n COUNT (the seconds of a run, settle included): pkt-gen sends the count
	    assert a[a.index("-R") + 1] == "20000" and int(a[a.index("-n") + 1]) >= 20000, a
	    assert r["sent"] == r["gen"]["packets"] == int(a[a.index("-n") + 1]), (r, a)
	    assert r["drops"] == r["sent"] - r["packets"], r
	    # the DUT dropped every tenth frame, and on a busy machine perhaps more, which it counted
	    d = r["dut"]
	    assert r["sent"] // 10 <= r["drops"] <= r["sent"] // 10 + d["in_drops"] + d["out_drops"] + 5, r
	    assert r["dut"]["out_packets"] >= r["packets"] > 0, r
	    assert r["dut"]["in_packets"] >= r["sent"], r
	# ntune words first, then the user words (literal, never through a shell)
	assert tx[0] == ["-s", "198.18.0.1", "-i", "gen0", "-f", "tx", "-w", "5", "-l", "60",
	    "-d", "198.19.0.2:9", "-D", "02:4e:54:12:00:02", "-R", "20000", "-n", tx[0][17],
	    "-w", "1", "-S", "$(touch${IFS}%s/pwned)" % rig.rsplit("/", 1)[0]], tx[0]
	assert rx[0] == ["-i", "sink0", "-f", "rx", "-w", "5", "-w", "1"], rx[0]
	PY
'
test_expect_success 'lab rfc2544 --dut --load pkt-gen: trials at the searched rates, loss from the summaries' '
	: >"$RIG/gen/pkt-gen.log" &&
	ctl timeout 400 $NTUNE lab rfc2544 $HOSTS --load pkt-gen "$FAST" --gen-args=-w\ 1 --sizes 128 \
		--duration 1 --steps 1 --loads 100 --loss-tolerance 0.2 -o r2 >out2 2>err2 &&
	cat out2 &&
	grep -Eq "^ +128 +[1-9][0-9]* +[1-9][0-9]* " out2 &&
	python3 - "$RIG" <<-\PY
	import json, sys
	trials = [json.loads(l) for l in open("r2/runs.jsonl")]
	assert len(trials) >= 3, trials
	for t in trials:
	    assert t["sent"] == t["gen"]["packets"] > 0, t
	    # every tenth frame dropped by the DUT, more when overloaded; pass is loss <= 0.2
	    assert t["loss"] >= 0.099 and t["pass"] == (t["loss"] <= 0.2), t
	    assert t["latency_us"] is None, t
	tx = [json.loads(l)["argv"] for l in open(sys.argv[1] + "/gen/pkt-gen.log")]
	# 128-byte frames are -l 124 (pkt-gen counts without the FCS); after the full-speed trial,
	# the rates the search chose, as -R with the count of one trial
	assert all(a[a.index("-l") + 1] == "124" for a in tx), tx
	rated = [t for t in trials if t["rate"] > 0]
	assert rated and any(a[a.index("-R") + 1] == "%.0f" % rated[0]["rate"] for a in tx if "-R" in a), tx
	PY
'
test_expect_success 'a summary pkt-gen never prints fails the run and says so; settings restored' '
	echo garbage >"$RIG/sink/pkt-gen.fault" &&
	test_when_finished "rm -f $RIG/sink/pkt-gen.fault" &&
	test_expect_code 1 ctl $BENCH "$FAST" --gen-args=-w\ 1 "$TRASH/a.conf" "$TRASH/b.conf" 2>e3 &&
	cat e3 &&
	grep -q "pkt-gen -f rx on ssh://sink: unexpected summary line .Received [0-9]* frames, more or less." e3 &&
	test "$(somax)" = "$ORIG" && dut_clean
'
test_expect_success 'a pkt-gen that exits non-zero fails the run with what it said' '
	echo fail >"$RIG/gen/pkt-gen.fault" &&
	test_when_finished "rm -f $RIG/gen/pkt-gen.fault" &&
	test_expect_code 1 ctl $BENCH "$FAST" "$TRASH/a.conf" "$TRASH/b.conf" 2>e4 &&
	cat e4 &&
	grep -q "pkt-gen -f tx on ssh://gen failed (exit 255): .*cannot open netmap:gen0.*aborting" e4 &&
	test "$(somax)" = "$ORIG" && dut_clean
'
test_expect_success 'no pkt-gen on a load host: refused before anything runs, naming the host' '
	mv "$RIG/sink/bin/pkt-gen" "$RIG/sink/pkt-gen.away" &&
	test_when_finished "mv $RIG/sink/pkt-gen.away $RIG/sink/bin/pkt-gen" &&
	: >"$RIG/gen/pkt-gen.log" &&
	test_must_fail ctl $BENCH "$TRASH/a.conf" "$TRASH/b.conf" 2>e5 &&
	cat e5 &&
	grep -q "no pkt-gen on ssh://sink (netmap.s packet generator" e5 &&
	test ! -s "$RIG/gen/pkt-gen.log"
'
test_expect_success 'pkt-gen is a load of --dut only, and --plan counts its link waits' '
	$NTUNE bench "$TRASH/a.conf" "$TRASH/b.conf" --dut ssh://dut --load pkt-gen --duration 2 \
		--runs 2 --max-runs 2 --warmup 0 --plan >plan &&
	grep -q "each run: apply --confirm and verify on the DUT, .* DUT counters and a snapshot (its capture, read here) idle before and after, two pkt-gen link waits (about 1[89] s)" plan &&
	test_expect_code 2 $NTUNE bench "$TRASH/a.conf" "$TRASH/b.conf" --load pkt-gen 2>e6 &&
	grep -q "load pkt-gen go with --dut" e6 &&
	test_expect_code 2 $NTUNE lab rfc2544 --load pkt-gen 2>e7 &&
	grep -q "go with --dut" e7 &&
	test_expect_code 2 $NTUNE lab rfc2544 $HOSTS --load iperf3 2>e8 &&
	grep -q "invalid --load .iperf3. (gen or pkt-gen)" e8
'
test_done
