#!/bin/sh
# ntune bench --dut with reboots that go wrong (scripts/ssh-rig.sh's DUT reboots for real): a DUT
# that comes back with a setting changed, Ctrl-C during a reboot wait, a DUT that never comes back.
# Apart from t6211 so that each file stays well inside the suite's 600 s under load: every reboot
# re-creates a network namespace, which takes 3 to 45 s when other labs come and go.
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig.sh"
. "$(dirname "$0")/rig-reboot.sh"

test_expect_success 'a DUT that comes back with a setting changed is not measured; the knob is named' '
	echo "net.core.somaxconn = 999" >"$RIG/dut/after-boot.conf" &&
	test_expect_code 1 ip netns exec $N-ctl $BENCH --reboot-timeout 90 a.conf b.conf --runs 2 --max-runs 2 -o r2 >out2 2>err2 &&
	grep -q "the DUT.s settings differ from .b. after applying it, not measured: net.core.somaxconn wants 1000, has 999" err2 &&
	! grep -q "\"label\":\"b\".*\"ok\":true" r2/runs.jsonl &&
	rm "$RIG/dut/after-boot.conf" &&
	ip netns exec $N-dut sh -c "echo $ORIG >/proc/sys/net/core/somaxconn" &&
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
