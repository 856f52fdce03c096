#!/bin/sh
# apply of a boot-risk line (share/knobs risk-class: boot) on FreeBSD: refused, nothing changed
# and why said, unless --trial-boot (one boot through nextboot(8), kept at `ntune confirm`) or
# --no-trial (written to loader.conf.local at once). Lines without the class apply as before,
# and so does a queue override of a driver that clamps it (share/knobs/drivers queue-override).
. "$(dirname "$0")/lib.sh"
export NTUNE_STATE_DIR="$TRASH/state"
R="$TRASH/root"
mkdir -p "$R/boot" "$TRASH/bin"
printf 'kern.hz="100"\n' >"$R/boot/loader.conf.local"
cp "$R/boot/loader.conf.local" "$TRASH/loader.orig"
# nextboot(8) stand-in: -e var=value lines into FAKE_ROOT/boot/nextboot.conf (as t4003's).
cat >"$TRASH/bin/nextboot" <<'EOF2'
#!/bin/sh
out='nextboot_enable="YES"'
while getopts e: o; do out="$out
${OPTARG%%=*}=\"${OPTARG#*=}\""; done
printf '%s\n' "$out" >"$FAKE_ROOT/boot/nextboot.conf"
EOF2
chmod +x "$TRASH/bin/nextboot"
export FAKE_ROOT="$R"
PATH="$TRASH/bin:$PATH"
printf 'dev.ax.0.iflib.override_nrxqs=4\nnet.isr.maxthreads=-1\n' >"$TRASH/q.conf"

test_expect_success 'a queue override on FreeBSD without --trial-boot/--no-trial: refused, nothing changed, why said' '
	test_expect_code 1 ntune apply --os freebsd --root "$R" "$TRASH/q.conf" >out 2>err &&
	cat err &&
	grep -q "/q.conf has 1 boot-risk line (.*/q.conf:1 dev.ax.0.iflib.override_nrxqs): a wrong value can stop the box booting or a NIC attaching" err &&
	grep -q "nothing changed. --trial-boot sets them for one boot" err &&
	cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig" &&
	test ! -e "$R/boot/nextboot.conf" && test ! -d "$NTUNE_STATE_DIR/journal"
'
test_expect_success 'the same on OPNsense and pfSense; a dry run and --no-persist write no boot file and pass' '
	test_expect_code 1 ntune apply --os opnsense --root "$R" "$TRASH/q.conf" 2>err && grep -q "boot-risk line" err &&
	test_expect_code 1 ntune apply --os pfsense --root "$R" "$TRASH/q.conf" 2>err && grep -q "boot-risk line" err &&
	ntune apply --os freebsd --root "$R" --dry-run "$TRASH/q.conf" >out && grep -q "^dry run: " out &&
	cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig"
'
test_expect_success '--trial-boot: the boot-risk line goes to nextboot.conf for one boot, loader.conf.local untouched' '
	ntune apply --os freebsd --root "$R" --trial-boot "$TRASH/q.conf" >out &&
	grep -qx "dev.ax.0.iflib.override_nrxqs=\"4\"" "$R/boot/nextboot.conf" &&
	cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig" &&
	ntune revert >/dev/null
'
test_expect_success '--no-trial: written to loader.conf.local at once, as the user said' '
	rm -f "$R/boot/nextboot.conf" &&
	ntune apply --os freebsd --root "$R" --no-trial "$TRASH/q.conf" >out &&
	grep -qx "dev.ax.0.iflib.override_nrxqs=\"4\"" "$R/boot/loader.conf.local" &&
	ntune revert >/dev/null && cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig"
'
test_expect_success 'a profile without a boot-risk line applies as before' '
	printf "net.isr.maxthreads=-1\n" >n.conf &&
	ntune apply --os freebsd --root "$R" n.conf >out &&
	grep -qx "net.isr.maxthreads=\"-1\"" "$R/boot/loader.conf.local"
'
test_expect_success 'a queue override of a driver that clamps it (ix: iflib lowers it to isc_nrxqsets_max) is no boot risk: applied as before' '
	printf "dev.ix.0.iflib.override_nrxqs=64\n" >"$TRASH/ix.conf" &&
	mkdir -p "$TRASH/r2/boot" &&
	ntune apply --os freebsd --root "$TRASH/r2" "$TRASH/ix.conf" >out 2>err && cat out err &&
	! grep -q "boot-risk" err &&
	grep -qx "dev.ix.0.iflib.override_nrxqs=\"64\"" "$TRASH/r2/boot/loader.conf.local"
'
test_done
