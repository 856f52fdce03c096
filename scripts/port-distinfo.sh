#!/bin/sh
# port-distinfo.sh PORTDIR [DISTDIR]: run in a checkout, writes ntune-VERSION.tar.gz (git
# archive of HEAD, with the ntune-VERSION/ prefix the port's WRKSRC expects) into DISTDIR
# (default: the current directory) and
# PORTDIR/distinfo for it, as `make makesum` would from a published distfile. The
# tarball changes with every commit, so neither file is committed.
set -eu
[ $# = 1 ] || [ $# = 2 ] || { echo "usage: port-distinfo.sh PORTDIR [DISTDIR]" >&2; exit 2; }
port=$1 distdir=${2:-.}
version=$(sed -n 's/^DISTVERSION=[[:space:]]*//p' "$port/Makefile")
[ -n "$version" ] || { echo "port-distinfo.sh: no DISTVERSION in $port/Makefile" >&2; exit 1; }
name=ntune-$version.tar.gz
git archive --format=tar.gz --prefix="ntune-$version/" -o "$distdir/$name" HEAD
{
	echo "TIMESTAMP = $(date +%s)"
	echo "SHA256 ($name) = $(sha256sum "$distdir/$name" | cut -d' ' -f1)"
	echo "SIZE ($name) = $(wc -c <"$distdir/$name" | tr -d ' ')"
} >"$port/distinfo"
echo "port-distinfo.sh: wrote $distdir/$name and $port/distinfo" >&2
