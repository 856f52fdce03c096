#!/bin/sh
# ntune diff: profiles, snapshots, FreeBSD sysctl -a dumps and the current state.
. "$(dirname "$0")/lib.sh"
FIX="$SRCDIR/tests/fixtures/os"

test_expect_success 'two profiles with the same values (other spelling) do not differ' '
	printf "net.isr.maxthreads=-1\nkern.ipc.maxsockbuf=16M\nhw.ibrs_disable=1\n" >a.conf &&
	printf "kern.ipc.maxsockbuf=\"16777216\"\nnet.isr.maxthreads: -1\nhw.ibrs_disable=on\n" >b.conf &&
	ntune diff a.conf b.conf >out 2>err && grep -q "^0 of 3 knobs differ$" err
'
test_expect_success 'differing knobs are listed with both values, absent ones as -' '
	printf "net.isr.maxthreads=4\nnet.isr.bindthreads=1\n" >c.conf &&
	test_expect_code 1 ntune diff a.conf c.conf >out 2>err && cat out &&
	grep -q "^net.isr.maxthreads  *-1  |  4$" out &&
	grep -q "^net.isr.bindthreads  *-  |  1$" out &&
	grep -q "^kern.ipc.maxsockbuf  *16M  |  -$" out
'
test_expect_success 'diff --json lists name, a and b' '
	test_expect_code 1 ntune diff --json a.conf c.conf >d.json &&
	python3 -c "import json; d=json.load(open(\"d.json\")); k={x[\"name\"]:x for x in d[\"knobs\"]}; assert k[\"net.isr.bindthreads\"][\"a\"] is None and k[\"net.isr.bindthreads\"][\"b\"]==\"1\" and d[\"differ\"]==4"
'
test_expect_success 'two FreeBSD sysctl -a dumps are compared sysctl by sysctl' '
	test -f "$FIX/seed000-dec750/sysctl-a.txt" &&

	test_expect_code 1 ntune diff "$FIX/seed000-dec750/sysctl-a.txt" "$FIX/seed001-xeon-ix/sysctl-a.txt" >out 2>err &&
	grep -q "^kern.ipc.nmbclusters  *1000000  |  2036540$" out &&
	! grep -q "^net.isr.maxthreads " out && grep -q "^152 of 170 knobs differ$" err

'
test_expect_success 'two Linux sysctl -a dumps: empty values are data, multi-line values are one value' '
	A="$FIX/linux-debian12/sysctl-a.txt" &&
	sed -e "s/^net.ipv4.ip_forward = 0/net.ipv4.ip_forward = 1/" -e "/^kernel.core_modes = socket/d" \
	    -e "s/^kernel.panic_sys_info = $/kernel.panic_sys_info = tasks/" "$A" >b.txt &&
	test_expect_code 1 ntune diff "$A" b.txt >out 2>err && cat out err &&
	grep -q "^net.ipv4.ip_forward  *0  |  1$" out &&
	grep -q "^kernel.core_modes  *file pipe socket  |  file pipe$" out &&
	grep -q "^kernel.panic_sys_info  *  |  tasks$" out &&
	! grep -q "^fs.pipe-keep" out && ! grep -q "^net.ipv4.ip_local_reserved_ports" out &&
	grep -q "^3 of 9 knobs differ$" err &&
	ntune diff "$A" "$A" >out 2>err && grep -q "^0 of 9 knobs differ$" err
'
test_expect_success 'a profile against the current state compares only its knobs' '
	printf "net.ipv4.ip_forward=%s\n" "$(cat /proc/sys/net/ipv4/ip_forward)" >cur.conf &&
	ntune diff cur.conf current 2>err && grep -q "^0 of 1 knobs differ$" err
'
test_expect_success 'a snapshot of this machine does not differ from itself' '
	ntune snapshot -o s.json &&
	ntune diff s.json s.json >out 2>err && grep -q "^0 of [0-9]* knobs differ$" err
'
test_expect_success 'a missing file exits 2' 'test_expect_code 2 ntune diff nonexistent.conf a.conf 2>/dev/null'
test_expect_success 'diff needs two arguments' 'test_expect_code 2 ntune diff a.conf 2>/dev/null'
test_done
