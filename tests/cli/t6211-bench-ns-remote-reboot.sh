#!/bin/sh
# ntune bench --dut with reboots: the DUT of scripts/ssh-rig.sh reboots for real (its namespace and
# sshd go away and come back with a new boot id and the settings persisted under its root), and
# the bench waits for the drop, the new boot id and a probe through the data path, then verifies.
# Reboots that go wrong are t6213's.
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig.sh"
. "$(dirname "$0")/rig-reboot.sh"

test_expect_success 'bench --reboot reboots the DUT once per switch of profile, not again when it ends on the original settings' '
	ip netns exec $N-ctl $NTUNE bench a.conf b.conf --dut ssh://dut --reboot --plan --runs 3 --max-runs 3 \
		--duration 1 --warmup 0 --seed 1 >plan &&
	grep -q "reboots: at most 4, one per switch of profile and one to restore, not needed when the bench ends on a profile without settings (--reboot)" plan &&
	ip netns exec $N-ctl $BENCH --reboot-timeout 120 a.conf b.conf --runs 4 --max-runs 4 -o r1 >out 2>err &&
	cat out && cat err &&
	grep -q "^reboots: 4 (one boot is one sample" out &&
	test $(grep -c "rebooting the DUT" err) = 4 &&
	test $(grep -c " up " "$RIG/dut/reboots") = 4 &&
	grep -q "the DUT runs its original settings (boot [0-9a-f-]*): no reboot to restore them" err &&
	restored
'
test_expect_success 'every run names its boot; a profile'\''s runs in one boot count as one sample' '
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("r1/runs.jsonl")]
	h = json.load(open("r1/hosts.json"))
	boots = h["boots"]
	# seed 1 runs a b | b a | a b | b a: boots found(a) | b b | a a | b b | a, and a (the
	# settings as they are) last: the DUT already runs its original settings, no fifth reboot
	assert [b["why"] for b in boots] == ["found", "switch to b", "switch to a", "switch to b",
	    "switch to a"], boots
	assert all(b["came_back"] and b["recovery_s"] > 0 for b in boots[1:]), boots
	ids = [b["boot_id"] for b in boots]
	assert len(set(ids)) == 5, ids
	assert [r["label"] for r in runs] == ["a", "b", "b", "a", "a", "b", "b", "a"], [r["label"] for r in runs]
	assert [ids.index(r["dut"]["boot_id"]) for r in runs] == [0, 1, 1, 2, 2, 3, 3, 4], runs
	v = json.load(open("r1/verdict.json"))
	assert v["reboots"]["count"] == 4, v
	c = v["comparisons"][0]
	assert c["n_a"] == 3 and c["n_b"] == 2, c
	PY
'
test_expect_success 'report shows the hosts, every boot of the DUT with its recovery time, and each run'\''s boot' '
	"$NTUNE" report r1 >/dev/null &&
	grep -q "<h2>Hosts</h2>" r1/report.html &&
	grep -q "<td>switch to a</td><td>[0-9a-f-]*</td><td>[0-9.]* s</td><td>yes</td>" r1/report.html &&
	test $(grep -c "DUT boot [0-9a-f-]" r1/report.html) = 8
'
test_done
