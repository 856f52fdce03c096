#!/bin/sh
# Issue 13 on real captured FreeBSD/OPNsense/pfSense output (tests/fixtures/os/real, each
# file's source in its SOURCES.orig.md): what check, advise, inspect, export and diff say
# about a real box must be true. Classes with no real capture to be had (an OPNsense
# sysctl -a, a tuned profile) are covered on constructed input in t3006 and t3010.
. "$(dirname "$0")/lib.sh"
R="$FIXTURES/os/real"
DMESG="$R/dmesg_opnsense24.1_atom-c3558r_ix-x553_partial.txt"
IXDUMP="$R/sysctl-dev.ix.0_pfsense_partial.txt"
NBLOADER="$R/loader.conf.local_netbenches_atom-c2758_ix-82599.txt"
NBSYSCTL="$R/sysctl.conf_netbenches_atom-c2758_ix-82599.txt"

test_expect_success REAL_FIXTURES 'a real pfSense "sysctl dev.ix.0": the per-device values are shown, the link is unknown, not down' '
	test_expect_code 1 ntune inspect --from "$IXDUMP" >out 2>err &&
	grep -q "^  dev.ix.0.enable_aim *runtime *0$" out &&
	grep -q "^  dev.ix.0.fc *runtime *3$" out &&
	grep -q "hw.ix.rx_process_limit" out &&
	! grep -q "hw.ix.allow_unsupported_sfp\|hw.ixl" out &&
	grep -q "^    link         unknown, " out && ! grep -q "link *down" out &&
	grep -q "sysctl-dev.ix.0_pfsense_partial.txt:37: last line cut short" err &&
	test_expect_code 1 ntune inspect --json --from "$IXDUMP" >out.json 2>/dev/null &&
	python3 -c "import json; n=json.load(open(\"out.json\"))[\"nics\"]; assert [x[\"up\"] for x in n]==[None], n"
'
test_expect_success REAL_FIXTURES 'the dump says nothing about the OS: the platform stays unknown (a real pfSense capture is not called FreeBSD or OPNsense)' '
	test_expect_code 1 ntune inspect --json --from "$IXDUMP" >p.json 2>/dev/null &&
	python3 -c "import json; s=json.load(open(\"p.json\"))[\"system\"]; assert s[\"platform\"]==\"unknown\" and s[\"platform_evidence\"] is None, s"
'
test_expect_success REAL_FIXTURES 'advise on the real pfSense ix0 values: each proposal beside its current value, what is set left alone' '
	ntune advise --os pfsense --cpus 4 --cores 4 --from "$IXDUMP" >a.conf 2>/dev/null &&
	grep -B1 "^dev.ix.0.fc=0$" a.conf | grep -q "^# now: 3 → 0$" &&
	test "$(grep -c "^# now: " a.conf)" = "$(grep -c "^[a-z].*=" a.conf)" &&
	! grep -q "^dev.ix.0.enable_aim=0$" a.conf
'
test_expect_success REAL_FIXTURES 'a real OPNsense 24.1 dmesg (X553 ix): LRO/TSO off per port, from the driver source, and rings up to the driver maximum' '
	ntune advise --os opnsense --cpus 4 --cores 4 --from "$DMESG" >d.conf &&
	grep -B2 "^if.ix0.offload.lro=off$" d.conf | grep -q "^# source: ixgbe(4); sys/dev/ixgbe/if_ix.c:394-396 .*ixgbe.h:199-200 IXGBE_CAPS" &&
	grep -B1 "^if.ix1.offload.tso=off$" d.conf | grep -q "^# now: unknown → off$" &&
	grep -B3 "^dev.ix.0.iflib.override_nrxds=4096$" d.conf | grep -q "^# \[measure it\] ix0 has 2048 rx descriptors; its driver accepts up to 4096" &&
	ntune advise --os opnsense --cpus 4 --cores 4 --from "$DMESG" --role host >h.conf &&
	! grep -q "offload" h.conf
'
test_expect_success REAL_FIXTURES 'the same real box: --goal latency and --role firewall change the FreeBSD advice, each with its reason' '
	grep -q "^net.isr.dispatch=deferred$" d.conf &&
	ntune advise --os opnsense --cpus 4 --cores 4 --from "$DMESG" --goal latency >l.conf &&
	! grep -q "^net.isr.dispatch=" l.conf &&
	grep -B3 "^net.iflib.min_tx_latency=1$" l.conf | grep -q "for latency" &&
	ntune advise --os opnsense --cpus 4 --cores 4 --from "$DMESG" --role firewall >f.conf &&
	grep -B3 "^net.pf.states_hashsize=" f.conf | grep -q "stateful firewall" &&
	! grep -q "states_hashsize" d.conf
'
test_expect_success REAL_FIXTURES 'RSS bits on real CPU counts: the kernel rule fls(ncpu-1)+1, never one bucket per CPU' '
	ntune advise --os opnsense --from "$R/sysctl-kern.smp_freebsd_ten64-nxp-ls1088_8c8t.txt" >k8.conf &&
	grep -q "^# ntune advise for opnsense.*: 8 CPUs (8 cores, SMT off)" k8.conf &&
	grep -q "^#   net.inet.rss.bits=4 (the kernel sets 4 at boot for 8 CPUs)$" k8.conf &&
	ntune advise --os opnsense --from "$R/top-P_freebsd14.3_4cpu_3snapshots.txt" >k4.conf &&
	grep -q "^#   net.inet.rss.bits=3 (the kernel sets 3 at boot for 4 CPUs)$" k4.conf
'
test_expect_success REAL_FIXTURES 'export refuses the real netbenches loader.conf.local as check does, names file:line, and --force writes it' '
	cp "$NBLOADER" loader.conf.local &&
	test_expect_code 1 ntune export --os freebsd loader.conf.local --format loader >out 2>err &&
	test ! -s out &&
	grep -q "^loader.conf.local:30: error: .hw.ix.allow_unsupported_sfp. does nothing: no FreeBSD kernel defines it" err &&
	grep -q "nothing written, --force exports anyway" err &&
	ntune export --os freebsd loader.conf.local --format loader --force >out 2>/dev/null &&
	grep -q "^hw.ix.allow_unsupported_sfp=" out
'
test_expect_success REAL_FIXTURES 'the real netbenches sysctl.conf exported: the loader-only simple_tx goes to loader.conf, every runtime line is tried' '
	cp "$NBSYSCTL" sysctl.conf &&
	ntune export --os freebsd sysctl.conf --format sh >s.sh 2>err &&
	sh -n s.sh && ! grep -q "^set -e" s.sh &&
	grep -q "^# boot-time tunable, add to /boot/loader.conf.local: dev.ix.1.iflib.simple_tx=\"1\"$" s.sh &&
	! grep -q "^try sysctl .dev.ix.*simple_tx" s.sh &&
	test "$(grep -c "^try sysctl " s.sh)" = "$(grep "^[a-z]" sysctl.conf | grep -vc simple_tx)" &&
	ntune export --os freebsd sysctl.conf --format sysctl >s.conf 2>err &&
	grep -q "^ntune export: sysctl.conf:13: .dev.ix.1.iflib.simple_tx. does not belong in sysctl, left out$" err &&
	! grep -q simple_tx s.conf
'
test_expect_success REAL_FIXTURES 'a UTF-8 BOM before the real netbenches sysctl.conf changes nothing check says' '
	mkdir -p bom &&
	{ printf "\357\273\277" && cat sysctl.conf; } >bom/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd sysctl.conf >plain.out 2>&1 &&
	test_expect_code 1 ntune check --os freebsd bom/sysctl.conf >bom.out 2>&1 &&
	sed "s|^bom/sysctl.conf|sysctl.conf|" bom.out >bom2.out &&
	cmp plain.out bom2.out &&
	grep -q "^sysctl.conf:13: error: " plain.out
'
test_expect_success REAL_FIXTURES 'diff refuses real command output without tunables and compares a real dump with a profile' '
	printf "dev.ix.0.fc=0\ndev.ix.0.enable_aim=0\n" >p.conf &&
	test_expect_code 2 ntune diff "$R/top-SHPn_freebsd14.3-vm_4cpu_vtnet-netisr_16flows.txt" p.conf >out 2>err &&
	test ! -s out && grep -q "holds no tunables" err &&
	test_expect_code 1 ntune diff "$IXDUMP" p.conf >out 2>/dev/null &&
	grep -q "^dev.ix.0.fc  *3  |  0$" out && ! grep -q "enable_aim" out
'
test_done
