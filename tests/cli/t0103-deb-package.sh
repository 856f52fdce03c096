#!/bin/sh
# The Debian package: `dpkg-buildpackage -us -uc -b` on a copy of the tree builds a
# .deb that lintian passes without errors, and the ntune unpacked from it (dpkg -x
# into a throw-away root, nothing installed on this machine) runs and reads the
# knowledge base it ships under usr/share/ntune.
# Long (a full package build, about 2 minutes on 2 cores): runs with NTUNE_TEST_LONG=1
# (`make deb-check`); the package's own build runs the unit and fuzz suites, left out
# here (DEB_BUILD_OPTIONS=nocheck) because `make check` runs them anyway.
. "$(dirname "$0")/lib.sh"

test_prereq_LONG() { [ "${NTUNE_TEST_LONG:-0}" = 1 ]; }
test_prereq_DEBBUILD() {
	command -v dpkg-buildpackage >/dev/null 2>&1 && command -v dh >/dev/null 2>&1 &&
		command -v lintian >/dev/null 2>&1
}

version=$(sed -n "s/^ *version : '\([^']*\)'.*/\1/p" "$SRCDIR/meson.build" | head -n 1)
deb="$TRASH/ntune_${version}_amd64.deb"

copy_tree() {
	mkdir -p "$1" &&
	if git -C "$SRCDIR" rev-parse --show-toplevel >/dev/null 2>&1; then
		(cd "$SRCDIR" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - -cf -) | tar -xf - -C "$1"
	else
		(cd "$SRCDIR" && tar --exclude="./build*" --exclude=./.git -cf - .) | tar -xf - -C "$1"
	fi
}

test_expect_success LONG,DEBBUILD 'dpkg-buildpackage -us -uc -b builds ntune_VERSION_amd64.deb' '
	test -n "$version" &&
	copy_tree "$TRASH/ntune-$version" &&
	{ (cd "$TRASH/ntune-$version" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >build.log 2>&1 ||
		{ grep -E "error|warning" build.log | tail -20; false; }; } &&
	test -f "$deb"
'
test_expect_success LONG,DEBBUILD 'it holds ntune, ntune(8) and the knowledge base under /usr/share/ntune' '
	dpkg-deb -c "$deb" | awk "{ print \$6 }" >contents &&
	grep -qx "./usr/sbin/ntune" contents &&
	grep -qx "./usr/share/man/man8/ntune.8.gz" contents &&
	grep -qx "./usr/share/ntune/knobs/freebsd/netisr.knob" contents &&
	grep -q "^./usr/share/ntune/profiles/..*" contents &&
	dpkg-deb -f "$deb" Depends | grep -q libjansson
'
test_expect_success LONG,DEBBUILD 'lintian reports no error' '
	{ lintian "$deb" >lintian.out 2>&1 || :; } && cat lintian.out &&
	! grep "^E: " lintian.out
'
test_expect_success LONG,DEBBUILD 'the unpacked ntune runs inspect and explain from its own share directory' '
	dpkg -x "$deb" root &&
	env -u NTUNE_SHARE root/usr/sbin/ntune --version >version.out &&
	grep -qx "ntune $version" version.out &&
	env -u NTUNE_SHARE root/usr/sbin/ntune inspect --json >inspect.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d[\"cpu\"][\"threads\"] >= 1 else 1)" inspect.json &&
	env -u NTUNE_SHARE root/usr/sbin/ntune explain net.isr.maxthreads >explain.out &&
	grep -q "net.isr.maxthreads" explain.out &&
	rm root/usr/share/ntune/knobs/freebsd/netisr.knob &&
	test_must_fail env -u NTUNE_SHARE root/usr/sbin/ntune explain net.isr.maxthreads 2>err
'
test_done
