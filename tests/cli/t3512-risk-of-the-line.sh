#!/bin/sh
# A line's boot risk is its own, in one place (src/kb/risk.c kb_line_risk) that check, apply,
# export and doctor all use: none at the knob's default (the box boots with it anyway), none
# for a knob settable at run time in a file applied after boot; the knob's name alone decides
# nothing (issue 36: apply refused hw.pci.enable_msix=1, the default).
. "$(dirname "$0")/lib.sh"
export NTUNE_STATE_DIR="$TRASH/state"
R="$TRASH/root"
mkdir -p "$R/boot"
printf 'kern.hz="100"\n' >"$R/boot/loader.conf.local"
cp "$R/boot/loader.conf.local" "$TRASH/loader.orig"

test_expect_success 'apply of a boot-class knob at its default: not refused, written' '
	printf "hw.pci.enable_msix=1\n" >default.conf &&
	ntune apply --os freebsd --root "$R" default.conf >out 2>err &&
	! grep -q "boot-risk line" err &&
	grep -qx "hw.pci.enable_msix=\"1\"" "$R/boot/loader.conf.local" &&
	ntune revert >/dev/null && cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig"
'
test_expect_success 'apply of the same knob away from its default: refused, nothing changed' '
	printf "hw.pci.enable_msix=0\n" >off.conf &&
	test_expect_code 1 ntune apply --os freebsd --root "$R" off.conf >out 2>err &&
	grep -q "off.conf has 1 boot-risk line (off.conf:1 hw.pci.enable_msix)" err &&
	cmp "$R/boot/loader.conf.local" "$TRASH/loader.orig"
'
test_expect_success 'export: the comment above a real override, none at the default, none for a run-time write' '
	printf "hw.pci.enable_msix=1\nkern.ipc.nmbclusters=1000000\n" >e.conf &&
	ntune export --format loader --os freebsd e.conf >l.out &&
	grep -B1 "^kern.ipc.nmbclusters=\"1000000\"$" l.out | grep -q "^# boot risk: " &&
	grep -B1 "^hw.pci.enable_msix=\"1\"$" l.out | grep -vq "boot risk" &&
	ntune export --format sysctl --os freebsd e.conf >s.out 2>/dev/null &&
	grep -q "^kern.ipc.nmbclusters=1000000$" s.out &&
	! grep -q "boot risk" s.out
'
test_expect_success 'doctor on seed000: the boot-risk changes and comments are those of before' '
	test_expect_code 1 ntune doctor -o docout --from "$SRCDIR/tests/fixtures/doctor/seed000" >doc.txt &&
	python3 -c "
import json
d=json.load(open(\"docout/doctor.json\"))
ch=[c for it in d[\"items\"] for c in it[\"changes\"]]
assert [c[\"name\"] for c in ch if c.get(\"risk\")==\"boot\"]==[], ch
adv=[(a[\"name\"], a.get(\"risk\")) for a in d.get(\"advice\", [])]
assert (\"dev.ax.0.iflib.override_nrxds\", \"boot\") in adv, adv
" &&
	grep -q "^  dev.ax.0.iflib.override_nrxds=4096 \[measure it\] \[boot risk: one-boot trial first\]" doc.txt &&
	! grep -q "boot risk" docout/proposed.conf
'
test_expect_success 'a pf hash size is no boot risk: pf falls back to the default size when it cannot allocate (pf.c, 12.1 and 14.0)' '
	printf "net.pf.states_hashsize=\"2097152\"\nnet.pf.source_nodes_hashsize=\"1048576\"\n" >pf.conf &&
	ntune check --os freebsd --target loader --json pf.conf >pf.json &&
	! grep -q "\"boot\"" pf.json &&
	ntune check --os freebsd --target loader pf.conf >pf.txt 2>&1 && ! grep -q "boot risk" pf.txt
'
test_expect_success 'a table limit is an access risk only where it lowers every default (nf_conntrack_max below 1024, ipfw dyn_max below 16384)' '
	printf "net.netfilter.nf_conntrack_max=1048576\nnet.nf_conntrack_max=65536\nnet.netfilter.nf_conntrack_max=512\n" >ct.conf &&
	{ ntune check --os linux --target sysctl ct.conf >ct.txt 2>&1 || :; } &&
	grep "access risk" ct.txt >risk.txt &&
	test $(wc -l <risk.txt) = 1 &&
	grep -q "^ct.conf:3: access risk: net.netfilter.nf_conntrack_max: a limit below" risk.txt &&
	printf "net.inet.ip.fw.dyn_max=65536\nnet.inet.ip.fw.dyn_max=1000\n" >fw.conf &&
	{ ntune check --os freebsd --target sysctl fw.conf >fw.txt 2>&1 || :; } &&
	grep "access risk" fw.txt >risk.txt &&
	test $(wc -l <risk.txt) = 1 &&
	grep -q "^fw.conf:2: access risk: net.inet.ip.fw.dyn_max" risk.txt
'
test_expect_success 'no access risk at the knob default; vtnet mq_disable is no boot risk (it cannot stop an attach)' '
	printf "net.inet.tcp.blackhole=0\nnet.inet.tcp.blackhole=2\n" >bh.conf &&
	{ ntune check --os freebsd --target sysctl bh.conf >bh.txt 2>&1 || :; } &&
	grep "risk" bh.txt >risk.txt &&
	test $(wc -l <risk.txt) = 1 && grep -q "^bh.conf:2: access risk" risk.txt &&
	printf "hw.vtnet.mq_disable=\"1\"\n" >vt.conf &&
	{ ntune check --os freebsd --target loader vt.conf >vt.txt 2>&1 || :; } &&
	! grep -q "risk" vt.txt
'
test_expect_success 'risk-values at the boundary and for a raise or a lower: <1024 takes 1023 and 0x200, not 1024; a raise of rp_filter to 1 is a risk, a raise of a limit is not, a lower is' '
	printf "net.ipv4.conf.all.rp_filter=>1\nnet.netfilter.nf_conntrack_max=>512\nnet.nf_conntrack_max=<512\nnet.netfilter.nf_conntrack_max=0x200\nnet.netfilter.nf_conntrack_max=1023\nnet.netfilter.nf_conntrack_max=1024\n" >rv.conf &&
	{ ntune check --os linux --target sysctl rv.conf >rv.txt 2>&1 || :; } &&
	sed -n "s/^rv.conf:\([0-9]*\): access risk: .*/\1/p" rv.txt | tr "\n" " " >lines &&
	test "$(cat lines)" = "1 3 4 5 "
'
test_expect_success 'a line with no effect where it is written carries no risk: a ring size in sysctl.conf, a runtime sysctl in loader.conf, a knob gone from the release checked' '
	printf "hw.ix.rxd=4096\ndev.ix.0.iflib.override_nrxqs=8\nnet.inet.tcp.blackhole=2\n" >ne.conf &&
	{ ntune check --os freebsd --target sysctl ne.conf >ne.txt 2>&1 || :; } &&
	grep -q "^ne.conf:1: error: .hw.ix.rxd. is a boot-time tunable" ne.txt &&
	grep "risk" ne.txt >risk.txt &&
	test $(wc -l <risk.txt) = 1 && grep -q "^ne.conf:3: access risk" risk.txt &&
	printf "net.inet.tcp.blackhole=2\nhw.ix.rxd=\"4096\"\n" >nl.conf &&
	{ ntune check --os freebsd --target loader nl.conf >nl.txt 2>&1 || :; } &&
	grep "risk" nl.txt >risk.txt &&
	test $(wc -l <risk.txt) = 1 && grep -q "^nl.conf:2: boot risk: hw.ix.rxd" risk.txt &&
	{ ntune check --os freebsd --os-version 13.2 --target loader nl.conf >n13.txt 2>&1 || :; } &&
	grep -q "^nl.conf:2: error: .hw.ix.rxd. was removed in 12.0; no effect on 13.2" n13.txt &&
	! grep -q "risk" n13.txt &&
	{ ntune check --os freebsd --target sysctl --json ne.conf >ne.json 2>/dev/null || :; } &&
	sed -n "/\"risks\"/,\$p" ne.json >risks.json &&
	test $(grep -c "\"class\"" risks.json) = 1 && grep -q "\"line\": 3," risks.json
'
test_expect_success 'nf_conntrack_max=0 is no limit (nf_conntrack_core.c: the limit is tested only when set): no range error, no access risk; 1 and 1023 are risks, 1024 is not' '
	printf "net.netfilter.nf_conntrack_max=0\nnet.netfilter.nf_conntrack_max=1\nnet.nf_conntrack_max=1023\nnet.netfilter.nf_conntrack_max=1024\n" >z.conf &&
	{ ntune check --os linux --target sysctl z.conf >z.txt 2>&1 || :; } &&
	! grep -q "out of range" z.txt &&
	sed -n "s/^z.conf:\([0-9]*\): access risk: .*/\1/p" z.txt | tr "\n" " " >lines &&
	test "$(cat lines)" = "2 3 "
'
test_expect_success 'ranges are the handlers: 0 for somaxconn (extra1 = SYSCTL_ZERO) and tcp_notsent_lowat (proc_douintvec), any u8 for tcp_timestamps, are taken' '
	printf "net.core.somaxconn=0\nnet.ipv4.tcp_notsent_lowat=0\nnet.ipv4.tcp_timestamps=3\nnet.ipv4.tcp_timestamps=256\n" >r.conf &&
	{ ntune check --os linux --target sysctl r.conf >r.txt 2>&1 || :; } &&
	grep "out of range" r.txt >oor.txt &&
	test $(wc -l <oor.txt) = 1 && grep -q "^r.conf:4: error: net.ipv4.tcp_timestamps: 256 is out of range 0..255" oor.txt
'
test_expect_success 'rp_filter on lo cuts nobody off (loopback packets keep their output route, ip_input.c:364, so no source check): no access risk; on all and eth0 it stays' '
	printf "net.ipv4.conf.all.rp_filter=1\nnet.ipv4.conf.lo.rp_filter=1\nnet.ipv4.conf.eth0.rp_filter=1\nnet.ipv6.conf.lo.forwarding=0\n" >lo.conf &&
	{ ntune check --os linux --target sysctl lo.conf >lo.txt 2>&1 || :; } &&
	sed -n "s/^lo.conf:\([0-9]*\): access risk: .*/\1/p" lo.txt | tr "\n" " " >lines &&
	test "$(cat lines)" = "1 3 "
'
test_expect_success 'a queue override: no boot risk where the driver clamps it (ix, igb), the axgbe risk for ax, "not read" for a driver the table lacks (aq)' '
	printf "dev.aq.0.iflib.override_nrxqs=8\ndev.ix.0.iflib.override_nrxqs=8\ndev.igb.1.iflib.override_ntxqs=8\ndev.ax.0.iflib.override_nrxqs=8\n" >qo.conf &&
	ntune check --os freebsd --target loader qo.conf >out 2>err && cat out &&
	grep -q "^qo.conf:1: boot risk: dev.aq.0.iflib.override_nrxqs: whether the driver of aq takes this queue count was not read" out &&
	! grep -q "^qo.conf:[23]: boot risk" out &&
	grep -q "^qo.conf:4: boot risk: dev.ax.0.iflib.override_nrxqs: a count the driver or hardware cannot take can keep the NIC from attaching (an axgbe queue override" out &&
	printf "dev.ix.0.iflib.override_nrxds=8192\n" >rd.conf &&
	ntune check --os freebsd --target loader rd.conf >out 2>err && cat out &&
	grep -q "^rd.conf:1: boot risk: dev.ix.0.iflib.override_nrxds: a ring size is read at attach; iflib fits it to the driver.s limits (.*sys/net/iflib.c: 4653-4668), so the count does not stop the attach" out
'
test_done
