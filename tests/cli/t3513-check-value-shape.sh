#!/bin/sh
# Real problems check missed on held-out files (issue 36), each from the knowledge base's data,
# not from the knob's name in C: a list out of the order its values are meant in (stanza key
# `ordered:`), a value that changes nothing (`no-effect-value:`), and a sysctl the source
# declares only under a kernel option GENERIC leaves out (the catalogue's `option:` mark).
. "$(dirname "$0")/lib.sh"

test_expect_success 'tcp_mem with min above pressure is warned, with the meaning of its values and the source' '
	printf "net.ipv4.tcp_mem = 94500000 91500000 92700000\n" >mem.conf &&
	ntune check --os linux mem.conf >out 2>err &&
	grep -q "^mem.conf:1: warning: net.ipv4.tcp_mem: min (94500000) is above pressure (91500000); the values are meant as min pressure max, each at most the next, and the kernel takes them unchecked \[source: Documentation/networking/ip-sysctl.rst (tcp_mem)" out
'
test_expect_success 'lists in order, and tcp_rmem out of order, are told apart' '
	printf "net.ipv4.tcp_mem = 91500000 92700000 94500000\nnet.ipv4.tcp_rmem = 4096 87380 16777216\nnet.ipv4.tcp_wmem = 4096 65536 16384\n" >ok.conf &&
	ntune check --os linux ok.conf >out 2>err &&
	! grep -q "ok.conf:[12]: .*is above" out &&
	grep -q "^ok.conf:3: warning: net.ipv4.tcp_wmem: default (65536) is above max (16384)" out
'
test_expect_success 'kernel.tainted=0 does nothing (proc_taint only adds bits); another value is not called useless' '
	printf "kernel.tainted = 0\n" >t.conf &&
	ntune check --os linux t.conf >out 2>err &&
	grep -q "^t.conf:1: warning: .kernel.tainted=0. does nothing: a write adds the taint bits set in the value and clears none (kernel/sysctl.c proc_taint" out &&
	printf "kernel.tainted = 1\n" >t1.conf &&
	ntune check --os linux t1.conf >out 2>err &&
	! grep -q "does nothing" out
'
test_expect_success 'cuse4bsd_load is no problem: cuse.ko declares module cuse4bsd, which the loader finds it by' '
	printf "cuse4bsd_load=\"YES\"\n" >loader.conf &&
	ntune check --os freebsd loader.conf >out 2>err &&
	! grep -q "cuse4bsd" out
'
test_done
