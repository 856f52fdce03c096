#!/bin/sh
# ntune tune --dut against a FreeBSD DUT: the DUT says what it runs (uname over ssh), the tuner
# takes FreeBSD's candidates (share/tune/freebsd.cand) and knowledge base, and applies, reads
# back and restores them there agentless with the DUT's own sysctl, ntune installed there or not
# (issue 35: it is not used). The DUT is the ssh rig's namespace made to look like FreeBSD
# (tests/cli/rig-freebsd.sh says how, and what that does not run).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"
fbsd_standins

# --dut-root: the agentless journal under the rig DUT's root, not this machine's /var/db.
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --ntune ntune-fbsd --dut-root $RIG/dut/root"

test_expect_success 'the stand-in DUT looks like FreeBSD to its ssh sessions only' '
	test "$(ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut uname -s)" = FreeBSD &&
	test "$(fbsd_oid net.isr.dispatch)" = direct &&
	test "$(uname -s)" = Linux && test ! -e /proc/sys/net/isr
'
test_expect_success 'tune --dut --plan: FreeBSD candidates read on the DUT, boot-time ones with their reboots, nothing changed' '
	ctl timeout 120 $NTUNE tune $HOSTS --plan --budget 9.5 --runs 2 --max-runs 3 --duration 1 --warmup 0 \
		--reboot-timeout 60 >plan 2>err &&
	cat plan err &&
	grep -q "^ntune tune: the DUT runs freebsd: candidates from the knowledge base.s list for it" err &&
	grep -q "^plan: tune ssh://dut (freebsd), budget 9.5 min" plan &&
	grep -q "^  each reboot: up to 60 s (drop, new boot id, probe through the DUT), 5 s settle; counted as 20 s" plan &&
	grep -q "^  step 1: net.isr.maxthreads=-1 + net.isr.bindthreads=1 (now net.isr.maxthreads=1, net.isr.bindthreads=0): boot time, at most 7 reboots, about 185 s$" plan &&
	grep -q "^  step 2: net.isr.dispatch=hybrid (now direct): runtime, at most 0 reboots, about 45 s$" plan &&
	grep -q "^  step 3: machdep.hyperthreading_intr_allowed=1 (now 0): boot time, at most 6 reboots, about 165 s$" plan &&
	grep -q "^  step [0-9]*: dev.dut.0.iflib.rx_budget=65535 (now 0): runtime" plan &&
	grep -q "^  step 8: net.isr.dispatch=deferred (now direct): runtime, .* (beyond the budget: the tune stops before it)" plan &&
	grep -q "^  left out: dev.dut.0.fc left out: dev.dut.0.fc is not in the knowledge base for freebsd" plan &&
	grep -q "^  left out: if.dut0.offload.lro left out: if.dut0.offload.lro is not available in the DUT (its placement is ifconfig; the DUT is reached agentless: sysctl knobs and loader tunables only)$" plan &&
	grep -q "^  in the budget: 6 of 8 steps, at most 13 reboots" plan &&
	grep -q "^nothing was changed" plan &&
	test ! -e "$RIG/dut/reboots" && test ! -e "$RIG/dut/nextboot.log" && dut_clean
'
test_expect_success 'tune --dut --plan: a boot-time step whose reboots do not fit is skipped, the runtime steps still fit' '
	ctl timeout 120 $NTUNE tune $HOSTS --plan --budget 5 --runs 2 --max-runs 3 --duration 1 --warmup 0 --json >plan.json &&
	python3 - <<-\PY
	import json
	p = json.load(open("plan.json"))
	assert p["schema"] == 1 and p["os"] == "freebsd" and p["reboot_s"] == 155, p
	boot = [s for s in p["steps"] if s["boot"]]
	assert boot and not any(s["in_budget"] for s in boot), boot
	assert p["steps"][1]["in_budget"] and not p["steps"][1]["boot"], p["steps"][1]
	assert p["reboots_in_budget"] == 0 and p["steps_in_budget"] >= 1, p
	PY
'
cat >"$TRASH/fbsd.cand" <<-\EOF2
	name: net.isr.dispatch
	kind: enum
	arg:  deferred
	why:  queue inbound packets to the netisr threads

	name: kern.random.harvest.mask
	kind: set
	arg:  351
	why:  no entropy from every frame

	name: net.inet.tcp.no_such_oid
	kind: flip
	why:  a knob FreeBSD does not have
EOF2
test_expect_success 'tune --dut on FreeBSD applies each step there with a dead-man job, reads it back and restores it' '
	ctl timeout 400 $NTUNE tune $HOSTS --cand "$TRASH/fbsd.cand" --budget 1.5 --runs 2 --max-runs 2 \
		--duration 0.5 --warmup 0 --pairs 0 -o t1 >out 2>err &&
	cat out && tail -40 err &&
	grep -q "^ntune tune: DUT ssh://dut: FreeBSD dut 14.3-RELEASE .*; ntune [0-9.]* there, not used: agentless; boot " err &&
	grep -q "note: net.inet.tcp.no_such_oid left out: net.inet.tcp.no_such_oid is not in the knowledge base for freebsd" err &&
	grep -q "^ntune tune: step 1/2: net.isr.dispatch=deferred (now direct)" err &&
	test "$(fbsd_oid net.isr.dispatch)" = direct && test "$(fbsd_oid kern.random.harvest.mask)" = 511 &&
	dut_clean && test ! -e "$RIG/dut/reboots"
'
test_expect_success 'the DUT journal shows agentless FreeBSD applies of the steps, each reverted; hosts.json names FreeBSD' '
	python3 - "$DUT_J" <<-\PY
	import json, os, re, sys
	j = sys.argv[1]
	e = [d for d in os.listdir(j) if re.match(r"[0-9]{8}T[0-9]{6}Z-", d)]
	states = [open(os.path.join(j, d, "state")).read().strip() for d in e]
	assert e and all(s == "reverted" for s in states), (e, states)
	assert all("net.isr.dispatch" in open(os.path.join(j, d, "restore")).read() or
	    "kern.random.harvest.mask" in open(os.path.join(j, d, "restore")).read() for d in e), e
	hosts = json.load(open("t1/hosts.json"))
	assert hosts["dut"]["os"] == "FreeBSD", hosts["dut"]
	s = json.load(open("t1/summary.json"))
	assert [st["change"] for st in s["steps"]][:2] == ["net.isr.dispatch=deferred", "kern.random.harvest.mask=351"], s["steps"]
	runs = [json.loads(l) for l in open("t1/runs.jsonl")]
	assert runs and all(r["ok"] and "dut" in r for r in runs), runs[:1]
	PY
'
test_done
