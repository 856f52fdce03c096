#!/bin/sh
# deps.sh check|install|tuned-profiles: are the build/test dependencies present; install them with
# apt-get; extract TuneD's profiles only (install does that too).
# python3-yaml: t3700 reads the exported Ansible playbook back with a YAML parser.
# iputils-ping: the learning ping before a remote run's generator (t6214).
# debhelper/lintian/dpkg-dev/man-db/build-essential: t0103 (the .deb, in make check-full: dpkg-buildpackage
# refuses without build-essential, "Unmet build dependencies: build-essential:native"); lld/file/binutils: t0101 (make freebsd-check,
# whose FreeBSD root ../shared/tools/freebsd-sysroot makes and installs its own tools for).
# TuneD's own profiles (t3014, bench/tune-vs.sh): Debian's tuned package is downloaded and its
# usr/lib/tuned extracted to $TUNED_PEERS/VERSION ('current' links to it); it is never installed
# (its daemon would retune the host) and nothing of it goes into the repository (GPL text).
set -eu
TUNED_PEERS=${NTUNE_PEERS:-/usr/local/share/ntune/peers}/tuned
PKGS="meson ninja-build gcc clang pkg-config libcmocka-dev libjansson-dev libncurses-dev
libclang-rt-14-dev mandoc iproute2 nftables ethtool tmux chromium ministat iperf3
netsniff-ng hyperfine procps kmod pci.ids python3 util-linux iputils-ping
debhelper lintian dpkg-dev man-db build-essential fakeroot lld file binutils openssh-client openssh-server tcsh
dash busybox shellcheck python3-yaml"
CMDS="meson ninja gcc clang pkg-config mandoc ip nft ethtool tmux chromium python3 flock setsid ssh ssh-keygen
dpkg-buildpackage dh lintian man iperf3 ministat ping sshd ld.lld file readelf tcsh dash busybox shellcheck"
LIBS="cmocka jansson ncursesw"
# Packages that put no command of their own on PATH, checked with dpkg-query.
DEBS="build-essential libclang-rt-14-dev"

check() {
	for c in $CMDS; do
		command -v "$c" >/dev/null 2>&1 || { echo "deps: missing command '$c'" >&2; return 1; }
	done
	for l in $LIBS; do
		pkg-config --exists "$l" 2>/dev/null || { echo "deps: missing library '$l'" >&2; return 1; }
	done
	command -v dpkg-query >/dev/null 2>&1 || return 0
	for d in $DEBS; do
		dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "ok installed" ||
			{ echo "deps: missing package '$d'" >&2; return 1; }
	done
}

install() {
	if [ "$(id -u)" != 0 ]; then
		echo "deps: run 'make deps' as root (apt-get needs it)" >&2
		exit 2
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $PKGS
	tuned_profiles || echo "deps: TuneD's profiles not extracted; t3014 and bench/tune-vs.sh need them" >&2
}

# Downloads (never installs) Debian's tuned and extracts its profiles, once per version.
tuned_profiles() {
	v=$(apt-cache policy tuned 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
	case "$v" in ""|"(none)") echo "deps: apt knows no 'tuned' package" >&2; return 1 ;; esac
	dest="$TUNED_PEERS/$(printf %s "$v" | tr : _)"
	if [ -f "$dest/network-throughput/tuned.conf" ] && [ -f "$dest/python/tuned/profiles/loader.py" ]; then
		echo "deps: TuneD $v profiles already in $dest"
	else
		tmp=$(mktemp -d) || return 1
		chown _apt "$tmp" 2>/dev/null || :	# apt-get download writes as _apt where it can
		if ! (cd "$tmp" && apt-get download -qq "tuned=$v" >/dev/null) ||
		    ! dpkg-deb -x "$tmp"/tuned_*.deb "$tmp/x" || [ ! -d "$tmp/x/usr/lib/tuned" ]; then
			rm -rf "$tmp"
			return 1
		fi
		# its Python package too: t3507 runs TuneD's own profile loader on it (PYTHONPATH),
		# no daemon, nothing installed
		mkdir -p "$TUNED_PEERS" && rm -rf "$dest.new" && cp -R "$tmp/x/usr/lib/tuned" "$dest.new" &&
		    { [ ! -d "$tmp/x/usr/lib/python3/dist-packages/tuned" ] || { mkdir -p "$dest.new/python" &&
		    cp -R "$tmp/x/usr/lib/python3/dist-packages/tuned" "$dest.new/python/"; }; } &&
		    rm -rf "$dest" && mv "$dest.new" "$dest" || { rm -rf "$tmp" "$dest.new"; return 1; }
		rm -rf "$tmp"
		echo "deps: TuneD $v profiles extracted (apt-get download tuned=$v, dpkg-deb -x, not installed) to $dest: $(ls "$dest" | wc -l) entries"
	fi
	ln -sfn "$(basename "$dest")" "$TUNED_PEERS/current"
	printf '%s\n' "$v" >"$dest/.tuned-version"
}

case "${1:-check}" in
check) check ;;
install) install ;;
tuned-profiles) tuned_profiles ;;
*) echo "usage: deps.sh check|install|tuned-profiles" >&2; exit 2 ;;
esac
