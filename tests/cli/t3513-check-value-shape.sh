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
test_expect_success 'a default that changed with a release is said with both when the target release is not known' '
	printf "net.core.somaxconn=100\n" >so.conf &&
	ntune check --os linux --target sysctl so.conf >out 2>err &&
	grep -q "^so.conf:1: warning: net.core.somaxconn=100 lowers the limit below the default value 4096 (Linux 5.4 on; 128 before)$" out
'
test_expect_success 'a value that turns a limit off does not lower it (no-limit: ix and em interrupt rate 0, no moderation)' '
	printf "hw.ix.max_interrupt_rate=0\nhw.em.max_interrupt_rate=0\nhw.igb.rx_process_limit=50\n" >itr.conf &&
	ntune check --os freebsd --target loader itr.conf >out 2>err && cat out &&
	! grep -q "^itr.conf:[12]:.*lowers the limit" out &&
	printf "hw.ix.max_interrupt_rate=8000\n" >itr2.conf &&
	ntune check --os freebsd --target loader itr2.conf >out 2>err &&
	grep -q "^itr2.conf:1: warning: hw.ix.max_interrupt_rate=8000 lowers the limit below the default value 31250$" out
'
test_expect_success 'a default or limit for a release newer than the one the knowledge base read says which it read' '
	printf "net.core.optmem_max=20480\nnet.core.somaxconn=1024\n" >nw.conf &&
	ntune check --os linux --os-version 6.18 nw.conf >out 2>err && cat out &&
	grep -q "^nw.conf:1: note: .net.core.optmem_max=20480. is the kernel.s default .* (in Linux 6.1, the release the knowledge base read; 6.18 was not checked)$" out &&
	grep -q "^nw.conf:2: warning: net.core.somaxconn=1024 lowers the limit below the default value 4096 (in Linux 6.1, the release the knowledge base read; 6.18 was not checked)$" out &&
	ntune check --os linux --os-version 6.1 nw.conf >out 2>err &&
	! grep -q "was not checked" out &&
	printf "net.inet.tcp.mssdflt=536\n" >nf.conf &&
	ntune check --os freebsd --os-version 14.1 nf.conf >out 2>err &&
	grep -q "^nf.conf:1: note: .net.inet.tcp.mssdflt=536. is the default (in FreeBSD 14.0-CURRENT of 2022-07, the release the knowledge base read; 14.1 was not checked)$" out
'
test_expect_success 'a value at or above the older default lowers the limit only from the release that raised it, and says so' '
	printf "net.core.somaxconn=512\n" >so.conf &&
	ntune check --os linux --target sysctl so.conf >out 2>err &&
	grep -q "^so.conf:1: warning: net.core.somaxconn=512 lowers the limit below the default value 4096 from Linux 5.4 on (before 5.4 the default is 128, which it raises)$" out &&
	printf "net.inet.ip.fw.dyn_buckets=256\nhw.vtnet.rx_process_limit=512\n" >fw.conf &&
	{ ntune check --os freebsd fw.conf >out 2>err || :; } &&
	grep -q "^fw.conf:1: warning: net.inet.ip.fw.dyn_buckets=256 lowers the limit below the default value 8192 from FreeBSD 12.0 on (before 12.0 the default is 256, which it equals)$" out &&
	grep -q "^fw.conf:2: warning: hw.vtnet.rx_process_limit=512 lowers the limit below the default value 1024 from FreeBSD 14.0 on (before 14.0 the default is 512, which it equals)$" out &&
	printf "# \$FreeBSD: releng/13.1/etc/sysctl.conf 1 \$\nhw.vtnet.rx_process_limit=512\n" >v13.conf &&
	{ ntune check --os freebsd v13.conf >out 2>err || :; } &&
	grep -q "^v13.conf:2: note: .hw.vtnet.rx_process_limit=512. is the default$" out
'
test_expect_success 'cubic is the default from FreeBSD 14.0: both said without a release, newreno for a 12.2 file' '
	printf "net.inet.tcp.cc.algorithm=cubic\n" >cc.conf &&
	ntune check --os freebsd --target sysctl cc.conf >out 2>err &&
	grep -q "^cc.conf:1: note: .net.inet.tcp.cc.algorithm=cubic. is the default (FreeBSD 14.0 on; newreno before)$" out &&
	printf "# \$FreeBSD: releng/12.2/etc/sysctl.conf 1 \$\nnet.inet.tcp.cc.algorithm=newreno\n" >cc12.conf &&
	ntune check --os freebsd --target sysctl cc12.conf >out 2>err &&
	grep -q "^cc12.conf:2: note: .net.inet.tcp.cc.algorithm=newreno. is the default$" out
'
test_expect_success 'cuse4bsd_load is no problem: cuse.ko declares module cuse4bsd, which the loader finds it by' '
	printf "cuse4bsd_load=\"YES\"\n" >loader.conf &&
	ntune check --os freebsd loader.conf >out 2>err &&
	! grep -q "cuse4bsd" out
'
test_expect_success 'tcp_fastopen is a bit mask with no upper limit (0x607, 0x70403: server bits and a backlog above bit 16)' '
	printf "net.ipv4.tcp_fastopen=0x607\n" >fo1.conf && printf "net.ipv4.tcp_fastopen=0x70403\n" >fo2.conf &&
	ntune check --os linux --target sysctl fo1.conf >out 2>&1 && ! grep -q "range" out &&
	ntune check --os linux --target sysctl fo2.conf >out 2>&1 && ! grep -q "range" out
'
test_expect_success 'a netisr queue limit above net.isr.maxqlimit: a warning against its default (loader.conf may raise it), an error against the bound the file sets, capped in loader.conf' '
	printf "net.inet.ip.intr_queue_maxlen=20000\nnet.route.netisr_maxqlen=10240\n" >q.conf &&
	{ ntune check --os freebsd --target sysctl q.conf >out 2>err || :; } &&
	grep -q "^q.conf:1: warning: net.inet.ip.intr_queue_maxlen=20000 is above net.isr.maxqlimit.s default 10240: the kernel refuses it (EINVAL) unless /boot/loader.conf raises net.isr.maxqlimit to at least 20000$" out &&
	! grep -q "out of range" out && ! grep -q "^q.conf:2:" out &&
	printf "net.isr.maxqlimit=40960\nnet.inet.ip.intr_queue_maxlen=20000\nnet.route.netisr_maxqlen=50000\n" >q2.conf &&
	{ ntune check --os freebsd q2.conf >out 2>err || :; } &&
	! grep -q "^q2.conf:2:.*maxqlimit" out &&
	grep -q "^q2.conf:3: error: net.route.netisr_maxqlen=50000 is above net.isr.maxqlimit=40960 (line 1): the kernel refuses a value above it (EINVAL)$" out &&
	printf "net.route.netisr_maxqlen=\"20000\"\n" >q3.conf &&
	{ ntune check --os freebsd --target loader q3.conf >out 2>err || :; } &&
	grep -q "^q3.conf:1: warning: .*at boot the kernel caps it to net.isr.maxqlimit unless loader.conf also raises net.isr.maxqlimit$" out
'
test_expect_success 'recvbuf_max above kern.ipc.maxsockbuf matters up to maxsockbuf: the part above it has no effect (not "only matters with")' '
	printf "kern.ipc.maxsockbuf=8388608\nnet.inet.tcp.recvbuf_max=16777216\nnet.inet.tcp.sendbuf_max=4194304\n" >sb.conf &&
	{ ntune check --os freebsd --target sysctl sb.conf >out 2>err || :; } &&
	grep -q "^sb.conf:2: warning: .net.inet.tcp.recvbuf_max=16777216. is above kern.ipc.maxsockbuf (8388608, profile), which caps it: the part above 8388608 has no effect$" out &&
	! grep -q "^sb.conf:3:" out && ! grep -q "only matters" out
'
test_expect_success 'kernel.core_pattern piped to a program (systemd 50-coredump.conf) is the kernel syntax: a note, exit 0; shell text after the pipe stays an error' '
	printf "kernel.core_pattern=|/usr/lib/systemd/systemd-coredump %%P %%u %%g %%s %%t 9223372036854775808 %%h\n" >cp.conf &&
	ntune check --os linux --target sysctl cp.conf >out 2>err &&
	grep -q "^cp.conf:1: note: kernel.core_pattern: a leading .|. pipes each core dump to that program" out &&
	printf "kernel.core_pattern=|/bin/false;touch x\n" >cp2.conf &&
	test_expect_code 1 ntune check --os linux --target sysctl cp2.conf >out 2>err &&
	grep -q "^cp2.conf:1: error: kernel.core_pattern: .* has shell metacharacters" out
'
test_expect_success 'dev.cpu.0.freq=-1 is the lowest level, not the highest (cpufreq_curr_sysctl picks the nearest): a warning; a level is not' '
	printf "dev.cpu.0.freq=-1\ndev.cpu.1.freq=2400\n" >cf.conf &&
	ntune check --os freebsd --target sysctl cf.conf >out 2>err &&
	grep -q "^cf.conf:1: warning: .dev.cpu.0.freq=-1.: the kernel takes any number and sets the level nearest to it (cpufreq_curr_sysctl: the smallest |level - value|), so a negative value selects the lowest frequency, not the highest" out &&
	! grep -q "^cf.conf:2:" out
'
test_expect_success 'vm.dirty_bytes then vm.dirty_ratio: one setting in two forms, the later undoes the earlier (page-writeback.c); 0 is not a setting of the pair' '
	printf "vm.dirty_background_bytes = 4194304\nvm.dirty_bytes = 4194304\nvm.dirty_ratio = 10\nvm.dirty_background_ratio = 5\nvm.dirty_bytes = 0\nvm.dirty_ratio = 20\n" >dirty.conf &&
	{ ntune check --os linux --target sysctl dirty.conf >out 2>err || :; } &&
	grep -q "^dirty.conf:3: warning: .vm.dirty_ratio. and .vm.dirty_bytes. are one setting in two forms: writing vm.dirty_ratio sets vm.dirty_bytes to 0 \[source: mm/page-writeback.c dirty_ratio_handler .*so line 2.s vm.dirty_bytes=4194304 is undone$" out &&
	grep -q "^dirty.conf:4: warning: .vm.dirty_background_ratio. and .vm.dirty_background_bytes. are one setting in two forms: .*so line 1.s vm.dirty_background_bytes=4194304 is undone$" out &&
	! grep -q "^dirty.conf:6:.*one setting" out
'
test_expect_success 'kern.ipc.somaxconn after kern.ipc.soacceptqueue is the same variable under its old name (one handler, uipc_socket.c): the last one wins, said' '
	printf "kern.ipc.soacceptqueue=1024\nkern.ipc.somaxconn=2048\n" >sq.conf &&
	{ ntune check --os freebsd --target sysctl sq.conf >out 2>err || :; } &&
	grep -q "^sq.conf:2: error: .kern.ipc.somaxconn. is .kern.ipc.soacceptqueue. under another name: line 1 set it to .1024.; the last one wins$" out
'
test_expect_success 'ipfrag_high_thresh below the low threshold when written is refused (extra1 = &low_thresh, ip_fragment.c): against the default, or the line that set it; lowering low first is fine' '
	printf "net.ipv4.ipfrag_high_thresh = 512000\nnet.ipv4.ipfrag_low_thresh = 446464\nnet.ipv6.ip6frag_low_thresh = 100000\nnet.ipv6.ip6frag_high_thresh = 200000\nnet.ipv6.ip6frag_high_thresh = 50000\n" >fr.conf &&
	{ ntune check --os linux --target sysctl fr.conf >out 2>err || :; } &&
	grep -q "^fr.conf:1: warning: net.ipv4.ipfrag_high_thresh=512000 is below net.ipv4.ipfrag_low_thresh.s default 3145728, its minimum when it is written: the kernel refuses it (EINVAL) from Linux 4.9 on (the 3.0 tree has no such minimum .*) unless net.ipv4.ipfrag_low_thresh is lowered first" out &&
	! grep -q "^fr.conf:4:.*below" out &&
	grep -q "^fr.conf:5: warning: net.ipv6.ip6frag_high_thresh=50000 is below net.ipv6.ip6frag_low_thresh=100000 (line 3), its minimum when it is written: the kernel refuses it (EINVAL) from Linux 4.9 on" out &&
	{ ntune check --os linux --os-version 6.1 --target sysctl fr.conf >out 2>err || :; } &&
	grep -q "^fr.conf:1: warning: net.ipv4.ipfrag_high_thresh=512000 is below net.ipv4.ipfrag_low_thresh.s default 3145728, its minimum when it is written: the kernel refuses it (EINVAL) unless" out &&
	grep -q "^fr.conf:5: error: net.ipv6.ip6frag_high_thresh=50000 is below net.ipv6.ip6frag_low_thresh=100000 (line 3), its minimum when it is written: the kernel refuses it (EINVAL) .source" out
'
test_expect_success 'a minimum a later release added is not said for a kernel older than it (ipfrag_high_thresh: any value on 3.13)' '
	printf "net.ipv4.ipfrag_high_thresh = 512000\nnet.ipv6.ip6frag_low_thresh = 100000\nnet.ipv6.ip6frag_high_thresh = 50000\n" >f3.conf &&
	ntune check --os linux --os-version 3.13 --target sysctl f3.conf >out 2>err && cat out &&
	! grep -q "below" out
'
test_expect_success 'a default the source computes says what it depends on (default-when: word size, memory, build option)' '
	printf "net.core.rmem_default=212992\nnet.core.wmem_max=163840\nnet.ipv4.tcp_wmem=4096 16384 4194304\nnet.ipv4.tcp_congestion_control=cubic\nnet.ipv4.neigh.default.gc_thresh3=1024\n" >dw.conf &&
	ntune check --os linux dw.conf >out 2>err && cat out &&
	grep -q "^dw.conf:1: note: .net.core.rmem_default=212992. is the kernel.s default on a 64-bit kernel such as x86-64.s (SKB_TRUESIZE(256) \* 256, include/net/sock.h:3036-3039" out &&
	grep -q "^dw.conf:2: warning: net.core.wmem_max=163840 lowers the limit below the default value 212992 on a 64-bit kernel" out &&
	grep -q "^dw.conf:3: note: .net.ipv4.tcp_wmem=4096 16384 4194304. is the kernel.s default with 512 MB or more of free memory at boot (the maximum is free memory / 128, at most 4 MB" out &&
	grep -q "^dw.conf:4: note: .net.ipv4.tcp_congestion_control=cubic. is the kernel.s default unless it is built with another CONFIG_DEFAULT_TCP_CONG" out &&
	grep -q "^dw.conf:5: note: .net.ipv4.neigh.default.gc_thresh3=1024. is the kernel.s default$" out &&
	ntune explain --json net.core.optmem_max >e.json &&
	python3 -c "import json; k=json.load(open(\"e.json\")); k=k[0] if isinstance(k,list) else k; assert k[\"default\"]==\"20480\" and \"64-bit\" in k[\"default_when\"], k"
'
test_expect_success 'for OPNsense and pfSense the FreeBSD default is said as such: the appliance may write its own at boot' '
	printf "net.inet.tcp.blackhole=0\n" >ap.conf &&
	ntune check --os opnsense --target sysctl ap.conf >out 2>err && cat out &&
	grep -q "^ap.conf:1: note: .net.inet.tcp.blackhole=0. is the FreeBSD default (OPNsense may write its own at boot)$" out &&
	ntune check --os pfsense --target sysctl ap.conf >out 2>err &&
	grep -q "^ap.conf:1: note: .net.inet.tcp.blackhole=0. is the FreeBSD default (pfSense may write its own at boot)$" out &&
	ntune check --os freebsd --target sysctl ap.conf >out 2>err &&
	grep -q "^ap.conf:1: note: .net.inet.tcp.blackhole=0. is the default$" out
'
test_expect_success 'loader.conf: a value the Lua loader refuses (single quotes, a bare word with / or ,) is an error; module_path.s ; is the loader.s separator (a note)' '
	printf "tmpfs_load=\047YES\047\nkernel=/boot/kernel\nautoboot_delay=-1\nkern.hz=1000\nzfs_load=\"YES\"\nmodule_path=\"/boot/kernel;/boot/modules\"\n" >ls.conf &&
	test_expect_code 1 ntune check --os freebsd --target loader ls.conf >out 2>err && cat out &&
	grep -q "^ls.conf:1: error: tmpfs_load=.YES.: the Lua loader, the default (stand/defs.mk:193), reads a value in double quotes or a bare word of letters, digits, .-., ._. and .\.. (stand/lua/config.lua:65-68.*Malformed line.*write tmpfs_load=\"YES\"$" out &&
	grep -q "^ls.conf:2: error: kernel=/boot/kernel: the Lua loader" out &&
	! grep -q "^ls.conf:[345]:" out &&
	grep -q "^ls.conf:6: note: module_path: .;. separates the loader.s module directories" out &&
	! grep -q "shell metacharacters" out &&
	printf "# \$FreeBSD: releng/10.4/sys/boot/forth/loader.conf 1 \$\ntmpfs_load=\047YES\047\n" >ls104.conf &&
	ntune check --os freebsd --target loader ls104.conf >out 2>err &&
	! grep -q "Malformed" out
'
test_expect_success 'a line that sets nothing where it is written (a sysctl -w command in sysctl.conf) is no first setting of a knob set again' '
	printf "sysctl -w net.core.rmem_default=262144\nnet.core.rmem_default=262144\nnet.core.somaxconn=1024\nnet.core.somaxconn=1024\n" >sw.conf &&
	ntune check --os linux --target sysctl sw.conf >out 2>err && cat out &&
	grep -q "^sw.conf:1: warning: a .sysctl -w net.core.rmem_default. command line" out &&
	! grep -q "^sw.conf:2: warning: .net.core.rmem_default. set twice" out &&
	grep -q "^sw.conf:4: warning: .net.core.somaxconn. set twice (line 3)" out &&
	ntune check --os linux sw.conf >out 2>err &&
	grep -q "^sw.conf:2: warning: .net.core.rmem_default. set twice (line 1)" out
'
test_expect_success 'hw.ncpu in loader.conf is a tunable arm, arm64 and riscv read at boot (mp_machdep.c:798), not a read-only error' '
	printf "hw.ncpu=16\n" >nc.conf &&
	ntune check --os freebsd --target loader nc.conf >out 2>err && cat out &&
	! grep -q "^nc.conf:1: error" out &&
	grep -q "^nc.conf:1: note: .hw.ncpu. is read-only at run time (.*); at boot it is read only where a tunable fetch is (sys/arm/" out &&
	printf "hw.ncpu=16\n" >ncs.conf &&
	test_expect_code 1 ntune check --os freebsd --target sysctl ncs.conf >out 2>err &&
	grep -q "^ncs.conf:1: error: .hw.ncpu. is read-only" out &&
	ntune explain hw.ncpu >e.txt && grep -q "arm64/arm64/mp_machdep.c:798" e.txt
'
test_expect_success 'syncookies_only does nothing with syncookies=0 (syncache_cookiesonly tests both, tcp_syncache.c)' '
	printf "net.inet.tcp.syncookies=0\nnet.inet.tcp.syncookies_only=1\n" >sc.conf &&
	ntune check --os freebsd --target sysctl sc.conf >out 2>err && cat out &&
	grep -q "^sc.conf:2: warning: .net.inet.tcp.syncookies_only. only matters with net.inet.tcp.syncookies != 0 (net.inet.tcp.syncookies is 0, profile)$" out &&
	printf "net.inet.tcp.syncookies_only=1\n" >sc2.conf &&
	ntune check --os freebsd --target sysctl sc2.conf >out 2>err &&
	! grep -q "only matters" out
'
test_done
