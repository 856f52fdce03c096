#!/bin/sh
# apply/confirm/revert --dut and bench --dut against a Linux DUT with no ntune on it (agentless):
# the rig's DUT namespace as it is, its values the files under /proc/sys, the dead-man job a
# `setsid nohup` of its own sh, persistence a block in etc/sysctl.d/90-ntune.conf under its root
# (which the rig's reboot reads, as systemd-sysctl reads /etc/sysctl.d at boot): apply, bench,
# bench --reboot and tune --dut. Only the generator and the sink run ntune. The DUT ends as it
# started.
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune"
D="--dut ssh://dut --ssh-config $RIG/ssh_config --root $RIG/dut/root"
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
J=$RIG/dut/root/var/lib/ntune-agentless
F=$RIG/dut/root/etc/sysctl.d/90-ntune.conf
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
knob() { ip netns exec "$N-dut" cat "/proc/sys/$(echo "$1" | tr . /)"; }
SOMAX=$(knob net.core.somaxconn)
RMEM=$(knob net.ipv4.tcp_rmem)
printf 'net.core.somaxconn=1000\nnet.ipv4.tcp_rmem=4096 87380 8388608\n' >"$TRASH/p.conf"
printf 'net.core.somaxconn=1001\n' >"$TRASH/p2.conf"
printf '' >"$TRASH/base.conf"
# The owner's own file of that name: kept byte for byte, its lines outside ntune's block.
printf '# the owner'"'"'s notes, no final newline\nnet.ipv4.tcp_fin_timeout = 30' >"$F"
cp "$F" "$TRASH/90-ntune.conf.orig"
originals() {
	test "$(knob net.core.somaxconn)" = "$SOMAX" && test "$(knob net.ipv4.tcp_rmem)" = "$RMEM" &&
	cmp "$F" "$TRASH/90-ntune.conf.orig" && ! grep -lx applied "$J"/*/state 2>/dev/null | grep -q . ||
	{ echo "not the originals: $(knob net.core.somaxconn) $(knob net.ipv4.tcp_rmem)"; grep . "$J"/*/state; false; }
}

test_expect_success 'the DUT is Linux and has no ntune' '
	! on_dut command -v ntune && test "$(on_dut uname -s)" = Linux && originals
'
test_expect_success 'apply --dut --confirm: set, read back; the DUT reverts itself (setsid nohup job)' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 10 --no-persist >out && cat out &&
	grep -q "^applied .* on ssh://dut: 2 of 2 settings changed" out &&
	test "$(knob net.core.somaxconn)" = 1000 &&
	test "$(knob net.ipv4.tcp_rmem | tr -s "\t " " ")" = "4096 87380 8388608" &&
	id=$(cat "$J/latest") && test "$(cat "$J/$id/state")" = applied &&
	wait_until 30 "test \"\$(knob net.core.somaxconn)\" = $SOMAX" && originals &&
	test "$(cat "$J/$id/reverted")" = "dead-man timer" && test "$(cat "$J/$id/state")" = reverted
'
test_expect_success 'confirm --dut stops the dead-man job; revert --dut restores' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 8 --no-persist >out &&
	ctl $NTUNE confirm $D >out && grep -q "^ssh://dut: ntune-agentless: confirmed " out &&
	sleep 10 && test "$(knob net.core.somaxconn)" = 1000 &&
	ctl $NTUNE revert $D >out && grep -q "reverted" out && originals
'
test_expect_success 'a persisted apply lives through a reboot (sysctl.d); revert --dut puts the file back byte for byte' '
	ctl $NTUNE apply "$TRASH/p.conf" $D >out && cat out &&
	grep -qx "net.core.somaxconn=1000" "$F" && grep -qx "net.ipv4.tcp_fin_timeout = 30" "$F" &&
	{ on_dut reboot || :; } && wait_until 60 "grep -q \" up \" \"$RIG/dut/reboots\"" &&
	wait_until 30 "on_dut true" &&
	test "$(knob net.core.somaxconn)" = 1000 &&
	ctl $NTUNE revert $D >out && cat out && cmp "$F" "$TRASH/90-ntune.conf.orig" &&
	test "$(knob net.core.somaxconn)" = "$SOMAX" && originals
'
test_expect_success 'bench --dut, agentless: each profile applied with the DUT job, read back and reverted' '
	ls "$J" >before &&
	{ ctl timeout 600 $NTUNE bench $HOSTS --runs 2 --max-runs 2 --duration 0.5 --warmup 0 -o b1 \
		"$TRASH/base.conf" "$TRASH/p.conf" >out 2>err || { echo "bench exit $?"; tail -30 err; false; }; } &&
	cat out && tail -20 err &&
	grep -q "^ntune bench: DUT ssh://dut: Linux .*; no ntune there: agentless; boot " err &&
	python3 - <<-\PY &&
	import json
	runs = [json.loads(l) for l in open("b1/runs.jsonl")]
	assert len(runs) == 4 and all(r["ok"] for r in runs), runs
	PY
	ls "$J" | grep -vxF -f before >new && test $(wc -l <new) = 2 &&
	test -z "$(for e in $(cat new); do cat "$J/$e/state"; done | grep -vx reverted)" &&
	originals
'
test_expect_success 'bench --dut --reboot, agentless: the profile persisted in sysctl.d, one boot per sample, the file back' '
	mkdir -p "$J" && ls "$J" >before && rb0=$(cat "$RIG/dut/reboots" 2>/dev/null | grep -c " up " || :) &&
	{ ctl timeout 900 $NTUNE bench $HOSTS --reboot --reboot-timeout 90 --reboot-settle 0.5 --runs 2 \
		--max-runs 2 --seed 1 --duration 0.5 --warmup 0 -o b3 "$TRASH/base.conf" "$TRASH/p2.conf" >out 2>err ||
		{ echo "bench exit $?"; tail -30 err; cat "$RIG/dut/reboots"; false; }; } &&
	tail -12 err &&
	python3 - <<-\PY &&
	import json
	runs = [json.loads(l) for l in open("b3/runs.jsonl")]
	assert len(runs) == 4 and all(r["ok"] for r in runs), runs
	boots = {r["label"]: set() for r in runs}
	for r in runs:
	    boots[r["label"]].add(r["dut"]["boot_id"])
	# a switch of profile is a reboot: never a boot both profiles ran in
	assert boots["p2"] and boots["base"] and not (boots["p2"] & boots["base"]), boots
	PY
	test $(($(grep -c " up " "$RIG/dut/reboots") - rb0)) -ge 2 &&
	ls "$J" | grep -vxF -f before | grep -vx latest >new && test -s new &&
	test -z "$(for e in $(cat new); do cat "$J/$e/state"; done | grep -vx reverted)" &&
	originals
'
test_expect_success 'tune --dut, agentless: a runtime candidate tried with the DUT job and reverted' '
	printf "name: net.core.somaxconn\nkind: set\narg:  2048\nwhy:  a longer listen queue\n" >"$TRASH/rt.cand" &&
	ls "$J" >before &&
	{ ctl timeout 600 $NTUNE tune $HOSTS --cand "$TRASH/rt.cand" --runs 2 --max-runs 2 --duration 0.5 \
		--warmup 0 --pairs 0 --seed 1 --budget 5 -o t1 >out 2>err ||
		{ echo "tune exit $?"; tail -30 err; false; }; } &&
	cat out && tail -10 err &&
	ls "$J" | grep -vxF -f before | grep -vx latest >new && test -s new &&
	test -z "$(for e in $(cat new); do cat "$J/$e/state"; done | grep -vx reverted)" &&
	originals
'
test_expect_success 'the controller killed (SIGKILL) in a bench: the DUT job restores within --dut-confirm' '
	ls "$J" >before &&
	{ ip netns exec "$N-ctl" $NTUNE bench $HOSTS --runs 2 --duration 30 --warmup 0 \
		--dut-confirm 45 -o b2 "$TRASH/p.conf" "$TRASH/p2.conf" >/dev/null 2>err3 & } &&
	pid=$! && wait_until 10 "test \"\$(cat /proc/\$pid/comm)\" = ntune" &&
	wait_until 120 "ls \"\$J\" | grep -vxF -f before | grep -q ." &&
	e=$(ls "$J" | grep -vxF -f before | grep -vx latest | head -n 1) &&
	wait_until 30 "test \"\$(cat \"\$J/\$e/state\")\" = applied" && t0=$(date +%s) &&
	kill -9 $pid && { wait $pid; test $? = 137; } && test_killed_tmp &&
	v=$(knob net.core.somaxconn) && test "$v" != "$SOMAX" &&
	test "$(cat "$J/$e/state")" = applied && test ! -e "$J/$e/reverted" &&
	wait_until 60 "test \"\$(knob net.core.somaxconn)\" = $SOMAX" &&
	t1=$(date +%s) && echo "set to $v at $t0, the original back at $t1" &&
	test $((t1 - t0)) -le 50 &&
	test "$(cat "$J/$e/reverted")" = "dead-man timer" && test "$(cat "$J/$e/state")" = reverted &&
	originals
'
test_done
