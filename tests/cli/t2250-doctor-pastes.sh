#!/bin/sh
# ntune doctor --from what a router owner pastes (issue 33 item 4): one paste file, several
# (--from a b), a folder of pastes with any names, - (stdin), Linux pastes; what the pastes
# lack is said with the command that shows it; the prompt lines are skipped and named.
. "$(dirname "$0")/lib.sh"

D="$FIXTURES/diagnose"
R="$SHARED_FIXTURES/real"

test_expect_success 'one paste file (no ::TOKEN:: lines): the diagnosis, and what it lacked with the command' '
	test_expect_code 1 ntune doctor --from "$D/real-top-P_opnsense_dec750_seed000.txt" >out 2>err &&
	test ! -s err &&
	grep -q "^ntune doctor: (no host name), freebsd, 8 CPUs" out &&
	grep -q "^1\. bottleneck: cpu-bound (likely)$" out &&
	grep -q "^note: no vmstat -i: queue balance unseen (run: vmstat -i)$" out &&
	grep -q "^note: no netstat -Q workstreams: netisr queue drops unseen (run: netstat -Q)$" out
'
test_expect_success 'several pastes: --from a b, as the usage says' '
	test_expect_code 1 ntune doctor --from "$D/real-top-P_opnsense_dec750_seed000.txt" "$D/opnsense-vmstat-i-1.txt" >out &&
	grep -q "^1\. bottleneck: one-queue on ix0 (likely)$" out &&
	grep -q "^2\. bottleneck: cpu-bound (likely)$" out &&
	! grep -q "no vmstat -i" out
'
test_expect_success 'a folder of pastes with any names, with prompt lines: skipped and named once' '
	mkdir forum &&
	{ echo "[root@fw]~# top -P"; cat "$D/real-top-P_opnsense_dec750_seed000.txt"; } >forum/first-post &&
	{ echo "root@OPNsense:~ # vmstat -i 1"; cat "$D/opnsense-vmstat-i-1.txt"; } >"forum/reply 2.txt" &&
	test_expect_code 1 ntune doctor --from forum >out &&
	grep -q "^1\. bottleneck: one-queue on ix0 (likely)$" out &&
	grep -q "^note: forum/first-post: 1 line skipped, 0 used in part (forum/first-post:1 a prompt or command line: .\[root@fw\]~# top -P.)$" out &&
	test $(grep -c "forum/reply 2.txt:1 a prompt" out) = 1
'
test_expect_success 'a folder with a file that is no paste: that file left out with a note, the rest read' '
	mkdir mixed &&
	cp "$D/real-top-P_opnsense_dec750_seed000.txt" mixed/top.txt &&
	printf "\211PNG\r\n\032\n\000\000" >mixed/screenshot.png &&
	test_expect_code 1 ntune doctor --from mixed >out &&
	grep -q "^1\. bottleneck: cpu-bound (likely)$" out &&
	grep -q "^note: left out: mixed/screenshot.png: binary data, not command output$" out
'
test_expect_success SHARED_FIXTURES 'a paste of the system only (dmesg): its NICs, no diagnosis, what to paste' '
	ntune doctor --from "$R/dmesg_opnsense24.1_atom-c3558r_ix-x553_partial.txt" >out &&
	grep -q "^ntune doctor: (no host name), freebsd, CPUs unknown, NICs ix0 ix1;" out &&
	grep -q "^note: no top -P: how busy each CPU is unseen (run: top -HSPz -s 5 -d 2)$" out &&
	grep -q "^note: no vmstat -i: queue balance unseen (run: vmstat -i)$" out
'
test_expect_success 'stdin: --from -' '
	test_expect_code 1 ntune doctor --from - <"$D/real-top-P_opnsense_dec750_seed000.txt" >out &&
	grep -q "^1\. bottleneck: cpu-bound (likely)$" out
'
test_expect_success 'Linux pastes (mpstat, /proc/net/softnet_stat) are told from FreeBSD ones by their content' '
	cat >mpstat.txt <<-\EOT &&
	Linux 5.15.0-91-generic (gw) 	01/02/24 	_x86_64_	(2 CPU)

	10:23:03 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
	10:23:04 AM  all    0.50    0.00    0.50    0.00    0.00   49.00    0.00    0.00    0.00   50.00
	10:23:04 AM    0    0.00    0.00    0.00    0.00    0.00  100.00    0.00    0.00    0.00    0.00
	10:23:04 AM    1    1.00    0.00    1.00    0.00    0.00    0.00    0.00    0.00    0.00   98.00
	EOT
	{ ntune doctor --from mpstat.txt >out 2>err; test $? -le 1; } &&
	grep -q "^ntune doctor: (no host name), linux, 2 CPUs" out &&
	grep -q "^note: no /proc/interrupts: queue balance unseen (run: cat /proc/interrupts)$" out &&
	grep -q "^note: no /proc/net/softnet_stat: backlog drops and budget exhaustion unseen (run: cat /proc/net/softnet_stat)$" out
'
test_expect_success 'the header says what the pastes gave: one reading since boot, displays of now, no rates' '
	test_expect_code 1 ntune doctor --from "$D/real-top-P_opnsense_dec750_seed000.txt" >h1 &&
	test "$(head -n 1 h1)" = "ntune doctor: (no host name), freebsd, 8 CPUs, NICs (none known: no NIC driver in the capture); from a paste: top'"'"'s CPU lines (of now)" &&
	test_expect_code 1 ntune doctor --from "$D/real-top-P_opnsense_dec750_seed000.txt" "$D/opnsense-vmstat-i-1.txt" --json >h2.json &&
	python3 -c "import json; r = json.load(open(\"h2.json\"))[\"reading\"]; print(r); assert r.startswith(\"from pastes: one reading of the \") and \"interrupt counts\" in r and r.endswith(\"(totals since boot; their rates unknown); top'"'"'s CPU lines and vmstat -i rates (of now)\"), r"
'
test_expect_success 'a paste of which nothing can be read: exit 2 naming it and what was expected' '
	printf "hello\nworld\n" >nothing.txt &&
	test_expect_code 2 ntune doctor --from nothing.txt >out 2>err &&
	grep -q "^ntune doctor: nothing.txt: nothing could be read: expected FreeBSD/OPNsense/pfSense output" err
'
test_done
