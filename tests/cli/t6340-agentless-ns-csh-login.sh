#!/bin/sh
# Agentless ntune through OPNsense's root login shell. sshd runs `ssh root@opnsense CMD` as
# `opnsense-shell -c CMD`, which hands CMD to /bin/csh -c (src/sbin/opnsense-shell, opnsense/core;
# FreeBSD's csh is tcsh; FreeBSD's own root had /bin/csh through 13.x): every command line ntune
# sends must mean the same to csh as to sh (csh reads `>&2` as "into the file 2" and expands `!`
# inside single quotes). Here all three rig hosts log in through that stand-in
# (tests/cli/standin/freebsd/opnsense-shell); the DUT is the FreeBSD-look one without ntune:
# apply/confirm/revert, a bench whose gen and sink are started over csh, and lab rfc2544.
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG_CSH_ROLES="dut gen sink"
export RIG_CSH_ROLES
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
D="--dut ssh://dut --ssh-config $RIG/ssh_config --root $RIG/dut/root"
J=$RIG/dut/root/var/db/ntune-agentless
on() { h=$1; shift; ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes "$h" "$@"; }
printf 'net.isr.dispatch=hybrid\nnet.inet.ip.intr_queue_maxlen=2048\n' >"$TRASH/p.conf"
printf '# the owner'"'"'s own lines\nkern.ipc.somaxconn=1024\n' >"$RIG/dut/root/etc/sysctl.conf.local"
cp "$RIG/dut/root/etc/sysctl.conf.local" "$TRASH/sysctl.conf.local.orig"
originals() {
	test "$(fbsd_oid net.isr.dispatch)" = direct && test "$(fbsd_oid net.inet.ip.intr_queue_maxlen)" = 256 &&
	cmp "$RIG/dut/root/etc/sysctl.conf.local" "$TRASH/sysctl.conf.local.orig" ||
	{ echo "not the originals: $(fbsd_oid net.isr.dispatch) $(fbsd_oid net.inet.ip.intr_queue_maxlen)"; false; }
}
no_stray_files() { # what csh makes of sh-only redirections: a file named 2 (or 1) in the home
	! ls "$RIG/dut/home" "$RIG/gen/home" "$RIG/sink/home" 2>/dev/null | grep -qx "[0-9]"
}

# $?tcsh is 1 in tcsh; sh reads it as $? followed by "tcsh".
is_tcsh() { test "$(on "$1" 'echo $?tcsh')" = 1 || { echo "$1: not tcsh: $(on "$1" 'echo $?tcsh')"; false; }; }
test_expect_success 'every host runs ssh command lines with tcsh, and the DUT has no ntune' '
	is_tcsh dut && is_tcsh gen && is_tcsh sink && ! on dut which ntune
'
test_expect_success 'apply --dut --confirm through csh: set, read back, the DUT reverts itself' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 10 --no-persist >out 2>err && cat out err &&
	grep -q "^applied .* on ssh://dut: 2 of 2 settings changed" out &&
	test "$(fbsd_oid net.isr.dispatch)" = hybrid &&
	wait_until 30 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" &&
	id=$(cat "$J/latest") && test "$(cat "$J/$id/reverted")" = "dead-man timer" && originals
'
test_expect_success 'a persisted apply, confirm, then revert: the files back byte for byte' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 30 >out 2>err && cat out err &&
	ctl $NTUNE confirm $D >out && grep -q "confirmed" out &&
	grep -qx "net.isr.dispatch=hybrid" "$RIG/dut/root/etc/sysctl.conf.local" &&
	ctl $NTUNE revert $D >out && cat out && originals && no_stray_files
'
test_expect_success 'bench --dut: gen and sink started over csh, the DUT measured agentless' '
	printf "net.isr.dispatch=deferred\n" >"$TRASH/rt.conf" && : >"$TRASH/base.conf" &&
	{ ctl timeout 300 $NTUNE bench $FBSD_REBOOT_HOSTS --runs 2 --max-runs 2 --duration 0.5 --warmup 0 \
		-o b1 "$TRASH/base.conf" "$TRASH/rt.conf" >out 2>err || { echo "bench exit $?"; tail -30 err; false; }; } &&
	tail -5 err && grep -q "no ntune there: agentless" err &&
	python3 - <<-\PY &&
	import json
	runs = [json.loads(l) for l in open("b1/runs.jsonl")]
	assert len(runs) == 4 and all(r["ok"] for r in runs), runs
	assert all(r["pps"] > 0 for r in runs), [r["pps"] for r in runs]
	PY
	originals && no_stray_files
'
test_expect_success 'lab rfc2544 --dut through csh' '
	{ ctl timeout 300 $NTUNE lab rfc2544 --dut ssh://dut --gen ssh://gen --sink ssh://sink \
		--ssh-config "$RIG/ssh_config" --ntune ntune-fbsd --duration 0.3 --steps 1 --loads 100,50 \
		--sizes 64 --profile "$TRASH/rt.conf" --json --quiet >r.json 2>err ||
		{ echo "rfc2544 exit $?"; tail -30 err; false; }; } &&
	grep -q "\"throughput_pps\":" r.json && originals && no_stray_files
'
test_done
