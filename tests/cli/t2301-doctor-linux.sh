#!/bin/sh
# ntune doctor --from a Linux router's capture (tests/fixtures/doctor/linux-*, made by
# make-linux.py there): the one-queue bottleneck of enp1s0 first with RPS as its change, the
# socket and TCP knobs of /etc/sysctl.d/60-net-tuning.conf called useless for forwarding by
# file:line, a sysctl.d file that is /etc/sysctl.conf read once, the bench commands that
# `ntune bench --plan` accepts, doctor.html's per-CPU chart, exit 0 on the clean capture, exit 2
# naming file:line on bad input; and the capture script itself run here on a planted root.
. "$(dirname "$0")/lib.sh"

L="$FIXTURES/doctor/linux-onequeue"
C="$FIXTURES/doctor/linux-clean"

test_expect_success 'Linux: the one-queue bottleneck of enp1s0 is item 1, RPS its change, exit 1' '
	test_expect_code 1 ntune doctor --from "$L" >out &&
	cat out &&
	grep -q "^ntune doctor: edge1, linux 6.1.0-18-amd64, 4 CPUs, NICs enp1s0 enp2s0; samples 10.00 s apart (by the CPU tick counters)$" out &&
	grep -q "^1\. bottleneck: one-queue on enp1s0 (possible)$" out &&
	sed -n "/^1\. /,/^2\. /p" out >item1 &&
	grep -q "^   evidence: irq.enp1s0.queues=2 irq.enp1s0.queues_active=1 irq.enp1s0.top_share=100 cpu.busy_max=98.5$" item1 &&
	grep -q "^   change: ntune apply: add if.enp1s0.rps_cpus=f (running 0)$" item1 &&
	! grep -q "enp2s0 (possible)" out
'
test_expect_success 'Linux: the forum knobs of a sysctl.d file are useless for forwarding, each by file:line' '
	test_expect_code 1 ntune doctor --from "$L" >out &&
	grep -q "^2\. wasted: useless for forwarding (certain)$" out &&
	sed -n "/^2\. wasted/,/^fine:/p" out >wasted &&
	grep -q "5 settings only serve sockets on the box itself: a forwarded packet never reaches a socket (net/ipv4/ip_input.c ip_rcv_finish" wasted &&
	n=2 && for k in net.core.rmem_max net.core.wmem_max net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.ipv4.tcp_window_scaling; do
		grep -q "^   /etc/sysctl.d/60-net-tuning.conf:$n: $k=" wasted || { echo "not called useless: $k at line $n"; exit 1; }
		n=$((n + 1))
	done &&
	grep -q "^   change: remove the 5 lines above$" wasted &&
	grep -q "^  /etc/sysctl.d/60-net-tuning.conf:7: net.core.netdev_max_backlog=5000" out &&
	grep -q "^  /etc/sysctl.d/10-router.conf:2: net.ipv4.ip_forward=1" out &&
	grep -q "^note: /etc/sysctl.d/99-sysctl.conf has the text of /etc/sysctl.conf (a link to it)" out &&
	! grep -q "99-sysctl.conf:" out
'
test_expect_success 'Linux -o DIR: the profiles; the bench commands are accepted by bench --plan' '
	test_expect_code 1 ntune doctor --from "$L" -o o >out &&
	for f in "$L"/*; do cmp "$f" "o/capture/${f##*/}" || exit 1; done &&
	test -s o/doctor.json && test -s o/doctor.html &&
	test "$(grep -c "<title>CPU [0-9] [0-9.]*% busy</title>" o/doctor.html)" = 4 &&
	grep -q "<title>CPU 1 98.5% busy</title>" o/doctor.html &&
	grep -q "<h3>1. bottleneck: one-queue on enp1s0" o/doctor.html &&
	grep -q "if.enp1s0.rps_cpus=f" o/doctor.html &&
	grep -q "^if.enp1s0.rps_cpus=0$" o/profiles/current.conf &&
	grep -q "^if.enp1s0.rps_cpus=f$" o/profiles/01-one-queue-on-enp1s0.conf &&
	grep -q "^if.enp1s0.rps_cpus=f$" o/proposed.conf &&
	grep -q "^net.core.netdev_max_backlog=5000$" o/proposed.conf &&
	! grep -q "rmem\|wmem\|window_scaling" o/proposed.conf &&
	cmd=$(sed -n "/^1\. /,/^2\. /s/^   prove:  //p" out) &&
	test "$cmd" = "ntune bench o/profiles/current.conf o/profiles/01-one-queue-on-enp1s0.conf --dut ssh://root@edge1 --dut-in enp1s0 --dut-out enp2s0" &&
	ntune ${cmd#ntune } --plan >plan &&
	grep -q "^plan: 2 profiles on ssh://root@edge1" plan &&
	grep -q "reboots: 0" plan && grep -q "nothing was started" plan &&
	all=$(sed -n "s/^all of it: //p" out) &&
	ntune ${all#ntune } --plan >plan && grep -q "^plan: 2 profiles" plan &&
	test_expect_code 0 ntune check o/proposed.conf --os linux >chk 2>&1
'
test_expect_success 'Linux --json: schema ntune-doctor 1, the platform, 4 CPUs with CPU 1 saturated' '
	test_expect_code 1 ntune doctor --from "$L" --json >d.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("d.json"))
	assert d["schema"] == "ntune-doctor" and d["version"] == 1, d
	s = d["system"]
	assert s["platform"] == "linux" and s["host"] == "edge1" and s["ncpu"] == 4, s
	assert [n["name"] for n in s["nics"]] == ["enp1s0", "enp2s0"], s["nics"]
	assert d["interval_s"] == 10 and d["interval_from"] == "cpu-ticks", d["interval_s"]
	assert "interval_note" not in d, d["interval_note"]
	it = d["items"]
	assert it[0]["kind"] == "bottleneck" and it[0]["id"] == "one-queue on enp1s0", it[0]
	assert it[0]["changes"][0] == {"file": "ntune apply", "line": 0, "action": "add",
	    "name": "if.enp1s0.rps_cpus", "now": "0", "to": "f", "why": it[0]["changes"][0]["why"]}, it[0]
	w = [i for i in it if i["kind"] == "wasted"][0]
	assert [(c["file"], c["line"], c["name"]) for c in w["changes"]] == [
	    ("/etc/sysctl.d/60-net-tuning.conf", n, k) for n, k in enumerate(["net.core.rmem_max",
	    "net.core.wmem_max", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_window_scaling"], 2)], w
	cpu = {c["cpu"]: c for c in d["cpu"]}
	assert len(cpu) == 4 and cpu[1]["busy"] > 98 and cpu[1]["interrupt"] > 90, cpu
	assert all(cpu[i]["busy"] < 10 for i in (0, 2, 3)), cpu
	m = d["diagnosis"]["metrics"]
	assert m["softnet.top_cpu"] == 1 and m["softnet.top_processed"] == 180000, m
	assert m["softnet.squeezed"] == 20 and m["softnet.dropped"] == 0, m
	assert not any("softnet_stat" in n for n in d["notes"]), d["notes"]
	PY
'
test_expect_success 'Linux: a capture made before softnet_stat was captured: the same list, a note' '
	mkdir old &&
	for f in "$L"/*; do
		case ${f##*/} in
		before.txt|after.txt) grep -Ev "^([0-9a-f]{8} ){12}[0-9a-f]{8}$" "$f" >"old/${f##*/}" ;;
		linux-tree.txt) sed "/^==> \/proc\/net\/softnet_stat <==$/,/^$/d" "$f" >old/linux-tree.txt ;;
		*) cp "$f" old/ ;;
		esac
	done &&
	! grep -q softnet old/linux-tree.txt &&
	test_expect_code 1 ntune doctor --from old >out &&
	grep -q "^1\. bottleneck: one-queue on enp1s0 (possible)$" out &&
	grep -q "^2\. wasted: useless for forwarding (certain)$" out &&
	grep -q "^note: no /proc/net/softnet_stat: backlog drops and budget exhaustion unseen (run: cat /proc/net/softnet_stat)$" out
'
test_expect_success 'Linux: a capture with nothing to fix exits 0' '
	ntune doctor --from "$C" >out &&
	grep -q "^nothing to fix$" out &&
	grep -q "^  no bottleneck in the samples: nothing saturated" out &&
	grep -q "^  /etc/sysctl.d/10-router.conf:2: net.ipv4.ip_forward=1" out
'
test_expect_success 'Linux bad input: exit 2 naming the file and line, nothing written' '
	cp -R "$L" bad && chmod -R u+w bad &&
	sed "5s/.*/cpu3 1 2 x 4/" "$L/after.txt" >bad/after.txt &&
	test_expect_code 2 ntune doctor --from bad -o outbad >out 2>err &&
	cat err && test ! -s out && test ! -e outbad &&
	grep -q "^ntune doctor: bad/after.txt:5: not a line of /proc/stat: .cpu3 1 2 x 4." err &&
	grep -q "^ntune doctor: bad/after.txt:5: " err &&
	sed "/^Inter-|/,/^ *enp2s0:/d" "$L/before.txt" >bad/before.txt && cp "$L/after.txt" bad/after.txt &&
	test_expect_code 2 ntune doctor --from bad 2>err &&
	grep -q "^ntune doctor: bad/before.txt: no /proc/net/dev in the sample" err &&
	sed "\$s/^[0-9a-f]\{8\} /0000zz00 /" "$L/before.txt" >bad/before.txt &&
	test_expect_code 2 ntune doctor --from bad 2>err &&
	grep -q "^ntune doctor: bad/before.txt:[0-9]*: not a line of /proc/net/softnet_stat: .0000zz00 " err &&
	cp "$L/before.txt" bad/before.txt &&
	printf "::D /etc/shadow\n" >>bad/linux-tree.txt &&
	test_expect_code 2 ntune doctor --from bad 2>err &&
	grep -q "^ntune doctor: bad:linux-tree.txt:[0-9]*: not a path the capture reads: ./etc/shadow." err
'
test_expect_success 'the capture script run here on a planted root: each sysctl.d file by its own lines, a last line without a newline too' '
	mkdir root && cp -R "$FIXTURES/os/linux-vm/." root/ && chmod -R u+w root &&
	mkdir -p root/etc/sysctl.d &&
	printf "net.core.rmem_max = 16777216" >root/etc/sysctl.d/50-a.conf &&
	printf "# b\nnet.ipv4.tcp_rmem = 4096 87380 16777216\n" >root/etc/sysctl.d/60-b.conf &&
	printf "net.ipv4.conf.all.rp_filter = 2\n" >root/etc/sysctl.conf &&
	ntune doctor --capture-script >c.sh &&
	sh c.sh 1 "$PWD/root" >cap.txt &&
	grep -q "^# file: /etc/sysctl.d/60-b.conf$" cap.txt &&
	{ ntune doctor --from cap.txt --json >d.json || test $? = 1; } &&
	python3 - <<-\PY
	import json
	d = json.load(open("d.json"))
	assert d["system"]["platform"] == "linux", d["system"]
	assert [n["name"] for n in d["system"]["nics"]][:1] == ["eth0"], d["system"]["nics"]
	lines = [c for i in d["items"] for c in i["changes"]] + [{"fine": f} for f in d["fine"]]
	text = json.dumps(lines)
	for want in ("/etc/sysctl.d/50-a.conf", 1, "net.core.rmem_max"), ("/etc/sysctl.d/60-b.conf", 2, "net.ipv4.tcp_rmem"), ("/etc/sysctl.conf", 1, "net.ipv4.conf.all.rp_filter"):
	    f, n, k = want
	    assert any(c.get("file") == f and c.get("line") == n and c.get("name") == k for c in lines) or \
	        ("%s:%d: %s=" % want) in text, (want, lines)
	assert "# file:" not in text, text
	PY
'
test_expect_success 'doctor only reads: the Linux capture directory is unchanged' '
	(cd "$L" && cksum * ) >before &&
	test_expect_code 1 ntune doctor --from "$L" -o o2 >/dev/null &&
	(cd "$L" && cksum * ) >after && cmp before after
'
test_done
