# The ssh rig and the two profiles of the remote bench tests t6210 and t6216 (sourced after lib.sh):
# rig.sh's hosts, profile a as it is, b a longer listen queue on the DUT (net.core.somaxconn, one
# of the DUT namespace's own sysctls: agentless apply sets sysctl knobs), restored(), HOSTS and BENCH.
. "$(dirname "$0")/rig.sh"
gen_running() {
	for p in $(ip netns pids "$N-gen"); do tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline"; echo; done |
		grep -q "ntune gen --iface gen0"
}
somax() { ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn; }
ORIG=$(somax)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'net.core.somaxconn=1001\n' >"$TRASH/b.conf"
# Restored: the knob reads as before and no journal entry is left applied on the DUT (rig.sh).
restored() {
	test "$(somax)" = "$ORIG" || { echo "somaxconn on the DUT is $(somax), was $ORIG"; return 1; }
	dut_clean
}
# --dut-root: the agentless journal under the rig DUT's root, not this machine's /var/lib.
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
BENCH="timeout 300 $NTUNE bench $HOSTS --duration 1 --warmup 0.5"
