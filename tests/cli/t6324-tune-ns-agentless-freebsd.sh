#!/bin/sh
# bench, tune and lab rfc2544 --dut against a FreeBSD-look DUT with no ntune on it (agentless):
# the profiles are applied, read back and restored with the DUT's own sh, sysctl, daemon and
# nextboot (tests/cli/standin/freebsd, rig-freebsd.sh), a boot-time profile through reboots
# (nextboot -e, one boot per sample), the runtime ones with the DUT's own dead-man job. Only the
# generator and the sink run ntune. The DUT ends as it started. A controller killed with
# SIGKILL in the middle of a bench leaves the restoring to the DUT's own job, within --dut-confirm.
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts; the DUT gets the FreeBSD stand-ins.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
J=$RIG/dut/root/var/db/ntune-agentless
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
# Nothing of ours left: the originals, no nextboot waiting, no block in loader.conf.local, every
# journal entry reverted (by the bench or the DUT's dead-man job).
agentless_restored() {
	test "$(fbsd_oid net.isr.maxthreads)" = 1 && test "$(fbsd_oid net.isr.bindthreads)" = 0 &&
	test "$(fbsd_oid net.isr.dispatch)" = direct &&
	! grep -qs "net.isr" "$RIG/dut/root/boot/loader.conf.local" &&
	! grep -qs 'nextboot_enable="YES"' "$RIG/dut/root/boot/nextboot.conf" &&
	! grep -lx applied "$J"/*/state 2>/dev/null | grep -q . ||
	{ echo "not restored: $(fbsd_oid net.isr.maxthreads) $(fbsd_oid net.isr.bindthreads) $(fbsd_oid net.isr.dispatch)"; grep . "$J"/*/state; false; }
}
printf 'net.isr.maxthreads=-1\nnet.isr.bindthreads=1\n' >"$TRASH/boot.conf"
printf 'net.isr.dispatch=deferred\n' >"$TRASH/rt.conf"
printf '' >"$TRASH/base.conf"

test_expect_success 'the DUT has no ntune: only its stand-ins answer' '
	! on_dut command -v ntune && ! on_dut command -v ntune-fbsd &&
	test "$(on_dut sysctl -n net.isr.dispatch)" = direct
'
# The bench's reboots, as the rig and the bench saw them (a slow host makes each one slower).
reboots_said() {
	echo "rig: $(cat "$RIG/dut/reboots" 2>/dev/null | tr "\n" " ")"
	python3 -c "import json,sys; print(\"recovery_s:\", [round(b.get(\"recovery_s\", 0), 1) for b in json.load(open(sys.argv[1]))[\"boots\"]])" "$1/hosts.json" 2>/dev/null || :
}

# At most five reboots (four runs, one boot each, and the last one back): --max-runs 2. Without
# it bench's sequential test goes on to 10 runs a profile while nothing is decided (the two
# profiles forward alike here), 20 reboots, and a rig reboot (namespace deleted and made again)
# took 2-38 s on 2026-12-05 under the other tests' load: the 400 s this case first gave
# bench ran out in one run of three (seen 19:21-19:29 UTC: 12 reboots by run 19 of 20).
test_expect_success 'bench --dut --reboot of a boot-time profile, agentless: one boot per sample, nextboot, restored' '
	{ ctl timeout 900 $NTUNE bench $FBSD_REBOOT_HOSTS --reboot --runs 2 --max-runs 2 --duration 0.5 --warmup 0 \
		-o b1 "$TRASH/base.conf" "$TRASH/boot.conf" >out 2>err ||
		{ echo "bench exit $?"; tail -30 err; reboots_said b1; false; }; } &&
	cat out && tail -30 err && reboots_said b1 &&
	grep -q "^ntune bench: DUT ssh://dut: FreeBSD dut 14.3-RELEASE .*; no ntune there: agentless; boot " err &&
	grep -q "^nextboot -e net.isr.maxthreads=-1 -e net.isr.bindthreads=1$" "$RIG/dut/nextboot.log" &&
	grep -q nextboot "$RIG/dut/loader.log" &&
	python3 - <<-\PY &&
	import json
	runs = [json.loads(l) for l in open("b1/runs.jsonl")]
	assert len(runs) == 4 and all(r["ok"] for r in runs), runs
	PY
	agentless_restored
'
test_expect_success 'tune --dut, agentless: the runtime step applied and reverted by the DUT itself' '
	printf "name: net.isr.dispatch\nkind: enum\narg:  deferred\nwhy:  queue to netisr\n" >"$TRASH/rt.cand" &&
	{ ctl timeout 600 $NTUNE tune $FBSD_REBOOT_HOSTS --cand "$TRASH/rt.cand" --runs 2 --max-runs 2 \
		--duration 0.5 --warmup 0 --pairs 0 --seed 1 --budget 5 -o t1 >out 2>err ||
		{ echo "tune exit $?"; tail -30 err; false; }; } &&
	cat out && tail -20 err &&
	ls "$J" | grep -q . &&
	agentless_restored
'
test_expect_success 'lab rfc2544 --dut, agentless' '
	{ ctl timeout 600 $NTUNE lab rfc2544 --dut ssh://dut --gen ssh://gen --sink ssh://sink \
		--ssh-config "$RIG/ssh_config" --ntune ntune-fbsd --duration 0.3 --steps 1 --loads 100,50 \
		--sizes 64 --profile "$TRASH/rt.conf" --json --quiet >r.json 2>err ||
		{ echo "rfc2544 exit $?"; tail -30 err; false; }; } &&
	tail -20 err && grep -q "\"throughput_pps\":" r.json &&
	test "$(grep -lx reverted "$J"/*/state | wc -l)" -ge 1 &&
	agentless_restored
'
test_expect_success 'the controller killed (SIGKILL) in a bench: the DUT job restores within --dut-confirm' '
	printf "net.isr.dispatch=hybrid\n" >"$TRASH/rt2.conf" &&
	mkdir -p "$J" && ls "$J" >before &&
	{ ip netns exec "$N-ctl" $NTUNE bench $FBSD_REBOOT_HOSTS --runs 2 --duration 30 --warmup 0 \
		--dut-confirm 45 -o b2 "$TRASH/rt.conf" "$TRASH/rt2.conf" >/dev/null 2>err3 & } &&
	pid=$! && wait_until 10 "test \"\$(cat /proc/\$pid/comm)\" = ntune" &&
	wait_until 120 "ls \"\$J\" | grep -vxF -f before | grep -q ." &&
	e=$(ls "$J" | grep -vxF -f before | grep -vx latest | head -n 1) &&
	wait_until 30 "test \"\$(cat \"\$J/\$e/state\")\" = applied" && t0=$(date +%s) &&
	kill -9 $pid && { wait $pid; test $? = 137; } && test_killed_tmp &&
	v=$(fbsd_oid net.isr.dispatch) && test "$v" != direct &&
	test "$(cat "$J/$e/state")" = applied && test ! -e "$J/$e/reverted" &&
	wait_until 60 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" &&
	t1=$(date +%s) && echo "set to $v at $t0, the original back at $t1" &&
	test $((t1 - t0)) -le 50 &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/state\")\" = reverted" &&
	test "$(cat "$J/$e/reverted")" = "dead-man timer" &&
	agentless_restored
'
test_done
