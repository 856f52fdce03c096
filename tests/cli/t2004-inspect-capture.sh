#!/bin/sh
# ntune inspect/snapshot --from a capture: the output of the agentless capture script
# (src/remote/capture.c) as a user pastes it, or as a directory of its sections. It reads as the
# same command outputs given one by one to --from do; a paste with CRLF and a prompt is fine; a
# capture cut short, or a section its parser rejects, is an input error naming file and line.
. "$(dirname "$0")/lib.sh"
SEED="$FIXTURES/os/seed000-dec750"
DUT="$FIXTURES/dut/seed000-dec750"
CAP="$DUT/capture.txt"

test_expect_success 'inspect --from a capture is inspect --from the files it was made of' '
	cat "$SEED/sysctl-a.txt" "$DUT/sysctl-extra.txt" >sysctl-a.txt &&
	ntune inspect --json --from "$CAP" >cap.json &&
	ntune inspect --json --from sysctl-a.txt --from "$SEED/ifconfig-a.txt" \
		--from "$SEED/pciconf-lv.txt" --from "$SEED/vmstat-i.txt" --from "$DUT/netstat-Q.txt" \
		--from "$SEED/top-P.txt" >files.json &&
	diff -u files.json cap.json &&
	grep -q "\"name\": \"ax0\"" cap.json && grep -q "\"platform\": \"opnsense\"" cap.json &&
	grep -q "\"errors\": \[\]" cap.json
'
test_expect_success 'a paste with CRLF line ends and a prompt around it reads the same' '
	{ printf "root@dec750:~ # sh capture.sh 1\r\n"; sed "s/\$/\r/" "$CAP"; printf "root@dec750:~ # \r\n"; } >paste.txt &&
	ntune inspect --json --from paste.txt >paste.json &&
	diff -u cap.json paste.json
'
test_expect_success 'a directory of the sections reads the same' '
	mkdir dir &&
	awk -v dir=dir "/^::[a-z0-9]*:: begin / { f = dir \"/\" \$3; next }
		/^::[a-z0-9]*:: end / { f = \"\"; next } f != \"\" { print > f }" "$CAP" &&
	test -s dir/sysctl-a.txt && test -s dir/top.txt &&
	ntune inspect --json --from dir >dir.json &&
	diff -u cap.json dir.json
'
test_expect_success 'snapshot --from a capture: the ntune-inspect schema, with the boot files' '
	ntune snapshot --from "$CAP" -o snap.json &&
	grep -q "\"schema\": \"ntune-inspect\"" snap.json &&
	grep -q "\"path\": \"/boot/loader.conf.local\"" snap.json &&
	grep -q "kern.ipc.nmbclusters=..1000000" snap.json &&
	ntune inspect --json --from snap.json >snap-inspect.json &&
	grep -q "\"name\": \"ax1\"" snap-inspect.json
'
test_expect_success 'a capture cut short: exit 2 naming the file, the line and the section' '
	head -n 200 "$CAP" >cut.txt &&
	test_expect_code 2 ntune inspect --from cut.txt >out 2>err && cat err &&
	grep -qx "ntune inspect: cut.txt:200: section .pciconf-lv.txt. (begun at line 198) is cut short: no end line (the capture is truncated)" err &&
	test ! -s out
'
test_expect_success 'a capture without its last line is cut short too' '
	sed "\$d" "$CAP" >nodone.txt &&
	test_expect_code 2 ntune inspect --from nodone.txt 2>err && cat err &&
	grep -q "^ntune inspect: nodone.txt:[0-9]*: the capture ends without its .::[a-z0-9]*:: done. line (it is truncated)$" err
'
test_expect_success 'a section its parser rejects: exit 2 naming the file, the section and the line' '
	awk "{ print } /^irq82: ax0:rxq0/ { print \"%%% garbage from a broken vmstat %%%\" }" "$CAP" >bad.txt &&
	test_expect_code 2 ntune inspect --from bad.txt >out 2>err && cat err &&
	grep -qx "ntune inspect: bad.txt:vmstat-i.txt:12: unrecognized line (1 in all)" err &&
	test ! -s out
'
test_done
