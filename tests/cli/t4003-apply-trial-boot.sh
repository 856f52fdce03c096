#!/bin/sh
# apply --trial-boot on FreeBSD: loader tunables go to nextboot(8) for one boot, not
# to loader.conf.local; `ntune confirm` after the reboot keeps them only if this
# boot's kernel environment (kenv(1)) has them; revert of a trial still waiting runs
# `nextboot -D`. nextboot and kenv are stand-ins on PATH; "booting" is a model of
# the loader (stand/lua/config.lua: loader.conf, loader.conf.local, then
# nextboot.conf when it starts with nextboot_enable="YES", which it then disables).
. "$(dirname "$0")/lib.sh"
export NTUNE_STATE_DIR="$TRASH/state"
R="$TRASH/root"
mkdir -p "$TRASH/bin" "$R/boot"
export FAKE_ROOT="$R" FAKE_KENV="$TRASH/kenv.now" FAKE_LOG="$TRASH/tools.log"
: >"$FAKE_KENV"

cat >"$TRASH/bin/nextboot" <<'EOF'
#!/bin/sh
# nextboot(8) stand-in: logs its arguments, writes FAKE_ROOT/boot/nextboot.conf as
# sbin/reboot/nextboot.sh does on UFS (-e var=value -> var="value"), -D removes it.
echo "nextboot $*" >>"$FAKE_LOG"
[ -n "${FAKE_NEXTBOOT_FAIL:-}" ] && { echo "nextboot: cannot write" >&2; exit 1; }
if [ "$1" = -D ]; then rm -f "$FAKE_ROOT/boot/nextboot.conf"; exit 0; fi
out='nextboot_enable="YES"'
while getopts e: o; do
	[ "$o" = e ] || exit 1
	out="$out
${OPTARG%%=*}=\"${OPTARG#*=}\""
done
printf '%s\n' "$out" >"$FAKE_ROOT/boot/nextboot.conf"
EOF
cat >"$TRASH/bin/kenv" <<'EOF'
#!/bin/sh
# kenv(1) stand-in: `kenv -q name` prints the value FAKE_KENV holds (name="value" lines), exit 1 if unset.
echo "kenv $*" >>"$FAKE_LOG"
[ "$1" = -q ] && shift
v=$(sed -n "s/^$1=\"\(.*\)\"\$/\1/p" "$FAKE_KENV" | tail -n 1)
[ -n "$v" ] || exit 1
printf '%s\n' "$v"
EOF
chmod +x "$TRASH/bin/nextboot" "$TRASH/bin/kenv"
PATH="$TRASH/bin:$PATH"

# boot: the loader's reading of the fake root into FAKE_KENV.
boot() {
	cat "$R/boot/loader.conf.local" 2>/dev/null | grep -v "^#" >"$FAKE_KENV"
	if head -n 1 "$R/boot/nextboot.conf" 2>/dev/null | grep -qx 'nextboot_enable="YES"'; then
		tail -n +2 "$R/boot/nextboot.conf" >>"$FAKE_KENV" &&
		sed -i '1s/.*/nextboot_enable="NO" /' "$R/boot/nextboot.conf"
	fi
}

test_expect_success 'the stand-in loader model boots loader.conf.local, then a pending nextboot.conf once' '
	printf "a=\"1\"\n" >"$R/boot/loader.conf.local" &&
	printf "nextboot_enable=\"YES\"\na=\"2\"\n" >"$R/boot/nextboot.conf" &&
	boot && test "$(kenv -q a)" = 2 &&
	boot && test "$(kenv -q a)" = 1 &&
	rm "$R/boot/nextboot.conf" && printf "kern.hz=\"100\"\n" >"$R/boot/loader.conf.local" && boot && : >"$FAKE_LOG"
'
printf "net.isr.maxthreads=-1\nnet.isr.bindthreads=1\n" >"$TRASH/b.conf"

test_expect_success 'a dry run names the trial and runs nothing' '
	ntune apply --os freebsd --trial-boot --dry-run --root "$R" b.conf >out &&
	grep -q "net.isr.maxthreads .*(would try for one boot)" out &&
	test ! -s "$FAKE_LOG" && test ! -e "$R/boot/nextboot.conf"
'
test_expect_success 'apply --trial-boot runs nextboot -e for each loader tunable and leaves loader.conf.local' '
	ntune apply --os freebsd --trial-boot --root "$R" b.conf >out &&
	cat out &&
	grep -qx "nextboot -e net.isr.maxthreads=-1 -e net.isr.bindthreads=1" "$FAKE_LOG" &&
	grep -q "net.isr.maxthreads .*(next boot only, nextboot)" out &&
	grep -q "^one-boot trial: reboot, then .ntune confirm .*. keeps 2 boot-time settings" out &&
	! grep -q "persisted in" out &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local" &&
	ntune history --json >h.json &&
	python3 -c "import json; e=json.load(open(\"h.json\"))[0]; assert e[\"state\"]==\"applied\", e" &&
	test_history_first e.json &&
	python3 -c "import json; e=json.load(open(\"e.json\")); assert [c[\"action\"] for c in e[\"changes\"]]==[\"trial\",\"trial\"] and not e[\"confirmed\"], e"
'
test_expect_success 'confirm before the reboot keeps nothing and says why' '
	test_expect_code 1 ntune confirm 2>err &&
	grep -q "this boot did not have the trial (kenv): it is not kept" err &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local"
'
test_expect_success 'after the trial boot, confirm writes the tried values into loader.conf.local' '
	boot && test "$(kenv -q net.isr.maxthreads)" = -1 &&
	ntune confirm >out && cat out && grep -q "^confirmed " out &&
	grep -qx "kern.hz=\"100\"" "$R/boot/loader.conf.local" &&
	grep -qx "net.isr.maxthreads=\"-1\"" "$R/boot/loader.conf.local" &&
	grep -qx "net.isr.bindthreads=\"1\"" "$R/boot/loader.conf.local" &&
	boot && test "$(kenv -q net.isr.bindthreads)" = 1
'
test_expect_success 'revert of a confirmed trial restores loader.conf.local' '
	ntune revert >/dev/null &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local" && boot
'
test_expect_success 'a trial boot that did not come up: confirm refuses, revert keeps the files as they were' '
	: >"$FAKE_LOG" &&
	ntune apply --os freebsd --trial-boot --root "$R" b.conf >/dev/null &&
	sed -i "1s/.*/nextboot_enable=\"NO\" /" "$R/boot/nextboot.conf" && boot &&
	test_expect_code 1 ntune confirm 2>err &&
	grep -q "this boot did not have the trial (kenv)" err &&
	ntune revert >/dev/null &&
	! head -n 1 "$R/boot/nextboot.conf" | grep -q YES &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local" && rm "$R/boot/nextboot.conf"
'
test_expect_success 'revert of a trial before its reboot runs nextboot -D' '
	ntune apply --os freebsd --trial-boot --root "$R" b.conf >/dev/null && : >"$FAKE_LOG" &&
	ntune revert >/dev/null &&
	tail -n 1 "$FAKE_LOG" | grep -qx "nextboot -D" && test ! -e "$R/boot/nextboot.conf" &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local"
'
test_expect_success 'a nextboot configuration already waiting stops the trial before anything changes' '
	printf "nextboot_enable=\"YES\"\nkernel=\"kernel.old\"\n" >"$R/boot/nextboot.conf" && : >"$FAKE_LOG" &&
	test_expect_code 2 ntune apply --os freebsd --trial-boot --root "$R" b.conf 2>err &&
	grep -q "a nextboot(8) configuration is already waiting; nothing changed" err &&
	test ! -s "$FAKE_LOG" && grep -q kernel.old "$R/boot/nextboot.conf" && rm "$R/boot/nextboot.conf"
'
test_expect_success 'a failing nextboot fails apply and restores the boot files' '
	test_expect_code 1 env FAKE_NEXTBOOT_FAIL=1 "$NTUNE" apply --os opnsense --trial-boot --root "$R" b.conf 2>err &&
	grep -q "nextboot -e failed; everything restored" err &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local" &&
	ntune history --json | python3 -c "import json, sys; assert json.load(sys.stdin)[-1][\"state\"]==\"failed\""
'
test_expect_success 'without nextboot on PATH apply says so' '
	test_expect_code 1 env PATH=/usr/bin:/bin "$NTUNE" apply --os freebsd --trial-boot --root "$R" b.conf 2>err &&
	grep -q "nextboot -e failed; everything restored" err &&
	printf "kern.hz=\"100\"\n" | cmp - "$R/boot/loader.conf.local"
'
test_expect_success '--trial-boot is refused for Linux and with --no-persist (usage, exit 2)' '
	test_expect_code 2 ntune apply --os linux --trial-boot b.conf 2>err &&
	grep -q "trial-boot is for FreeBSD" err &&
	test_expect_code 2 ntune apply --os freebsd --trial-boot --no-persist b.conf 2>/dev/null
'
test_done
