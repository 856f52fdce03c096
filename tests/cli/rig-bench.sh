# The ssh rig and the two profiles of the remote bench tests t6210 and t6216 (sourced after lib.sh):
# rig.sh's hosts, profile a as it is, b with RPS on the DUT's dut0, restored(), HOSTS and BENCH.
. "$(dirname "$0")/rig.sh"
gen_running() {
	for p in $(ip netns pids "$N-gen"); do tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline"; echo; done |
		grep -q "ntune gen --iface gen0"
}
rps() { ip netns exec "$N-dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus; }
ORIG=$(rps)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'if.dut0.rps_cpus=2\n' >"$TRASH/b.conf"
# Restored: the knob reads as before and no journal entry is left applied on the DUT.
restored() {
	test "$(rps)" = "$ORIG" || { echo "rps_cpus on the DUT is $(rps), was $ORIG"; return 1; }
	! NTUNE_STATE_DIR="$RIG/dut/state" "$NTUNE" history 2>/dev/null | grep -Eq " (applied|applying) "
}
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config"
BENCH="timeout 300 $NTUNE bench $HOSTS --duration 1 --warmup 0.5"
