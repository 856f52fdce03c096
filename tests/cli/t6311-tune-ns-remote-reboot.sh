#!/bin/sh
# ntune tune --dut with boot-time candidates: a step that changes a loader tunable is measured
# across reboots (the reboot protocol of bench --dut: drop, new boot id, probe through the DUT,
# read-back), one boot per sample, the tunable tried for one boot with nextboot(8), the runtime
# steps applied with --confirm without a reboot, and the DUT's original boot-time settings back
# at the end. The DUT is the ssh rig's namespace, rebooted for real, made to look like
# FreeBSD (tests/cli/rig-freebsd.sh), reached agentless (its ntune unused, issue 35). Reboots that
# go wrong are t6312's.
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"
fbsd_standins

cat >"$TRASH/boot.cand" <<-\EOF2
	name: netisr threads per CPU
	kind: bundle
	arg:  net.isr.maxthreads=-1 net.isr.bindthreads=1
	why:  one bound netisr thread per CPU (boot time)

	name: net.isr.dispatch
	kind: enum
	arg:  deferred
	why:  queue inbound packets to the netisr threads
EOF2
HOSTS=$FBSD_REBOOT_HOSTS
TUNE="timeout 500 $NTUNE tune $HOSTS --cand $TRASH/boot.cand --runs 3 --max-runs 3 --duration 0.5 --warmup 0 --pairs 0 --seed 1"

test_expect_success 'tune --dut --plan counts the boot-time step'\''s reboots' '
	ctl $TUNE --plan --budget 6 >plan &&
	grep -q "^  step 1: net.isr.maxthreads=-1 + net.isr.bindthreads=1 (now net.isr.maxthreads=1, net.isr.bindthreads=0): boot time, at most 7 reboots" plan &&
	grep -q "^  step 2: net.isr.dispatch=deferred (now direct): runtime, at most 0 reboots" plan &&
	test ! -e "$RIG/dut/reboots"
'
test_expect_success 'a boot-time step is measured across reboots with nextboot; the DUT ends as it started' '
	ctl $TUNE --budget 6 -o t1 >out 2>err &&
	cat out && tail -40 err &&
	grep -q "rebooting the DUT (switch to s01-try)" err &&
	grep -q "^nextboot -e net.isr.maxthreads=-1 -e net.isr.bindthreads=1$" "$RIG/dut/nextboot.log" &&
	grep -q nextboot "$RIG/dut/loader.log" &&
	grep -q "^ntune tune: reboots of the DUT: [0-9]*, [0-9]* s in all" err &&
	restored
'
test_expect_success 'each boot is one sample of the boot-time step; the runtime step runs in one boot' '
	python3 - <<-\PY
	import json
	runs = [json.loads(l) for l in open("t1/runs.jsonl")]
	boots = json.load(open("t1/hosts.json"))["boots"]
	assert boots[0]["why"] == "found" and all(b["came_back"] for b in boots[1:]), boots
	s1 = [r for r in runs if r["step"] == 1]
	s2 = [r for r in runs if r["step"] == 2]
	assert len(s1) == 6 and all(r["ok"] for r in s1), s1
	tried = {r["dut"]["boot_id"] for r in s1 if r["label"] == "s01-try"}
	best = {r["dut"]["boot_id"] for r in s1 if r["label"] == "s01-best"}
	# A B B A B A: three runs each, in two boots each, never a boot shared by the two profiles
	assert len(tried) == 2 and len(best) == 2 and not (tried & best), (tried, best)
	st = json.load(open("t1/summary.json"))["steps"]
	assert st[0]["change"] == "net.isr.maxthreads=-1 + net.isr.bindthreads=1" and st[0]["tried"], st[0]
	# the verdict counts boots (2), not runs (3); the runtime step counts its runs, all in one boot
	assert st[0]["runs"] == 2, st[0]
	assert len(s2) == 6 and len({r["dut"]["boot_id"] for r in s2}) == 1 and st[1]["runs"] == 3, (st[1], s2)
	why = [b["why"] for b in boots]
	# the last boot brought the original settings back (a switch to them, or the restore at the end)
	assert "switch to s01-try" in why and why[-1] == "restore the original settings", why
	PY
'
test_expect_success 'report shows the tune'\''s hosts, every boot of the DUT with its recovery time, each run'\''s boot' '
	"$NTUNE" report t1 >/dev/null &&
	grep -q "<h2>Hosts</h2>" t1/report.html &&
	grep -q "<td>switch to s01-try</td><td>[0-9a-f-]*</td><td>[0-9.]* s</td><td>yes</td>" t1/report.html &&
	test $(grep -c "DUT boot [0-9a-f-]" t1/report.html) -ge 12
'
test_done
