#!/bin/sh
# ntune lab rfc2544 --dut over IPv6 (2001:2::/48 in the ssh rig of scripts/ssh-rig.sh, neighbours
# found by ND, none static): the trials' frames are IPv6 forwarded by the DUT, the generator
# host's neighbour entry is learned again before a trial (a ping through the DUT) when it is gone,
# and after a reboot the probe through the DUT passes over IPv6 before anything is measured.
. "$(dirname "$0")/lib.sh"
test_prereq_PING() { command -v ping >/dev/null 2>&1; }
test_require PING
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig.sh"
. "$(dirname "$0")/rig-reboot.sh"
# IPv6 datagrams the DUT forwarded (its own IPv6 statistics, not ours).
fwd6() { ip netns exec "$N-dut" awk '$1 == "Ip6OutForwDatagrams" { print $2 }' /proc/net/snmp6; }
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config"
RFC="timeout 300 $NTUNE lab rfc2544 $HOSTS --duration 0.3 --steps 1 --loads 100"

test_expect_success 'rfc2544 --dut --ipv6 sends IPv6 through the DUT to the lab'\''s IPv6 sink address' '
	ip -n $N-gen -6 neigh flush dev gen0 &&
	test -z "$(ip -n $N-gen -6 neigh show 2001:2:0:1::2 dev gen0 | grep lladdr)" &&
	f0=$(fwd6) &&
	ctl $RFC --ipv6 --sizes 128 -o r1 >out 2>err &&
	cat out &&
	grep -q "^RFC 2544 IPv6, 0.3 s trials, loss tolerance 0%" out &&
	grep -Eq "^ +128 +[1-9][0-9]* +[1-9][0-9]* " out &&
	f1=$(fwd6) &&
	python3 - "$f0" "$f1" <<-\PY
	import json, sys
	f0, f1 = int(sys.argv[1]), int(sys.argv[2])
	trials = [json.loads(l) for l in open("r1/runs.jsonl")]
	assert json.load(open("r1/rfc2544.json"))["ipv6"] is True
	assert len(trials) >= 2 and {t["size"] for t in trials} == {128}, trials
	got = 0
	for t in trials:
	    assert t["sent"] == t["gen"]["packets"] > 0, t
	    assert abs(t["loss"] - (t["sent"] - t["received"]) / t["sent"]) < 1e-9, t
	    assert t["dut"]["out_packets"] >= t["received"], t
	    got += t["received"]
	# what reached the sink went through the DUT as IPv6
	assert f1 - f0 >= got > 0, (f0, f1, got)
	PY
'
test_expect_success 'the generator host learned its IPv6 neighbour (the DUT) again before the trials' '
	ip -n $N-gen -6 neigh show 2001:2:0:1::2 dev gen0 | grep -q "lladdr 02:4e:54:12:00:02"
'
test_expect_success 'rfc2544 --dut over IPv6 refuses what cannot be sent' '
	test_expect_code 2 $NTUNE lab rfc2544 $HOSTS --ipv6 --dst 198.19.0.2 2>e1 &&
	grep -q "\-\-ipv6 with an IPv4 --dst .198.19.0.2." e1 &&
	test_expect_code 2 $NTUNE lab rfc2544 $HOSTS --dst 2001:2:0:2::2 --sizes 64 2>e2 &&
	grep -q "frame size 64 is too small for IPv6 (minimum [0-9]*)" e2
'
test_expect_success 'after a reboot the probe passes over IPv6 before the trials (the DUT and the generator forget their neighbours)' '
	ctl $RFC --dst 2001:2:0:2::2 --sizes 128 --reboot --dut-root "$RIG/dut/root" --reboot-settle 0.5 \
		--reboot-timeout 150 --profile "$TRASH/b.conf" -o r2 >out2 2>err2 &&
	cat out2 err2 &&
	grep -q "^RFC 2544 IPv6" out2 &&
	test $(grep -c "the DUT is back after" err2) = 2 &&
	test $(grep -c " up " "$RIG/dut/reboots") = 2 &&
	restored &&
	python3 - <<-\PY
	import json, sys
	boots = json.load(open("r2/hosts.json"))["boots"]
	assert [b["why"] for b in boots] == ["found", "switch to b", "restore the original settings"], boots
	assert all(b["came_back"] for b in boots[1:]), boots
	trials = [json.loads(l) for l in open("r2/runs.jsonl")]
	# every trial ran in the boot of profile b, and forwarded IPv6 frames
	assert trials and all(t["dut"]["boot_id"] == boots[1]["boot_id"] for t in trials), trials
	assert all(t["received"] > 0 for t in trials), trials
	PY
'
test_done
