# The lab, the loads and the cases of the diagnose tests t2201 and t2209 (sourced after lib.sh).

P=$(test_unique)
test_lab_files
# Host-wide sysctls are changed and restored below: the file holds the host lock exclusively
# (test-lock above, tests/cli/lib.sh), so no other run of it or lab test sees the test values.
BACKLOG=$(cat /proc/sys/net/core/netdev_max_backlog)
CTMAX=$(cat /proc/sys/net/netfilter/nf_conntrack_max 2>/dev/null || echo)
# The test values (8, 64) found here are a run's leftover (one without this lock): the backlog
# goes back to the kernel's default (1000, Documentation/admin-guide/sysctl/net.rst); the
# conntrack case is not run, since its default depends on the memory.
[ "$BACKLOG" -le 8 ] && BACKLOG=1000
[ -n "$CTMAX" ] && [ "$CTMAX" -le 64 ] && CTMAX=
test_at_exit "echo $BACKLOG >/proc/sys/net/core/netdev_max_backlog"
[ -n "$CTMAX" ] && test_at_exit "echo $CTMAX >/proc/sys/net/netfilter/nf_conntrack_max"
test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1"

# load GEN-ARGS...: a sink and 4 s of gen in the background; diagnose starts 1 s in.
load() {
	timeout 15 ip netns exec "$P-sink" "$NTUNE" sink --duration 7 --quiet >/dev/null 2>&1 &
	sleep 0.5
	timeout 15 ip netns exec "$P-gen" "$NTUNE" gen --duration 4 --quiet "$@" >/dev/null 2>&1 &
	sleep 1
}
diag() { ip netns exec "$P-dut" "$NTUNE" diagnose -d 2 "$@" 2>/dev/null; }
# expect_finding KIND KNOB GEN-ARGS...: up to 3 tries (other work on the shared CPUs can hide it).
expect_finding() {
	kind=$1 knob=$2; shift 2
	for try in 1 2 3; do
		load "$@"; diag >out; rc=$?; wait
		if [ $rc = 1 ] && grep -q "^[0-9]\. $kind" out && grep -q "knobs: .*$knob" out; then
			cat out; return 0
		fi
	done
	cat out; return 1
}

# ETHTOOL: lab up --impair napi-on-sender turns GRO on with ethtool (Linux >= 6.9 lists NAPI threads).
test_prereq_ETHTOOL() { command -v ethtool >/dev/null 2>&1; }

# light [RATE]: 2000 (or RATE) pkt/s for 4 s; the exit status of diagnose (expected 0), its output
# in out. Up to 3 tries: in a namespace the CPU times are the host's, so work outside the test lock
# (a build beside the suite) can make a CPU look busy once (CI rehearsal r3: "work-not-spread" at
# 20 kpps); a false alarm of the rules comes every time and stays red.
light() {
	for try in 1 2 3; do
		load --flows 64 --rate "${1:-2000}"; diag >out; rc=$?; wait
		[ $rc = 0 ] && break
		echo "# try $try: diagnose exit $rc"; cat out
	done
	cat out
	return $rc
}
# backlog: RPS on dut0 to CPU 1 and a host backlog of 8 packets, restored whatever happens.
backlog() {
	ntune lab exec --prefix "$P" dut -- sh -c "echo 2 >/sys/class/net/dut0/queues/rx-0/rps_cpus" ||
	    return 1
	echo 8 >/proc/sys/net/core/netdev_max_backlog
	expect_finding "backlog-drops on dut0" "net.core.netdev_max_backlog (host-wide)" --flows 64
	rc=$?
	echo "$BACKLOG" >/proc/sys/net/core/netdev_max_backlog
	ntune lab exec --prefix "$P" dut -- sh -c "echo 0 >/sys/class/net/dut0/queues/rx-0/rps_cpus"
	return $rc
}
# vlan: a link named like a VLAN between the DUT and the sink (dut1.10, sink0.10: 198.19.0.128/25,
# inside the route the generator has):
# VLAN 10 on dut1 and sink0, or where the kernel has no 8021q (this CI) a veth pair of those
# names; a 50 Mbit/s tbf on dut1.10. diagnose -i dut1.10 reads only that interface's counters.
vlan() {
	{ ip netns exec "$P-dut" ip link add link dut1 name dut1.10 type vlan id 10 2>/dev/null &&
	    ip netns exec "$P-sink" ip link add link sink0 name sink0.10 type vlan id 10; } ||
	    ip netns exec "$P-dut" ip link add dut1.10 type veth peer name sink0.10 netns "$P-sink" ||
	    return 1
	ip netns exec "$P-dut" sh -c "ip addr add 198.19.0.129/25 dev dut1.10 && ip link set dut1.10 up &&
	    tc qdisc replace dev dut1.10 root tbf rate 50mbit burst 32kbit latency 20ms" &&
	ip netns exec "$P-sink" sh -c "ip addr add 198.19.0.130/25 dev sink0.10 &&
	    ip link set sink0.10 up" || return 1
	for try in 1 2 3; do
		load --flows 64 --dst 198.19.0.130; diag -i dut1.10 >out; rc=$?
		ip netns exec "$P-dut" "$NTUNE" diagnose -d 1 -i dut1.10 --json >vlan.json 2>/dev/null; wait
		[ $rc = 1 ] && grep -q "^[0-9]\. shaper-limit on dut1.10" out && break
	done
	ip netns exec "$P-dut" ip link del dut1.10
	ip netns exec "$P-sink" ip link del sink0.10 2>/dev/null
	cat out
	[ $rc = 1 ]
}
# shaper: a 50 Mbit/s tbf as dut1's root qdisc, removed afterwards.
shaper() {
	ip netns exec "$P-dut" tc qdisc replace dev dut1 root tbf rate 50mbit burst 32kbit latency 20ms ||
	    return 1
	expect_finding "shaper-limit on dut1" "if.dut1.qdisc" --flows 64; rc=$?
	ip netns exec "$P-dut" tc qdisc del dev dut1 root
	return $rc
}
# conntrack: NAT mode, the host's nf_conntrack_max at 64 (restored), 1024 flows.
conntrack() {
	[ -n "$CTMAX" ] && ntune lab up --prefix "$P" --mode nat 2>/dev/null || return 1
	echo 64 >/proc/sys/net/netfilter/nf_conntrack_max
	expect_finding "conntrack-full" "net.netfilter.nf_conntrack_max (host-wide)" --flows 1024
	rc=$?
	echo "$CTMAX" >/proc/sys/net/netfilter/nf_conntrack_max
	ntune lab down --prefix "$P" 2>/dev/null
	return $rc
}

# napi: dut0's receive path in a NAPI thread pinned to CPU 0 (lab up --impair napi-on-sender);
# the thread is found by ifindex in the DUT's namespace, its CPU time read from /proc/PID/stat.
napi() {
	ntune lab up --prefix "$P" --impair napi-on-sender 2>/dev/null || return 1
	expect_finding "work-not-spread on dut0" "if.dut0.napi_thread_cpus" --flows 64; rc=$?
	ntune lab down --prefix "$P" 2>/dev/null
	return $rc
}
