#!/bin/sh
# The FreeBSD port (packaging/freebsd/net-mgmt/ntune) and the Debian package
# (debian/) describe what the build really installs and carry its version.
. "$(dirname "$0")/lib.sh"

port="$SRCDIR/packaging/freebsd/net-mgmt/ntune"
build=$(dirname "$NTUNE")

test_expect_success 'pkg-plist lists exactly what meson install --destdir installs' '
	"$SRCDIR/scripts/port-plist.sh" "$build" >want &&
	LC_ALL=C sort "$port/pkg-plist" >have &&
	{ diff -u have want || { echo "pkg-plist is stale: make port-plist"; false; }; }
'
test_expect_success 'the plist holds the binary, the manual and the knowledge base' '
	grep -qx "sbin/ntune" "$port/pkg-plist" &&
	grep -qx "share/man/man8/ntune.8.gz" "$port/pkg-plist" &&
	grep -qx "%%DATADIR%%/knobs/freebsd/netisr.knob" "$port/pkg-plist"
'
test_expect_success 'the port, the Debian changelog and meson.build give one version' '
	v=$(sed -n "s/^ *version : '"'"'\([^'"'"']*\)'"'"'.*/\1/p" "$SRCDIR/meson.build" | head -n 1) &&
	test -n "$v" &&
	grep -q "^DISTVERSION=[[:space:]]*$v\$" "$port/Makefile" &&
	head -n 1 "$SRCDIR/debian/changelog" | grep -q "^ntune ($v)"
'
test_expect_success 'the port uses meson, a C11 compiler, ncurses, pkgconfig and jansson' '
	grep -q "^USES=.*compiler:c11" "$port/Makefile" && grep -q "^USES=.*meson" "$port/Makefile" &&
	grep -q "^USES=.*ncurses" "$port/Makefile" && grep -q "^USES=.*pkgconfig" "$port/Makefile" &&
	grep -q "^LIB_DEPENDS=.*libjansson.so:devel/jansson" "$port/Makefile"
'
test_expect_success 'LICENSE is BSD-2-Clause; the port and debian/copyright carry it' '
	grep -qx "Copyright (c) 2026 The ntune authors" "$SRCDIR/LICENSE" &&
	grep -q "^LICENSE=[[:space:]]*BSD2CLAUSE\$" "$port/Makefile" &&
	grep -q "^LICENSE_FILE=[[:space:]]*\${WRKSRC}/LICENSE\$" "$port/Makefile" &&
	grep -q "^MAINTAINER=[[:space:]]*ports@FreeBSD.org\$" "$port/Makefile" &&
	grep -q "license : '"'"'BSD-2-Clause'"'"'" "$SRCDIR/meson.build" &&
	words() { sed -n "/Redistribution and use/,/SUCH DAMAGE/p" "$1" | sed "s/^ \.\$//" | tr -s " \n\t" "\n\n\n" | grep -v "^\$"; } &&
	words "$SRCDIR/LICENSE" >license.words &&
	words "$SRCDIR/debian/copyright" >copyright.words &&
	test "$(wc -l <license.words)" -gt 150 &&
	diff -u license.words copyright.words
'
test_prereq_GIT_CHECKOUT() { git -C "$SRCDIR" rev-parse HEAD >/dev/null 2>&1; }
test_expect_success GIT_CHECKOUT 'port-distinfo.sh writes a distinfo that matches its git archive' '
	mkdir p && cp "$port/Makefile" p/ &&
	(cd "$SRCDIR" && scripts/port-distinfo.sh "$TRASH/p" "$TRASH") 2>/dev/null &&
	v=$(sed -n "s/^DISTVERSION=[[:space:]]*//p" p/Makefile) &&
	grep -qx "SHA256 (ntune-$v.tar.gz) = $(sha256sum "ntune-$v.tar.gz" | cut -d" " -f1)" p/distinfo &&
	grep -qx "SIZE (ntune-$v.tar.gz) = $(wc -c <"ntune-$v.tar.gz" | tr -d " ")" p/distinfo &&
	tar -tzf "ntune-$v.tar.gz" | grep -qx "ntune-$v/meson.build"
'
test_done
