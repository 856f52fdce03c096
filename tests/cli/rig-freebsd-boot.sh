#!/bin/sh
# The boot of the ssh rig's FreeBSD stand-in DUT (tests/cli/rig-freebsd.sh copies this to
# RIG/dut/boot-hook; scripts/ssh-rig.sh runs it in the DUT sshd's mount namespace at every boot).
# /proc/sys becomes a fresh tmpfs holding a FreeBSD MIB, one file per OID (net.isr.maxthreads is
# net/isr/maxthreads): the kernel's defaults (dut/fbsd-mib.conf), then what the loader reads in
# its order (stand/lua/config.lua: boot/loader.conf.local, then boot/nextboot.conf once when its
# first line is nextboot_enable="YES", which the loader then rewrites to "NO"), then rc's
# etc/sysctl.conf and etc/sysctl.conf.local, then dut/fbsd-after-boot.conf (a fault: a setting
# silently changed at boot). A loader or sysctl line naming an OID the kernel lacks is ignored.
# uname(1) says FreeBSD. Nothing here touches the real /proc/sys (this mount namespace only).
set -eu
D=$(cd "$(dirname "$0")" && pwd)
R=$D/root
mount -t tmpfs fbsd-mib /proc/sys
oid_path() { printf '/proc/sys/%s' "$(printf '%s' "$1" | tr . /)"; }
# The kernel's OIDs and their defaults: name=value lines.
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	f=$(oid_path "${line%%=*}")
	mkdir -p "${f%/*}"
	printf '%s\n' "${line#*=}" >"$f"
done <"$D/fbsd-mib.conf"
# name="value" (loader) or name=value (sysctl.conf) lines of file $1 into the OIDs that exist.
load() {
	sed -n -e 's/^\([A-Za-z0-9_.%-]*\)="\(.*\)"$/\1=\2/p' -e 's/^\([A-Za-z0-9_.%-]*\)=\([^"]*\)$/\1=\2/p' "$1" |
	while IFS= read -r kv; do
		f=$(oid_path "${kv%%=*}")
		[ -f "$f" ] && printf '%s\n' "${kv#*=}" >"$f"
	done
	return 0
}
[ -f "$R/boot/loader.conf.local" ] && load "$R/boot/loader.conf.local"
if [ -f "$R/boot/nextboot.conf" ] && head -n 1 "$R/boot/nextboot.conf" | grep -qx 'nextboot_enable="YES"'; then
	tail -n +2 "$R/boot/nextboot.conf" >"$D/nextboot.used"
	load "$D/nextboot.used"
	sed -i '1s/.*/nextboot_enable="NO"/' "$R/boot/nextboot.conf"
	echo "$(date +%s) nextboot" >>"$D/loader.log"
fi
for f in "$R/etc/sysctl.conf" "$R/etc/sysctl.conf.local" "$D/fbsd-after-boot.conf"; do
	[ -f "$f" ] && load "$f"
done
mount --bind "$D/fbsd-uname" "$(command -v uname)"
exit 0
