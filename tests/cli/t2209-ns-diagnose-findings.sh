#!/bin/sh
# ntune diagnose in the DUT of a lab under ntune gen load, each bottleneck named with its knob:
# a shaper on a VLAN-named link, a tiny host backlog with RPS, a shaping qdisc, bench keeping the
# baseline's diagnosis, a full conntrack table, a NAPI thread on one CPU. Moved out of t2201
# (make check proves diagnose once; this file is make check-full only). Every host-wide sysctl
# changed is restored.
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/diag-lab.sh"

test_expect_success ROOT,IP 'a lab comes up for the diagnosis' '
	ntune lab up --prefix "$P" 2>/dev/null
'
test_expect_success ROOT,IP 'a VLAN-named link with a shaper, -i dut1.10: finding and knob name dut1.10, nothing else is read' '
	vlan && grep -q "knobs: if.dut1.10.qdisc" out &&
	python3 - <<-\PY
	import json, re
	m = json.load(open("vlan.json"))["metrics"]
	assert m["if.dut1.10.ipackets"] >= 0 and "qdisc.dut1.10.overlimits" in m, sorted(m)
	others = [k for k in m if re.match(r"[a-z]+\.(dut0|dut1)\.[a-z]", k)]
	assert not others, others
	PY
'
test_expect_success ROOT,IP 'RPS on and a tiny host backlog: backlog drops, net.core.netdev_max_backlog named' '
	backlog && test "$(cat /proc/sys/net/core/netdev_max_backlog)" = "$BACKLOG"
'
test_expect_success ROOT,IP 'a shaping qdisc on the egress: overlimits, if.dut1.qdisc named' '
	shaper && grep -q "a shaping qdisc on dut1 holds the rate: [0-9]* overlimits/s" out
'
test_expect_success ROOT,IP 'bench keeps the diagnosis of the baseline under load in its results' '
	printf "# as it is\n" >a.conf && printf "if.dut0.rps_cpus=2\n" >b.conf &&
	NTUNE_STATE_DIR="$TRASH/state" timeout 120 "$NTUNE" bench --prefix "$P" --duration 3 --warmup 0 \
	    --runs 2 --max-runs 2 -o r a.conf b.conf >/dev/null 2>&1 &&
	python3 - <<-\PY
	import json
	d = json.load(open("r/diagnosis.json"))
	assert d["schema"] == "ntune-diagnosis" and d["netns"].endswith("-dut"), d
	assert d["metrics"]["if.dut0.rx_pps"] > 0 and d["interval_s"] > 1, d["metrics"]
	PY
'
test_expect_success ROOT,IP 'the lab goes down' 'ntune lab down --prefix "$P" 2>/dev/null'
# The count can pass the max by one or two: entries being confirmed on the other CPU at that instant.
test_expect_success ROOT,IP 'NAT mode with a tiny conntrack table: table full, nf_conntrack_max named' '
	conntrack && grep -q "the conntrack table is full (6[0-9] of 64 entries)" out &&
	test "$(cat /proc/sys/net/netfilter/nf_conntrack_max)" = "$CTMAX"
'
test_expect_success ROOT,IP,ETHTOOL 'a NAPI thread on one CPU: its CPU time is the evidence, if.dut0.napi_thread_cpus named' '
	napi && grep -q "dut0.s NAPI thread works on CPU 0 only" out &&
	grep -q "evidence: if.dut0.napi_threads=1 if.dut0.napi_cpus=1 if.dut0.napi_top_cpu=0" out
'
test_done
