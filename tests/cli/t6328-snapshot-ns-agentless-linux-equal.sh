#!/bin/sh
# A snapshot of an agentless Linux DUT is the snapshot ntune on the DUT takes (issue 28, "read"):
# `ntune snapshot` run inside the rig's DUT namespace and `ntune snapshot ssh://dut` of it (no ntune
# there) are the same document, ethtool facts (driver, channels, rings, coalescing, offloads and
# every if.* tunable), root qdiscs, NAPI thread CPUs, the namespace, sysctl kinds included. What
# truly differs is named below and left out: the time taken, the counters (they move between the
# two reads: their names are compared), the boot files (agentless reads /etc/sysctl.conf and
# /etc/sysctl.d only), vm.stat_refresh (a 0600 file root reads as empty: sysctl -a shows nothing,
# and the capture cannot tell it from stable_secret, which cannot be read at all).
# An interface whose name is not [A-Za-z0-9_.@+-] (at most 15, not starting with '-') is never given
# to ethtool: listed, without those facts. A DUT without ethtool gives absent ethtool sections and
# a snapshot without those facts, exit 0.
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"

rm -f "$RIG/bin/ntune"
D="--ssh-config $RIG/ssh_config"
dut() { ip netns exec "$N-dut" "$@"; }
# A veth of this test's own on the DUT (names unique on the machine: NAPI threads are named by
# interface, and other labs have a dut0), with non-default settings: GRO on, threaded NAPI with
# its thread pinned to the last CPU, a pfifo_fast root qdisc, an ingress qdisc, rx checksumming off.
L=q$$
test_expect_success 'the DUT gets a veth with threaded NAPI, a pinned thread and its own qdiscs' '
	dut ip link add "${L}a" type veth peer name "${L}b" &&
	dut ip link set "${L}a" up && dut ip link set "${L}b" up &&
	dut ethtool -K "${L}a" gro on rx off &&
	dut sh -c "echo 1 >/sys/class/net/${L}a/threaded" &&
	dut tc qdisc replace dev "${L}a" root pfifo_fast &&
	dut tc qdisc add dev "${L}b" ingress &&
	last=$(($(nproc) - 1)) &&
	pid=$(pgrep -x "napi/${L}a-[0-9]*" | head -1) && test -n "$pid" &&
	taskset -pc "$last" "$pid" >/dev/null
'
test_expect_success 'snapshot ssh://dut equals snapshot on the DUT, but for what is named' '
	dut $NTUNE snapshot -o live.json &&
	ctl $NTUNE snapshot ssh://dut $D -o ssh.json 2>err && cat err &&
	python3 - live.json ssh.json "$L" <<-\EOF
	import json, sys
	live, ssh = (json.load(open(f)) for f in sys.argv[1:3])
	L = sys.argv[3]
	def names(doc, key, field):
	    return [e.get(field) if field else i for i, e in enumerate(doc.get(key, []))]
	# counters move between the two reads: the same CPUs, interfaces and interrupts
	ncpu = len(ssh["cpu_times"])
	assert len(live["cpu_times"]) == ncpu
	assert names(live, "if_counters", "name") == names(ssh, "if_counters", "name")
	assert names(live, "irqs", "name") == names(ssh, "irqs", "name")
	# boot files: the agentless ones are the local ones of /etc
	lb = {b["path"]: b["text"] for b in live["boot_files"]}
	for b in ssh["boot_files"]:
	    assert b["path"].startswith("/etc/sysctl") and lb.get(b["path"]) == b["text"], b["path"]
	for d in (live, ssh):
	    for k in ("taken", "cpu_times", "if_counters", "irqs", "boot_files"):
	        d.pop(k)
	    d["sysctls"].pop("vm.stat_refresh", None)
	diff = [k for k in set(live) | set(ssh) if live.get(k) != ssh.get(k)]
	for k in diff:
	    a, b = live.get(k), ssh.get(k)
	    if isinstance(a, dict) and isinstance(b, dict):
	        print(k, [(x, a.get(x), b.get(x)) for x in set(a) | set(b) if a.get(x) != b.get(x)][:10])
	    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
	        print(k, [(x.get("name"), [(f, x.get(f), y.get(f)) for f in x if x.get(f) != y.get(f)])
	            if isinstance(x, dict) else (x, y) for x, y in zip(a, b) if x != y][:6])
	    else:
	        print(k, str(a)[:300], str(b)[:300])
	assert not diff, diff
	# and what the settings above made of it, read over ssh
	t = {e["name"]: e["value"] for e in ssh["tunables"]}
	n = {e["name"]: e for e in ssh["nics"]}
	assert t["if.%sa.qdisc" % L] == "pfifo_fast" and t["if.%sb.qdisc" % L] == "default", t
	assert t["if.%sa.napi_thread_cpus" % L] == str(ncpu - 1), t
	assert t["if.%sa.offload.gro" % L] == "on" and t["if.%sa.offload.rxcsum" % L] == "off", t
	assert n[L + "a"]["driver"] == "veth" and n[L + "a"]["offloads"]["gro"] is True, n[L + "a"]
	assert n["dut0"]["channels"]["max_rx"] is not None, n["dut0"]
	assert "rings" in n["dut0"]["unsupported"], n["dut0"]
	EOF
'
test_expect_success 'the namespace ssh://dut names is the DUT namespace' '
	grep -q "\"netns\": \"$N-dut\"" ssh.json
'
test_expect_success 'interface names are data: one like an option and one with shell words are not run' '
	dut ip link add name -k type veth peer name "z\$(id>y)" &&
	test_when_finished "dut ip link del dev -k" &&
	ctl $NTUNE snapshot ssh://dut $D -o odd.json &&
	test ! -e "$RIG/dut/home/y" && test ! -e y &&
	python3 - odd.json <<-\EOF
	import json, sys
	n = {e["name"]: e for e in json.load(open(sys.argv[1]))["nics"]}
	# listed from /sys, but never given to ethtool: no driver, channels or offloads
	for odd in ("-k", "z$(id>y)"):
	    assert n[odd]["driver"] == "" and n[odd]["channels"]["max_rx"] is None, n[odd]
	assert n["dut0"]["driver"] == "veth", n["dut0"]
	EOF
'
test_expect_success 'no ethtool on the DUT: absent ethtool sections, a snapshot without those facts' '
	$NTUNE doctor --capture-script >c.sh &&
	dut unshare -m sh -c "mount --bind /dev/null /usr/sbin/ethtool && sh ./c.sh 1" >cap.txt 2>cap.err &&
	grep -q ":: end ethtool-k.txt 127\$" cap.txt && grep -q ":: end ethtool-i.txt 127\$" cap.txt &&
	grep -q ":: end tc-qdisc.txt 0\$" cap.txt &&
	$NTUNE snapshot --from cap.txt -o noeth.json &&
	python3 - noeth.json "$L" <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	n = {e["name"]: e for e in d["nics"]}[sys.argv[2] + "a"]
	assert n["driver"] == "" and n["channels"]["max_rx"] is None and n["offloads"]["gro"] is None, n
	t = {e["name"]: e for e in d["tunables"]}
	assert t["if.%sa.offload.gro" % sys.argv[2]]["kind"] == "absent", t
	assert t["if.%sa.qdisc" % sys.argv[2]]["value"] == "pfifo_fast", t
	assert d["errors"] == [], d["errors"]
	EOF
'
test_done
