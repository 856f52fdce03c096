#!/bin/sh
# TuneD's own loader as the oracle (issue 36): every shipped profile of Debian's tuned 2.20.0-1
# and hand-made edge cases are read by ntune as TuneD's loader reads them (tuned-oracle.py runs
# tuned/profiles/loader.py of the package scripts/deps.sh extracts; no daemon, nothing installed),
# or ntune says at file:line why it does not: TuneD refuses the file, or a documented limit.
# test-asan: full
. "$(dirname "$0")/lib.sh"
ORACLE_PY="$TUNED_PROFILES/python"
test_prereq_TUNED_ORACLE() { [ -f "$ORACLE_PY/tuned/profiles/loader.py" ] && python3 -c "import configparser"; }

# compare FILE: 0 when TuneD's [sysctl] options equal ntune's entries (or both refuse), with why on stdout
compare() {
	PYTHONPATH="$ORACLE_PY" python3 "$SRCDIR/tests/cli/tuned-oracle.py" "$1" >oracle.json 2>/dev/null &&
	{ ntune check --os linux --json "$1" >ntune.json 2>/dev/null; test $? -le 2; } &&
	python3 - "$1" <<'EOF2'
import json, sys
o = json.load(open("oracle.json")); d = json.load(open("ntune.json"))
refusals = [x for x in d["diagnostics"] if "TuneD refuses this profile" in x["message"]]
if "refused" in o:
    assert refusals and all(x["severity"] == "error" and x["line"] > 0 for x in refusals), (sys.argv[1], o, d["diagnostics"])
    sys.exit(0)
assert not refusals, (sys.argv[1], refusals)
n = {e["name"]: ("" if e["op"] == "=" else e["op"][1]) + e["value"] for e in d["entries"]}
o = {k: " ".join(str(v).split()) for k, v in o.items()}
diff = {k: (o.get(k), n.get(k)) for k in set(o) | set(n) if o.get(k) != n.get(k)}
assert not diff, (sys.argv[1], diff)
EOF2
}

test_expect_success TUNED_ORACLE,TUNED_PROFILES 'every shipped profile: equal to TuneD, or the documented exceptions said at their line' '
	same=0 && said=0 &&
	for f in "$TUNED_PROFILES"/*/tuned.conf; do
		b=$(basename "$(dirname "$f")")
		case $b in
		openshift*)
			ntune check --os linux "$f" >out 2>&1;
			grep -q "tuned.conf:[0-9]*: warning: tuned .include=\${f:virt_check:virtual-guest:throughput-performance}. is not followed" out &&
			said=$((said + 1)) || return 1 ;;
		cpu-partitioning*|realtime*)
			# TuneD asserts isolated_cores from /etc/tuned/*-variables.conf, absent here
			PYTHONPATH="$ORACLE_PY" python3 "$SRCDIR/tests/cli/tuned-oracle.py" "$f" | grep -q "isolated_cores are set" &&
			ntune check --os linux "$f" >out 2>&1; grep -q "tuned section \[variables\] is not read" out &&
			said=$((said + 1)) || return 1 ;;
		*) compare "$f" && same=$((same + 1)) || return 1 ;;
		esac
	done &&
	echo "# $same equal to TuneD, $said documented" && test "$same" -ge 29 && test "$said" -le 8
'

mk() { mkdir -p "edge/$1" && printf "$2" >"edge/$1/tuned.conf"; }
test_expect_success TUNED_ORACLE 'edge cases: a header with a comment, continuation lines, only-raise, inline comments, repeats, priority= order' '
	mk comment-header "[main]\nsummary=x\n\n[sysctl] # kernel settings\nnet.core.somaxconn=1024\n" &&
	mk continuation "[main]\nsummary=x\n\n[sysctl]\nnet.ipv4.tcp_rmem=4096\n  87380 16777216\nvm.swappiness=10\n" &&
	mk raise "[main]\nsummary=x\n\n[sysctl]\nnet.core.somaxconn= >2048\nvm.swappiness=<10\n" &&
	mk inline "[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10 # low\nvm.dirty_ratio=20# no space\n" &&
	mk twice "[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\nvm.swappiness=20\n" &&
	mk two-units "[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\n\n[more]\ntype=sysctl\nvm.swappiness=30\nvm.dirty_ratio=5\n" &&
	mk same-section "[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\n\n[sysctl]\nvm.dirty_ratio=5\n" &&
	mk glob "[main]\nsummary=x\n\n[sysctl]\nnet.ipv4.conf.*.rp_filter=1\n" &&
	mk priority "[main]\nsummary=x\n\n[late]\ntype=sysctl\npriority=20\nnet.core.somaxconn=1024\nvm.swappiness=5\n\n[sysctl]\nnet.core.somaxconn=512\nkernel.pid_max=65536\n\n[early]\ntype=sysctl\npriority=-5\nkernel.pid_max=32768\nvm.swappiness=60\n" &&
	mk priority-same "[main]\nsummary=x\n\n[b]\ntype=sysctl\npriority=3\nvm.swappiness=5\n\n[a]\ntype=sysctl\npriority=3\nvm.swappiness=7\n" &&
	for d in edge/*/; do compare "$PWD/${d}tuned.conf" || return 1; done
'
test_expect_success 'priority= that is no integer is an error at its line (TuneD cannot create the instances)' '
	rm -rf edge && mk badprio "[main]\nsummary=x\n\n[sysctl]\npriority=high\nvm.swappiness=10\n" &&
	test_expect_code 2 ntune check --os linux edge/badprio/tuned.conf >out 2>&1 &&
	grep -q "edge/badprio/tuned.conf:5: error: tuned section \[sysctl\]: priority=high is not an integer" out
'
test_expect_success 'a [vm] option the vm plugin does not have is warned at its line (TuneD ignores it)' '
	rm -rf edge && mk vm "[main]\nsummary=x\n\n[vm]\ntransparent_hugepages=never\nvm.nr_hugepages=156\n\n[sysctl]\nvm.swappiness=10\n" &&
	ntune check --os linux edge/vm/tuned.conf >out 2>&1 &&
	grep -q "edge/vm/tuned.conf:6: warning: tuned section \[vm\]: the vm plugin has no option .vm.nr_hugepages. (tuned/plugins/plugin_vm.py:37-42)" out &&
	! grep -q "tuned.conf:5: warning" out
'
test_expect_success TUNED_ORACLE 'files TuneD refuses are refused at their line: a setting before a header, a BOM, name: value' '
	rm -rf edge && mk before "net.core.somaxconn=1024\n[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\n" &&
	mk bom "\357\273\277[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\n" &&
	mk colon "[main]\nsummary=x\n\n[sysctl]\nnet.core.somaxconn: 1024\nvm.swappiness=10\n" &&
	for d in edge/*/; do compare "$PWD/${d}tuned.conf" || return 1; done &&
	test_expect_code 2 ntune check --os linux edge/colon/tuned.conf >out 2>&1 &&
	grep -q "edge/colon/tuned.conf:5: error: TuneD refuses this profile: .net.core.somaxconn: 1024. is not name=value" out &&
	test_expect_code 2 ntune check --os linux edge/before/tuned.conf >out 2>&1 &&
	grep -q "edge/before/tuned.conf:1: error: TuneD refuses this profile: .net.core.somaxconn=1024. comes before the first \[section\]" out
'
test_expect_success TUNED_ORACLE '[DEFAULT] (copied into every unit by TuneD) is a documented limit: said at its line, not silent' '
	rm -rf edge && mk default "[DEFAULT]\nnet.core.somaxconn=4096\n\n[main]\nsummary=x\n\n[sysctl]\nvm.swappiness=10\n" &&
	PYTHONPATH="$ORACLE_PY" python3 "$SRCDIR/tests/cli/tuned-oracle.py" "$PWD/edge/default/tuned.conf" | grep -q "\"net.core.somaxconn\": \"4096\"" &&
	ntune check --os linux edge/default/tuned.conf >out 2>&1 &&
	grep -q "edge/default/tuned.conf:1: warning: tuned section \[DEFAULT\] is not read: TuneD.s configparser copies its options into every section" out
'
test_done
