#!/bin/sh
# The boot guard of a persisted agentless apply on a FreeBSD-look DUT (remote_script.h): the
# DUT's dead-man job dies with a reboot, so the apply leaves a hook its boot runs, which starts
# STATE/boot-guard with daemon(8): on OPNsense (the seed's router; usr/local/opnsense/version
# under the DUT's root) /usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard, run by
# `rc.syshook start`; on stock FreeBSD /usr/local/etc/rc.d/ntune_agentless_guard.sh, sourced by
# /etc/rc (on pfSense, etc/platform, the same file, run by rc.start_packages with `start`). The
# rig runs each at the FreeBSD-look DUT's boot as that boot would (scripts/ssh-rig.sh
# dut_rc_freebsd). The controller killed (SIGKILL) after a bench's reboot:
# the DUT restores its originals by itself within --dut-confirm of that boot, sysctl.conf.local
# byte for byte, and the hook goes; confirm and revert stand it down and take the hook too.
# The owner's own hooks there are kept byte for byte. The DUT logs in through OPNsense's root
# shell (csh -c, tests/cli/standin/freebsd/opnsense-shell).
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG_DOWN_S=1
RIG_CSH_ROLES=dut
export RIG_DOWN_S RIG_CSH_ROLES
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts; the DUT gets the FreeBSD stand-ins.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
R=$RIG/dut/root
D="--dut ssh://dut --ssh-config $RIG/ssh_config --root $R"
J=$R/var/db/ntune-agentless
F=$R/etc/sysctl.conf.local
RCD=$R/usr/local/etc/rc.d/ntune_agentless_guard.sh
HOOK=$R/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
printf 'net.isr.dispatch=deferred\n' >"$TRASH/p.conf"
printf 'net.isr.dispatch=hybrid\n' >"$TRASH/q.conf"
# The owner's files: sysctl.conf.local (a line for an OID this kernel lacks), a hook in each place.
mkdir -p "$R/usr/local/etc/rc.d" "$R/usr/local/etc/rc.syshook.d/start" "$J"
printf '# the owner'"'"'s own line\nkern.ipc.somaxconn=1024\n' >"$F"
printf '#!/bin/sh\n# PROVIDE: owner\necho "owner rc.d $1" >>"%s/owner.log"\n' "$TRASH" >"$R/usr/local/etc/rc.d/owner"
printf '#!/bin/sh\necho "owner syshook" >>"%s/owner.log"\n' "$TRASH" >"$R/usr/local/etc/rc.syshook.d/start/50-owner"
chmod 755 "$R/usr/local/etc/rc.d/owner" "$R/usr/local/etc/rc.syshook.d/start/50-owner"
for f in "$F" "$R/usr/local/etc/rc.d/owner" "$R/usr/local/etc/rc.syshook.d/start/50-owner"; do
	cp -p "$f" "$TRASH/$(basename "$f").orig"
done
opnsense() { mkdir -p "$R/usr/local/opnsense" && echo 25.7 >"$R/usr/local/opnsense/version"; }
stock() { rm -rf "$R/usr/local/opnsense" "$R/etc/platform"; }
pfsense() { stock && echo pfSense >"$R/etc/platform"; }
originals() {
	test "$(fbsd_oid net.isr.dispatch)" = direct && cmp "$F" "$TRASH/sysctl.conf.local.orig" &&
	cmp "$R/usr/local/etc/rc.d/owner" "$TRASH/owner.orig" &&
	cmp "$R/usr/local/etc/rc.syshook.d/start/50-owner" "$TRASH/50-owner.orig" &&
	test ! -e "$RCD" && test ! -e "$HOOK" && ! grep -lxE "applied|applying" "$J"/*/state 2>/dev/null | grep -q . ||
	{ echo "not the originals: $(fbsd_oid net.isr.dispatch)"; ls -l "$RCD" "$HOOK" 2>&1; grep . "$J"/*/state; false; }
}
boots() { grep -c " up " "$RIG/dut/reboots" 2>/dev/null || echo 0; }
# Reboots the DUT (its reboot command, the rig's) and waits for it to answer again.
reboot_and_wait() {
	b=$(boots) && { on_dut reboot || :; } &&
	wait_until 90 "test \$(boots) -gt $b && on_dut true" ||
	{ echo "no boot: $(cat "$RIG/dut/reboots")"; tail "$RIG/supervisor.log"; false; }
}
# The entry the last apply made.
latest() { cat "$J/latest"; }

test_expect_success 'apply --dut --plan of a persisted apply with --confirm shows both hooks and the guarded dead-man' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 30 --plan >plan &&
	grep -qx "# PROVIDE: ntune_agentless_guard" plan &&
	grep -q "h=\"\$R\"./usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard.; else h=\"\$R\"./usr/local/etc/rc.d/ntune_agentless_guard.sh.; fi" plan &&
	grep -q "daemon -f sh .$J./boot-guard ;;" plan &&
	grep -q "^echo 30 >\"\$J/lease\"" plan &&
	grep -q "^daemon -f -p \"\$J/deadman.pid\" sh \"\$J/wait\" \"\$J\" .dead-man timer." plan &&
	originals
'
test_expect_success 'bench --plan --reboot names the FreeBSD and OPNsense boot guard hooks' '
	$NTUNE bench $FBSD_REBOOT_HOSTS --reboot --plan --duration 1 "$TRASH/p.conf" "$TRASH/q.conf" >bplan &&
	grep -q "the DUT (agentless): its dead-man job until the reboot, then a boot guard" bplan &&
	grep -q "FreeBSD and pfSense: /usr/local/etc/rc.d/ntune_agentless_guard.sh; OPNsense: /usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard" bplan
'
test_expect_success 'OPNsense: the controller killed after a bench reboot; the boot guard restores within --dut-confirm' '
	opnsense && ls "$J" >before && rb0=$(boots) &&
	{ ip netns exec "$N-ctl" $NTUNE bench $FBSD_REBOOT_HOSTS --reboot --runs 2 --max-runs 2 --seed 1 \
		--duration 20 --warmup 0 --dut-confirm 40 -o b1 "$TRASH/p.conf" "$TRASH/q.conf" >out 2>err & } &&
	pid=$! &&
	wait_until 150 "test \$(boots) -gt $rb0 && test \"\$(fbsd_oid net.isr.dispatch)\" != direct && on_dut true" &&
	e=$(ls "$J" | grep -vxF -f before | grep -E "^[0-9]{8}T[0-9]{6}Z-" | tail -n 1) &&
	test -x "$HOOK" && test ! -e "$RCD" && test "$(cat "$J/$e/state")" = applied &&
	wait_until 30 "grep -q \"rc.syshook start: .*99-ntune-agentless-guard\" \"$RIG/dut/rc.log\"" &&
	grep -q "owner syshook" "$TRASH/owner.log" &&
	t0=$(date +%s) && v=$(fbsd_oid net.isr.dispatch) &&
	kill -9 $pid && { wait $pid; test $? = 137; } && test_killed_tmp && tail -5 err &&
	test "$(cat "$J/$e/state")" = applied && test ! -e "$J/$e/reverted" && grep -q "dispatch=$v" "$F" &&
	wait_until 70 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" &&
	t1=$(date +%s) && echo "set to $v at $t0 (after the reboot), the original back at $t1" &&
	test $((t1 - t0)) -le 45 &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/state\")\" = reverted" &&
	test "$(cat "$J/$e/reverted")" = "boot guard" && wait_until 10 "test ! -e \"\$HOOK\"" && originals
'
test_expect_success 'stock FreeBSD: apply --dut --confirm, a reboot, nobody confirms: the rc.d hook restores the originals' '
	stock && ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 25 >out 2>err && cat out && e=$(latest) &&
	test -x "$RCD" && test ! -e "$HOOK" && grep -qx "# ntune-agentless-guard:.*" "$RCD" &&
	test "$(fbsd_oid net.isr.dispatch)" = deferred &&
	reboot_and_wait && t0=$(date +%s) &&
	test "$(fbsd_oid net.isr.dispatch)" = deferred &&
	wait_until 20 "grep -q \"rc: .*ntune_agentless_guard.sh faststart\" \"$RIG/dut/rc.log\"" &&
	grep -q "owner rc.d faststart" "$TRASH/owner.log" &&
	wait_until 60 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" && t1=$(date +%s) &&
	echo "booted at $t0, the original back at $t1" && test $((t1 - t0)) -le 35 &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/reverted\" 2>/dev/null)\" = \"boot guard\"" &&
	wait_until 10 "test ! -e \"\$RCD\"" && originals
'
test_expect_success 'pfSense: rc.start_packages starts the rc.d hook with start; nobody confirms: restored' '
	pfsense && ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 20 >out 2>err && cat out && e=$(latest) &&
	test -x "$RCD" && test ! -e "$HOOK" &&
	reboot_and_wait && t0=$(date +%s) &&
	wait_until 20 "grep -q \"rc.start_packages: .*ntune_agentless_guard.sh start\" \"$RIG/dut/rc.log\"" &&
	wait_until 60 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" && t1=$(date +%s) &&
	echo "booted at $t0, the original back at $t1" && test $((t1 - t0)) -le 30 &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/reverted\" 2>/dev/null)\" = \"boot guard\"" &&
	wait_until 10 "test ! -e \"\$RCD\"" && stock && originals
'
test_expect_success 'confirm --dut after a reboot stands the boot guard down: the value stays, the hook goes' '
	stock && ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 15 >out 2>err && e=$(latest) && test -x "$RCD" &&
	reboot_and_wait && wait_until 20 "test -s \"\$J/\$e/deadman.pid\" && grep -q \"rc: .*ntune_agentless_guard.sh\" \"$RIG/dut/rc.log\"" &&
	ctl $NTUNE confirm $D "$e" >out 2>&1 && cat out &&
	test "$(cat "$J/$e/state")" = confirmed && test ! -e "$RCD" && sleep 17 &&
	test "$(fbsd_oid net.isr.dispatch)" = deferred && test ! -e "$J/$e/reverted" &&
	ctl $NTUNE revert $D "$e" >out 2>&1 && cat out && originals
'
test_expect_success 'OPNsense: revert --dut before any reboot takes the syshook hook with it; the owner'"'"'s stays' '
	opnsense && ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 60 >out 2>err && e=$(latest) && test -x "$HOOK" &&
	ctl $NTUNE revert $D "$e" >out 2>&1 && cat out &&
	test "$(cat "$J/$e/reverted")" = user && originals
'
test_done
