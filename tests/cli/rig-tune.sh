# Sourced after rig.sh by the tune --dut tests of a Linux DUT (t6306, t6329): the two knobs they
# tune, their values before (restored() compares), and those two as candidates in $TRASH/remote.cand
# (dut0/dut1 in the file are the DUT's --dut-in/--dut-out; the rig names them so too).
knobs() { ip netns exec "$N-dut" sh -c 'cat /sys/class/net/dut1/tx_queue_len /sys/class/net/dut0/queues/rx-0/rps_cpus'; }
knobs >"$TRASH/before"
restored() {
	knobs >"$TRASH/now" && diff -u "$TRASH/before" "$TRASH/now" &&
	! NTUNE_STATE_DIR="$RIG/dut/state" "$NTUNE" history 2>/dev/null | grep -Eq " (applied|applying) "
}
cat >"$TRASH/remote.cand" <<-\EOF2
	name: if.dut1.txqueuelen
	kind: times
	arg:  4
	why:  a longer transmit queue on the DUT's outside port

	name: if.dut0.rps_cpus
	kind: masks
	why:  RPS on the DUT's inside port
EOF2
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config"
