#!/bin/sh
# port-plist.sh BUILDDIR: prints the FreeBSD port's pkg-plist for what
# `meson install` from BUILDDIR installs (packaging/freebsd/net-mgmt/ntune/pkg-plist):
# paths relative to the prefix, share/ntune as %%DATADIR%%, manual pages
# gzip'd as the ports framework installs them. `make port-plist` rewrites the file.
set -eu
[ $# = 1 ] || { echo "usage: port-plist.sh BUILDDIR" >&2; exit 2; }
build=$1
[ -f "$build/meson-info/intro-buildoptions.json" ] || { echo "port-plist.sh: '$build' is not a Meson build directory" >&2; exit 2; }
prefix=$(python3 -c 'import json, sys
print(next(o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == "prefix"))' \
	"$build/meson-info/intro-buildoptions.json")
dest=$(mktemp -d "${TMPDIR:-/tmp}/ntune-plist.XXXXXX")
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >/dev/null
[ -d "$dest$prefix" ] || { echo "port-plist.sh: nothing installed under $prefix" >&2; exit 1; }
(cd "$dest$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||') |
	sed -e 's|^share/ntune/|%%DATADIR%%/|' -e 's|^\(share/man/man[1-9]/.*\.[1-9]\)$|\1.gz|' |
	LC_ALL=C sort
