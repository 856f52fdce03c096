# The lab and the two profiles of the bench tests t6200 and t6201 (sourced after lib.sh): a lab of
# this file's own (P), profile a as it is, b with RPS on dut0, restored() what a user checks after.
test_lab_up

rps() { ip netns exec "$P-dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus; }
ORIG=$(rps)
printf '# the settings as they are\n' >"$TRASH/a.conf"
printf 'if.dut0.rps_cpus=2\n' >"$TRASH/b.conf"
printf 'if.dut0.rps_cpus=%s\n' "$ORIG" >"$TRASH/orig.conf"
# Restored means: the knob reads as before, and no journal entry stays applied.
restored() {
	test "$(rps)" = "$ORIG" || { echo "rps_cpus is $(rps), was $ORIG"; return 1; }
	if ip netns exec "$P-dut" "$NTUNE" verify "$TRASH/orig.conf" >verify.out 2>&1; then :
	elif grep -q "not implemented" verify.out; then :
	else cat verify.out; return 1; fi
	! ntune history 2>/dev/null | grep -Eq " (applied|applying) "
}
BENCH="timeout 120 $NTUNE bench --prefix $P --duration 1 --warmup 0.5"
