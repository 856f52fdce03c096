#!/bin/sh
# apply --dut of a boot-risk line (risk-class: boot, a queue override) on a FreeBSD-look DUT (the
# stand-ins of tests/cli/standin/freebsd, as t6320): without --trial-boot or --no-trial nothing is
# sent, nothing changes on the DUT, and why is said; with --no-trial it is written at once.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
D="--dut ssh://dut --ssh-config $RIG/ssh_config --root $RIG/dut/root"
printf 'dev.dut.0.iflib.override_nrxqs=4\n' >"$TRASH/q.conf"
touch "$RIG/dut/root/boot/loader.conf.local"
cp "$RIG/dut/root/boot/loader.conf.local" "$TRASH/loader.orig"

test_expect_success 'apply --dut of a queue override without --trial-boot/--no-trial: refused, the DUT untouched' '
	test_expect_code 1 ctl $NTUNE apply "$TRASH/q.conf" $D --confirm 30 >out 2>err && cat err &&
	grep -q "q.conf has 1 boot-risk line (.*q.conf:1 dev.dut.0.iflib.override_nrxqs): a wrong value can stop the box booting or a NIC attaching" err &&
	grep -q "nothing changed" err &&
	cmp "$RIG/dut/root/boot/loader.conf.local" "$TRASH/loader.orig" &&
	test ! -e "$RIG/dut/root/boot/nextboot.conf" && test ! -e "$RIG/dut/root/var/db/ntune-agentless"
'
test_expect_success '--plan still shows the script; --no-trial writes the line to loader.conf.local' '
	ctl $NTUNE apply "$TRASH/q.conf" $D --plan >plan && test -s plan &&
	ctl $NTUNE apply "$TRASH/q.conf" $D --no-trial >out && cat out &&
	grep -q "override_nrxqs" "$RIG/dut/root/boot/loader.conf.local" &&
	ctl $NTUNE revert $D >out && cmp "$RIG/dut/root/boot/loader.conf.local" "$TRASH/loader.orig"
'
test_done
