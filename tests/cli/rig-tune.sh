# Sourced after rig.sh by the tune --dut tests of a Linux DUT (t6306, t6329): the two knobs they
# tune, their values before (restored() compares), and those two as candidates in $TRASH/remote.cand
# (dut0/dut1 in the file are the DUT's --dut-in/--dut-out; the rig names them so too). The DUT is
# reached agentless (issue 35; the rig's DUT has ntune, unused): both are sysctls of the DUT's own
# network namespace, and RPS, a /sys attribute agentless mode does not set, is left out, saying so.
knobs() { ip netns exec "$N-dut" sh -c 'cat /proc/sys/net/core/somaxconn /proc/sys/net/ipv4/tcp_notsent_lowat'; }
knobs >"$TRASH/before"
restored() {
	knobs >"$TRASH/now" && diff -u "$TRASH/before" "$TRASH/now" && dut_clean
}
cat >"$TRASH/remote.cand" <<-\EOF2
	name: net.core.somaxconn
	kind: times
	arg:  4
	why:  a longer listen queue on the DUT

	name: net.ipv4.tcp_notsent_lowat
	kind: set
	arg:  131072
	why:  less unsent data queued per TCP socket on the DUT

	name: if.dut0.rps_cpus
	kind: masks
	why:  RPS on the DUT's inside port
EOF2
# --dut-root: the agentless journal under the rig DUT's root, not this machine's /var/lib.
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
