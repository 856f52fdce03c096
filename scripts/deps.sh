#!/bin/sh
# deps.sh check|install: are the build/test dependencies present; install them with apt-get.
# iputils-ping: the learning ping before a remote run's generator (t6214).
# debhelper/lintian/dpkg-dev/man-db: t0103 (the .deb, in make check); lld/file/binutils: t0101 (make freebsd-check,
# whose FreeBSD root ../shared/tools/freebsd-sysroot makes and installs its own tools for).
set -eu
PKGS="meson ninja-build gcc clang pkg-config libcmocka-dev libjansson-dev libncurses-dev
libclang-rt-14-dev mandoc iproute2 nftables ethtool tmux chromium ministat iperf3
netsniff-ng hyperfine procps kmod pci.ids python3 util-linux iputils-ping
debhelper lintian dpkg-dev man-db lld file binutils openssh-client openssh-server"
CMDS="meson ninja gcc clang pkg-config mandoc ip nft ethtool tmux chromium python3 flock setsid ssh ssh-keygen
dpkg-buildpackage dh lintian man"
LIBS="cmocka jansson ncursesw"

check() {
	for c in $CMDS; do
		command -v "$c" >/dev/null 2>&1 || { echo "deps: missing command '$c'" >&2; return 1; }
	done
	for l in $LIBS; do
		pkg-config --exists "$l" 2>/dev/null || { echo "deps: missing library '$l'" >&2; return 1; }
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
}

case "${1:-check}" in
check) check ;;
install) install ;;
*) echo "usage: deps.sh check|install" >&2; exit 2 ;;
esac
