#!/bin/sh
# The risk class of a knob (share/knobs/*/*.knob "risk-class: boot|access: why"): explain,
# advise, check, export and doctor (text, JSON, HTML) say it, and a boot-risk line names its
# one-boot trial (ntune apply --trial-boot, or bench --dut ... --reboot).
. "$(dirname "$0")/lib.sh"
SEED0="$SRCDIR/tests/fixtures/os/seed000-dec750"
TRIAL="try it for one boot first: ntune apply --trial-boot"

test_expect_success 'explain: a queue override is boot risk, forwarding access risk, a TCP buffer none' '
	ntune explain dev.ax.0.iflib.override_nrxqs >q.txt &&
	grep -q "^  risk class   boot: a count the driver or hardware cannot take can keep the NIC from attaching" q.txt &&
	grep -q "^               $TRIAL" q.txt &&
	ntune explain --json kern.ipc.nmbclusters >m.json &&
	python3 -c "import json; k=json.load(open(\"m.json\")); k=k[0] if isinstance(k,list) else k; assert k[\"risk_class\"]==\"boot\" and \"memory\" in k[\"risk_class_why\"] and \"--trial-boot\" in k[\"trial\"], k" &&
	ntune explain net.inet.ip.forwarding >f.txt &&
	grep -q "^  risk class   access: 0 stops routing" f.txt &&
	ntune explain net.inet.tcp.sendbuf_max >n.txt &&
	! grep -q "risk class" n.txt
'

test_expect_success 'a risk-class without its why, or of another word, is a load error naming file and line' '
	mkdir -p share && cp -R "$SRCDIR/share/." share/ &&
	printf "\nname:      hw.test.x\nos:        freebsd\nplacement: loader\ntype:      int\neffect:    test\nrisk-class: boot\nsource:    test\n" >>share/knobs/freebsd/pf.knob &&
	(NTUNE_SHARE="$PWD/share" && export NTUNE_SHARE && test_expect_code 2 ntune explain hw.test.x 2>err) &&
	grep -q "pf.knob:[0-9]*: knob .hw.test.x.: .risk-class. is .boot: WHY. or .access: WHY." err &&
	cp "$SRCDIR/share/knobs/freebsd/pf.knob" share/knobs/freebsd/pf.knob &&
	printf "\nname:      hw.test.x\nos:        freebsd\nplacement: loader\ntype:      int\neffect:    test\nrisk-class: fatal: why\nsource:    test\n" >>share/knobs/freebsd/pf.knob &&
	(NTUNE_SHARE="$PWD/share" && export NTUNE_SHARE && test_expect_code 2 ntune explain hw.test.x 2>err) &&
	grep -q "risk-class. is" err
'

test_expect_success 'advise: the boot-risk ring override says its class and trial above the line, in text and JSON' '
	ntune advise --from "$SEED0/sysctl-a.txt" >adv.conf &&
	grep -B4 "^dev.ax.0.iflib.override_nrxds=4096$" adv.conf | grep -q "^# boot risk: .*$TRIAL" &&
	grep -B4 "^net.inet.ip.redirect=0$" adv.conf | grep -vq "risk:" &&
	ntune advise --json --from "$SEED0/sysctl-a.txt" >adv.json &&
	python3 -c "
import json
a={x[\"name\"]:x for x in json.load(open(\"adv.json\"))[\"advice\"]}
r=a[\"dev.ax.0.iflib.override_nrxds\"]
assert r[\"risk_class\"]==\"boot\" and \"--trial-boot\" in r[\"risk\"][\"trial\"], r
assert a[\"net.inet.ip.redirect\"][\"risk_class\"] is None
"
'

test_expect_success 'check lists each risky line with its class and trial, text and JSON; diagnostics unchanged' '
	printf "dev.ax.0.iflib.override_nrxqs=4\nkern.ipc.nmbclusters=1000000\nnet.inet.tcp.blackhole=2\nnet.inet.ip.redirect=0\n" >p.conf &&
	ntune check --os opnsense p.conf >out 2>err &&
	grep -q "^p.conf:1: boot risk: dev.ax.0.iflib.override_nrxqs: .*$TRIAL" out &&
	grep -q "^p.conf:2: boot risk: kern.ipc.nmbclusters: memory sized at boot" out &&
	grep -q "^p.conf:3: access risk: net.inet.tcp.blackhole: " out &&
	! grep -q "^p.conf:4:" out &&
	grep -q "0 errors, 0 warnings, 0 notes" err &&
	ntune check --os opnsense --json p.conf >c.json &&
	python3 -c "
import json
d=json.load(open(\"c.json\"))
assert [(r[\"line\"], r[\"class\"]) for r in d[\"risks\"]]==[(1,\"boot\"),(2,\"boot\"),(3,\"access\")], d[\"risks\"]
assert d[\"diagnostics\"]==[], d[\"diagnostics\"]
"
'

test_expect_success 'export writes the boot-risk comment above the line, and none above a harmless one' '
	printf "dev.ax.0.iflib.override_nrxqs=4\nnet.isr.maxthreads=-1\n" >l.conf &&
	ntune export --format loader --os freebsd l.conf >l.out &&
	grep -B1 "^dev.ax.0.iflib.override_nrxqs=\"4\"$" l.out | grep -q "^# boot risk: .*Not proven here by a one-boot trial: $TRIAL" &&
	grep -B1 "^net.isr.maxthreads=\"-1\"$" l.out | grep -vq "risk"
'

test_expect_success 'doctor: a boot-risk change carries its class and trial in text, JSON, HTML and the proposed profile' '
	cp -R "$SRCDIR/tests/fixtures/doctor/seed000" box &&
	printf "dev.ax.0.iflib.override_nrxds=1024\n" >>box/loader.conf.local &&
	test_expect_code 1 ntune doctor -o docout --from box >doc.txt &&
	grep -q "^   /boot/loader.conf.local:14: dev.ax.0.iflib.override_nrxds=1024, running 0" doc.txt &&
	grep -q "^           boot risk: dev.ax.0.iflib.override_nrxds: $TRIAL" doc.txt &&
	grep -q "^  dev.ax.1.iflib.override_nrxds=4096 \[measure it\] \[boot risk: one-boot trial first\]" doc.txt &&
	python3 -c "
import json
d=json.load(open(\"docout/doctor.json\"))
ch=[c for it in d[\"items\"] for c in it[\"changes\"]]
boot=[c for c in ch if c.get(\"risk\")==\"boot\"]
assert [c[\"name\"] for c in boot]==[\"dev.ax.0.iflib.override_nrxds\"], ch
assert \"--trial-boot\" in boot[0][\"trial\"], boot
assert not [c for c in ch if c.get(\"risk\") and c[\"name\"]!=\"dev.ax.0.iflib.override_nrxds\"], ch
" &&
	grep -q "<th>risk</th>" docout/doctor.html &&
	grep -q "<td>boot: try it for one boot first: ntune apply --trial-boot" docout/doctor.html &&
	grep -B1 "^dev.ax.0.iflib.override_nrxds=1024$" docout/proposed.conf | grep -q "^# boot risk: .*$TRIAL"
'

test_expect_success 'check: no boot risk for a knob at its default, nor for a run-time write after boot' '
	printf "kern.ipc.nmbclusters=1000000\nhw.pci.enable_msix=1\nhw.pci.enable_msix=0\n" >risk.conf &&
	{ ntune check --os freebsd --target sysctl risk.conf >out 2>err || :; } &&
	! grep -q "boot risk: kern.ipc.nmbclusters" out &&
	! grep -q "risk.conf:2: boot risk" out &&
	cp risk.conf loader.conf &&
	{ ntune check --os freebsd loader.conf >out 2>err || :; } &&
	grep -q "^loader.conf:1: boot risk: kern.ipc.nmbclusters" out &&
	! grep -q "^loader.conf:2: boot risk" out &&
	grep -q "^loader.conf:3: boot risk: hw.pci.enable_msix" out
'
test_expect_success 'an access risk only for the values that carry it (risk-values): forwarding=1 turns routing on' '
	printf "net.inet.ip.forwarding=1\nnet.inet.ip.forwarding=0\n" >fwd.conf &&
	{ ntune check --os freebsd --target sysctl fwd.conf >out 2>err || :; } &&
	! grep -q "^fwd.conf:1: access risk" out &&
	grep -q "^fwd.conf:2: access risk: net.inet.ip.forwarding: 0 stops routing.* (0 is also the default: a risk only where something set it otherwise before); apply it with" out &&
	printf "net.ipv4.ip_forward=1\nnet.ipv4.conf.all.rp_filter=2\nnet.ipv4.conf.all.rp_filter=1\n" >l.conf &&
	{ ntune check --os linux --target sysctl l.conf >out 2>err || :; } &&
	! grep -q "^l.conf:[12]: access risk" out &&
	grep -q "^l.conf:3: access risk: net.ipv4.conf.all.rp_filter: 1 (strict)" out &&
	! grep -q "is also the default" out
'
test_done
