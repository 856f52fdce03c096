#!/bin/sh
# ntune doctor --from a capture directory: one ranked list (the bottleneck first, the TCP
# buffer knobs useless for forwarding, RSS proposed), bench commands bench accepts, -o DIR,
# --json, exit 0 clean / 1 findings / 2 bad input naming the file and line.
. "$(dirname "$0")/lib.sh"

S="$FIXTURES/doctor/seed000"
R="$FIXTURES/doctor/real"
C="$FIXTURES/doctor/clean"

test_expect_success 'seed 000: the one-queue bottleneck on ax0 is item 1, RSS its first change, exit 1' '
	test_expect_code 1 ntune doctor --from "$S" >out &&
	cat out &&
	grep -q "^ntune doctor: dec750.lan, opnsense 13.2-RELEASE-p7, 8 CPUs, NICs ax0 ax1; samples 10.00 s apart (by the CPU tick counters)$" out &&
	grep -q "^1\. bottleneck: one-queue on ax0 (likely)$" out &&
	sed -n "/^1\. /,/^2\. /p" out >item1 &&
	grep "^   change: " item1 | head -n 1 | grep -q "/boot/loader.conf.local:5: net.inet.rss.enabled=1 is there, not in effect (running 0): reboot" &&
	grep -q "^   change: /boot/loader.conf.local:4: net.inet.rss.bits=3 -> net.inet.rss.bits=4 (running 3)$" item1 &&
	grep -q "^2\. bottleneck: queue-thread-busy on ax0 (likely)$" out &&
	grep -q "the interrupt thread of ax0 queue 0 uses 99.1% of a CPU (CPU 2" out
'
test_expect_success 'seed 000: the socket buffer and TCP knobs are called useless for forwarding, with the code' '
	test_expect_code 1 ntune doctor --from "$S" >out &&
	sed -n "/wasted: useless for forwarding/,/^[0-9]*\. \|^fine:/p" out >wasted &&
	grep -q "5 settings only serve sockets on the box itself: a forwarded packet never reaches a socket (sys/netinet/ip_input.c:583" wasted &&
	for k in kern.ipc.maxsockbuf net.inet.tcp.recvbuf_max net.inet.tcp.sendbuf_inc net.inet.tcp.sendbuf_max net.inet.tcp.soreceive_stream; do
		grep -q "^   /boot/loader.conf.local:[0-9]*: $k=" wasted || { echo "not called useless: $k"; exit 1; }
	done &&
	grep -q "^   change: remove the 5 lines above$" wasted &&
	! grep -q "net.isr\|net.inet.rss" wasted
'
test_expect_success 'seed 000 -o DIR: the capture, doctor.json, the profiles, doctor.html; the bench commands parse' '
	test_expect_code 1 ntune doctor --from "$S" -o o >out &&
	for f in "$S"/*; do cmp "$f" "o/capture/${f##*/}" || exit 1; done &&
	test -s o/doctor.json && test -s o/doctor.html && test -s o/proposed.conf &&
	test -s o/profiles/current.conf && test -s o/profiles/01-one-queue-on-ax0.conf &&
	grep -q "^net.inet.rss.enabled=0$" o/profiles/current.conf &&
	grep -q "^net.inet.rss.enabled=1$" o/profiles/01-one-queue-on-ax0.conf &&
	grep -q "^net.inet.rss.bits=4$" o/proposed.conf &&
	! grep -q "maxsockbuf\|tcp\." o/proposed.conf &&
	cmd=$(sed -n "/^1\. /,/^2\. /s/^   prove:  //p" out) &&
	test "$cmd" = "ntune bench o/profiles/current.conf o/profiles/01-one-queue-on-ax0.conf --dut ssh://root@dec750.lan --dut-in ax0 --dut-out ax1 --reboot" &&
	ntune ${cmd#ntune } --plan >plan &&
	grep -q "^plan: 2 profiles on ssh://root@dec750.lan" plan &&
	grep -q "nothing was started" plan &&
	all=$(sed -n "s/^all of it: //p" out) &&
	ntune ${all#ntune } --plan >plan && grep -q "^plan: 2 profiles" plan &&
	test_expect_code 0 ntune check o/proposed.conf --os opnsense >chk 2>&1
'
test_expect_success '--from with --dut: the bench commands name that router' '
	test_expect_code 1 ntune doctor --from "$S" --dut ssh://admin@fw.example:2222 >out &&
	grep -q "^   prove:  ntune bench doctor/profiles/current.conf doctor/profiles/01-one-queue-on-ax0.conf --dut ssh://admin@fw.example:2222 --dut-in ax0 --dut-out ax1 --reboot$" out &&
	test_expect_code 2 ntune doctor --from "$S" --dut fw 2>err &&
	grep -q "^ntune doctor: --dut ssh://\[user@\]router names the router" err
'
test_expect_success 'doctor.html: per-CPU load of the 8 CPUs as a chart, the findings, the proposed profile' '
	test_expect_code 1 ntune doctor --from "$S" -o o3 >/dev/null &&
	cd o3 &&
	grep -q "<svg" doctor.html &&
	test "$(grep -c "<title>CPU [0-9] [0-9.]*% busy</title>" doctor.html)" = 8 &&
	grep -q "<title>CPU 2 99.5% busy</title>" doctor.html &&
	grep -q "<h3>1. bottleneck: one-queue on ax0" doctor.html &&
	grep -q "useless for forwarding" doctor.html &&
	grep -q "<h2>The proposed profile</h2>" doctor.html &&
	grep -q "net.inet.rss.bits=4" doctor.html &&
	! grep -q "<script" doctor.html &&
	cd .. &&
	test_expect_code 2 ntune doctor --from "$S" -o o3 >out 2>err &&
	test ! -s out && grep -q "^ntune doctor: .o3. is not empty" err
'
test_expect_success '--json: the same list as a document (schema ntune-doctor, version 1)' '
	test_expect_code 1 ntune doctor --from "$S" --json >d.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("d.json"))
	assert d["schema"] == "ntune-doctor" and d["version"] == 1, d
	assert d["system"]["host"] == "dec750.lan" and d["system"]["ncpu"] == 8, d["system"]
	assert d["interval_s"] == 10 and d["interval_from"] == "cpu-ticks", d["interval_s"]
	assert "interval_note" not in d, d["interval_note"]
	it = d["items"]
	assert [i["rank"] for i in it] == list(range(1, len(it) + 1))
	assert it[0]["kind"] == "bottleneck" and it[0]["id"] == "one-queue on ax0", it[0]
	assert it[0]["changes"][0]["name"] == "net.inet.rss.enabled", it[0]["changes"]
	assert it[0]["bench"].startswith("ntune bench doctor/profiles/current.conf "), it[0]
	w = [i for i in it if i["kind"] == "wasted"][0]
	assert {c["name"] for c in w["changes"]} == {"kern.ipc.maxsockbuf", "net.inet.tcp.recvbuf_max",
	    "net.inet.tcp.sendbuf_inc", "net.inet.tcp.sendbuf_max", "net.inet.tcp.soreceive_stream"}, w
	for i in it:
	    assert i["certainty"] in ("certain", "likely", "possible"), i
	    for k in ("kind", "id", "title", "evidence", "changes"):
	        assert k in i, (k, i)
	assert len(d["cpu"]) == 8 and d["cpu"][2]["busy"] > 99, d["cpu"]
	assert any(p["path"] == "proposed.conf" for p in d["profiles"])
	PY
'
test_expect_success 'the config.xml <sysctl> items are judged too, by their line in the section' '
	cp -R "$S" xml && chmod -R u+w xml &&
	sed -n "/<sysctl version/,/<\/sysctl>/p" "$FIXTURES/kb/config.xml" >xml/config-sysctl.xml &&
	test_expect_code 1 ntune doctor --from xml >out &&
	sed -n "/^1\. /,/^2\. /p" out >item1 &&
	grep -q "^   change: config-sysctl.xml:7: net.isr.dispatch=deferred is there, not in effect (running direct): apply it$" item1 &&
	grep -q "^   change: config-sysctl.xml:17: net.isr.maxthreads=-1 is there, not in effect (running 1): reboot$" item1 &&
	! grep -q "vm.pmap.pti" out
'
test_expect_success 'real captures (netbenches loader.conf.local, sysctl.conf; FreeBSD 14.3 vmstat, netstat -Q, top): the same kind of list' '
	test_expect_code 1 ntune doctor --from "$R" >out &&
	grep -q "^1\. wrong: not taken by the kernel (certain)$" out &&
	grep -q "^   /boot/loader.conf.local:30: hw.ix.allow_unsupported_sfp=1: .hw.ix.allow_unsupported_sfp. does nothing" out &&
	grep -q "^   /etc/sysctl.conf:21: dev.ix.0.fc=0, running 3$" out &&
	grep -q "^  no bottleneck in the samples: nothing saturated" out &&
	grep -q "^  netisr-one-cpu: 84.3% of the netisr work runs on one CPU" out
'
test_expect_success 'the capture helper'"'"'s seed 000 capture (samples whose CPU times did not move): load unseen, not 0%' '
	test_expect_code 1 ntune doctor --from "$FIXTURES/dut/seed000-dec750/capture.txt" --dut ssh://root@opnsense >out &&
	grep -q "^1\. wasted: useless for forwarding (certain)$" out &&
	grep -q "^   config-sysctl.xml:2: kern.ipc.maxsockbuf=4262144: " out &&
	grep -q "^note: the CPU times did not move between the two samples: saturation unseen$" out &&
	grep -q "^  no bottleneck in the samples: nothing saturated as far as the counters show$" out &&
	! grep -q "(-1)\|-1%" out
'
test_expect_success 'a capture with nothing to fix: exit 0, "nothing to fix"' '
	ntune doctor --from "$C" >out &&
	grep -q "^nothing to fix$" out &&
	ntune doctor --from "$C" --json >d.json &&
	python3 -c "import json; d = json.load(open(\"d.json\")); assert d[\"items\"] == [], d[\"items\"]"
'
test_expect_success 'a line it cannot read is used in part or skipped and named; no capture at all is exit 2' '
	cp -R "$S" bad && chmod -R u+w bad &&
	printf "kern.cp_times: 1 2 x\n" >>bad/after.txt &&
	test_expect_code 1 ntune doctor --from bad -o outbad >out 2>err &&
	grep -q "^note: bad/after.txt: 0 lines skipped, 1 used in part .bad/after.txt:[0-9]* kern.cp_times cut short" out &&
	cp -R "$R" cut && chmod -R u+w cut && sed "3i garbage line" "$R/vmstat-i.txt" >cut/vmstat-i.txt &&
	{ ntune doctor --from cut >out 2>err; test $? -le 1; } &&
	grep -q "^note: cut/vmstat-i.txt: 1 line skipped, 0 used in part .cut/vmstat-i.txt:3 vmstat -i row without its total and rate: .garbage line.." out &&
	mkdir empty && test_expect_code 2 ntune doctor --from empty 2>err &&
	grep -q "^ntune doctor: empty: no capture files .uname.txt, sysctl-a.txt, .... or pastes in it" err &&
	rm bad/sysctl-a.txt && test_expect_code 2 ntune doctor --from bad 2>err &&
	grep -q "^ntune doctor: bad: no sysctl-a.txt" err &&
	test_expect_code 2 ntune doctor --from nowhere 2>err &&
	grep -q "^ntune doctor: cannot open .nowhere.: No such file or directory" err &&
	test_expect_code 2 ntune doctor 2>err && grep -q "give ssh://\[user@\]router or --from DIR|FILE" err
'
test_expect_success 'the capture as one pasted file (the capture script'"'"'s output) gives the same list' '
	{ echo "::t0k3n0123:: ntune-capture 1" &&
	  for f in "$S"/*; do
		n=${f##*/} &&
		case $n in README.md) continue ;; esac &&
		echo "::t0k3n0123:: begin $n" && cat "$f" && printf "\n::t0k3n0123:: end %s 0\n" "$n" || exit 1
	  done && echo "::t0k3n0123:: done"; } >capture.txt &&
	test_expect_code 1 ntune doctor --from capture.txt --json >file.json &&
	test_expect_code 1 ntune doctor --from "$S" --json >dir.json &&
	python3 - <<-\PY
	import json
	a, b = json.load(open("file.json")), json.load(open("dir.json"))
	assert [i["id"] for i in a["items"]] == [i["id"] for i in b["items"]], (a["items"], b["items"])
	assert a["items"][0]["changes"] == b["items"][0]["changes"]
	PY
'
test_expect_success '--capture-script prints the script a user runs on the box (sh, base-system commands only)' '
	ntune doctor --capture-script >c.sh &&
	head -n 1 c.sh | grep -qx "#!/bin/sh" &&
	grep -q "top -b -HSP" c.sh && grep -q "loader.conf.local" c.sh &&
	test_expect_code 2 ntune doctor --capture-script --from "$S" 2>err &&
	grep -q "capture-script takes nothing else" err
'
test_expect_success 'doctor only reads: the capture directory is unchanged' '
	(cd "$S" && cksum * ) >before &&
	test_expect_code 1 ntune doctor --from "$S" -o o2 >/dev/null &&
	(cd "$S" && cksum * ) >after && cmp before after
'
test_expect_success 'a capture without a release or a NIC driver: the header says so, no blank left' '
	mkdir -p bare &&
	printf "FreeBSD box amd64\n" >bare/uname.txt &&
	printf "hw.ncpu: 2\nkern.cp_times: 1 0 1 0 98 1 0 1 0 98\n" >bare/sysctl-a.txt &&
	printf "interrupt  total  rate\ncpu0:timer  2653  999\n" >bare/vmstat-i.txt &&
	ntune doctor --from bare >bare.out && head -n 1 bare.out &&
	test "$(head -n 1 bare.out)" = "ntune doctor: box, freebsd, 2 CPUs, NICs (none known: no NIC driver in the capture); counters since boot (no samples)"
'
test_done
