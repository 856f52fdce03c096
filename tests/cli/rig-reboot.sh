# Sourced after rig.sh by the tests of DUT reboots: profile a is the settings as they are, b a
# knob the rig's DUT keeps across its reboots only when persisted (net.core.somaxconn), BENCH the
# bench over ssh in reboot mode (the DUT reached agentless: its journal under --dut-root), restored()
# what a user checks afterwards.
somax() { ip netns exec "$N-dut" cat /proc/sys/net/core/somaxconn; }
ORIG=$(somax)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'net.core.somaxconn=1000\n' >"$TRASH/b.conf"
# Restored: the knob reads as before, nothing of ours persisted, no journal entry left applied.
restored() {
	test "$(somax)" = "$ORIG" || { echo "somaxconn on the DUT is $(somax), was $ORIG"; return 1; }
	! grep -rqs somaxconn "$RIG/dut/root/etc" && dut_clean
}
BENCH="timeout 500 $NTUNE bench --dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config
	--reboot --dut-root $RIG/dut/root --reboot-settle 0.5 --duration 1 --warmup 0 --seed 1"
