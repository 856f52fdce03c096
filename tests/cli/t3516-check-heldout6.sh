#!/bin/sh
# Classes of false statements held-out set 6 found (issue 36; /work/heldout6, judged at source),
# fixed where they arise: net.isr.bindthreads pins even the one netisr thread (netisr.c:1281-1286),
# so it "requires" nothing; netdev_budget_usecs has no fixed default since 5.7 (2 * USEC_PER_SEC
# / HZ); fs.binfmt_misc.* is a file system's files, not an unknown sysctl; nf_conntrack_max is an
# access risk only below the smallest limit a kernel sizes itself (1024), as the box's memory
# sets the default; net.ipv6.route.max_size has had no effect since 6.3 (and 6.1.73).
. "$(dirname "$0")/lib.sh"

test_expect_success 'bindthreads with one netisr thread: no requirement said' '
	printf "net.isr.maxthreads=1\nnet.isr.bindthreads=1\n" >isr.conf &&
	ntune check --os freebsd --target loader isr.conf >out 2>&1 &&
	! grep -q "only matters with" out
'
test_expect_success 'netdev_budget_usecs=2000 is not called the default (HZ decides it)' '
	printf "net.core.netdev_budget_usecs=2000\n" >nb.conf &&
	ntune check --os linux --target sysctl nb.conf >out 2>&1 &&
	! grep -q "is the default" out
'
test_expect_success 'fs.binfmt_misc.status is a note naming the file system, not an unknown knob' '
	printf "fs.binfmt_misc.status=0\n" >bm.conf &&
	ntune check --os linux --target sysctl bm.conf >out 2>&1 &&
	grep -q "^bm.conf:1: note: .fs.binfmt_misc.status. is under fs.binfmt_misc, the binfmt_misc file system" out &&
	! grep -q "unknown knob" out
'
test_expect_success 'nf_conntrack_max=65536 is no access risk (a 2 GiB box defaults to it); 512 is' '
	printf "net.netfilter.nf_conntrack_max=65536\n" >ct1.conf &&
	ntune check --os linux --target sysctl ct1.conf >out 2>&1 && ! grep -q "access risk" out &&
	printf "net.netfilter.nf_conntrack_max=512\n" >ct2.conf &&
	ntune check --os linux --target sysctl ct2.conf >out 2>&1 && grep -q "^ct2.conf:1: access risk" out
'
test_expect_success 'net.ipv6.route.max_size: no effect since 6.3, with the commit that removed its check' '
	printf "net.ipv6.route.max_size=524288\n" >v6.conf &&
	ntune check --os linux --target sysctl v6.conf >out 2>&1 &&
	grep -q "^v6.conf:1: warning: .net.ipv6.route.max_size. still exists but has no effect since 6.3 .*af6d10345ca7" out
'
test_done
