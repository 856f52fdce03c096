#!/bin/sh
# How check picks its target (issue 36): a snapshot (--from), this machine (--local, --root,
# NTUNE_ROOT, or a file where this machine reads it: /etc/sysctl.d/, /boot/loader.conf...), or
# else the source alone: a file for another box is never judged by this machine's /proc/sys, and
# an interface this machine lacks is never "a module not loaded". --os-version names the release.
. "$(dirname "$0")/lib.sh"
test_prereq_PROC_SYS() { [ -f /proc/sys/net/ipv4/ip_forward ]; }

printf "net.ipv4.conf.eth7.rp_filter=1\nnet.sctp.addip_enable=1\nnet.ipv4.conf.eth7.forwarding=1\nnet.core.rmem_max=16777216\n" >"$TRASH/other.conf"

test_expect_success 'a Linux file for another box: nothing from this machine, and the summary says against what' '
	ntune check --os linux "$TRASH/other.conf" >out 2>err && cat out err &&
	! grep -q "this kernel\|this machine\|module not loaded" out &&
	grep -q "settings for linux: 0 errors, 0 warnings, 0 notes, 0 unknown (4 lines); checked against the source only$" err &&
	ntune check --os linux --json "$TRASH/other.conf" >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"checked_against\"]==\"the source only\" and d[\"version\"] is None and d[\"diagnostics\"]==[], d"
'
test_expect_success PROC_SYS '--local: this machine is the target; an interface it lacks is said so, never a missing module' '
	test -e /proc/sys/net/ipv4/conf/all/rp_filter && ! test -e /proc/sys/net/ipv4/conf/eth7 &&
	ntune check --os linux --local "$TRASH/other.conf" >out 2>err && cat out err &&
	grep -q "checked against this machine$" err &&
	grep -q "other.conf:1: note: .net.ipv4.conf.eth7.rp_filter.: eth7 is not an interface of this machine (its .all. setting exists here): checked against the source only" out &&
	grep -q "other.conf:3: note: .net.ipv4.conf.eth7.forwarding.: eth7 is not an interface of this machine" out &&
	! grep -q "eth7.*module not loaded" out
'
test_expect_success '--os-version: the release checked for, as a $FreeBSD$ tag would state it' '
	printf "net.inet.ip.rtminexpire=10\n" >old.conf &&
	ntune check --os freebsd old.conf >out 2>err && grep -q "warning: .net.inet.ip.rtminexpire. is gone from FreeBSD" out &&
	ntune check --os freebsd --os-version 10.4 old.conf >out 2>err && cat out err &&
	grep -q "old.conf:1: note: .net.inet.ip.rtminexpire. is in FreeBSD 10.4 but gone from the newest source" out &&
	grep -q "setting for freebsd 10.4: 0 errors, 0 warnings, 1 note" err
'
test_expect_success 'NTUNE_ROOT (a machine image) and --root make that machine the target' '
	NTUNE_ROOT=/ ntune check --os linux "$TRASH/other.conf" >out 2>err && grep -q "checked against this machine$" err &&
	ntune check --os linux --root / "$TRASH/other.conf" >out 2>err && grep -q "checked against this machine$" err
'
test_expect_success 'a knob removed after the release the file tag states: a note, not a warning' '
	printf "# \$FreeBSD: releng/12.2/etc/sysctl.conf 12345 2020-01-01 x \$\nnet.inet.tcp.recvbuf_inc=65536\n" >tag122.conf &&
	ntune check tag122.conf >out 2>err &&
	grep -q "tag122.conf:2: note: .net.inet.tcp.recvbuf_inc. was removed in 13.0; the file.s tag states 12.2, which still has it" out &&
	printf "net.inet.tcp.recvbuf_inc=65536\n" >untagged.conf &&
	ntune check --os freebsd untagged.conf >out 2>err &&
	grep -q "untagged.conf:1: warning: .net.inet.tcp.recvbuf_inc. was removed in 13.0" out
'
test_done
