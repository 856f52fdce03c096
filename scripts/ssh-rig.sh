#!/bin/sh
# ssh-rig.sh up|down|ssh DIR NAME: three "hosts" (network namespaces NAME-dut, NAME-gen,
# NAME-sink), each running its own OpenSSH server on a management bridge inside a fourth
# namespace NAME-ctl (the controller: run ntune there with `ip netns exec NAME-ctl`).
# Data path as in `ntune lab`: gen0 198.18.0.1 -> dut0 198.18.0.2 | dut1 198.19.0.1 -> sink0 198.19.0.2,
# and over IPv6 2001:2:0:1::1 -> ::2 | 2001:2:0:2::1 -> ::2 (neighbours found by ND, not static).
# Management: 198.19.254.1 (ctl), .2 dut, .3 gen, .4 sink; ssh aliases dut, gen, sink in DIR/ssh_config.
#
# The DUT's reboot (shutdown, reboot, systemctl: all bound, inside the DUT sshd's private mount
# namespace only, to DIR/bin/rig-reboot) asks a supervisor to "reboot" it: sshd is killed (the
# connection drops), the namespace is deleted and made again after RIG_DOWN_S seconds, the DUT
# gets a new boot id (the file DIR/dut/boot_id, read through NTUNE_TEST_BOOT_ID: test only), its
# boot-time settings are applied again from DIR/dut/root/etc/sysctl.d/*.conf and its sshd restarted.
# DIR/ROLE/bin comes first on that host's PATH (a test's stand-ins for tools of one host).
# DIR/dut/boot-hook, when a test made it, runs in the DUT sshd's mount namespace before sshd at
# every boot (stand-ins mounted there are what the DUT's sessions see).
# RIG_CSH_ROLES (e.g. "dut gen"): those hosts run every ssh command line as OPNsense's root login
# shell does, with csh -c (tests/cli/standin/freebsd/opnsense-shell, by sshd's ForceCommand).
# Fault files: DIR/dut/never-back (the DUT stays down), DIR/dut/after-boot.conf (sysctl lines
# applied after the persisted ones: a setting silently changed at boot). After sshd, the units
# DIR/dut/root/etc/systemd/system/multi-user.target.wants/ names are started as systemd would
# (dut_units: only an ExecStart=/bin/sh PATH); on the FreeBSD-look DUT, the hooks its boot would
# run from under its root (dut_rc_freebsd: OPNsense's rc.syshook start, pfSense's
# rc.start_packages, stock FreeBSD's local_startup rc.d scripts).
# Everything is removed by `down`; all waits are bounded.
set -eu

usage() { echo "usage: ssh-rig.sh up|down|reboot-now DIR NAME" >&2; exit 2; }
[ $# = 3 ] || usage
CMD=$1 DIR=$2 NAME=$3
NTUNE_BIN=${NTUNE:-ntune}
SSHD=${SSHD:-/usr/sbin/sshd}
SRC=$(cd "$(dirname "$0")/.." && pwd)

mgmt_ip() { case $1 in dut) echo 198.19.254.2 ;; gen) echo 198.19.254.3 ;; sink) echo 198.19.254.4 ;; esac; }

# The data links of one host (its namespace exists; the peers' namespaces too).
dut_links() {
	ip link add dut0 netns "$NAME-dut" address 02:4e:54:12:00:02 type veth \
		peer name gen0 netns "$NAME-gen" address 02:4e:54:12:00:01
	ip link add dut1 netns "$NAME-dut" address 02:4e:54:13:00:01 type veth \
		peer name sink0 netns "$NAME-sink" address 02:4e:54:13:00:02
	ip -n "$NAME-dut" addr add 198.18.0.2/24 dev dut0
	ip -n "$NAME-dut" addr add 198.19.0.1/24 dev dut1
	ip -n "$NAME-dut" link set dut0 up
	ip -n "$NAME-dut" link set dut1 up
	ip -n "$NAME-dut" neigh replace 198.18.0.1 lladdr 02:4e:54:12:00:01 dev dut0 nud permanent
	ip -n "$NAME-dut" neigh replace 198.19.0.2 lladdr 02:4e:54:13:00:02 dev dut1 nud permanent
	ip -n "$NAME-dut" -6 addr add 2001:2:0:1::2/64 dev dut0 nodad
	ip -n "$NAME-dut" -6 addr add 2001:2:0:2::1/64 dev dut1 nodad
	ip netns exec "$NAME-dut" sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward; echo 1 >/proc/sys/net/ipv6/conf/all/forwarding'
	# As `ntune lab up` does: the DUT's ports segment in software, the tester's port does not segment.
	for i in dut0 dut1; do
		ip netns exec "$NAME-dut" ethtool -K "$i" tx-udp-segmentation off tx-gso-list off 2>/dev/null || :
	done
	ip netns exec "$NAME-gen" ethtool -K gen0 tso off 2>/dev/null || :
	# The peers' ends come back down with a new link: configure them again.
	ip -n "$NAME-gen" addr replace 198.18.0.1/24 dev gen0
	ip -n "$NAME-gen" link set gen0 up
	ip -n "$NAME-gen" route replace 198.19.0.0/24 via 198.18.0.2
	ip -n "$NAME-gen" neigh replace 198.18.0.2 lladdr 02:4e:54:12:00:02 dev gen0 nud permanent
	ip -n "$NAME-gen" -6 addr replace 2001:2:0:1::1/64 dev gen0 nodad
	ip -n "$NAME-gen" -6 route replace 2001:2:0:2::/64 via 2001:2:0:1::2
	ip -n "$NAME-sink" addr replace 198.19.0.2/24 dev sink0
	ip -n "$NAME-sink" link set sink0 up
	ip -n "$NAME-sink" route replace 198.18.0.0/24 via 198.19.0.1
	ip -n "$NAME-sink" neigh replace 198.19.0.1 lladdr 02:4e:54:13:00:01 dev sink0 nud permanent
	ip -n "$NAME-sink" -6 addr replace 2001:2:0:2::2/64 dev sink0 nodad
	ip -n "$NAME-sink" -6 route replace 2001:2:0:1::/64 via 2001:2:0:2::1
	# Test frames (UDP port 9) end at the sink's ingress, after its counters and packet taps.
	ip netns exec "$NAME-sink" nft -f - <<-EOF
	table netdev rig_sink
	delete table netdev rig_sink
	table netdev rig_sink {
		chain in { type filter hook ingress device sink0 priority 0; udp dport 9 drop; }
	}
	EOF
}

mgmt_link() { # ROLE
	ip link add "m-$1" netns "$NAME-ctl" type veth peer name mgmt0 netns "$NAME-$1"
	ip -n "$NAME-ctl" link set "m-$1" master mbr up
	ip -n "$NAME-$1" addr add "$(mgmt_ip "$1")/24" dev mgmt0
	ip -n "$NAME-$1" link set mgmt0 up
	ip -n "$NAME-$1" link set lo up
}

start_sshd() { # ROLE
	h=$DIR/$1
	rm -f "$h/sshd.pid"
	# Inside ip netns exec's own mount namespace, the DUT's reboot commands are the rig's. Each
	# host's home is an empty directory of its own (HOME, host_dirs' SetEnv): this machine's
	# /root/.bashrc, which bash reads for every ssh session, stays out (a pyenv init there made
	# every session wait 60 s for a stale lock on 2026-12-05, and the rig timed out). /root itself
	# stays visible: the tree under test may be a clone under /root.
	mkdir -p "$h/home"
	ip netns exec "$NAME-$1" sh -c '
		if [ "$1" = dut ]; then
			for c in /bin/systemctl /sbin/reboot /sbin/shutdown /usr/sbin/reboot /usr/sbin/shutdown; do
				[ -e "$c" ] && mount --bind "$2/bin/rig-reboot" "$c"
			done
			# A test may make the DUT look like another OS here, at every boot (t6310).
			if [ -x "$2/dut/boot-hook" ]; then "$2/dut/boot-hook" || exit 1; fi
		fi
		exec "$3" -f "$2/$1/sshd_config" -E "$2/$1/sshd.log"' rig "$1" "$DIR" "$SSHD"
	i=0
	until [ -s "$h/sshd.pid" ] && ip netns exec "$NAME-ctl" ssh -F "$DIR/ssh_config" \
	    -o BatchMode=yes -o ConnectTimeout=1 "$1" true 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "ssh-rig: sshd for $1 did not start" >&2; cat "$h/sshd.log" >&2; return 1; }
		sleep 0.1
	done
}

host_dirs() { # ROLE
	h=$DIR/$1
	mkdir -p "$h/state" "$h/root/etc/sysctl.d" "$h/bin"
	ssh-keygen -q -t ed25519 -N '' -f "$h/ssh_host_ed25519_key" -C "rig-$1"
	cat >"$h/sshd_config" <<-EOF
	ListenAddress $(mgmt_ip "$1")
	HostKey $h/ssh_host_ed25519_key
	PidFile $h/sshd.pid
	AuthorizedKeysFile $DIR/id_ed25519.pub
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	PrintMotd no
	SetEnv HOME=$h/home NTUNE_DEADMAN=fork NTUNE_STATE_DIR=$h/state NTUNE_TEST_BOOT_ID=$h/boot_id NTUNE_RIG_HOST=$1 PATH=$h/bin:$DIR/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	EOF
	case " ${RIG_CSH_ROLES:-} " in
	*" $1 "*) echo "ForceCommand cd \"\$HOME\" && exec $SRC/tests/cli/standin/freebsd/opnsense-shell -c \"\$SSH_ORIGINAL_COMMAND\"" \
		>>"$h/sshd_config" ;;
	esac
	echo "$(mgmt_ip "$1") $(cut -d' ' -f1,2 "$h/ssh_host_ed25519_key.pub")" >>"$DIR/known_hosts"
	cat /proc/sys/kernel/random/uuid >"$h/boot_id"
}

# The boot of the DUT: settings persisted under its root come back, then the faults asked for.
dut_boot() {
	for f in "$DIR"/dut/root/etc/sysctl.d/*.conf "$DIR/dut/after-boot.conf"; do
		[ -f "$f" ] || continue
		grep -E '^[a-z0-9_./-]+ *= *[^;&|`$]*$' "$f" | while IFS='=' read -r k v; do
			k=$(echo "$k" | tr -d ' ' | tr . /); v=$(echo "$v" | sed 's/^ *//')
			ip netns exec "$NAME-dut" sh -c 'printf "%s\n" "$2" >"/proc/sys/$1"' x "$k" "$v" || :
		done
	done
}

# systemd's start of the units multi-user.target wants, for those under the DUT's root (ntune's
# agentless boot guard, t6329): a unit whose ExecStart= is `/bin/sh PATH` (a plain path) runs
# detached in the DUT's namespace, its output in DIR/dut/units.log; the rig runs nothing else.
dut_units() {
	for u in "$DIR"/dut/root/etc/systemd/system/multi-user.target.wants/*.service; do
		[ -f "$u" ] || continue
		x=$(sed -n 's|^ExecStart=/bin/sh \([A-Za-z0-9_./-]*\)$|\1|p' "$u")
		[ -n "$x" ] || continue
		echo "$(date +%s) start ${u##*/}: sh $x" >>"$DIR/dut/units.log"
		ip netns exec "$NAME-dut" setsid sh "$x" </dev/null >>"$DIR/dut/units.log" 2>&1 &
	done
}

# The FreeBSD-look DUT's boot (tests/cli/rig-freebsd.sh wrote DIR/dut/fbsd-mib.conf), after its
# MIB and sysctl files (the boot-hook) and sshd: the late step of each platform's boot that runs
# what was installed under its root (ntune's agentless boot guard hook, t6333), in the DUT sshd's
# mount namespace (the MIB, the stand-ins) with the DUT's PATH, output in DIR/dut/rc.log:
# - OPNsense (root/usr/local/opnsense/version): its /etc/rc runs `rc.syshook start`, which runs
#   every file of usr/local/etc/rc.syshook.d/start in sorted order, with no argument
#   (opnsense/core src/etc/rc, src/etc/rc.syshook);
# - pfSense (root/etc/platform says pfSense): /etc/pfSense-rc runs rc.start_packages, which runs
#   each usr/local/etc/rc.d/*.sh with `start` in the background (pfsense/pfsense
#   src/etc/pfSense-rc, src/etc/rc.start_packages);
# - stock FreeBSD: /etc/rc's second rcorder pass sources, in a subshell after `set faststart`,
#   each executable usr/local/etc/rc.d file with a `# PROVIDE:` line (freebsd-src
#   libexec/rc/rc; rc.subr find_local_scripts_new, run_rc_script); in name order here, not
#   rcorder's. Nothing else of those boots runs here.
dut_rc_freebsd() {
	[ -f "$DIR/dut/fbsd-mib.conf" ] || return 0
	echo "$(date +%s) boot $(cat "$DIR/dut/boot_id")" >>"$DIR/dut/rc.log"
	nsenter -t "$(cat "$DIR/dut/sshd.pid")" -m -n env PATH="$DIR/dut/bin:$DIR/bin:$PATH" sh -c '
		r=$1
		if [ -e "$r/usr/local/opnsense/version" ]; then
			for f in $(find "$r/usr/local/etc/rc.syshook.d/start" -type f 2>/dev/null | LC_ALL=C sort); do
				echo ">>> rc.syshook start: $f"; "$f" || echo ">>> error in $f"
			done
		elif grep -qs pfSense "$r/etc/platform"; then
			for f in "$r"/usr/local/etc/rc.d/*.sh; do
				[ -f "$f" ] || continue
				echo ">>> rc.start_packages: $f start"; "$f" start &
			done
		else
			for f in $(grep -l "^# PROVIDE:" "$r"/usr/local/etc/rc.d/* 2>/dev/null); do
				case $f in *.sample|*.pkgsave) continue ;; esac
				[ -x "$f" ] || continue
				echo ">>> rc: $f faststart"; (set faststart; . "$f")
			done
		fi' rig "$DIR/dut/root" </dev/null >>"$DIR/dut/rc.log" 2>&1 || :
}

reboot_dut() {
	[ -s "$DIR/dut/sshd.pid" ] && kill "$(cat "$DIR/dut/sshd.pid")" 2>/dev/null || :
	# Every session of the DUT goes with it, as on a real reboot.
	for p in $(ip netns pids "$NAME-dut" 2>/dev/null); do kill -9 "$p" 2>/dev/null || :; done
	ip netns del "$NAME-dut" 2>/dev/null || :
	echo "$(date +%s) down" >>"$DIR/dut/reboots"
	sleep "${RIG_DOWN_S:-2}"
	[ -e "$DIR/dut/never-back" ] && return 0
	ip netns add "$NAME-dut"
	dut_links
	mgmt_link dut
	cat /proc/sys/kernel/random/uuid >"$DIR/dut/boot_id"
	dut_boot
	start_sshd dut
	dut_units
	dut_rc_freebsd
	echo "$(date +%s) up $(cat "$DIR/dut/boot_id")" >>"$DIR/dut/reboots"
}

supervise() {
	while [ ! -e "$DIR/stop" ]; do
		if [ -e "$DIR/dut/reboot-request" ]; then
			rm -f "$DIR/dut/reboot-request"
			reboot_dut >>"$DIR/supervisor.log" 2>&1 || echo "reboot failed" >>"$DIR/supervisor.log"
		fi
		sleep 0.2
	done
}

up() {
	mkdir -p "$DIR/bin"
	DIR=$(cd "$DIR" && pwd)
	mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$DIR/id_ed25519" -C rig-controller
	: >"$DIR/known_hosts"
	cat >"$DIR/bin/rig-reboot" <<-EOF
	#!/bin/sh
	# ntune-rig-fake-reboot: the rig's DUT asks its supervisor for a reboot (never the machine's).
	touch "$DIR/dut/reboot-request"
	echo "rig: rebooting" >&2
	exit 0
	EOF
	chmod +x "$DIR/bin/rig-reboot"
	ln -sf "$(command -v "$NTUNE_BIN")" "$DIR/bin/ntune"
	for ns in ctl dut gen sink; do ip netns add "$NAME-$ns"; done
	ip -n "$NAME-ctl" link add mbr type bridge
	ip -n "$NAME-ctl" addr add 198.19.254.1/24 dev mbr
	ip -n "$NAME-ctl" link set mbr up
	ip -n "$NAME-ctl" link set lo up
	for r in gen sink dut; do mgmt_link "$r"; done
	dut_links
	for r in dut gen sink; do host_dirs "$r"; done
	cat >"$DIR/ssh_config" <<-EOF
	Host dut gen sink
	    User root
	    IdentityFile $DIR/id_ed25519
	    IdentitiesOnly yes
	    UserKnownHostsFile $DIR/known_hosts
	    GlobalKnownHostsFile /dev/null
	    LogLevel ERROR
	Host dut
	    HostName 198.19.254.2
	Host gen
	    HostName 198.19.254.3
	Host sink
	    HostName 198.19.254.4
	EOF
	for r in dut gen sink; do start_sshd "$r"; done
	# Never a real reboot: the DUT's reboot commands must be the rig's before anything runs.
	# (a script on stdin: the DUT's login shell may be csh, RIG_CSH_ROLES)
	echo 'for c in /bin/systemctl /sbin/shutdown /sbin/reboot; do grep -q ntune-rig-fake-reboot $c || exit 1; done' |
	    ip netns exec "$NAME-ctl" ssh -F "$DIR/ssh_config" -o BatchMode=yes dut sh -s || {
		echo "ssh-rig: the DUT's reboot command is not the rig's; refusing" >&2; down; exit 1; }
	setsid sh "$0" supervise "$DIR" "$NAME" </dev/null >/dev/null 2>&1 &
	echo $! >"$DIR/supervisor.pid"
}

down() {
	touch "$DIR/stop" 2>/dev/null || :
	[ -s "$DIR/supervisor.pid" ] && kill "$(cat "$DIR/supervisor.pid")" 2>/dev/null || :
	for r in dut gen sink; do
		[ -s "$DIR/$r/sshd.pid" ] && kill "$(cat "$DIR/$r/sshd.pid")" 2>/dev/null || :
	done
	for ns in dut gen sink ctl; do
		for p in $(ip netns pids "$NAME-$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || :; done
		ip netns del "$NAME-$ns" 2>/dev/null || :
	done
}

case $CMD in
up) up ;;
down) down ;;
supervise) supervise ;;
reboot-now) reboot_dut ;;
*) usage ;;
esac
