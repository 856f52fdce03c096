#!/bin/sh
# A capture can never reach outside itself (issue 33 item 7): a Linux capture whose
# linux-tree.txt has links out of its tree (relative ../.., absolute, to /dev/zero, through
# another link, a directory the samples are then written "through") is refused naming its
# line, and no file outside is read, written, chmodded or deleted: canary files outside, of
# known content and mode, are compared after each run. Then -o with a planted link.
. "$(dirname "$0")/lib.sh"

C="$FIXTURES/doctor/linux-clean"
UP=../../../../../../../../../../../..

# A copy of the clean Linux capture in DIR, its tree without the files of the paths given.
hostile_copy() {
	d=$1
	shift
	mkdir "$d" && cp "$C"/* "$d"/ &&
	awk -v drop=" $* " '
		/^==> .* <==$/ { p = substr($0, 5, length($0) - 8); skip = index(drop, " " p " ") > 0 }
		/^::/ { skip = 0 }
		!skip { print }
	' "$C/linux-tree.txt" >"$d/linux-tree.txt"
}

# A reader of /dev/zero stops at 600 MB (not under ASan, which reserves far more).
no_more_memory() {
	case ${NTUNE_SANITIZE:-none} in none|'') ulimit -v 600000 ;; esac
}

# The canaries: a file and a directory outside every capture, their state kept to compare.
canaries() {
	rm -rf outside && mkdir -p outside/dir &&
	printf "processor\t: 0\nmodel name\t: CANARY-CPU\n" >outside/canary &&
	echo "keep me" >outside/dir/softnet_stat &&
	chmod 640 outside/canary outside/dir/softnet_stat &&
	canary_state >canaries.before
}
canary_state() {
	(cd outside && find . | LC_ALL=C sort | while read -r f; do
		printf "%s %s " "$f" "$(stat -c %a "$f")"
		if [ -f "$f" ]; then cksum <"$f"; else echo; fi
	done)
}
canaries_same() {
	canary_state >canaries.after && diff canaries.before canaries.after
}
# A command's exit code kept in rc (the canaries are compared first: what a failure shows).
run_rc() {
	"$@" >out 2>err
	echo $? >rc
	cat err
}

test_expect_success 'a link out of the tree by ../.. (read into inspect): refused naming its line, nothing read' '
	canaries &&
	hostile_copy h /proc/cpuinfo &&
	echo "::L /proc/cpuinfo -> $UP$PWD/outside/canary" >>h/linux-tree.txt &&
	n=$(wc -l <h/linux-tree.txt) &&
	run_rc ntune inspect --from h && ! grep CANARY-CPU out && canaries_same &&
	test "$(cat rc)" = 2 &&
	grep -q "h:linux-tree.txt:$n: a link out of the capture.s tree (refused): ./proc/cpuinfo -> \.\./\.\./" err
'
test_expect_success 'an absolute link and one to /dev/zero: refused, doctor does not run out of memory' '
	canaries &&
	hostile_copy a /proc/cpuinfo &&
	echo "::L /proc/cpuinfo -> $PWD/outside/canary" >>a/linux-tree.txt &&
	run_rc ntune doctor --from a && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "a:linux-tree.txt:[0-9]*: a link out of the capture.s tree (refused): ./proc/cpuinfo -> /" err &&
	hostile_copy z /proc/cpuinfo &&
	echo "::L /proc/cpuinfo -> $UP/dev/zero" >>z/linux-tree.txt &&
	(no_more_memory && test_expect_code 2 ntune doctor --from z >out 2>err) &&
	grep -q "z:linux-tree.txt:[0-9]*: a link out of the capture.s tree (refused): ./proc/cpuinfo -> \.\./.*/dev/zero." err &&
	canaries_same
'
test_expect_success 'a link that leaves only through another link of the tree: refused' '
	canaries &&
	hostile_copy c /proc/stat &&
	d=/sys/a/b/c/d/e/f/g/h/i/j &&
	echo "::L $d/top -> ../../../../../../../../../../.." >>c/linux-tree.txt &&
	echo "::L /proc/stat -> ../sys/a/b/c/d/e/f/g/h/i/j/top/$UP$PWD/outside/canary" >>c/linux-tree.txt &&
	n=$(wc -l <c/linux-tree.txt) &&
	run_rc ntune doctor --from c && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "c:linux-tree.txt:$n: a link out of the capture.s tree (refused): ./proc/stat -> " err &&
	canaries_same
'
test_expect_success 'the samples are not written through a link (file), nor into and deleted from a linked directory' '
	canaries &&
	hostile_copy s /proc/stat &&
	echo "::L /proc/stat -> $UP$PWD/outside/canary" >>s/linux-tree.txt &&
	run_rc ntune doctor --from s && canaries_same && test "$(cat rc)" = 2 &&
	hostile_copy n /proc/net/dev /proc/net/softnet_stat &&
	echo "::L /proc/net -> $UP$PWD/outside/dir" >>n/linux-tree.txt &&
	grep -v "^[0-9a-f]\{8\} " "$C/before.txt" >n/before.txt &&
	grep -v "^[0-9a-f]\{8\} " "$C/after.txt" >n/after.txt &&
	run_rc ntune doctor --from n && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "n:linux-tree.txt:[0-9]*: a link out of the capture.s tree (refused): ./proc/net -> " err
'
test_expect_success 'a sysctl mode is not set through a linked directory' '
	canaries &&
	hostile_copy m &&
	grep -v "^net\." "$C/sysctl-a.txt" >m/sysctl-a.txt &&
	echo "::L /proc/sys/net -> $UP$PWD/outside" >>m/linux-tree.txt &&
	echo "-rw-rw-rw- 1 root root 0 Jan  1 00:00 ./net/canary" >m/sysctl-modes.txt &&
	run_rc ntune inspect --from m && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "m:linux-tree.txt:[0-9]*: a link out of the capture.s tree (refused): ./proc/sys/net -> " err &&
	canaries_same
'
test_expect_success 'a capture directory holding a link to a local file: refused naming it, nothing read' '
	canaries &&
	cp -R "$FIXTURES/doctor/seed000" l &&
	rm l/loader.conf.local &&
	ln -s ../outside/canary l/loader.conf.local &&
	run_rc ntune doctor --from l && ! grep CANARY-CPU out && canaries_same &&
	test "$(cat rc)" = 2 &&
	grep -q "l/loader.conf.local. is a symbolic link (a capture.s files are read, none followed)" err
'
test_expect_success 'snapshot -o FILE: a planted link to a file is not written through, the error names it' '
	canaries &&
	ln -s outside/canary planted.json &&
	run_rc ntune snapshot --from "$FIXTURES/doctor/seed000/sysctl-a.txt" -o planted.json && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "cannot write .planted.json.: a symbolic link (not written through)" err &&
	test -L planted.json &&
	canaries_same
'
test_expect_success 'doctor -o DIR: a planted link in DIR refuses DIR before anything is written' '
	canaries &&
	mkdir o && ln -s ../outside/canary o/doctor.json &&
	run_rc ntune doctor --from "$FIXTURES/doctor/seed000" -o o && canaries_same && test "$(cat rc)" = 2 &&
	grep -q "^ntune doctor: .o. .*empty directory" err &&
	test "$(ls -A o)" = doctor.json &&
	canaries_same
'
test_done
