#!/bin/sh
# ntune bench --dut with reboots: the DUT of scripts/ssh-rig.sh reboots for real (its namespace and
# sshd go away and come back with a new boot id and the settings persisted under its root), and
# the bench waits for the drop, the new boot id and a probe through the data path, then verifies.
. "$(dirname "$0")/lib.sh"

test_prereq_SSHD() { [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1; }
if ! test_have_prereq ROOT,IP,SSHD; then
	test_skip 'ntune bench with DUT reboots over ssh' "missing $test_missing_prereq"
	test_done
fi
N=$(test_unique)
RIG=$TRASH/rig
mkdir -p "$RIG"
test_at_exit "sh \"$SRCDIR/scripts/ssh-rig.sh\" down \"$RIG\" $N >/dev/null 2>&1"
if ! RIG_DOWN_S=1 timeout 90 sh "$SRCDIR/scripts/ssh-rig.sh" up "$RIG" "$N" >rig.log 2>&1; then
	cat rig.log >&2
	test_skip 'ntune bench with DUT reboots over ssh' 'the ssh rig did not come up'
	test_done
fi
somax() { ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn; }
ORIG=$(somax)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'net.core.somaxconn=1000\n' >"$TRASH/b.conf"
restored() {
	test "$(somax)" = "$ORIG" || { echo "somaxconn on the DUT is $(somax), was $ORIG"; return 1; }
	! grep -rqs somaxconn "$RIG/dut/root/etc" &&
	! NTUNE_STATE_DIR="$RIG/dut/state" "$NTUNE" history 2>/dev/null | grep -Eq " (applied|applying) "
}
BENCH="timeout 400 $NTUNE bench --dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config
	--reboot --dut-root $RIG/dut/root --reboot-settle 0.5 --duration 1 --warmup 0 --seed 1"

test_expect_success 'bench --reboot reboots the DUT once per switch of profile and once to restore' '
	ip netns exec $N-ctl $NTUNE bench a.conf b.conf --dut ssh://dut --reboot --plan --runs 3 --max-runs 3 \
		--duration 1 --warmup 0 --seed 1 >plan &&
	grep -q "reboots: at most 4, one per switch of profile and one to restore (--reboot)" plan &&
	ip netns exec $N-ctl $BENCH --reboot-timeout 90 a.conf b.conf --runs 3 --max-runs 3 -o r1 >out 2>err &&
	cat out && cat err &&
	grep -q "^reboots: 4 (one boot is one sample" out &&
	test $(grep -c "rebooting the DUT" err) = 4 &&
	test $(grep -c " up " "$RIG/dut/reboots") = 4 &&
	restored
'
test_expect_success 'every run names its boot; a profile'\''s runs in one boot count as one sample' '
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r1/runs.jsonl")]
	h = json.load(open("r1/hosts.json"))
	boots = h["boots"]
	assert [b["why"] for b in boots] == ["found", "switch to b", "switch to a", "switch to b",
	    "restore the original settings"], boots
	assert all(b["came_back"] and b["recovery_s"] > 0 for b in boots[1:]), boots
	ids = [b["boot_id"] for b in boots]
	assert len(set(ids)) == 5, ids
	# seed 1 runs a b | b a | a b: boots found(a) | b b | a a | b
	assert [r["label"] for r in runs] == ["a", "b", "b", "a", "a", "b"], [r["label"] for r in runs]
	assert [ids.index(r["dut"]["boot_id"]) for r in runs] == [0, 1, 1, 2, 2, 3], runs
	v = json.load(open("r1/verdict.json"))
	assert v["reboots"]["count"] == 4, v
	c = v["comparisons"][0]
	assert c["n_a"] == 2 and c["n_b"] == 2, c
	PY
'
test_expect_success 'report shows the hosts, every boot of the DUT with its recovery time, and each run'\''s boot' '
	"$NTUNE" report r1 >/dev/null &&
	grep -q "<h2>Hosts</h2>" r1/report.html &&
	grep -q "<td>restore the original settings</td><td>[0-9a-f-]*</td><td>[0-9.]* s</td><td>yes</td>" r1/report.html &&
	test $(grep -c "DUT boot [0-9a-f-]" r1/report.html) = 6
'
test_expect_success 'a DUT that comes back with a setting changed is not measured; the knob is named' '
	echo "net.core.somaxconn = 999" >"$RIG/dut/after-boot.conf" &&
	test_expect_code 1 ip netns exec $N-ctl $BENCH --reboot-timeout 90 a.conf b.conf --runs 2 --max-runs 2 -o r2 >out2 2>err2 &&
	grep -q "the DUT.s settings differ from .b. after applying it, not measured: net.core.somaxconn wants 1000, has 999" err2 &&
	! grep -q "\"label\":\"b\".*\"ok\":true" r2/runs.jsonl &&
	rm "$RIG/dut/after-boot.conf" &&
	sh "$SRCDIR/scripts/ssh-rig.sh" reboot-now "$RIG" $N >/dev/null 2>&1 &&
	restored
'
test_expect_success 'Ctrl-C during a reboot wait: the DUT is brought back to its original settings' '
	{ ip netns exec $N-ctl $BENCH --reboot-timeout 90 a.conf b.conf --runs 2 --max-runs 2 -o r4 >/dev/null 2>err4 & } &&
	pid=$! && i=0 &&
	while [ $i -lt 600 ] && ! grep -q "rebooting the DUT (switch to b)" err4; do sleep 0.1; i=$((i + 1)); done &&
	kill -INT $pid && test_expect_code 130 wait $pid && cat err4 &&
	grep -q "interrupted by signal 2 while waiting for the DUT to" err4 &&
	grep -q "rebooting the DUT (restore the original settings)" err4 &&
	grep -q "\"stopped\": \"interrupted\"" r4/meta.json &&
	restored
'
test_expect_success 'a DUT that never comes back fails the run with how long it was waited for' '
	touch "$RIG/dut/never-back" &&
	test_expect_code 1 ip netns exec $N-ctl $BENCH --reboot-timeout 15 a.conf b.conf --runs 2 --max-runs 2 -o r3 >out3 2>err3 &&
	grep -q "the DUT did not answer with a new boot id within 15 s of its reboot (switch to b)" err3 &&
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r3/runs.jsonl")]
	bad = [r for r in runs if not r["ok"]]
	assert len(bad) == 1 and "did not answer with a new boot id" in bad[0]["error"], runs
	last = [b for b in json.load(open("r3/hosts.json"))["boots"] if b["why"] == "switch to b"][0]
	assert last["came_back"] is False and last["recovery_s"] >= 15, last
	m = json.load(open("r3/meta.json"))
	assert m["complete"] is False and m["stopped"] == "error", m
	PY
'
test_done
