#!/bin/sh
# The Debian package as a user gets it: `dpkg-buildpackage -us -uc -b` on a copy of
# the tree (whose own build runs the unprivileged unit, fuzz and CLI tests; those
# that need root skip with "missing ROOT"), lintian, then `dpkg --root` into a
# throw-away root with an empty dpkg database of its own (nothing is installed on
# this machine; --force-depends because that database does not hold libc6 and
# libjansson4, which this machine has), and the installed ntune, ntune(8) and
# /usr/share/ntune used from there, and removed again.
# About 4 minutes on 2 busy cores. Runs once per `make check-full`: not in the ASan run
# (the package is built from the sources, not from that build) and not inside the
# package's own test run (NTUNE_IN_DEB_BUILD, debian/rules), which would recurse.
# test-set: full
. "$(dirname "$0")/lib.sh"

test_prereq_DEBBUILD() {
	command -v dpkg-buildpackage >/dev/null 2>&1 && command -v dh >/dev/null 2>&1 &&
		command -v lintian >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1
}
test_prereq_NOT_IN_DEB_BUILD() { [ "${NTUNE_IN_DEB_BUILD:-0}" != 1 ]; }
test_prereq_MAN() { command -v man >/dev/null 2>&1; }
test_require DEBBUILD,NOT_SANITIZED,NOT_IN_DEB_BUILD

version=$(sed -n "s/^ *version : '\([^']*\)'.*/\1/p" "$SRCDIR/meson.build" | head -n 1)
arch=$(dpkg --print-architecture)
deb="$TRASH/ntune_${version}_$arch.deb"
src="$TRASH/ntune-$version"
root="$TRASH/root"
installed() { env -u NTUNE_SHARE "$root/usr/sbin/ntune" "$@"; }

copy_tree() {
	mkdir -p "$1" &&
	if git -C "$SRCDIR" rev-parse --show-toplevel >/dev/null 2>&1; then
		(cd "$SRCDIR" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - -cf -) | tar -xf - -C "$1"
	else
		(cd "$SRCDIR" && tar --exclude="./build*" --exclude=./.git -cf - .) | tar -xf - -C "$1"
	fi
}

test_expect_success 'dpkg-buildpackage -us -uc -b builds ntune_VERSION_ARCH.deb' '
	test -n "$version" &&
	copy_tree "$src" &&
	start=$(date +%s) &&
	{ (cd "$src" && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -us -uc -b) >build.log 2>&1 ||
		{ tail -40 build.log; false; }; } &&
	test_say "# dpkg-buildpackage took $(( $(date +%s) - start )) s" &&
	test -f "$deb"
'
test_expect_success 'the package build ran the unit, fuzz and CLI tests; root-only ones skipped, saying why' '
	grep -q "meson test .*--suite unit --suite fuzz --suite cli" build.log &&
	grep -Eq "^ *[0-9]+/[0-9]+ ntune:unit[+a-z-]* / test_kb_profile +OK " build.log &&
	grep -Eq "^ *[0-9]+/[0-9]+ ntune:fuzz[+a-z-]* / .* OK " build.log &&
	grep -Eq "^ *[0-9]+/[0-9]+ ntune:cli[+a-z-]* / t4003-apply-trial-boot +OK " build.log &&
	grep -Eq "^ *[0-9]+/[0-9]+ ntune:cli[+a-z-]* / t4100-apply-ns-revert +SKIP " build.log &&
	grep -Eq "^Fail: +0 *$" build.log &&
	test "$(sed -n "s/^Ok: *\([0-9]*\).*/\1/p" build.log)" -ge 60 &&
	log=$(echo "$src"/obj-*/meson-logs/testlog.txt) && test -f "$log" &&
	grep -q "^1\.\.0 # SKIP missing ROOT$" "$log"
'
test_expect_success 'it holds ntune, ntune(8) and the knowledge base under /usr/share/ntune' '
	dpkg-deb -c "$deb" | awk "{ print \$6 }" >contents &&
	grep -qx "./usr/sbin/ntune" contents &&
	grep -qx "./usr/share/man/man8/ntune.8.gz" contents &&
	grep -qx "./usr/share/ntune/knobs/freebsd/netisr.knob" contents &&
	grep -qx "./usr/share/ntune/knobs/if.settings" contents &&
	grep -qx "./usr/share/doc/ntune/copyright" contents &&
	dpkg-deb -f "$deb" Depends | grep -q libjansson
'
test_expect_success 'lintian reports no error' '
	# lintian leaves its own mldbm-elf-* file in TMPDIR: give it one of its own, removed after
	mkdir -p lintian.tmp &&
	{ TMPDIR="$PWD/lintian.tmp" lintian "$deb" >lintian.out 2>&1 || :; } && rm -rf lintian.tmp &&
	cat lintian.out &&
	! grep "^E: " lintian.out
'
test_expect_success 'dpkg --root installs it into an empty root; this machine has what it Depends on' '
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" &&
	: >"$root/var/lib/dpkg/status" &&
	dpkg --root="$root" --log="$TRASH/dpkg.log" --force-depends -i "$deb" >install.out 2>&1 &&
	dpkg --root="$root" -s ntune | grep -qx "Status: install ok installed" &&
	dpkg --root="$root" --verify ntune &&
	dpkg-deb -f "$deb" Depends | tr "," "\n" | sed "s/(.*)//; s/|.*//; s/ //g" | grep . >deps &&
	while read -r p; do
		dpkg-query -W -f="\${Status} $p\n" "$p" 2>/dev/null || echo "not installed $p"
	done <deps >host-deps &&
	test -s host-deps && ! grep -v "^install ok installed " host-deps &&
	ldd "$root/usr/sbin/ntune" >ldd.out && ! grep "not found" ldd.out
'
test_expect_success 'the installed ntune runs inspect and explain from its own /usr/share/ntune' '
	installed --version >version.out &&
	grep -qx "ntune $version" version.out &&
	installed inspect --json >inspect.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d[\"cpu\"][\"threads\"] >= 1 else 1)" inspect.json &&
	installed explain net.isr.maxthreads >explain.out &&
	grep -q "net.isr.maxthreads" explain.out &&
	installed check --os freebsd "$root/usr/share/ntune/profiles/freebsd-router.conf" >check.out 2>&1 &&
	grep -q "freebsd-router.conf: 6 settings for freebsd: 0 errors" check.out &&
	echo "if.lo.mtu=$(cat /sys/class/net/lo/mtu)" >mtu.conf &&
	installed verify mtu.conf 2>verify.err &&
	grep -q "^mtu.conf: 0 of 1 settings differ" verify.err
'
test_expect_success 'its /usr/share/ntune holds every file of share/ in the sources, and nothing else' '
	(cd "$SRCDIR/share" && find . -type f | LC_ALL=C sort) >want &&
	(cd "$root/usr/share/ntune" && find . -type f | LC_ALL=C sort) >have &&
	test "$(wc -l <want)" -gt 20 &&
	diff -u want have &&
	dpkg --root="$root" -L ntune | grep -qx "/usr/share/ntune/catalog/freebsd.tsv"
'
test_expect_success MAN 'man -l shows the installed ntune(8)' '
	MANPAGER=cat MANWIDTH=80 man -l "$root/usr/share/man/man8/ntune.8.gz" >man.out 2>man.err &&
	grep -q "ntune apply" man.out && grep -q "trial-boot" man.out
'
test_expect_success 'the installed ntune reads its own knowledge base, not the source tree' '
	mv "$root/usr/share/ntune/knobs/freebsd/netisr.knob" netisr.knob &&
	test_must_fail installed explain net.isr.maxthreads 2>err &&
	mv netisr.knob "$root/usr/share/ntune/knobs/freebsd/netisr.knob"
'
test_expect_success 'dpkg --root -r removes every file it installed' '
	dpkg --root="$root" --log="$TRASH/dpkg.log" -r ntune >remove.out 2>&1 &&
	test ! -e "$root/usr/sbin/ntune" && test ! -e "$root/usr/share/ntune" &&
	test ! -e "$root/usr/share/man/man8/ntune.8.gz"
'
test_done
