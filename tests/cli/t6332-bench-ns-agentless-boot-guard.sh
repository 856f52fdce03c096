#!/bin/sh
# The boot guard of a persisted agentless apply on a Linux DUT (remote_script.h): bench --reboot
# persists a profile in etc/sysctl.d/90-ntune.conf and reboots; the DUT's dead-man job does not
# live through a reboot, so the apply leaves a systemd unit (ntune-agentless-guard.service, wanted
# by multi-user.target) whose boot-guard gives the entry its lease (--dut-confirm) again from the
# boot. The controller killed (SIGKILL) after the reboot: the DUT restores its originals by itself,
# the runtime value and the file byte for byte, and the unit goes. The rig starts the units
# multi-user.target wants under the DUT's root at each boot, as systemd does (scripts/ssh-rig.sh).
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
export RIG_DOWN_S
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune"
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
J=$RIG/dut/root/var/lib/ntune-agentless
F=$RIG/dut/root/etc/sysctl.d/90-ntune.conf
UNIT=$RIG/dut/root/etc/systemd/system/ntune-agentless-guard.service
WANTS=$RIG/dut/root/etc/systemd/system/multi-user.target.wants/ntune-agentless-guard.service
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
knob() { ip netns exec "$N-dut" cat "/proc/sys/$(echo "$1" | tr . /)"; }
SOMAX=$(knob net.core.somaxconn)
printf 'net.core.somaxconn=1005\n' >"$TRASH/p.conf"
printf 'net.core.somaxconn=1006\n' >"$TRASH/q.conf"
printf '# the owner'"'"'s own line\nnet.ipv4.tcp_fin_timeout = 31\n' >"$F"
cp "$F" "$TRASH/90-ntune.conf.orig"
mkdir -p "$J"
originals() {
	test "$(knob net.core.somaxconn)" = "$SOMAX" && cmp "$F" "$TRASH/90-ntune.conf.orig" &&
	test ! -e "$UNIT" && test ! -e "$WANTS" && ! grep -lxE "applied|applying" "$J"/*/state 2>/dev/null | grep -q . ||
	{ echo "not the originals: $(knob net.core.somaxconn)"; ls -l "$UNIT" "$WANTS" 2>&1; grep . "$J"/*/state; false; }
}

test_expect_success 'apply --dut --plan of a persisted apply with --confirm shows the boot guard it would leave' '
	ctl $NTUNE apply "$TRASH/p.conf" --dut ssh://dut --ssh-config "$RIG/ssh_config" --root "$RIG/dut/root" \
		--confirm 30 --plan >plan &&
	grep -q "^ExecStart=/bin/sh $J/boot-guard$" plan && grep -qx "WantedBy=multi-user.target" plan &&
	grep -q "^mkdir -p \"\$R\".*multi-user.target.wants. && ln -sf .\.\./ntune-agentless-guard.service. " plan &&
	grep -q "^echo 30 >\"\$J/lease\"" plan && grep -q "setsid nohup sh \"\$J/wait\" \"\$J\" .dead-man timer." plan &&
	originals
'
test_expect_success 'bench --plan --reboot says what guards the persisted profile on an agentless DUT' '
	$NTUNE bench $HOSTS --reboot --plan --duration 1 "$TRASH/p.conf" "$TRASH/q.conf" >bplan &&
	grep -q "the DUT (agentless): its dead-man job until the reboot, then a boot guard" bplan
'
test_expect_success 'the controller killed after the reboot: the boot guard restores the originals within --dut-confirm' '
	ls "$J" >before && rb0=$(grep -c " up " "$RIG/dut/reboots" 2>/dev/null || :) &&
	{ ip netns exec "$N-ctl" $NTUNE bench $HOSTS --reboot --reboot-timeout 90 --reboot-settle 0.5 --runs 2 \
		--max-runs 2 --seed 1 --duration 20 --warmup 0 --dut-confirm 40 -o b1 \
		"$TRASH/p.conf" "$TRASH/q.conf" >out 2>err & } &&
	pid=$! &&
	wait_until 120 "test \$(grep -c \" up \" \"$RIG/dut/reboots\") -gt \${rb0:-0} && test \"\$(knob net.core.somaxconn)\" != $SOMAX && on_dut true" &&
	e=$(ls "$J" | grep -vxF -f before | grep -E "^[0-9]{8}T[0-9]{6}Z-" | tail -n 1) &&
	test -e "$UNIT" && test -L "$WANTS" && test "$(cat "$J/$e/state")" = applied &&
	wait_until 30 "test -s \"$RIG/dut/units.log\" && grep -q boot-guard \"$RIG/dut/units.log\"" &&
	t0=$(date +%s) && v=$(knob net.core.somaxconn) &&
	kill -9 $pid && { wait $pid; test $? = 137; } && test_killed_tmp && cat err &&
	test "$(cat "$J/$e/state")" = applied && test ! -e "$J/$e/reverted" && grep -q "$v" "$F" &&
	wait_until 70 "test \"\$(knob net.core.somaxconn)\" = $SOMAX" &&
	t1=$(date +%s) && echo "set to $v at $t0 (after the reboot), the original back at $t1" &&
	test $((t1 - t0)) -le 45 &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/state\")\" = reverted" &&
	test "$(cat "$J/$e/reverted")" = "boot guard" && originals
'
test_expect_success 'revert --dut afterwards says the guard reverted it already; nothing changes' '
	e=$(cat "$J/latest") &&
	ctl $NTUNE revert --dut ssh://dut --ssh-config "$RIG/ssh_config" --root "$RIG/dut/root" "$e" >out 2>&1 &&
	cat out && grep -q "is reverted already (boot guard)" out && originals
'
test_done
