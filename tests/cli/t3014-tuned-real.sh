#!/bin/sh
# TuneD's own profiles (Debian 12's tuned 2.20.0-1, extracted by scripts/deps.sh, never
# installed) are read as TuneD reads them: every [sysctl]-type unit, [main] include= followed
# (tuned/profiles/loader.py:77-92, locator.py:26-46 of TuneD v2.20.0), the includer's
# values over the included ones (merger.py:55), conditional sysctl instances said.
#
# What check says about them beyond their settings, in Debian's 2.20.0-1 (37 profiles):
# - openshift, openshift-node, openshift-control-plane: a warning, their
#   include=${f:virt_check:virtual-guest:throughput-performance} is not followed (TuneD
#   picks one of the two by virtualisation when it expands the function; ntune does not guess).
# - cpu-partitioning(-powersave), realtime(-virtual-*): [variables] not read; their
#   include=/etc/tuned/*-variables.conf is in [variables] (a variables file, not a profile).
# - throughput-performance and all that include it: [sysctl.thunderx] type=sysctl is a
#   conditional instance (uname_regex aarch64, cpuinfo_regex ${thunderx_cpuinfo_regex}).
# Errors and warnings about values depend on the kernel that runs the test (e.g.
# kernel.nmi_watchdog read-only in a container, wmem_max below the current value): not
# asserted here; what is asserted is that no line is unreadable.
# test-asan: full
. "$(dirname "$0")/lib.sh"

test_expect_success TUNED_PROFILES 'every profile of the package is read: no line unreadable, exit 0 or 1' '
	n=0 &&
	for f in "$TUNED_PROFILES"/*/tuned.conf; do
		b=$(basename "$(dirname "$f")") &&
		{ ntune check --os linux --json "$f" >"$b.json" 2>"$b.err"; echo $? >"$b.rc"; } &&
		test "$(cat "$b.rc")" -le 1 &&
		echo "$b.json" >>read.list &&
		n=$((n + 1)) || return 1
	done &&
	test "$n" -ge 30 &&
	python3 -c "
import json, sys
for p in open(sys.argv[1]).read().split():
    d = json.load(open(p))
    syn = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"syntax\"]
    assert d[\"unreadable_lines\"] == 0 and not syn, (p, syn)
" read.list && test "$(wc -l <read.list)" = "$n"
'
test_expect_success TUNED_PROFILES 'the openshift profiles: their ${f:...} include is said, not guessed' '
	grep -q "tuned .include=\${f:virt_check:virtual-guest:throughput-performance}. is not followed: TuneD expands its \${...} first" openshift.json
'
test_expect_success TUNED_PROFILES 'network-throughput is read with throughput-performance, which it includes' '
	ntune check --os linux --json "$TUNED_PROFILES/network-throughput/tuned.conf" >nt.json &&
	python3 - "$TUNED_PROFILES" <<-\EOF
	import json, sys
	d = json.load(open("nt.json"))
	e = {x["name"]: x for x in d["entries"]}
	parent = sys.argv[1] + "/throughput-performance/tuned.conf"
	child = sys.argv[1] + "/network-throughput/tuned.conf"
	assert d["settings"] == 6 and len(e) == 6, e
	s = e["net.core.somaxconn"]
	assert (s["op"], s["value"], s["file"]) == ("=>", "2048", parent), s
	for k in ("vm.dirty_ratio", "vm.dirty_background_ratio", "vm.swappiness"):
	    assert e[k]["file"] == parent, e[k]
	assert (e["vm.swappiness"]["value"], e["vm.dirty_ratio"]["value"]) == ("10", "40"), e
	assert e["net.ipv4.tcp_rmem"]["value"] == "4096 87380 16777216", e
	assert e["net.ipv4.tcp_rmem"]["file"] == child and e["net.ipv4.tcp_wmem"]["file"] == child, e
	assert "kernel.numa_balancing" not in e, e
	said = [x for x in d["diagnostics"] if x["file"] == child and x["line"] == 7]
	assert any("include \x27throughput-performance\x27 read from " + parent in x["message"] for x in said), said
	EOF
'
test_expect_success TUNED_PROFILES 'throughput-performance: [sysctl.thunderx] is a conditional sysctl instance, named with its conditions' '
	ntune check --os linux "$TUNED_PROFILES/throughput-performance/tuned.conf" >tp.out 2>tp.err &&
	grep "throughput-performance/tuned.conf:67: note: tuned section \[sysctl.thunderx\] (type=sysctl) is a conditional sysctl instance" tp.out >thx &&
	grep -q "uname_regex .aarch64. and /proc/cpuinfo matches cpuinfo_regex .\${thunderx_cpuinfo_regex}." thx &&
	grep -q "(kernel.numa_balancing) is not read" thx &&
	! grep -q "only \[sysctl\] holds" tp.out &&
	grep -q "4 settings for linux" tp.err
'
test_expect_success TUNED_PROFILES 'a profile of ones own over the real one: its value wins, said at its line' '
	mkdir -p prof/throughput-performance prof/mine &&
	cp "$TUNED_PROFILES/throughput-performance/tuned.conf" prof/throughput-performance/ &&
	printf "[main]\ninclude=throughput-performance\n[sysctl]\nnet.core.somaxconn=8192\nvm.swappiness=30\n" >prof/mine/tuned.conf &&
	ntune check --os linux --json prof/mine/tuned.conf >mine.json &&
	python3 -c "
import json
d = json.load(open(\"mine.json\"))
e = {x[\"name\"]: x for x in d[\"entries\"]}
assert (e[\"net.core.somaxconn\"][\"op\"], e[\"net.core.somaxconn\"][\"value\"]) == (\"=\", \"8192\"), e
assert e[\"net.core.somaxconn\"][\"file\"] == \"prof/mine/tuned.conf\", e
assert e[\"vm.swappiness\"][\"value\"] == \"30\" and e[\"vm.dirty_ratio\"][\"value\"] == \"40\", e
m = [x[\"message\"] for x in d[\"diagnostics\"] if x[\"file\"] == \"prof/mine/tuned.conf\" and x[\"line\"] == 4]
assert any(\"overrides \x27net.core.somaxconn=>2048\x27 of prof/throughput-performance/tuned.conf:64\" in x for x in m), m
"
'
test_expect_success TUNED_PROFILES 'diff reads the include too: network-throughput differs from its parent by its two settings' '
	test_expect_code 1 ntune diff "$TUNED_PROFILES/throughput-performance/tuned.conf" \
	    "$TUNED_PROFILES/network-throughput/tuned.conf" >out 2>err &&
	grep -q "2 of 6 knobs differ" err &&
	grep -q "^net.ipv4.tcp_rmem  *-  |  4096 87380 16777216" out &&
	! grep -q somaxconn out
'
test_expect_success 'an include cycle is cut as TuneD cuts it (each file read once), with a warning at the line' '
	mkdir -p cyc/a cyc/b &&
	printf "[main]\ninclude=b\n[sysctl]\nnet.ipv4.tcp_sack=1\n" >cyc/a/tuned.conf &&
	printf "[main]\ninclude=a\n[sysctl]\nnet.ipv4.tcp_dsack=1\n" >cyc/b/tuned.conf &&
	ntune check --os linux cyc/a/tuned.conf >out 2>err &&
	grep -q "^cyc/b/tuned.conf:2: warning: tuned include .a. is a cycle: cyc/a/tuned.conf is being read already" out &&
	grep -q "2 settings for linux" err
'
test_expect_success 'a missing include is a warning naming where it was looked for' '
	mkdir -p miss/p &&
	printf "[main]\ninclude=ntune-t3014-none, -ntune-t3014-optional\n[sysctl]\nnet.ipv4.tcp_sack=1\n" >miss/p/tuned.conf &&
	ntune check --os linux miss/p/tuned.conf >out 2>err &&
	grep -q "^miss/p/tuned.conf:2: warning: tuned include .ntune-t3014-none. is not read: no ntune-t3014-none/tuned.conf in miss, /etc/tuned, /usr/lib/tuned; TuneD refuses to load a profile whose include it cannot find" out &&
	grep -q "^miss/p/tuned.conf:2: note: tuned include .-ntune-t3014-optional.: not in miss, /etc/tuned, /usr/lib/tuned; TuneD skips" out &&
	grep -q "[^0-9]1 setting for linux" err
'
test_expect_success 'includes deeper than 16 profiles: an input error at the line (exit 2), and apply refuses the profile' '
	i=0 &&
	while [ $i -le 17 ]; do
		mkdir -p deep/p$i &&
		printf "[main]\ninclude=p%d\n[sysctl]\nnet.ipv4.tcp_sack=1\n" $((i + 1)) >deep/p$i/tuned.conf &&
		i=$((i + 1)) || return 1
	done &&
	test_expect_code 2 ntune check --os linux deep/p0/tuned.conf >out 2>/dev/null &&
	grep -q "^deep/p15/tuned.conf:2: error: tuned include .p16. is not read: more than 16 profiles deep" out &&
	test_expect_code 2 ntune apply --dry-run deep/p0/tuned.conf >/dev/null 2>err &&
	grep -q "deep/p15/tuned.conf:2: tuned include .p16. is not read" err
'
test_expect_success 'a ${variable} in a sysctl value is not expanded: the line is said and not read' '
	mkdir -p var/p &&
	printf "[variables]\nmax=16777216\n[sysctl]\nnet.core.rmem_max=\${max}\nnet.ipv4.tcp_sack=1\n" >var/p/tuned.conf &&
	ntune check --os linux --json var/p/tuned.conf >var.json &&
	python3 -c "
import json
d = json.load(open(\"var.json\"))
assert [x[\"name\"] for x in d[\"entries\"]] == [\"net.ipv4.tcp_sack\"], d[\"entries\"]
m = [x for x in d[\"diagnostics\"] if x[\"line\"] == 4 and x[\"severity\"] == \"warning\"]
assert m and \"is not read: its value\" in m[0][\"message\"] and \"ntune does not\" in m[0][\"message\"], m
"
'
test_done
