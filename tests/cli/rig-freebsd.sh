# Sourced after lib.sh and before rig.sh by the tests of a FreeBSD DUT on the ssh rig (t6310,
# t6311, t6312). The rig's DUT is a Linux network namespace; what its ssh sessions see is made to look
# like FreeBSD 14 by stand-ins set up at each of its boots (rig-freebsd-boot.sh, the rig's
# boot-hook): uname(1) says FreeBSD, and /proc/sys is a tmpfs holding a FreeBSD MIB that the
# loader's and rc's files under the DUT's root fill at boot, so a reboot loses runtime changes
# and brings loader.conf.local and a one-boot nextboot.conf into force as on FreeBSD. A bench,
# tune or apply --dut reaches the DUT agentless (issue 35) through the stand-ins of
# tests/cli/standin/freebsd (sysctl over that MIB, daemon(8); fbsd_standins puts them on the DUT
# after rig.sh). ntune on the rig's hosts is the real binary; ntune-fbsd (--ntune) is ntune with
# `apply --os freebsd` (its OS choice, made with uname(2), cannot be stood in for): the DUT's
# is never used. nextboot(8) is a stand-in writing boot/nextboot.conf as
# sbin/reboot/nextboot.sh does on UFS (-e name=value, -D removes it).
# Not run here: FreeBSD's sysctl(3)/kenv(2) backend (src/os/freebsd.c, unit-tested on a fake MIB),
# the FreeBSD branch of the DUT counters (netstat -ibnd, kern.cp_times), a real loader.
RIG=$TRASH/rig
mkdir -p "$RIG/dut/root/boot" "$RIG/dut/root/etc" "$RIG/bin"
cp "$SRCDIR/tests/cli/rig-freebsd-boot.sh" "$RIG/dut/boot-hook"
chmod +x "$RIG/dut/boot-hook"
# The kernel's OIDs the tests use, with FreeBSD 14's defaults (share/knobs/freebsd: netisr.knob,
# iflib.knob, mitigations.knob, inet.knob, machdep.knob; dut0 is the device dut.0).
cat >"$RIG/dut/fbsd-mib.conf" <<-\EOF2
	kern.conftxt=options	SMP
	net.inet.ip.forwarding=1
	net.isr.dispatch=direct
	net.isr.maxthreads=1
	net.isr.bindthreads=0
	net.isr.defaultqlimit=256
	net.inet.ip.intr_queue_maxlen=256
	kern.random.harvest.mask=511
	machdep.hyperthreading_intr_allowed=0
	dev.dut.0.iflib.rx_budget=0
EOF2
cat >"$RIG/dut/fbsd-uname" <<-\EOF2
	#!/bin/sh
	# uname(1) of the FreeBSD stand-in DUT.
	case ${1:-} in
	-a) echo "FreeBSD dut 14.3-RELEASE FreeBSD 14.3-RELEASE GENERIC amd64" ;;
	-n) echo dut ;;
	-r) echo 14.3-RELEASE ;;
	-m|-p) echo amd64 ;;
	*) echo FreeBSD ;;
	esac
EOF2
cat >"$RIG/bin/nextboot" <<EOF2
#!/bin/sh
# nextboot(8) stand-in: -e var=value -> var="value" after nextboot_enable="YES" (as
# sbin/reboot/nextboot.sh writes /boot/nextboot.conf on UFS), -D removes the file.
echo "nextboot \$*" >>"$RIG/dut/nextboot.log"
if [ "\$1" = -D ]; then rm -f "$RIG/dut/root/boot/nextboot.conf"; exit 0; fi
out='nextboot_enable="YES"'
while getopts e: o; do
	[ "\$o" = e ] || exit 1
	out="\$out
\${OPTARG%%=*}=\"\${OPTARG#*=}\""
done
printf '%s\n' "\$out" >"$RIG/dut/root/boot/nextboot.conf"
EOF2
cat >"$RIG/bin/ntune-fbsd" <<EOF2
#!/bin/sh
# ntune as on FreeBSD: apply plans for FreeBSD (ntune picks its OS with uname(2)).
if [ "\${1:-}" = apply ]; then shift; exec "$NTUNE" apply --os freebsd "\$@"; fi
exec "$NTUNE" "\$@"
EOF2
chmod +x "$RIG/dut/fbsd-uname" "$RIG/bin/nextboot" "$RIG/bin/ntune-fbsd"
# The DUT's journal of agentless applies (rig.sh's dut_clean reads it).
DUT_J=$RIG/dut/root/var/db/ntune-agentless
# After rig.sh: the stand-ins an agentless apply runs on the DUT.
fbsd_standins() { cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"; }
# An OID as the DUT's ssh sessions see it.
fbsd_oid() { ip netns exec "$N-ctl" ssh -F "$RIG/ssh_config" -o BatchMode=yes dut cat "/proc/sys/$(echo "$1" | tr . /)"; }

# The reboot tests (t6311, t6312): their hosts, and what a user checks afterwards — the
# boot-time and runtime values as at the start, nothing of ours left for the next boot, no
# journal entry applied (rig.sh's dut_clean).
FBSD_REBOOT_HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --ntune ntune-fbsd
	--dut-root $RIG/dut/root --reboot-timeout 90 --reboot-settle 0.5"
restored() {
	test "$(fbsd_oid net.isr.maxthreads)" = 1 && test "$(fbsd_oid net.isr.bindthreads)" = 0 &&
	test "$(fbsd_oid net.isr.dispatch)" = direct &&
	! grep -qs "net.isr" "$RIG/dut/root/boot/loader.conf.local" &&
	! grep -qs 'nextboot_enable="YES"' "$RIG/dut/root/boot/nextboot.conf" &&
	dut_clean ||
	{ echo "not restored: $(fbsd_oid net.isr.maxthreads) $(fbsd_oid net.isr.bindthreads) $(fbsd_oid net.isr.dispatch)"; false; }
}
