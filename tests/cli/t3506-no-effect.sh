#!/bin/sh
# Knobs the Linux kernel keeps but ignores (issue 36): tcp_low_latency (no effect since 4.14),
# tcp_fack (4.15) and IPv4 route.max_size (3.6, no route cache) are warned with the release and
# the source; for a release before that (--os-version) they are not.
. "$(dirname "$0")/lib.sh"

printf "net.ipv4.tcp_low_latency=1\nnet.ipv4.tcp_fack=1\nnet.ipv4.route.max_size=2147483647\n" >"$TRASH/n.conf"

test_expect_success 'each is warned with the release that made it a no-op and its source' '
	ntune check --os linux "$TRASH/n.conf" >out 2>err && cat out &&
	grep -q "n.conf:1: warning: .net.ipv4.tcp_low_latency. still exists but has no effect since 4.14 \[source: Documentation/networking/ip-sysctl.rst" out &&
	grep -q "n.conf:2: warning: .net.ipv4.tcp_fack. still exists but has no effect since 4.15 \[source: .*net/ipv4/sysctl_net_ipv4.c:1153" out &&
	grep -q "n.conf:3: warning: .net.ipv4.route.max_size. still exists but has no effect since 3.6 \[source: .*net/ipv4/route.c:3503" out &&
	grep -q "0 errors, 3 warnings, 0 notes" err
'
test_expect_success 'for a 4.9 kernel (--os-version) only route.max_size is a no-op' '
	ntune check --os linux --os-version 4.9.115 "$TRASH/n.conf" >out 2>err && cat out err &&
	! grep -q "n.conf:1:" out && ! grep -q "n.conf:2:" out &&
	grep -q "n.conf:3: warning: .net.ipv4.route.max_size. still exists but has no effect since 3.6" out &&
	grep -q "settings for linux 4.9.115: 0 errors, 1 warning" err
'
test_expect_success 'explain says since when, with the source' '
	ntune explain --json net.ipv4.tcp_low_latency >e.json &&
	python3 -c "import json; k=json.load(open(\"e.json\")); k=k[0] if isinstance(k,list) else k; assert k[\"no_effect_since\"]==\"4.14\" and \"ip-sysctl\" in k[\"sources\"][0], k"
'
test_expect_success 'an alias beside its new name is one variable set twice (same-as in the stanza)' '
	printf "net.netfilter.nf_conntrack_max=1000\nnet.nf_conntrack_max=2000\n" >a.conf &&
	test_expect_code 1 ntune check --os linux a.conf >out 2>err && cat out &&
	grep -q "a.conf:2: error: .net.nf_conntrack_max. is .net.netfilter.nf_conntrack_max. under another name: line 1 set it to .1000.; the last one wins" out &&
	grep -q "a.conf:2: note: .net.nf_conntrack_max. is an old name .*prefer net.netfilter.nf_conntrack_max" out &&
	printf "net.nf_conntrack_max=1000\nnet.netfilter.nf_conntrack_max=1000\n" >b.conf &&
	ntune check --os linux b.conf >out 2>err &&
	grep -q "b.conf:2: warning: .net.netfilter.nf_conntrack_max. is .net.nf_conntrack_max. under another name: line 1 set it already" out
'
test_expect_success 'IPv6 forwarding set per interface or by default, never for all: a warning' '
	printf "net.ipv6.conf.default.forwarding=1\n" >f6.conf &&
	{ ntune check --os linux f6.conf >out 2>err || :; } &&
	grep -q "^f6.conf:1: warning: .net.ipv6.conf.default.forwarding=1. without net.ipv6.conf.all.forwarding=1" out &&
	printf "net.ipv6.conf.default.forwarding=1\nnet.ipv6.conf.all.forwarding=1\n" >f7.conf &&
	{ ntune check --os linux f7.conf >out 2>err || :; } &&
	! grep -q "without net.ipv6.conf.all.forwarding" out
'
test_expect_success 'the neighbour tables keep gc_interval but nothing reads it (neighbour.c, 6.1)' '
	printf "net.ipv4.neigh.default.gc_interval=3600\nnet.ipv6.neigh.default.gc_interval = 60\nnet.ipv4.neigh.default.gc_thresh3=8192\n" >g.conf &&
	ntune check --os linux g.conf >out 2>err && cat out &&
	grep -q "^g.conf:1: warning: .net.ipv4.neigh.default.gc_interval. still exists but has no effect since 3.0 \[source: net/core/neighbour.c (Linux 6.1).*arp.c:180" out &&
	grep -q "^g.conf:2: warning: .net.ipv6.neigh.default.gc_interval. still exists but has no effect since 3.0 .*ndisc.c:139" out &&
	! grep -q "^g.conf:3:" out
'
test_expect_success 'ip_forward and conf.all.forwarding are one variable (devinet.c ctl_forward_entry)' '
	printf "net.ipv4.ip_forward=1\nnet.ipv4.conf.all.forwarding=1\n" >fw.conf &&
	ntune check --os linux fw.conf >out 2>err && cat out &&
	grep -q "^fw.conf:2: warning: .net.ipv4.conf.all.forwarding. is .net.ipv4.ip_forward. under another name: line 1 set it already$" out &&
	printf "net.ipv4.conf.all.forwarding=1\nnet.ipv4.ip_forward=0\n" >fw2.conf &&
	test_expect_code 1 ntune check --os linux fw2.conf >out 2>err && cat out &&
	grep -q "^fw2.conf:2: error: .net.ipv4.ip_forward. is .net.ipv4.conf.all.forwarding. under another name: line 1 set it to .1.; the last one wins$" out
'
test_expect_success 'knobs kept and never read: ipfrag_secret_interval from 4.9 (not on 3.13), conf.*.bootp_relay in every tree' '
	printf "net.ipv4.ipfrag_secret_interval=99\nnet.ipv4.conf.eth0.bootp_relay=1\n" >nr.conf &&
	ntune check --os linux nr.conf >out 2>err && cat out &&
	grep -q "^nr.conf:1: warning: .net.ipv4.ipfrag_secret_interval. still exists but has no effect since 4.9 \[source: net/ipv4/ip_fragment.c:589-597" out &&
	grep -q "^nr.conf:2: warning: .net.ipv4.conf.eth0.bootp_relay. still exists but has no effect since 3.0 \[source: net/ipv4/devinet.c:2560" out &&
	ntune check --os linux --os-version 3.13 nr.conf >out 2>err &&
	! grep -q "^nr.conf:1:" out
'
test_done
