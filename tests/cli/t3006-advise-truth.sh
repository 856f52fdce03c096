#!/bin/sh
# ntune advise/inspect on real-shaped FreeBSD/OPNsense output: the platform from evidence,
# current values beside proposals, the kernel's RSS rule, goals and roles, a seed compared.
# test-asan: full
. "$(dirname "$0")/lib.sh"
SEED0="$SRCDIR/tests/fixtures/os/seed000-dec750"
SEED1="$SRCDIR/tests/fixtures/os/seed001-xeon-ix"

# OPNsense 23.7 prints kern.version without the word OPNsense (the seed 000 excerpt has that line; the sed keeps it so).
dec750() { sed "s/^kern.version: .*/kern.version: FreeBSD 13.2-RELEASE-p7 stable\/23.7-n254871-5b3f2a1a9e7 SMP/" "$SEED0/sysctl-a.txt"; }

test_expect_success 'an OPNsense 23.7 dump is OPNsense because net.inet.rss.enabled exists, and inspect says why' '
	dec750 >dec750.txt &&
	! grep -q OPNsense dec750.txt &&
	ntune inspect --from dec750.txt >out &&
	grep -q "^  platform     opnsense (net.inet.rss.enabled exists (only OPNsense kernels define it" out &&
	ntune inspect --json --from dec750.txt >out.json &&
	python3 -c "import json; s=json.load(open(\"out.json\"))[\"system\"]; assert s[\"platform\"]==\"opnsense\", s; assert \"rss.enabled\" in s[\"platform_evidence\"]"
'
test_expect_success 'the stable/23.7 branch alone names OPNsense; a dump that says nothing leaves the platform unknown' '
	grep -v "^net.inet.rss" dec750.txt >branch.txt &&
	ntune inspect --from branch.txt >out &&
	grep -q "^  platform     opnsense (kern.version is built from stable/23.7, an OPNsense release branch" out &&
	sed "s/^kern.version: .*/kern.version: FreeBSD 14.1-RELEASE GENERIC/" branch.txt >plain.txt &&
	ntune inspect --json --from plain.txt >plain.json &&
	python3 -c "import json; s=json.load(open(\"plain.json\"))[\"system\"]; assert s[\"platform\"]==\"unknown\" and s[\"platform_evidence\"] is None, s"
'
test_expect_success 'the DEC750: check accepts net.inet.rss.enabled, advise turns RSS on with bits at least the kernel auto value' '
	printf "net.inet.rss.enabled=1\nnet.inet.rss.bits=4\n" >rss.conf &&
	ntune check --from dec750.txt rss.conf >out &&
	! grep -q "error" out &&
	ntune advise --from dec750.txt >adv.conf &&
	grep -q "^# ntune advise for opnsense " adv.conf &&
	grep -B1 "^net.inet.rss.enabled=1$" adv.conf | grep -q "^# now: 0 → 1$" &&
	bits=$(sed -n "s/^net.inet.rss.bits=//p" adv.conf) &&
	test "$bits" -ge 4 && test "$bits" -le 7 &&
	grep -B1 "^net.inet.rss.bits=$bits$" adv.conf | grep -q "^# now: 3 → $bits$"
'
test_expect_success 'what is already set is not proposed again but listed as already in effect' '
	grep -q "^#   net.inet.ip.forwarding=1 (now 1)$" adv.conf &&
	! grep -q "^net.inet.ip.forwarding=" adv.conf &&
	test "$(grep -c "^# now: " adv.conf)" = "$(grep -c "^[a-z].*=" adv.conf)"
'
test_expect_success 'RSS bits follow the kernel rule for 6 and 256 CPUs, not one bucket per CPU' '
	sed "s/^hw.ncpu: 8/hw.ncpu: 6/; s/^kern.smp.cpus: 8/kern.smp.cpus: 6/; s/^kern.smp.cores: 4/kern.smp.cores: 6/; s/^kern.smp.threads_per_core: 2/kern.smp.threads_per_core: 1/; /^kern.sched.topology_spec/,/^<\/groups>/d" dec750.txt >six.txt &&
	ntune advise --from six.txt >six.conf &&
	grep -q "^net.inet.rss.bits=4$" six.conf &&
	grep -B1 "^net.inet.rss.bits=4$" six.conf | grep -q "^# now: 3 → 4$" &&
	ntune advise --os opnsense --cpus 256 --cores 128 --json >big.json &&
	python3 -c "import json; a={x[\"name\"]:x for x in json.load(open(\"big.json\"))[\"advice\"]}; b=a[\"net.inet.rss.bits\"]; assert b[\"value\"]==\"7\" and b[\"already_set\"] and b[\"current\"]==\"0\", b"
'
test_expect_success 'LRO and TSO are advised off per NIC for a router, with the state ifconfig showed' '
	ntune advise --from dec750.txt --from "$SEED0/ifconfig-a.txt" >ax.conf &&
	grep -q "^#   if.ax0.offload.lro: ax0.s driver has no LRO (no IFCAP_LRO): nothing to turn off \[source: axgbe(4); .*if_axgbe_pci.c:701-706" ax.conf &&
	! grep -q "^if.ax0.offload.lro=" ax.conf &&
	grep -q "^#   if.ax0.offload.tso=off (now off)$" ax.conf &&
	sed "s/ax\([01]\)/igc\1/g; s/dev.ax./dev.igc./g; s/%driver: ax/%driver: igc/" dec750.txt >igc0.txt &&
	sed "s/^ax\([01]\)/igc\1/; 0,/options=8800b8<VLAN_MTU/s//options=8805bb<RXCSUM,TXCSUM,TSO4,LRO,VLAN_MTU/" "$SEED0/ifconfig-a.txt" >ifc.txt &&
	grep -q "^igc0: .*" ifc.txt && grep -q "^	options=.*LRO" ifc.txt &&
	ntune advise --from igc0.txt --from ifc.txt >off.conf &&
	grep -B1 "^if.igc0.offload.lro=off$" off.conf | grep -q "^# now: on → off$" &&
	grep -B2 "^if.igc0.offload.lro=off$" off.conf | grep -q "^# source: igc(4); .*if_igc.c:442-446 IGC_CAPS" &&
	grep -B1 "^if.igc0.offload.tso=off$" off.conf | grep -q "^# now: on → off$" &&
	grep -q "^#   if.igc1.offload.lro=off (now off)$" off.conf &&
	ntune advise --from igc0.txt --from ifc.txt --role host >host.conf &&
	! grep -q "offload" host.conf
'
test_expect_success 'iflib descriptor overrides only where the driver maximum is known, and said so otherwise' '
	ntune advise --from dec750.txt >ax.conf &&
	grep -B4 "^dev.ax.0.iflib.override_nrxds=4096$" ax.conf | grep -q "^# \[measure it\] ax0 uses its driver.s default of 512 rx descriptors" &&
	grep -B4 "^dev.ax.0.iflib.override_nrxds=4096$" ax.conf | grep -q "^# source: iflib(4); axgbe(4); .*XGBE_RX_DESC_CNT_MAX 4096" &&
	sed "s/ax\([01]\)/vmx\1/g; s/dev.ax./dev.vmx./g; s/%driver: ax/%driver: vmx/" dec750.txt >vmx.txt &&
	ntune advise --from vmx.txt >vmx.conf &&
	! grep -q "^dev.vmx.0.iflib.override_nrxds=" vmx.conf &&
	grep -q "^#   dev.vmx.0.iflib.override_nrxds: no descriptor count is proposed for vmx0: neither the NIC nor ntune.s driver data (share/knobs/drivers) gives the driver.s maximum.* \[source: iflib(4); vmx(4); .*three rings" vmx.conf &&
	ntune advise --json --from vmx.txt >vmx.json &&
	python3 -c "import json; d=json.load(open(\"vmx.json\")); n={x[\"name\"]: x for x in d[\"not_advised\"]}; x=n[\"dev.vmx.1.iflib.override_nrxds\"]; assert \"value\" not in x and x[\"certainty\"]==\"not advised\" and \"vmx(4)\" in x[\"source\"], x; assert not [a for a in d[\"advice\"] if \"nrxds\" in a[\"name\"]]" &&
	ntune advise --from "$SEED1/sysctl-a.txt" --from "$SEED1/pciconf-lv.txt" >ix.conf &&
	! grep -q "^dev.ix.*iflib" ix.conf &&
	sed "s/ax\([01]\)/igc\1/g; s/dev.ax./dev.igc./g; s/%driver: ax/%driver: igc/; s/^\(dev.igc.[01].iflib.override_nrxds:\) 0\$/\1 1024/" dec750.txt >igc.txt &&
	grep -q "^dev.igc.0.iflib.override_nrxds: 1024$" igc.txt &&
	ntune advise --from igc.txt >igc.conf &&
	grep -B1 "^dev.igc.0.iflib.override_nrxds=4096$" igc.conf | grep -q "^# now: 1024 → 4096$" &&
	grep -B3 "^dev.igc.0.iflib.override_nrxds=4096$" igc.conf | grep -q "^# source: iflib(4); igc(4); sys/dev/igc/if_igc.c:305-307 .*if_igc.h:131 IGC_MAX_RXD 4096"
'
test_expect_success 'LRO/TSO advice per FreeBSD driver cites the driver source; vtnet gets its loader tunables' '
	ntune advise --from "$SEED1/sysctl-a.txt" --from "$SEED1/pciconf-lv.txt" >ix.conf &&
	grep -A1 "^# \[safe\] LRO merges TCP segments ix0 receives (its driver offers IFCAP_LRO)" ix.conf | grep -q "^# source: ixgbe(4); .*IXGBE_CAPS" &&
	grep -A1 "^# \[usually helps\] TSO only serves TCP the box itself sends (its driver offers IFCAP_TSO)" ix.conf | grep -q "if_ix.c:1636" &&
	sed "s/ax\([01]\)/vtnet\1/g; s/dev.ax./dev.vtnet./g; s/%driver: ax/%driver: vtnet/" dec750.txt >vt.txt &&
	ntune advise --from vt.txt >vt.conf &&
	grep -B3 "^hw.vtnet.lro_disable=1$" vt.conf | grep -q "^# source: vtnet(4); .*if_vtnet.c:280" &&
	test "$(grep -c "^hw.vtnet.lro_disable=" vt.conf)" = 1 &&
	! grep -q "^dev.vtnet.*iflib\|^# \[not advised\] dev.vtnet" vt.conf &&
	ntune advise --from vt.txt --role host >vthost.conf &&
	! grep -q "hw.vtnet" vthost.conf
'
test_expect_success '--goal latency keeps dispatch direct and --role firewall sizes pf, each with its reason' '
	ntune advise --from dec750.txt >fwd.conf &&
	grep -q "^net.isr.dispatch=deferred$" fwd.conf &&
	ntune advise --from dec750.txt --goal latency >lat.conf &&
	! grep -q "^net.isr.dispatch=" lat.conf &&
	grep -q "^#   net.isr.dispatch=direct (now direct)$" lat.conf &&
	grep -B3 "^net.iflib.min_tx_latency=1$" lat.conf | grep -q "for latency" &&
	ntune advise --from dec750.txt --role firewall >fw.conf &&
	grep -B3 "^net.pf.states_hashsize=524288$" fw.conf | grep -q "stateful firewall" &&
	! grep -q states_hashsize fwd.conf
'
test_expect_success 'seed 000 box: each of the seed tunables is the same, or different with reason and source' '
	ntune advise --from dec750.txt --compare "$SRCDIR/share/profiles/seed-000-opnsense-dec750.conf" --json >c0.json &&
	python3 - "$SRCDIR/share/profiles/seed-000-opnsense-dec750.conf" <<-\PY
	import json, sys
	names = [l.split("=")[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
	c = {x["name"]: x for x in json.load(open("c0.json"))["compare"]}
	assert sorted(c) == sorted(names), (sorted(c), names)
	for x in c.values():
	    assert x["verdict"] in ("same", "different", "not proposed"), x
	    assert x["reason"] and x["source"], x
	assert c["net.inet.rss.bits"]["verdict"] == "different" and c["net.inet.rss.bits"]["advice_value"] == "4"
	assert c["net.isr.maxthreads"]["verdict"] == "same", c["net.isr.maxthreads"]
	assert c["net.inet.rss.enabled"]["verdict"] == "same"
	PY
'
test_expect_success 'seed 001 box (6 cores, no SMT, ix X540): each seed tunable is accounted for, with the removed ones named' '
	ntune advise --from "$SEED1/sysctl-a.txt" --from "$SEED1/pciconf-lv.txt" \
	    --compare "$SRCDIR/share/profiles/seed-001-freebsd-ix.conf" >c1.txt &&
	grep -q "^# ntune advise for freebsd 10.4-RELEASE-p3: 6 CPUs (6 cores, SMT off), 2 NICs" c1.txt &&
	n=$(grep -c "^[a-z]" "$SRCDIR/share/profiles/seed-001-freebsd-ix.conf") &&
	test "$(grep -c "^#   [a-z].*=.*: \(same\|different\|not proposed\)" c1.txt)" = "$n" &&
	test "$(grep -c "^#     why: " c1.txt)" = "$n" && test "$(grep -c "^#     source: ." c1.txt)" = "$n" &&
	grep -A2 "^#   kern.random.sys.harvest.ethernet=1: not proposed$" c1.txt >h.txt &&
	grep -q "^#     why: .kern.random.sys.harvest.ethernet. is already 1 on this system$" h.txt &&
	grep -q "^#     source: .*sys/dev/random/randomdev_soft.c:151 (FreeBSD 10.4 tree" h.txt &&
	sed "s/^kern.osrelease: 10.4-RELEASE-p3/kern.osrelease: 11.1-RELEASE/" "$SEED1/sysctl-a.txt" | grep -v "^kern.random.sys.harvest" >s111.txt &&
	ntune advise --from s111.txt --compare "$SRCDIR/share/profiles/seed-001-freebsd-ix.conf" >c111.txt &&
	grep -A1 "^#   kern.random.sys.harvest.ethernet=1: not proposed$" c111.txt | grep -q "was removed in 11.0" &&
	grep -q "^#   dev.ix.0.fc=3: different, ntune proposes 0$" c1.txt
'
test_expect_success 'both seeds: no tunable is left with the generic "no rule" answer; each why is specific, with its source' '
	python3 - <<-\PY &&
	import json
	c = json.load(open("c0.json"))["compare"]
	generic = [x["name"] for x in c if x["reason"].startswith("no rule of ntune")]
	assert not generic, generic
	by = {x["name"]: x for x in c}
	assert by["net.isr.defaultqlimit"]["verdict"] == "different" and by["net.isr.defaultqlimit"]["advice_value"] == "512", by["net.isr.defaultqlimit"]
	assert "forwarded" in by["net.inet.tcp.sendbuf_max"]["reason"] and "tcp_output.c" in by["net.inet.tcp.sendbuf_max"]["source"]
	assert "mitigation" in by["hw.ibrs_disable"]["reason"], by["hw.ibrs_disable"]
	PY
	! grep -q "no rule of ntune derives" c1.txt &&
	grep -A1 "^#   hw.ix.rx_process_limit=256: different, ntune proposes -1$" c1.txt | grep -q "+15.2% ± 4.0% pps" &&
	grep -A1 "^#   net.inet.tcp.tso=0: not proposed$" c1.txt | grep -q "only affects TCP connections the box itself sends" &&
	grep -A1 "^#   hw.ix.num_queues=6: not proposed$" c1.txt | grep -q "already gives ix0 one queue per CPU (6)" &&
	ntune advise --os freebsd --cpus 6 --from "$SEED1/pciconf-lv.txt" >v14.conf 2>/dev/null &&
	! grep -q "process_limit" v14.conf
'
test_expect_success 'unknown names take their OS from share/knobs/os.prefixes; a prefix added there alone moves them' '
	printf "kern.made_up_knob=1\nhw.another_made_up=2\n" >pfx.conf &&
	ntune check pfx.conf 2>err >/dev/null &&
	grep -q "^pfx.conf: 2 settings for freebsd:" err &&
	printf "zfs.made_up=1\nzfs.other=2\n" >zfs.conf &&
	ntune check zfs.conf 2>err >/dev/null &&
	! grep -q "settings for freebsd" err &&
	cp -R "$SRCDIR/share" pshare &&
	sed "s/^  net.route. vm.pmap./  net.route. zfs. vm.pmap./" "$SRCDIR/share/knobs/os.prefixes" >pshare/knobs/os.prefixes &&
	grep -q " zfs\. " pshare/knobs/os.prefixes &&
	NTUNE_SHARE="$PWD/pshare" ntune check zfs.conf 2>err >/dev/null &&
	grep -q "^zfs.conf: 2 settings for freebsd:" err
'
test_expect_success 'without ifconfig output the link state is unknown (null in JSON), never down' '
	ntune inspect --from dec750.txt >l.txt &&
	grep -q "^    link         unknown, " l.txt && ! grep -q "^    link         down" l.txt &&
	ntune inspect --json --from dec750.txt >l.json &&
	python3 -c "import json; n=json.load(open(\"l.json\"))[\"nics\"]; assert n and all(x[\"up\"] is None for x in n), n" &&
	ntune inspect --from dec750.txt --from "$SEED0/ifconfig-a.txt" | grep -q "^    link         up, mtu 1500"
'
test_expect_success 'a knob still declared but read nowhere is "no effect since", not "removed"' '
	printf "hw.em.rx_process_limit=-1\nhw.ix.rx_process_limit=-1\n" >lim.conf &&
	ntune check --os freebsd lim.conf >lim.out &&
	grep -q ":1: warning: .hw.em.rx_process_limit. has had no effect since 12.0 (still declared" lim.out &&
	grep -q ":2: warning: .hw.ix.rx_process_limit. was removed in 12.0" lim.out
'
test_expect_success 'inspect lists only the driver knobs of the NICs the box has (ax here, no hw.ix or hw.em)' '
	ntune inspect --from dec750.txt >nics.txt &&
	grep -q "dev.ax.0.iflib.override_nrxqs" nics.txt &&
	! grep -q "hw\.ix\.\|hw\.em\.\|hw\.ixl\.\|hw\.cxgbe\." nics.txt
'
test_done
