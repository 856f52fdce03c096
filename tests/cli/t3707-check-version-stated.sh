#!/bin/sh
# check against a release the file states (--os-version, or its $FreeBSD$ tag): a knob that
# release's source does not have is a warning naming the release and the trees that have it;
# one it has is not (make mutate: version-gone).
. "$(dirname "$0")/lib.sh"

test_expect_success 'a knob newer than --os-version is warned, with the release and where it is' '
	printf "kern.ipc.tls.enable=1\nnet.inet.ip.forwarding=1\n" >v.conf &&
	ntune check --os freebsd --os-version 10.4 --target sysctl v.conf >out 2>err &&
	grep -q "^v.conf:1: warning: .kern.ipc.tls.enable. is not in the FreeBSD 10.4 source the catalogue read .*; it was in 14.0" out &&
	! grep -q "^v.conf:2: warning: .net.inet.ip.forwarding. is not in" out &&
	grep -q " 1 warning, " err
'
test_expect_success 'the release a $FreeBSD$ tag states is the one judged' '
	printf "# \$FreeBSD: releng/10.4/etc/sysctl.conf 1 2017-01-01 \$\nkern.ipc.tls.enable=1\n" >t.conf &&
	ntune check --os freebsd --target sysctl t.conf >out 2>err &&
	grep -q "^t.conf:2: warning: .kern.ipc.tls.enable. is not in the FreeBSD 10.4 source .*, the release the file.s .FreeBSD. tag states" out
'
test_done
