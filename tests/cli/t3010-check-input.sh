#!/bin/sh
# ntune check reads files as people really have and paste them, and every line is checked.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a sysctl.d glob name does not hide the rest of the file' '
	mkdir -p etc/sysctl.d &&
	{ printf "net.ipv4.conf.*.send_redirects = 0\n-net.ipv4.conf.all.accept_redirects = 0\n"
	  for k in tcp_fin_timeout tcp_keepalive_time tcp_keepalive_intvl tcp_keepalive_probes \
	      tcp_syn_retries tcp_synack_retries tcp_max_syn_backlog tcp_syncookies tcp_sack tcp_dsack \
	      tcp_timestamps tcp_window_scaling tcp_tw_reuse tcp_rfc1337 tcp_mtu_probing tcp_ecn \
	      tcp_fastopen tcp_no_metrics_save tcp_slow_start_after_idle tcp_retries2 tcp_orphan_retries \
	      tcp_max_orphans tcp_notsent_lowat icmp_echo_ignore_broadcasts ip_default_ttl; do
		printf "net.ipv4.%s = 1\n" $k; done; } >etc/sysctl.d/90-r.conf &&
	ntune check --os linux --json etc/sysctl.d/90-r.conf >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"settings\"]==27 and d[\"unknown\"]==0 and d[\"unreadable_lines\"]==0, d"
'
test_expect_success 'in a shell script sysctl -w and sysctl name=value lines are settings, all of them' '
	printf "sysctl -w net.inet.tcp.syncookies=1\nsysctl net.inet.ip.redirect=0\nsysctl -q -w kern.ipc.somaxconn=4096\n" >cmds.sh &&
	ntune check --os freebsd cmds.sh >out 2>err &&
	! grep -q "command" out &&
	grep -q "3 settings for freebsd: 0 errors, 0 warnings" err &&
	{ echo "#!/usr/bin/env bash"; cat cmds.sh; } >tune-up &&
	ntune check --os freebsd tune-up >out 2>err &&
	grep -q "3 settings for freebsd: 0 errors, 0 warnings" err &&
	printf "sysctl -w net.inet.tcp.syncookies=yes\n" >bad.sh &&
	test_expect_code 1 ntune check --os freebsd bad.sh >out 2>/dev/null &&
	grep -q "bad.sh:1: error: sysctl(8) refuses .yes." out
'
test_expect_success 'in a file of no known kind (a paste) they are read with a note' '
	cp cmds.sh cmds.txt &&
	ntune check --os freebsd cmds.txt >out 2>err &&
	grep -q "cmds.txt:1: note: read the setting of a .sysctl -w net.inet.tcp.syncookies. command line" out &&
	grep -q "cmds.txt:3: note: read the setting of a .sysctl -q -w kern.ipc.somaxconn. command line" out &&
	grep -q "3 settings for freebsd: 0 errors, 0 warnings" err
'
test_expect_success 'in a Linux sysctl.conf or sysctl.d file each is a warning: sysctl -p/--system fails on it' '
	mkdir -p etc/sysctl.d &&
	printf "net.ipv4.ip_forward=1\nsysctl -w net.ipv4.tcp_syncookies=1\nsysctl net.core.somaxconn=1024\nsysctl -w net.core.rmem_max=16M\n" >etc/sysctl.conf &&
	cp etc/sysctl.conf etc/sysctl.d/60-net.conf &&
	for f in etc/sysctl.conf etc/sysctl.d/60-net.conf; do
		test_expect_code 0 ntune check --os linux --json "$f" >out.json 2>/dev/null &&
		python3 -c "
import json, re, sys
d = json.load(open(\"out.json\"))
c = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"command\"]
assert [x[\"line\"] for x in c] == [2, 3, 4], d
assert all(x[\"severity\"] == \"warning\" for x in c), c
assert re.search(r\"a .sysctl -w net.ipv4.tcp_syncookies. command line in a sysctl.conf or sysctl.d file: sysctl -p and --system take .sysctl -w net.ipv4.tcp_syncookies. as the key, find no /proc/sys file for it and exit 1 \\(procps 4.0.2 src/sysctl.c:659 parse_setting_line, :545 WriteSetting\\); the setting is not applied, write .net.ipv4.tcp_syncookies=1.\", c[0][\"message\"]), c[0]
# not a setting: the 16M a procfs write would refuse is not reported
assert not [x for x in d[\"diagnostics\"] if x[\"line\"] == 4 and x[\"rule\"] != \"command\"], d
assert d[\"errors\"] == 0 and d[\"warnings\"] >= 3, d
" || return 1
	done
'
test_expect_success 'in a FreeBSD sysctl.conf or loader.conf each is a warning naming what its reader does' '
	mkdir -p boot &&
	printf "sysctl -w net.inet.ip.forwarding=1\nsysctl kern.ipc.somaxconn=1024\n" >etc/sysctl.conf &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf >out 2>err &&
	grep -q "sysctl.conf:1: warning: a .sysctl -w net.inet.ip.forwarding. command line in sysctl.conf: /etc/rc.d/sysctl runs sysctl -i -f, which takes .sysctl -w net.inet.ip.forwarding. as the name and skips it as unknown (libexec/rc/rc.d/sysctl:26 .sysctl -i -f., sbin/sysctl/sysctl.c:369,400); the setting is not applied, write .net.inet.ip.forwarding=1." out &&
	grep -q "sysctl.conf:2: warning: a .sysctl kern.ipc.somaxconn. command line" out &&
	grep -q "0 errors, 2 warnings, 0 notes" err &&
	printf "sysctl -w kern.ipc.nmbclusters=1000000\n" >boot/loader.conf &&
	test_expect_code 0 ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "loader.conf:1: warning: a .sysctl -w kern.ipc.nmbclusters. command line in loader.conf: the loader prints .Malformed line. and skips it (stand/lua/config.lua:537); the setting is not applied, write kern.ipc.nmbclusters=\"1000000\"" out
'
test_expect_success 'values as the consumer parses them: loader, sysctl(8), procfs' '
	mkdir -p boot &&
	printf "net.isr.bindthreads=on\nkern.ipc.nmbclusters=1M\n" >boot/loader.conf &&
	test_expect_code 1 ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "loader.conf:1: error: the loader ignores .on. (not a number, sys/kern/kern_environment.c getenv_quad): net.isr.bindthreads stays off (0)" out &&
	! grep -q "loader.conf:2: error" out &&
	printf "kern.ipc.maxsockbuf=16M\nnet.inet.tcp.syncookies=yes\n" >sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd sysctl.conf >out 2>/dev/null &&
	grep -q "sysctl.conf:1: error: sysctl(8) refuses .16M. for kern.ipc.maxsockbuf: no K/M/G suffix at runtime" out &&
	grep -q "sysctl.conf:2: error: sysctl(8) refuses .yes. for net.inet.tcp.syncookies: it needs an integer" out &&
	printf "net.core.rmem_max=128M\n" >l.conf &&
	test_expect_code 1 ntune check --os linux l.conf >out 2>/dev/null &&
	grep -q "l.conf:1: error: the kernel refuses .128M. for net.core.rmem_max: procfs takes plain integers" out
'
test_expect_success 'a knob the documentation calls INTEGERs but the kernel parses as hex words is not refused' '
	printf "net.ipv4.tcp_fastopen_key = 00000000-00000000-00000000-00000000\nnet.ipv4.tcp_fastopen=1x\n" >tfo.conf &&
	test_expect_code 1 ntune check --os linux tfo.conf >out 2>/dev/null &&
	grep -q "tfo.conf:2: error: the kernel refuses .1x. for net.ipv4.tcp_fastopen:" out &&
	! grep -q "tfo.conf:1:" out
'
test_expect_success 'a value the consumer refuses is not then read as a number (16K is not 16384 to sysctl(8) or procfs)' '
	printf "kern.ipc.maxsockbuf=16K\n" >etc-sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd --target sysctl etc-sysctl.conf >out 2>err &&
	grep -q "error: sysctl(8) refuses .16K. for kern.ipc.maxsockbuf" out &&
	! grep -q "lowers the limit" out &&
	grep -q "1 error, 0 warnings" err &&
	printf "net.core.wmem_max=16K\n" >l16.conf &&
	test_expect_code 1 ntune check --os linux l16.conf >out 2>/dev/null &&
	grep -q "error: the kernel refuses .16K. for net.core.wmem_max" out &&
	! grep -q "lowers the limit" out &&
	printf "net.isr.maxqlimit=1K\n" >boot/loader.conf &&
	ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "loader.conf:1: warning: net.isr.maxqlimit=1K lowers the limit below the default value 10240" out
'
test_expect_success 'OPNsense: net.inet.rss.enabled=yes leaves RSS off' '
	printf "<sysctl><item><tunable>net.inet.rss.enabled</tunable><value>yes</value></item></sysctl>\n" >config.xml &&
	test_expect_code 1 ntune check config.xml >out 2>/dev/null &&
	grep -q "config.xml:1: error: the loader ignores .yes. .*net.inet.rss.enabled stays off" out
'
test_expect_success 'a UTF-8 BOM is not a bad line; XML comments are not items' '
	printf "\357\273\277net.inet.ip.redirect=0\n" >bom.conf &&
	ntune check --os freebsd bom.conf >out 2>err &&
	grep -q "[^0-9]1 setting for freebsd: 0 errors" err &&
	printf "<opnsense><sysctl>\n<!-- <item><tunable>kern.bogus</tunable><value>1</value></item> -->\n<item><tunable>net.inet.ip.redirect</tunable><value>0</value></item>\n</sysctl></opnsense>\n" >c2.xml &&
	ntune check c2.xml >out 2>err &&
	grep -q "[^0-9]1 setting for opnsense" err && ! grep -q bogus out
'
test_expect_success 'a tuned profile: [sysctl] read, other sections and include= said' '
	printf "[main]\ninclude=ntune-t3010-no-such-profile\n[cpu]\ngovernor=performance\n[sysctl]\nnet.core.busy_read=50\n" >tuned.conf &&
	ntune check --os linux tuned.conf >out 2>err &&
	cat out err &&
	grep -q "tuned.conf:2: warning: tuned include .ntune-t3010-no-such-profile. is not read: no ntune-t3010-no-such-profile/tuned.conf in \.\., /etc/tuned, /usr/lib/tuned" out &&
	grep -q "tuned.conf:3: note: tuned section \[cpu\] is not read" out &&
	grep -q "[^0-9]1 setting for linux" err
'
test_expect_success 'seed 001 bulleted paste: each setting read with a warning' '
	seed="$SRCDIR/../shared/seeds/001_e378af0bc9019e8d.txt" &&
	if test -f "$seed"; then sed -n "1,16p" "$seed" >paste.txt
	else printf "\342\200\242 hw.ix.rxd: 2048 (4096?)\n\342\200\242 net.inet.tcp.tso=0\n" >paste.txt; fi &&
	ntune check --os freebsd paste.txt >out 2>err &&
	cat out err &&
	grep -q "warning: read from a bulleted paste as .hw.ix.rxd=2048.; .(4096?)" out &&
	grep -q "warning: read from a bulleted paste as .net.inet.tcp.tso=0." out
'
test_expect_success 'every unreadable line is reported with file:line and the rest is still checked' '
	printf "net.inet.ip.redirect=0\nthis is not a setting\nkern.ipc.somaxconn 1024\nnet.isr.maxthread=4\n" >bad.conf &&
	test_expect_code 2 ntune check --os freebsd bad.conf >out 2>err &&
	grep -q "^bad.conf:2: error: expected" out &&
	grep -q "^bad.conf:3: error: expected .=. after .kern.ipc.somaxconn." out &&
	grep -q "^bad.conf:4: error: unknown knob .net.isr.maxthread. (did you mean net.isr.maxthreads?)" out
'
test_expect_success 'binary input is refused without dumping its bytes' '
	printf "net.inet.ip.redirect=0\n\000\001\002\033[2J\n" >bin.conf &&
	test_expect_code 2 ntune check bin.conf >out 2>err &&
	grep -q "bin.conf: a binary file (it holds NUL bytes), not a profile" err &&
	! grep -q "$(printf "\033")" out err
'
test_expect_success 'check --json gives lines, settings, counts and unknown' '
	printf "net.inet.ip.redirect=0\nfoo.bar.baz=1\n" >j.conf &&
	ntune check --os freebsd --json j.conf >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert (d[\"schema\"],d[\"lines\"],d[\"settings\"],d[\"unknown\"],d[\"errors\"])==(2,2,2,1,0), d"
'
test_expect_success 'an invisible character pasted from a web page is named by its code point, not shown as ?' '
	printf "\342\200\213net.core.somaxconn=1024\nnet.ipv4.tcp_sack\302\240= 1\n" >zw.conf &&
	test_expect_code 2 ntune check --os linux zw.conf >out 2>err && cat out &&
	grep -q "^zw.conf:1: error: expected name=value, got .<U+200B>net.core.somaxconn=1024.$" out &&
	grep -q "^zw.conf:2: error: bad character .<U+00A0>. in name$" out
'
test_done
