#!/bin/sh
# ntune cross-built for FreeBSD (amd64) against a FreeBSD 13.5 cross root: it compiles
# with the project's own werror=true and links into a FreeBSD executable that needs
# the FreeBSD libraries. Runs when FREEBSD_SYSROOT names such a root (made by
# ../shared/tools/freebsd-sysroot; `make freebsd-check` sets it); nothing is executed.
. "$(dirname "$0")/lib.sh"

test_prereq_FREEBSD_SYSROOT() {
	[ -n "${FREEBSD_SYSROOT:-}" ] && [ -f "$FREEBSD_SYSROOT/x86_64-freebsd.meson" ] &&
		command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 &&
		command -v readelf >/dev/null 2>&1 && command -v file >/dev/null 2>&1
}

# The cross file finds the root from its own place (@DIRNAME@) only with Meson >= 1.3;
# older Meson gets the root as a constant in a second cross file.
cross_setup() {
	printf "[constants]\nsysroot = '%s'\n" "$FREEBSD_SYSROOT" >sysroot.ini &&
	env -u PKG_CONFIG_PATH -u LIBRARY_PATH -u CPATH -u C_INCLUDE_PATH -u CC -u CFLAGS -u LDFLAGS \
		meson setup --cross-file "$FREEBSD_SYSROOT/x86_64-freebsd.meson" --cross-file sysroot.ini \
		-Db_colorout=never "$TRASH/bsd" "$SRCDIR" >setup.log 2>&1 ||
	{ tail -20 setup.log; false; }
}

test_expect_success FREEBSD_SYSROOT 'ntune and every unit test cross-build for FreeBSD with werror=true' '
	cross_setup &&
	python3 -c "import json, sys; o = {x[\"name\"]: x[\"value\"] for x in json.load(open(sys.argv[1]))}; sys.exit(0 if o[\"werror\"] is True else 1)" \
		"$TRASH/bsd/meson-info/intro-buildoptions.json" &&
	{ ninja -C "$TRASH/bsd" >build.log 2>&1 || { grep -E "error|warning|FAILED" build.log | head -20; false; }; }
'
test_expect_success FREEBSD_SYSROOT 'the ntune binary is a FreeBSD amd64 executable' '
	file -b "$TRASH/bsd/ntune" >file.out &&
	grep -q "ELF 64-bit LSB executable, x86-64" file.out && grep -q "for FreeBSD" file.out &&
	readelf -l "$TRASH/bsd/ntune" | grep -q "/libexec/ld-elf.so.1"
'
test_expect_success FREEBSD_SYSROOT 'it needs libc, libm, libthr, ncursesw and jansson by their FreeBSD sonames' '
	readelf -d "$TRASH/bsd/ntune" | sed -n "s/.*(NEEDED).*\[\(.*\)\]/\1/p" | sort >needed &&
	for lib in libc.so.7 libm.so.5 libthr.so.3 libncursesw.so.9 libjansson.so.4; do
		grep -qx "$lib" needed || { echo "missing $lib in:"; cat needed; false; } || return 1
	done
'
test_expect_success FREEBSD_SYSROOT 'no Linux-only file was compiled, and the stand-ins were' '
	python3 -c "import json, os, sys
for e in json.load(open(sys.argv[1])):
    print(os.path.relpath(os.path.normpath(os.path.join(e[\"directory\"], e[\"file\"])), sys.argv[2]))" \
		"$TRASH/bsd/compile_commands.json" "$SRCDIR" | sort -u >compiled &&
	grep -qx "src/lab/lab_nolinux.c" compiled && grep -qx "src/cmd/nolinux.c" compiled &&
	grep -qx "src/util/netns_nolinux.c" compiled && grep -qx "src/os/freebsd.c" compiled &&
	grep -qx "src/util/self_freebsd.c" compiled &&
	! grep -E "^src/(lab/(lab|netns|nl|gen|sink)|cmd/(lab|gen|sink)|os/linux[a-z_]*|util/netns)\.c$" compiled &&
	! grep -E "^tests/(shim|nolinux)/" compiled &&
	# the readers of Linux text (pastes, captures) and their fuzz target build anywhere
	test -z "$(grep -E "_linux\.c$" compiled |
		grep -vE "^(src/(os/(text_linux|fbsd_text_linux)|remote/capture_linux)|fuzz/fuzz_text_linux)\.c$")"
'
test_done
