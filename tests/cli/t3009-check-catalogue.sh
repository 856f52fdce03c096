#!/bin/sh
# ntune check on every line from the catalogue (share/catalog): the real lines of issue 19.
. "$(dirname "$0")/lib.sh"

test_prereq_PROC_SYS() { [ -f /proc/sys/net/ipv4/ip_forward ]; }
# A documented sysctl this kernel lacks: SCTP's, when the sctp module is not loaded.
test_prereq_NO_SCTP() { [ -d /proc/sys/net ] && ! [ -d /proc/sys/net/sctp ]; }

test_expect_success 'real FreeBSD knobs outside the knowledge base are known, not unknown' '
	mkdir -p etc &&
	printf "net.inet.tcp.syncookies=1\nnet.inet.icmp.drop_redirect=1\nkern.ipc.somaxconn=1024\nnet.inet.ip.redirect=0\n" >etc/sysctl.conf &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf >out 2>err &&
	cat out err &&
	! grep -q "unknown\|did you mean" out &&
	grep -q "0 errors, 0 warnings, [0-9]* notes\{0,1\}, 0 unknown" err
'
test_expect_success 'a far-off name gets no did-you-mean and is a warning, not an error' '
	printf "net.ipv4.tcp_nodelay=1\n" >far.conf &&
	test_expect_code 0 ntune check --os linux far.conf >out 2>/dev/null &&
	grep -q "far.conf:1: warning: unknown knob .net.ipv4.tcp_nodelay.: not in the catalogue" out &&
	! grep -q "did you mean" out &&
	printf "net.inet.tcp.sendspac=1\n" >typo.conf &&
	test_expect_code 1 ntune check --os freebsd typo.conf >out 2>/dev/null &&
	grep -q "typo.conf:1: error: unknown knob .net.inet.tcp.sendspac. (did you mean net.inet.tcp.sendspace?)" out
'
test_expect_success 'a runtime-only knob in loader.conf names its catalogue entry' '
	mkdir -p boot &&
	printf "kern.randompid=1\nkern.maxvnodes=400000\nvfs.read_max=128\n" >boot/loader.conf &&
	ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	cat out &&
	grep -q "loader.conf:1: warning: .kern.randompid. is a runtime sysctl (CTLFLAG_RW, no tunable, sys/kern/kern_fork.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): in loader.conf it has no effect" out &&
	grep -q "loader.conf:2: warning: .kern.maxvnodes. is a runtime sysctl" out &&
	grep -q "loader.conf:3: warning: .vfs.read_max. is a runtime sysctl (CTLFLAG_RW, no tunable, sys/kern/vfs_cluster.c:[0-9]*" out
'
test_expect_success 'a boot-only knob in sysctl.conf is an error naming its flags and source' '
	printf "vfs.zfs.zio.use_uma=0\n" >etc/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd etc/sysctl.conf >out 2>/dev/null &&
	grep -q "sysctl.conf:1: error: .vfs.zfs.zio.use_uma. is a boot-time tunable (CTLFLAG_RDTUN, sys/cddl/contrib/opensolaris/uts/common/fs/zfs/zio.c:[0-9]*, FreeBSD 13.0-CURRENT of 2019-04)" out &&
	grep -q "warning: .vfs.zfs.zio.use_uma. is gone from FreeBSD: not in the newest source the catalogue read (FreeBSD 14.0-CURRENT of 2022-07); last in the FreeBSD 13.0-CURRENT of 2019-04 tree (sunrash/freebsd_steroid@9246be315f); seen in 9.3, 10.4, 12.1, 13.0" out
'
test_expect_success 'rc.conf variables in loader.conf: the loader ignores them' '
	printf "rc_startmsgs=\"NO\"\ndhclient_flags=\"-q\"\ndefaultroute_delay=\"0\"\nacpi_video=\"YES\"\nif_bridge_load=\"YES\"\n" >boot/loader.conf &&
	test_expect_code 0 ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	cat out &&
	grep -q "loader.conf:1: warning: .rc_startmsgs. is an rc.conf variable (libexec/rc/rc.conf:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): the loader ignores it" out &&
	grep -q "loader.conf:2: warning: .dhclient_flags. is an rc.conf variable" out &&
	grep -q "loader.conf:3: warning: .defaultroute_delay. is an rc.conf variable" out &&
	grep -q "loader.conf:4: warning: .acpi_video. is not a loader variable; the loader ignores it (to load the module: acpi_video_load=\"YES\", stand/defaults/loader.conf:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07)" out &&
	! grep -q "loader.conf:5:" out
'
test_expect_success 'net.route.netisr_maxqlen works in both files (CTLFLAG_RW and a tunable fetch)' '
	printf "net.route.netisr_maxqlen=2048\n" >etc/sysctl.conf &&
	printf "net.route.netisr_maxqlen=2048\n" >boot/loader.conf &&
	ntune check --os freebsd etc/sysctl.conf >out1 2>/dev/null &&
	ntune check --os freebsd boot/loader.conf >out2 2>/dev/null &&
	! grep -q "placement\|boot-time\|runtime sysctl" out1 out2
'
test_expect_success 'hw.em.rx_process_limit: still declared CTLFLAG_RDTUN, read by nothing since iflib' '
	printf "hw.em.rx_process_limit=\"-1\"\n" >boot/loader.conf &&
	ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "warning: .hw.em.rx_process_limit. has had no effect since 12.0 (still declared, CTLFLAG_RDTUN in sys/dev/e1000/if_em.c:[0-9]*, but read nowhere); use dev.em.N.iflib.rx_budget" out &&
	ntune explain hw.em.rx_process_limit >ex &&
	grep -q "read nowhere" ex
'
test_expect_success 'net.inet.tcp.cc.algorithm=bbr is refused: bbr is a TCP stack' '
	printf "net.inet.tcp.cc.algorithm=bbr\n" >etc/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd etc/sysctl.conf >out 2>/dev/null &&
	grep -q "sysctl.conf:1: error: .bbr. is a TCP stack, not a congestion-control module (the modules in sys/netinet/cc are: cdg, chd, cubic, dctcp, hd, htcp, newreno, vegas); use net.inet.tcp.functions_default=bbr" out &&
	printf "net.inet.tcp.cc.algorithm=cubic\nnet.inet.tcp.functions_default=bbr\n" >etc/sysctl.conf &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf >out 2>/dev/null
'
test_expect_success 'read-only FreeBSD sysctls are errors in sysctl.conf' '
	printf "net.isr.numthreads=4\n" >etc/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd etc/sysctl.conf >out 2>/dev/null &&
	grep -q "error: .net.isr.numthreads. is read-only" out
'
test_expect_success PROC_SYS 'Linux: a write-only OID is known, a read-only one is an error (mode bits)' '
	printf "net.ipv4.route.flush=1\nnet.ipv4.conf.all.mc_forwarding=1\n" >l.conf &&
	test_expect_code 1 ntune check --os linux --local l.conf >out 2>/dev/null &&
	cat out &&
	! grep -q "l.conf:1:" out &&
	grep -q "l.conf:2: error: .net.ipv4.conf.all.mc_forwarding. is read-only on this kernel" out
'
test_expect_success PROC_SYS,NO_SCTP 'Linux: a documented knob this kernel lacks is said so, not unknown' '
	printf "net.sctp.addip_enable=1\n" >s.conf &&
	ntune check --os linux --local s.conf >out 2>/dev/null &&
	grep -q "warning: .net.sctp.addip_enable. is documented (Documentation/networking/ip-sysctl.rst:[0-9]*, Linux 6.12) but not present on this kernel" out
'
test_expect_success 'documented Linux names are never unknown, present here or not' '
	printf "kernel.sysrq=0\nnet.ipv4.conf.eth0.rp_filter=2\nnet.core.rmem_max=16777216\n" >d.conf &&
	ntune check --os linux --json d.conf >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"unknown\"]==0, d; assert d[\"lines\"]==3"
'
test_expect_success 'a knob gone from the kernel names the last tree and line that had it, never unknown' '
	printf "net.ipv4.tcp_tw_recycle=1\nkernel.sched_latency_ns=6000000\n" >g.conf &&
	ntune check --os linux --json g.conf >out.json 2>/dev/null &&
	python3 -c "
import json, re
d = json.load(open(\"out.json\"))
assert d[\"unknown\"] == 0, d
m = {x[\"line\"]: x[\"message\"] for x in d[\"diagnostics\"] if x[\"rule\"] == \"version\"}
assert re.search(r\"tcp_tw_recycle.*4\\.9 \\(net/ipv4/sysctl_net_ipv4\\.c:[0-9]+, Linux 4\\.9\\)\", m[1]), m
assert re.search(r\"sched_latency_ns.*5\\.10 \\(kernel/sysctl\\.c:[0-9]+, Linux 5\\.10\\)\", m[2]), m
" &&
	printf "hw.igb.rxd=4096\n" >boot/loader.conf &&
	ntune check --os freebsd boot/loader.conf >out 2>/dev/null &&
	grep -q "warning: .hw.igb.rxd. is gone from FreeBSD: not in the newest source the catalogue read (FreeBSD 14.0-CURRENT of 2022-07); last in the FreeBSD 10.4 tree (coder03/freebsd10.4@3d3f8b116d); seen in 9.3, 10.4 (sys/dev/e1000/if_igb.c:[0-9]*, FreeBSD 10.4)" out
'
test_expect_success 'FreeBSD knobs gone since 10.4 are warnings naming the last tree; a note for the release a $FreeBSD$ tag states' '
	printf "net.inet.ip.rtminexpire=10\nnet.inet.ip.rtmaxcache=16384\nnet.inet.tcp.experimental.initcwnd10=1\n" >etc/sysctl.conf &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf >out 2>err &&
	cat out &&
	grep -q "sysctl.conf:1: warning: .net.inet.ip.rtminexpire. is gone from FreeBSD: not in the newest source the catalogue read (FreeBSD 14.0-CURRENT of 2022-07); last in the FreeBSD 10.4 tree (coder03/freebsd10.4@3d3f8b116d); seen in 9.3, 10.4 (sys/netinet/in_rmx.c:[0-9]*, FreeBSD 10.4); on a kernel without it the setting does nothing" out &&
	grep -q "sysctl.conf:2: warning: .net.inet.ip.rtmaxcache. is gone from FreeBSD.*last in the FreeBSD 10.4 tree" out &&
	grep -q "sysctl.conf:3: warning: .net.inet.tcp.experimental.initcwnd10. is gone from FreeBSD.*last in the FreeBSD 10.4 tree.*sys/netinet/tcp_input.c:[0-9]*" out &&
	grep -q "0 errors, 3 warnings, 0 notes" err &&
	{ printf "# \$FreeBSD: releng/10.4/etc/sysctl.conf 112200 2003-03-13 18:43:50Z mux \$\n"; cat etc/sysctl.conf; } >etc/sysctl.conf.local &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf.local >out 2>err &&
	grep -q "sysctl.conf.local:2: note: .net.inet.ip.rtminexpire. is in FreeBSD 10.4 (the release the file.s \$FreeBSD\$ tag states) but gone from the newest source the catalogue read (FreeBSD 14.0-CURRENT of 2022-07)" out &&
	grep -q "0 errors, 0 warnings, 3 notes" err
'
test_expect_success 'per-instance names match the patterns of the source, not a list of instances' '
	printf "net.link.lagg.0.use_flowid=0\nhw.acpi.video.lcd0.brightness=50\n" >etc/sysctl.conf &&
	ntune check --os freebsd --json etc/sysctl.conf >out.json 2>/dev/null &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"unknown\"]==0, d" &&
	grep -q "^net.link.lagg.\*.use_flowid	.*sys/net/if_lagg.c:[0-9]*$" "$SRCDIR/share/catalog/freebsd.tsv" &&
	grep -q "^hw.acpi.video.\*.brightness	.*sys/dev/acpica/acpi_video.c:[0-9]*$" "$SRCDIR/share/catalog/freebsd.tsv"
'
test_expect_success 'hw.acpi.verbose: a runtime sysctl under the node acpi names at attach, also a loader tunable' '
	printf "hw.acpi.verbose=1\n" >etc/sysctl.conf &&
	printf "hw.acpi.verbose=\"1\"\n" >boot/loader.conf &&
	test_expect_code 0 ntune check --os freebsd etc/sysctl.conf >out1 2>err1 &&
	test_expect_code 0 ntune check --os freebsd boot/loader.conf >out2 2>err2 &&
	cat out1 out2 &&
	! grep -q "boot-time\|placement\|runtime sysctl" out1 out2 &&
	grep -q "0 errors, 0 warnings, 0 notes, 0 unknown" err1 &&
	grep -q "0 errors, 0 warnings, 0 notes, 0 unknown" err2 &&
	grep -q "^hw.acpi.verbose	sysctl	int	both	RW	.*sys/dev/acpica/acpi.c:[0-9]* fetch:sys/dev/acpica/acpi.c:[0-9]*" "$SRCDIR/share/catalog/freebsd.tsv"
'
test_expect_success 'Linux enum-like knobs: a value the source does not provide is an error listing those it does' '
	printf "net.ipv4.tcp_congestion_control=bbr2\nnet.core.default_qdisc=fq_codel\n" >v.conf &&
	test_expect_code 1 ntune check --os linux v.conf >out 2>/dev/null &&
	grep -q "v.conf:1: error: net.ipv4.tcp_congestion_control: .bbr2. is not one of the values the source provides: bbr, bic, .*cubic.* (l6.12:net/ipv4/tcp_[a-z]*.c:[0-9]*); a kernel without a module of that name refuses it" out &&
	! grep -q "v.conf:2: error" out
'
test_expect_success 'default_qdisc takes every qdisc the 6.1 tree registers (fq_pie, pie, codel), not a hand list of 7' '
	for q in fq_pie pie codel cake fq; do
		printf "net.core.default_qdisc=%s\n" $q >q.conf &&
		ntune check --os linux --target sysctl q.conf >out 2>&1 &&
		! grep -q ": error:" out || return 1
	done &&
	printf "net.core.default_qdisc=fq_pi\n" >q.conf &&
	test_expect_code 1 ntune check --os linux --target sysctl q.conf >out 2>&1 &&
	grep -q "q.conf:1: error: net.core.default_qdisc: .fq_pi. is not one of the values the source provides: .*fq_pie" out
'
test_expect_success 'a name an old tree declares in a table the generator reads no other way is not missing there; a newer name is' '
	printf "net.netfilter.nf_conntrack_tcp_timeout_established=7200\nfs.file-max=100000\nnet.ipv4.neigh.default.gc_thresh3=4096\nkernel.io_uring_disabled=1\n" >old.conf &&
	ntune check --os linux --os-version 3.10 old.conf >out 2>err && cat out &&
	! grep -q "^old.conf:[123]:.*not in the Linux" out &&
	grep -q "^old.conf:4: warning: .kernel.io_uring_disabled. is not in the Linux 3.0 source the catalogue read" out
'
test_done
