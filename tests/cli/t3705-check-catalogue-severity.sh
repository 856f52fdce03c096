#!/bin/sh
# check's severities for knobs only the catalogue knows (src/kb/check_catalog.c): a read-only
# OID (CTLFLAG_RD) or a kernel-environment-only tunable (TUNABLE_*_FETCH, no sysctl) in
# sysctl.conf fails when sysctl(8) runs, so each is an error (exit 1); the read-only OID in
# loader.conf does nothing, a warning.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a read-only OID and a kernel-environment tunable in sysctl.conf are errors' '
	mkdir -p etc boot &&
	printf "kern.osrelease=1\nhw.memtest.tests=0\n" >etc/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd etc/sysctl.conf >out 2>err &&
	grep -q "^etc/sysctl.conf:1: error: .kern.osrelease. is read-only (CTLFLAG_RD, sys/kern/kern_mib.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): setting it fails$" out &&
	grep -q "^etc/sysctl.conf:2: error: .hw.memtest.tests. is a boot-time tunable (a kernel environment fetch, no sysctl, sys/amd64/amd64/machdep.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): sysctl cannot set it, put it in /boot/loader.conf$" out &&
	grep -q ": 2 errors, 0 warnings" err
'
test_expect_success 'the read-only OID in loader.conf is a warning: it has no effect there' '
	printf "kern.osrelease=1\n" >boot/loader.conf &&
	test_expect_code 0 ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "^boot/loader.conf:1: warning: .kern.osrelease. is a read-only sysctl .*in loader.conf it has no effect$" out
'
test_done
