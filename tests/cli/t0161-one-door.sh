#!/bin/sh
# One door to a router (issue 35): what grep finds in src/ stays counted. A router is
# reached through src/dut/ (one ssh:// parse and session open, one probe, one boot-id
# reader), its OS is one enum (os/platform.h), one ssh command line is built (remote/ssh.c)
# and one process runner forks (util/run.c).
. "$(dirname "$0")/lib.sh"

S=$SRCDIR/src

# FILE:LINE: TEXT of each match of the extended regex $1 in src/'s C files, minus the
# files of the regex $2 (FILE:), minus comment lines.
src_grep() {
	grep -rnE --include='*.c' --include='*.h' "$1" "$S" | sed "s|^$S/||" |
	    grep -vE "^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)" | { grep -vE "^(${2:-/nothing/})" || :; }
}

# The names of the enums (in src/) with a FREEBSD or LINUX member.
os_enums() {
	find "$S" -name '*.[ch]' -exec awk '
		/^[ \t]*(typedef )?enum [a-z_]* *\{/ { name = $2; body = $0; inside = 1; next }
		inside { body = body $0 }
		inside && /\}/ { if (body ~ /FREEBSD|LINUX/) print name; inside = 0 }
	' {} + | sort -u
}

# A compare whose first string literal is an OS name (strcmp(x, "FreeBSD"), strncmp(u, "Linux", 5)).
os_name_compares() {
	src_grep 'cmp *\([^"]*"(FreeBSD|Linux|OPNsense|pfSense)"'
}

# Where a program asks uname -s: the probe, and the capture script's own branch on the OS.
uname_s_asked() {
	src_grep '"uname", "-s"|uname -s\)' 'dut/probe\.c:|remote/capture\.c:'
}

test_expect_success 'ssh:// is parsed and a session opened in src/dut/ (and the lab'"'"'s --gen-host once)' '
	src_grep "remote_(parse|ssh_init) *\\(" "dut/|remote/ssh\\.c:|remote/remote\\.h:" >hits &&
	cat hits &&
	test "$(wc -l <hits)" -le 1 &&
	! grep -v "^bench/lab_trial\\.c:" hits
'

test_expect_success 'one OS enum: enum os_platform, no other enum names FreeBSD or Linux' '
	os_enums >enums &&
	echo os_platform >want && diff -u want enums &&
	test -z "$(src_grep "rscript_os|RSCRIPT_(FREEBSD|LINUX)")"
'

test_expect_success 'no string compare of an OS name: os_platform_of_uname reads uname' '
	os_name_compares >hits &&
	{ ! test -s hits || { cat hits; false; }; }
'

# kern.boottime has other readers (the agentless programs' clock since boot), so the boot id
# is counted by its Linux source; both sit in the one reader, BOOT_ID_SH.
test_expect_success 'one boot-id reader (src/dut/probe.c, once)' '
	src_grep "random/boot_id" >hits && cat hits &&
	test "$(wc -l <hits)" = 1 && grep -q "^dut/probe\\.c:" hits &&
	grep -A2 "random/boot_id" "$S/dut/probe.c" | grep -q "kern\\.boottime"
'

test_expect_success 'one probe of who a router is: uname -s asked by dut/probe.c (and the capture script)' '
	uname_s_asked >hits &&
	{ ! test -s hits || { cat hits; false; }; }
'

test_expect_success 'no fork() outside the process runner (util/run.c)' '
	src_grep "\\b(v)?fork *\\(" "util/run\\.c:" >hits &&
	{ ! test -s hits || { cat hits; false; }; }
'

test_expect_success 'one ssh argv builder (remote/ssh.c)' '
	src_grep "\"ssh\"" "remote/ssh\\.c:" >hits &&
	{ ! test -s hits || { cat hits; false; }; }
'

test_done
