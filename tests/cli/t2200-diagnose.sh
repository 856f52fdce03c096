#!/bin/sh
# ntune diagnose from pasted FreeBSD/OPNsense captures: findings, knobs, exit status, JSON, bad input.
. "$(dirname "$0")/lib.sh"

D="$FIXTURES/diagnose"
R="$SHARED_FIXTURES/real"

test_expect_success 'a clean OPNsense capture gives no finding, exit 0, and says it is since boot' '
	ntune diagnose --from "$D/opnsense-clean.txt" >out &&
	grep -q "counters since boot (one capture)" out &&
	grep -q "^no bottleneck found: nothing saturated: the busiest CPU (1) is 15% busy" out &&
	! grep -q "^1\. " out
'
test_expect_success 'netisr queue drops are named with the net.isr queue limits' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-netisr-drops.txt" >out &&
	grep -q "^1\. netisr-queue-drops (certain)" out &&
	grep -q "netisr queues dropped 48211 packets" out &&
	grep -q "knobs: net.isr.defaultqlimit, net.isr.maxqlimit, net.isr.maxthreads" out
'
test_expect_success 'one queue taking all interrupts, nothing saturated, nothing lost: a headroom line, exit 0' '
	ntune diagnose --from "$D/opnsense-one-queue.txt" >out &&
	! grep -q "^1\. " out &&
	grep -q "^headroom (seen, but not a cost being paid now):" out &&
	grep -q "^  one-queue on ix0: one queue of ix0 takes 100% of its 4 queues. interrupts (vmstat -i), but nothing is lost on receive" out &&
	ntune diagnose --from "$D/opnsense-one-queue.txt" --json >h.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("h.json"))
	assert d["findings"] == [] and d["headroom"].startswith("nothing saturated"), d
	f = d["headroom_facts"][0]
	assert (f["kind"], f["entity"]) == ("one-queue", "ix0") and "not a bottleneck now" in f["summary"], f
	assert f["rule"].split("/")[-1].startswith("freebsd.rules:"), f
	PY
'
test_expect_success 'the same queue with a CPU saturated in the kernel (top -aSHP): the finding, net.isr and RSS knobs' '
	cat "$D/opnsense-one-queue.txt" "$D/opnsense-top-HSP-busy.txt" >sat.txt &&
	test_expect_code 1 ntune diagnose --from sat.txt >out &&
	grep -q "^[0-9]\. one-queue on ix0 (likely)" out &&
	grep -q "one queue of ix0 takes 100% of its 4 queues" out &&
	grep -q "knobs: net.inet.rss.enabled, net.inet.rss.bits, net.isr.dispatch, net.isr.maxthreads" out &&
	! grep -q "^  one-queue" out
'
test_expect_success 'ring misses in mac_stats are named with the iflib ring knobs of that NIC' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-ring-miss.txt" >out &&
	grep -q "^1\. ring-overrun on ix0 (certain)" out &&
	grep -q "ix0 missed 4412309 packets" out &&
	grep -q "knobs: dev.ix.0.iflib.override_nrxds, dev.ix.0.iflib.rx_budget" out
'
test_expect_success 'every knob a finding names is one explain knows' '
	for k in net.isr.defaultqlimit net.isr.maxqlimit net.isr.maxthreads net.isr.dispatch \
	    net.inet.rss.enabled dev.ix.0.iflib.override_nrxds dev.ix.0.iflib.rx_budget; do
		ntune explain "$k" >/dev/null || { echo "explain does not know $k"; return 1; }
	done
'
test_expect_success 'two captures and --interval give rates: CPU 0 at interrupt, netisr drops per second' '
	test_expect_code 1 ntune diagnose --before "$D/opnsense-before.txt" --after "$D/opnsense-after.txt" \
	    --interval 10 >out &&
	grep -q "over 10.0 s (rates per second)" out &&
	grep -q "netisr queues dropped 512 packets" out &&
	grep -q "CPU 0 is 99.2% busy (93.7% interrupt) while 3 CPU(s) idle" out &&
	! grep -q "since boot" out
'
test_expect_success SHARED_FIXTURES 'a real netstat -Q with 84% of the work on CPU 3, no drops, no CPU seen: a headroom line, exit 0' '
	cat "$R/netstat-Q_freebsd14.3_4cpu_pppoe.txt" "$R/vmstat-i_freebsd14.3_4cpu_igc-4rxq.txt" >real.txt &&
	ntune diagnose --from real.txt >out &&
	! grep -q "^1\. " out &&
	grep -q "^  netisr-one-cpu: 84.3% of the netisr work runs on one CPU (356859 packets), but no netisr queue drops and no CPU seen saturated" out &&
	! grep -q "one-queue" out
'
test_expect_success '--json follows the documented schema' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-ring-miss.txt" --json >d.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("d.json"))
	assert d["schema"] == "ntune-diagnosis" and d["version"] == 1, d
	assert d["since_boot"] is True and d["os"] == "freebsd" and d["headroom"] is None
	f = d["findings"][0]
	assert f["kind"] == "ring-overrun" and f["entity"] == "ix0" and f["certainty"] == "certain", f
	assert [k["name"] for k in f["knobs"]] == ["dev.ix.0.iflib.override_nrxds", "dev.ix.0.iflib.rx_budget"]
	assert {"metric": "nic.ix0.rx_missed", "value": 4412309} in f["evidence"], f["evidence"]
	assert f["rule"].split("/")[-1].startswith("freebsd.rules:"), f["rule"]
	assert d["metrics"]["nic.ix0.mac_stats.rx_missed_packets"] == 4412309
	PY
'
test_expect_success 'the finding comes from the rules data: a changed rule changes the output' '
	cp -r "$SRCDIR/share" share &&
	sed -i "s/^when:      nic.{if}.rx_missed >= 1$/when:      nic.{if}.rx_missed >= 99999999/" \
	    share/knobs/diagnose/freebsd.rules &&
	NTUNE_SHARE="$TRASH/share" ntune diagnose --from "$D/opnsense-ring-miss.txt" >out &&
	! grep -q ring-overrun out
'
test_expect_success 'a capture cut short: the rest is read, the cut line named once in a note' '
	ntune diagnose --from "$D/cut-vmstat.txt" >out 2>err &&
	grep -q "^note: .*cut-vmstat.txt: 1 line skipped.*cut-vmstat.txt:12 last line cut short: .irq133: ix0:rxq3" out &&
	test $(grep -c "cut-vmstat.txt:12" out) = 1 &&
	test ! -s err
'
test_expect_success SHARED_FIXTURES 'a real sysctl excerpt cut mid-name: its last line is skipped and named' '
	ntune diagnose --from "$R/sysctl-dev.ix.0_pfsense_partial.txt" >out &&
	grep -q "sysctl-dev.ix.0_pfsense_partial.txt:37 last line cut short: .dev\.." out
'
test_expect_success 'an unrecognized line is skipped and named with file:line (text and --json)' '
	printf "hw.ncpu: 4\nhello world\n" >bad.txt &&
	ntune diagnose --from bad.txt >out &&
	grep -q "^note: bad.txt: 1 line skipped, 0 used in part (bad.txt:2 not a line of the outputs read: .hello world.)" out &&
	ntune diagnose --from bad.txt --json >out.json &&
	grep -q "bad.txt:2 not a line of the outputs read" out.json
'
test_expect_success 'a file of which nothing can be read: exit 2 naming it and what was expected' '
	printf "hello world\nfoo bar\n" >none.txt &&
	test_expect_code 2 ntune diagnose --from none.txt >out 2>err &&
	grep -q "none.txt: nothing could be read: expected FreeBSD/OPNsense/pfSense output: sysctl, vmstat -i" err &&
	grep -q "none.txt:1 not a line of the outputs read: .hello world." err &&
	test ! -s out &&
	test_expect_code 2 ntune diagnose --os linux --from none.txt 2>err &&
	grep -q "none.txt: nothing could be read: expected Linux output: /proc/stat" err
'
test_expect_success 'several files, one of them unreadable: it is left out with a note, the rest read' '
	printf "hello world\nfoo bar\n" >none.txt &&
	printf "hw.ncpu: 4\n" >ok.txt &&
	ntune diagnose --from none.txt ok.txt >out &&
	grep -q "^note: left out: none.txt: nothing could be read: expected FreeBSD" out &&
	test_expect_code 2 ntune diagnose --from none.txt none.txt 2>err &&
	grep -q "nothing could be read in any of the 2 files; the first: none.txt: nothing could be read" err
'
test_expect_success 'a netstat -Q workstream row with a missing column is skipped and named' '
	printf "Configuration:\nWorkstreams:\nWSID CPU   Name     Len WMark   Disp\x27d  HDisp\x27d   QDrops   Queued  Handled\n   0   0   ip  0 0 1 0 0 0\n" >q.txt &&
	ntune diagnose --from q.txt >out &&
	grep -q "q.txt:4 netstat -Q workstream row needs 10 columns" out
'
test_expect_success 'advise --diagnosis puts the advice on what was observed first and says why' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-netisr-drops.txt" --json >d.json &&
	ntune advise --cpus 4 --os opnsense >plain &&
	ntune advise --cpus 4 --os opnsense --diagnosis d.json >ordered &&
	test "$(grep -m1 "^[a-z].*=" plain)" != "net.isr.maxthreads=4" &&
	test "$(grep -m1 "^[a-z].*=" ordered)" = "net.isr.maxthreads=4" &&
	grep -q "^# observed (certain): netisr queues dropped 48211 packets" ordered &&
	grep -q "stuck on one core; observed: netisr queues dropped 48211" ordered &&
	test "$(grep -c "=" plain)" = "$(grep -c "=" ordered)"
'
test_expect_success 'advise --diagnosis refuses a file that is not a diagnosis' '
	echo "{\"schema\": \"ntune-inspect\"}" >not.json &&
	test_expect_code 2 ntune advise --cpus 4 --diagnosis not.json 2>err &&
	grep -q "not.json: not an ntune diagnosis" err
'
test_expect_success 'report shows the baseline diagnosis a bench kept in its results' '
	cp -r "$FIXTURES/bench/synthetic-ab" ab && rm -f ab/report.html &&
	test_expect_code 1 ntune diagnose --from "$D/opnsense-ring-miss.txt" --json >ab/diagnosis.json &&
	ntune report ab >/dev/null &&
	grep -q "<h2>Diagnosis of the baseline under load</h2>" ab/report.html &&
	grep -q "<li><b>ring-overrun on ix0</b> (certain): ix0 missed 4412309 packets" ab/report.html &&
	grep -q "<code>dev.ix.0.iflib.override_nrxds</code>" ab/report.html &&
	echo "not json" >ab/diagnosis.json && ntune report ab >/dev/null &&
	! grep -q "Diagnosis of the baseline" ab/report.html
'
test_expect_success 'iflib queue counters: transmit ring drops named; one queue taking the packets, nothing lost on receive, under headroom' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-queues.txt" >out &&
	grep -q "^1\. txq-ring-drops on ix0 (certain)" out &&
	grep -q "the transmit rings of ix0 dropped 20417 packets (iflib mp_ring drops; queue 2 most)" out &&
	grep -q "knobs: dev.ix.0.iflib.override_ntxds, dev.ix.0.iflib.tx_abdicate" out &&
	grep -q "^  one-queue on ix0: queue 0 of ix0 received 99.9% of the packets of its 4 receive queues, but nothing is lost on receive" out &&
	! grep -q "^[0-9]\. one-queue" out &&
	for k in dev.ix.0.iflib.override_ntxds dev.ix.0.iflib.tx_abdicate net.link.ifqmaxlen; do
		ntune explain "$k" >/dev/null || { echo "explain does not know $k"; return 1; }
	done
'
test_expect_success 'a VLAN in netstat -i: -i ix0.100 reads only its counters, the finding keeps the dotted name' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-queues.txt" -i ix0.100 >out &&
	grep -q "^1\. output-drops on ix0.100 (possible)" out &&
	grep -q "ix0.100 dropped 4811 packets on output" out && ! grep -q "on ix0 " out &&
	test_expect_code 1 ntune diagnose --from "$D/opnsense-queues.txt" -i ix0.100 --json >v.json &&
	python3 - <<-\PY
	import json
	m = json.load(open("v.json"))["metrics"]
	assert m["if.ix0.100.odrops"] == 4811 and m["if.ix0.100.opackets"] == 388022881, m
	assert not [k for k in m if k.startswith(("nic.ix0.", "if.ix0.i", "if.ix0.o"))], sorted(m)
	PY
'
test_expect_success SHARED_FIXTURES 'a real netstat -ibnd: names with two dots stay whole, tunnel output drops named' '
	N="$R/netstat-ibnd_freebsd14.3_igc_opnsense-like.txt" &&
	test_expect_code 1 ntune diagnose --from "$N" >out &&
	grep -q "^[0-9]\. output-drops on ovpnc3 (possible)" out &&
	grep -q "ovpnc3 dropped 136704868 packets on output" out &&
	ntune diagnose --from "$N" -i vlan0.11.1 --json >v.json &&
	python3 - <<-\PY
	import json
	m = json.load(open("v.json"))["metrics"]
	assert m["if.vlan0.11.1.ipackets"] == 6849160 and m["if.vlan0.11.1.oerrors"] == 1, m
	assert [k for k in m if k.startswith("if.")] == [k for k in m if k.startswith("if.vlan0.11.1.")]
	PY
'
test_expect_success 'a netstat -i capture cut short: the cut row is skipped and named' '
	ntune diagnose --from "$D/cut-netstat-i.txt" >out 2>err &&
	grep -q "cut-netstat-i.txt:5 last line cut short: .ix0 *1500 <Link#1>" out
'
test_expect_success 'seed 000 top -P (8 CPUs, 0-4% idle, 21-88% interrupt): CPU-bound, where the time goes, the knobs' '
	test_expect_code 1 ntune diagnose --from "$D/real-top-P_opnsense_dec750_seed000.txt" >out 2>err &&
	test ! -s err &&
	grep -q "^1\. cpu-bound (likely)" out &&
	grep -q "every CPU is busy (the least busy 95.7% of 8), on average 53.8% in interrupt, 36.5% in system" out &&
	grep -q "the box is CPU-bound in the kernel.s packet path" out &&
	grep -q "knobs: net.isr.dispatch, kern.random.harvest.mask, hw.ix.max_interrupt_rate" out &&
	grep -q "^note: top -P shows how busy each CPU is, not which NIC queue or kernel thread" out &&
	grep -q "add vmstat -i (interrupts per queue) or top -HSP" out &&
	grep -q "^note: one capture: what top, netstat -w, systat -ifstat and vmstat -i N show is of now" out
'
test_expect_success 'a real idle top -P with three displays: the last display is read, no finding, exit 0' '
	ntune diagnose --from "$D/real-top-P_freebsd14.3_4cpu_3snapshots.txt" >out &&
	grep -q "^no bottleneck found: nothing saturated: the busiest CPU (2) is 3% busy" out
'
test_expect_success 'a real top -SHPn of a VM forwarding 16 flows: threads read, 40% idle is headroom, exit 0' '
	F="$D/real-top-SHPn_freebsd14.3-vm_4cpu_vtnet-netisr_16flows.txt" &&
	ntune diagnose --from "$F" >out &&
	grep -q "^no bottleneck found: nothing saturated: the busiest CPU (2) is 63% busy" out &&
	! grep -q "^note: top -P shows" out &&
	ntune diagnose --from "$F" --json >t.json &&
	python3 - <<-\PY
	import json
	m = json.load(open("t.json"))["metrics"]
	assert m["netisr.thread_max"] == 21.6 and m["netisr.thread_max_cpu"] == 1 and m["netisr.threads"] == 4, m
	assert m["ithr.virtio_pci1.irq28.pct"] == 20.7 and m["if.virtio_pci1.ithreads"] == 4, m
	assert m["cpu.from_top"] == 1 and m["cpu.idle_cpus"] == 0 and m["cpu.busy_max"] == 63.4, m
	PY
'
test_expect_success 'top -aSHP with a saturated netisr thread and iflib task: both named with their CPU and knobs' '
	test_expect_code 1 ntune diagnose --from "$D/opnsense-top-HSP-busy.txt" >out &&
	grep -q "^1\. netisr-thread-busy (likely)" out &&
	grep -q "netisr thread 1 uses 96.4% of a CPU (CPU 1; 2 netisr threads" out &&
	grep -q "knobs: net.isr.maxthreads, net.isr.bindthreads, net.isr.dispatch" out &&
	grep -q "^2\. iflib-thread-busy (likely)" out &&
	grep -q "iflib task thread if_io_tqg_0 uses 98.6% of a CPU (CPU 0)" out &&
	grep -q "CPU 0 is 99.6% busy (0.8% interrupt) while 2 CPU(s) idle" out &&
	sed "s/  0.20% \[intr{irq264/ 97.20% [intr{irq264/" "$D/opnsense-top-HSP-busy.txt" >q.txt &&
	test_expect_code 1 ntune diagnose --from q.txt >out &&
	grep -q "the interrupt thread of ix0 queue 0 uses 97.2% of a CPU (CPU 0; 2 queue threads of ix0" out &&
	grep -q "knobs: net.inet.rss.enabled, net.inet.rss.bits, net.isr.dispatch, dev.ix.0.iflib.override_nrxqs" out
'
test_expect_success 'top -P pasted after sysctl, vmstat -i and netstat -Q: each read, top -P gives the CPU load' '
	cat "$D/opnsense-netisr-drops.txt" "$D/real-top-P_opnsense_dec750_seed000.txt" >mix.txt &&
	test_expect_code 1 ntune diagnose --from mix.txt --json >mix.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("mix.json"))
	kinds = [f["kind"] for f in d["findings"]]
	assert kinds == ["netisr-queue-drops", "cpu-bound"], kinds
	assert d["metrics"]["cpu.from_top"] == 1 and d["metrics"]["ncpu"] == 8, d["metrics"]
	PY
'
test_expect_success 'a top -aSHIP excerpt cut inside a CPU line: that line skipped and named' '
	ntune diagnose --from "$D/real-top-aSHIP_opnsense_ryzen7-9700x_partial.txt" >out 2>err &&
	grep -q "real-top-aSHIP_opnsense_ryzen7-9700x_partial.txt:5 last line cut short: .CPU 2:" out
'
test_expect_success 'every knob the top findings name is one explain knows' '
	for k in kern.random.harvest.mask hw.ix.max_interrupt_rate hw.igc.max_interrupt_rate \
	    net.isr.bindthreads dev.ix.0.iflib.override_nrxqs; do
		ntune explain "$k" >/dev/null || { echo "explain does not know $k"; return 1; }
	done
'
test_expect_success 'a real overloaded netstat -ihw 1 (400 kpps through, 914 k errs/s): receive loss named, exit 1' '
	test_expect_code 1 ntune diagnose --from "$D/real-netstat-ihw1_bsdrp_overloaded.txt" >out &&
	grep -q "^1\. receive-loss (certain)" out &&
	grep -q "the box loses 914364 packets/s on receive (69.6% of what arrives; netstat -w errs and idrops" out &&
	grep -q "while 398455 pkt/s get in" out
'
test_expect_success 'a real clean netstat -ihw 1 at 370 kpps: nothing lost, exit 0, says top -P is missing' '
	ntune diagnose --from "$D/real-netstat-ihw1_bsdrp_370kpps.txt" >out &&
	grep -q "^no bottleneck found: nothing lost on receive at 369667 pkt/s in, 369833 out (netstat -w)" out &&
	grep -q "add top -P" out
'
test_expect_success 'an older netstat -w -I stream (no idrops) and systat -ifstat: read per interface' '
	cat "$D/real-netstat-w1-I_bsdrp_vge0.txt" "$D/real-systat-ifstat_bsdrp_vge0.txt" >w.txt &&
	ntune diagnose --from w.txt --json >w.json &&
	python3 - <<-\PY
	import json
	m = json.load(open("w.json"))["metrics"]
	assert m["if.vge0.rx_pps"] == 243 and m["if.vge0.tx_pps"] == 550 and m["if.vge0.rx_loss_ps"] == 0, m
	assert m["if.vge0.tx_bps"] == 8 * 1493172 and m["if.lo0.rx_bps"] == 8 * 124, m
	PY
'
test_expect_success 'netstat -w: a row that does not match its header, or an unknown column, is skipped and named' '
	printf "input (Total) output\npackets errs idrops bytes packets errs bytes colls\n370k 0 0 38M\n" >w1.txt &&
	ntune diagnose --from w1.txt >out &&
	grep -q "w1.txt:3 netstat -w row that does not match its header: .370k 0 0 38M" out &&
	printf "input (Total) output\npackets errs widgets bytes packets errs bytes colls\n" >w2.txt &&
	ntune diagnose --from w2.txt >out &&
	grep -q "w2.txt:2 netstat -w header with an unknown column" out
'
test_expect_success 'vmstat -i 1: the last interval counts, not the totals since boot; with a busy box the finding' '
	ntune diagnose --from "$D/opnsense-vmstat-i-1.txt" >out &&
	grep -q "^  one-queue on ix0: one queue of ix0 takes 99.6% of its 4 queues. interrupts" out &&
	ntune diagnose --from "$D/opnsense-vmstat-i-1.txt" --json >v.json &&
	python3 -c "import json; m = json.load(open(\"v.json\"))[\"metrics\"]; assert m[\"irq.rates\"] == 1 and m[\"irq.ix0.rate\"] == 91584, m" &&
	cat "$D/opnsense-vmstat-i-1.txt" "$D/real-top-P_opnsense_dec750_seed000.txt" >v.txt &&
	test_expect_code 1 ntune diagnose --from v.txt >out &&
	grep -q "^1\. one-queue on ix0 (likely)" out && grep -q "^2\. cpu-bound (likely)" out
'
test_expect_success 'real thread rows of a FreeBSD-based switch under a flood: the netisr thread and the NIC queue task named' '
	test_expect_code 1 ntune diagnose --from "$D/real-top-HS_junos-ex2300_flood_jsa11230.txt" >out &&
	grep -q "^[0-9]\. netisr-thread-busy (likely)" out &&
	grep -q "netisr thread 0 uses 89% of a CPU (CPU 1; 1 netisr threads" out &&
	grep -q "^[0-9]\. queue-thread-busy on bcm560xgmac0 (likely)" out &&
	grep -q "a receive thread of bcm560xgmac0 (its interrupt or queue task; top -HSP does not name the queue) uses 88% of a CPU (CPU 1" out
'
test_expect_success 'usage errors exit 2' '
	test_expect_code 2 ntune diagnose --before a --interval 1 2>err &&
	grep -q "go together" err &&
	test_expect_code 2 ntune diagnose --from a --after b --before c --interval 1 2>err &&
	test_expect_code 2 ntune diagnose -d 0 2>err
'
test_expect_success 'diagnose --from a b reads both files, as the usage says' '
	test_expect_code 1 ntune diagnose --from "$D/real-top-P_opnsense_dec750_seed000.txt" "$D/opnsense-vmstat-i-1.txt" >out &&
	grep -q "^1\. one-queue on ix0 (likely)" out &&
	grep -q "^2\. cpu-bound (likely)" out
'
test_expect_success 'diagnose --os linux --from reads Linux pastes (BusyBox top of OpenWrt)' '
	printf "root@OpenWrt:~# top -bn1\nMem: 53824K used, 69340K free, 1220K shrd, 4000K buff, 15796K cached\nCPU:   0%% usr   2%% sys   0%% nic   1%% idle   0%% io   0%% irq  96%% sirq\n" >bb.txt &&
	test_expect_code 1 ntune diagnose --os linux --from bb.txt --json >bb.json &&
	python3 -c "import json; d = json.load(open(\"bb.json\")); m = d[\"metrics\"]; assert m[\"cpu.busy_max\"] > 98 and m[\"cpu.0.soft\"] > 96, m; assert any(\"bb.txt:1 a prompt\" in n for n in d[\"notes\"]), d[\"notes\"]; assert d[\"findings\"][0][\"kind\"] == \"cpu-bound\", d[\"findings\"]"
'
test_done
