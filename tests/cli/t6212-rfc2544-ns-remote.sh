#!/bin/sh
# ntune lab rfc2544 --dut ssh://...: the RFC 2544 search through a DUT reached over ssh, with the
# generator and the sink on their own ssh "hosts" (scripts/ssh-rig.sh): the DUT only talked to
# idle, before and after each trial, loss from the sink's own count, --profile read back. The DUT
# has ntune installed and is reached agentless all the same (issue 35): a sysctl profile applied
# with its own sh, one that needs more than sysctl refused before anything is sent.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"
somax() { ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn; }
rps() { ip netns exec "$N-dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus; }
ORIG=$(somax)
RPS=$(rps)
printf 'net.core.somaxconn=1002\n' >"$TRASH/b.conf"
printf 'if.dut0.rps_cpus=2\n' >"$TRASH/rps.conf"
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
RFC="timeout 300 $NTUNE lab rfc2544 $HOSTS --duration 0.3 --steps 1 --loads 100,50"

test_expect_success 'rfc2544 --dut searches through the DUT over ssh and prints the table' '
	ctl $RFC --sizes 64,256 -o r1 >out 2>err &&
	cat out &&
	grep -q "DUT ssh://dut: Linux .*; ntune [0-9.]* there, not used: agentless; boot [0-9a-f-]*" err &&
	grep -q "^RFC 2544 IPv4, 0.3 s trials, loss tolerance 0%" out &&
	grep -Eq "^ +64 +[1-9][0-9]* +[0-9]+ " out && grep -Eq "^ +256 +[1-9][0-9]* +[0-9]+ " out &&
	grep -q "\"complete\": true" r1/meta.json
'
test_expect_success 'each trial holds what the generator sent, what the sink counted and the DUT'\''s idle counters' '
	python3 - "$RIG" <<-\PY
	import json, sys
	boot = open(sys.argv[1] + "/dut/boot_id").read().strip()
	trials = [json.loads(l) for l in open("r1/runs.jsonl")]
	assert len(trials) >= 6 and {t["size"] for t in trials} == {64, 256}, trials
	for t in trials:
	    # loss is what the generator sent minus what the sink counted, as a fraction of sent
	    assert t["sent"] == t["gen"]["packets"] > 0, t
	    assert abs(t["loss"] - (t["sent"] - t["received"]) / t["sent"]) < 1e-9, t
	    assert t["pass"] == (t["received"] > 0 and t["received"] == t["sent"]), t
	    # the DUT forwarded at least what reached the sink (nothing else crosses dut1)
	    assert t["dut"]["boot_id"] == boot and t["dut"]["out_packets"] >= t["received"], t
	    assert t["dut"]["in_packets"] >= t["received"], t
	    # generator and sink are two hosts, two clocks: no latency
	    assert t["latency_us"] is None, t
	h = json.load(open("r1/hosts.json"))
	assert h["dut"]["url"] == "ssh://dut" and h["dut"]["boot_id"] == boot, h
	for when in ("before", "after"):
	    assert json.load(open("r1/dut/%s.json" % when))["schema"] == "ntune-inspect"
	PY
'
test_expect_success 'report renders the rfc2544 --dut results with the hosts and each trial'\''s DUT boot' '
	"$NTUNE" report r1 >/dev/null &&
	grep -q "<h2>Hosts</h2>" r1/report.html &&
	test $(grep -c "DUT boot $(cat "$RIG/dut/boot_id")" r1/report.html) = $(wc -l <r1/runs.jsonl)
'
test_expect_success 'rfc2544 --dut --profile applies it agentless with a dead-man job, reads it back and restores' '
	ctl $RFC --sizes 64 --profile "$TRASH/b.conf" --json --quiet >r2.json 2>err2 &&
	grep -q "\"throughput_pps\":" r2.json &&
	ls "$DUT_J" | grep -E "^[0-9]{8}T[0-9]{6}Z-" >entries && test $(wc -l <entries) = 1 &&
	test "$(cat "$DUT_J/$(cat entries)/reverted")" = user && test -s "$DUT_J/$(cat entries)/deadline" &&
	test "$(somax)" = "$ORIG" && dut_clean
'
test_expect_success 'rfc2544 --dut --profile with an interface knob: refused before anything is sent, ntune on the DUT or not' '
	test_expect_code 2 ctl $RFC --sizes 64 --profile "$TRASH/rps.conf" -o r3 2>err3 &&
	grep -q "rps.conf:1: .if.dut0.rps_cpus. is a /sys attribute: agentless mode sets sysctl knobs and loader tunables only" err3 &&
	test "$(rps)" = "$RPS" && test $(ls "$DUT_J" | grep -cE "^[0-9]{8}T[0-9]{6}Z-") = 1 && dut_clean
'
test_expect_success 'rfc2544 --dut refuses a host with shell text and options that do not go with it' '
	test_expect_code 2 $NTUNE lab rfc2544 --dut "ssh://dut;touch $TRASH/pwned" 2>e1 &&
	grep -q "invalid host" e1 &&
	test_expect_code 2 $NTUNE lab rfc2544 --dut ssh://dut --gen-host ssh://gen 2>e2 &&
	grep -q "with --dut the hosts are --gen and --sink" e2 &&
	test_expect_code 2 $NTUNE lab rfc2544 --profile b.conf 2>e3 &&
	grep -q "go with --dut" e3 &&
	test ! -e pwned
'
test_expect_success 'rfc2544 --dut: generator arguments arrive as literal words and a failed trial says why' '
	test_expect_code 1 ctl $RFC --sizes 64 --gen-args "--size \$(touch\${IFS}$TRASH/pwned)" 2>e4 &&
	grep -q "ntune gen on ssh://gen failed: .*invalid --size .\$(touch" e4 &&
	test ! -e pwned
'
test_done
