#!/bin/sh
# ntune doctor ssh://... of the rig's OPNsense-look DUT with no ntune on it (issue 28, Done-when):
# its sshd, sh and the FreeBSD stand-ins of tests/cli/standin/freebsd print seed 000's DEC750
# as tests/fixtures/doctor/seed000 has it (the 13 forum tunables in /boot/loader.conf.local, one
# ax0 queue's interrupt thread at a full CPU). The capture script runs over one ssh connection;
# doctor names the bottleneck first, proposes RSS, calls the TCP buffer knobs useless for
# forwarding, and writes a report that renders in Chromium. Nothing on the DUT changes.
# The stand-ins print files, so the samples differ only because the wrappers below switch from
# the "before" files to the "after" files once the top stand-in has waited its interval (a
# marker in the test's own directory, not on the DUT's tree). Their kern.cp_times are seed 000's,
# 10 s of ticks at its stathz 127 where the samples are 1-2 s apart: doctor sees the counters
# disagree with the clock and takes clock.txt's interval, saying why.
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"

S=$FIXTURES/doctor/seed000
FIX=$FIXTURES/dut/seed000-dec750
DATA=$RIG/dut/standin
PHASE=$TRASH/after-top
rm -f "$RIG/bin/ntune"
mkdir -p "$DATA/before" "$DATA/after" "$RIG/dut/root/boot"
# The samples of before.txt/after.txt split into what each command prints.
split_sample() {
	awk -v d="$2" -v mib="$3" '
		/^kern.cp_times: / { print >> mib; next }
		/^Name  *Mtu / { f = d "/netstat-ibnd.txt" }
		/^interrupt  *total/ { f = d "/vmstat-i.txt" }
		/^Configuration:/ { f = d "/netstat-Q.txt" }
		f != "" { print > f }' "$1"
}
for p in before after; do
	cp "$S/sysctl-a.txt" "$DATA/$p/sysctl-a.txt"
	split_sample "$S/$p.txt" "$DATA/$p" "$DATA/$p/sysctl-a.txt"
	cp "$S/ifconfig-a.txt" "$S/pciconf-lv.txt" "$S/uname.txt" "$FIX/kenv.txt" "$FIX/netstat-m.txt" \
		"$FIX/opnsense-version.txt" "$DATA/$p/"
	# top -b -HSP -s SECS -d 2: the stand-in prints the file once a display; the second display of top.txt
	sed -n '/^last pid: 73123/,$p' "$S/top.txt" >"$DATA/$p/top-P.txt"
done
cp "$S/loader.conf.local" "$RIG/dut/root/boot/"
for c in sysctl kenv ifconfig pciconf vmstat netstat uname dmesg opnsense-version; do
	cat >"$RIG/dut/bin/$c" <<-EOF
	#!/bin/sh
	d=$DATA/before
	[ -e "$PHASE" ] && d=$DATA/after
	STANDIN_DIR=\$d SYSCTL_STANDIN_MIB=\$d/sysctl-a.txt exec $SRCDIR/tests/cli/standin/freebsd/$c "\$@"
	EOF
	chmod +x "$RIG/dut/bin/$c"
done
cat >"$RIG/dut/bin/top" <<EOF
#!/bin/sh
STANDIN_DIR=$DATA/before $SRCDIR/tests/cli/standin/freebsd/top "\$@"
st=\$?
: >"$PHASE"
exit \$st
EOF
chmod +x "$RIG/dut/bin/top"
D="--ssh-config $RIG/ssh_config --dut-root $RIG/dut/root --duration 1"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
dut_sums() { (cd "$RIG/dut" && find root standin -type f | LC_ALL=C sort | xargs sha256sum); }
dut_sums >"$TRASH/sums.before"

test_expect_success 'the DUT has no ntune on its PATH; its commands are the FreeBSD stand-ins' '
	! on_dut command -v ntune && ! on_dut ntune --version &&
	test "$(on_dut uname -n)" = dec750.lan &&
	on_dut sysctl kern.cp_times | grep -q "^kern.cp_times: 2811301 "
'
test_expect_success 'doctor ssh://dut: the bottleneck first, RSS proposed, the TCP knobs useless for forwarding' '
	rm -f "$PHASE" &&
	test_expect_code 1 ctl $NTUNE doctor ssh://dut $D -o out >list 2>err && cat list err &&
	grep -Eq "^ntune doctor: dec750.lan, opnsense 13.2-RELEASE-p7, 8 CPUs, NICs ax0 ax1; samples [12]\.00 s apart \(by clock\.txt: the tick counters say 10\.00 s, clock\.txt [12] s\)$" list &&
	grep -q "^1\. bottleneck: one-queue on ax0 (likely)$" list &&
	sed -n "/^1\. /,/^2\. /p" list >item1 &&
	grep "^   change: " item1 | head -n 1 | grep -q "/boot/loader.conf.local:5: net.inet.rss.enabled=1 is there, not in effect (running 0): reboot" &&
	grep -q "^   change: /boot/loader.conf.local:4: net.inet.rss.bits=3 -> net.inet.rss.bits=4 (running 3)$" item1 &&
	grep -q "^   prove:  ntune bench out/profiles/current.conf out/profiles/01-one-queue-on-ax0.conf --dut ssh://dut --dut-in ax0 --dut-out ax1 --reboot$" item1 &&
	grep -q "^2\. bottleneck: queue-thread-busy on ax0 (likely)$" list &&
	grep -q "wasted: useless for forwarding (certain)" list &&
	for k in kern.ipc.maxsockbuf net.inet.tcp.recvbuf_max net.inet.tcp.sendbuf_max; do
		sed -n "/wasted: useless/,/^fine:/p" list | grep -q "^   /boot/loader.conf.local:[0-9]*: $k=" || exit 1
	done
'
test_expect_success 'the same list as doctor --from the files the DUT printed' '
	test_expect_code 1 $NTUNE doctor --from "$S" --json >from.json &&
	python3 - <<-\PY
	import json
	a, b = json.load(open("out/doctor.json")), json.load(open("from.json"))
	assert a["source"] == "ssh://dut" and a["dut"] == "ssh://dut", a["source"]
	assert [i["id"] for i in a["items"]] == [i["id"] for i in b["items"]], ([i["id"] for i in a["items"]], [i["id"] for i in b["items"]])
	for x, y in zip(a["items"], b["items"]):
	    assert [c["name"] for c in x["changes"]] == [c["name"] for c in y["changes"]], (x, y)
	PY
'
test_expect_success 'the bench command of item 1 is one ntune bench accepts (--plan: nothing started)' '
	cmd=$(sed -n "/^1\. /,/^2\. /s/^   prove:  //p" list) &&
	ntune ${cmd#ntune } --ssh-config "$RIG/ssh_config" --plan >plan &&
	grep -q "^plan: 2 profiles on ssh://dut" plan && grep -q "nothing was started" plan
'
test_expect_success 'out/: the raw capture as the DUT printed it, doctor.json, the profiles' '
	cmp "$RIG/dut/root/boot/loader.conf.local" out/capture/loader.conf.local &&
	cmp "$DATA/before/sysctl-a.txt" out/capture/sysctl-a.txt &&
	grep -q "^kern.cp_times: 2811301 " out/capture/before.txt &&
	grep -q "^kern.cp_times: 2811314 " out/capture/after.txt &&
	test -s out/profiles/current.conf && test -s out/proposed.conf
'
test_expect_success CHROMIUM 'doctor.html renders in headless Chromium: the chart, the findings, the profile' '
	timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
		--disable-background-networking --disable-component-update \
		--user-data-dir="$TRASH/chrome" --dump-dom "file://$PWD/out/doctor.html" >dom.html 2>chrome.log &&
	grep -q "<h3>1. bottleneck: one-queue on ax0" dom.html &&
	grep -q "<title>CPU 2 99.5% busy</title>" dom.html &&
	grep -q "net.inet.rss.bits=4" dom.html &&
	timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
		--disable-background-networking --disable-component-update --hide-scrollbars \
		--user-data-dir="$TRASH/chrome2" --window-size=1100,1400 \
		--screenshot="$PWD/shot.png" "file://$PWD/out/doctor.html" 2>>chrome.log &&
	test "$(wc -c <shot.png)" -gt 20000
'
test_expect_success 'nothing on the DUT changed: its files and its MIB byte for byte' '
	grep -q " root/boot/loader.conf.local$" "$TRASH/sums.before" &&
	grep -q " standin/before/sysctl-a.txt$" "$TRASH/sums.before" &&
	dut_sums >sums.after && diff -u "$TRASH/sums.before" sums.after &&
	! ls "$RIG/dut/home" | grep -q .
'
test_expect_success 'an OPNsense config.xml: the items of its <sysctl version=...> are judged, nothing else of it is read' '
	mkdir -p "$RIG/dut/root/conf" &&
	cat >"$RIG/dut/root/conf/config.xml" <<-\EOF &&
	<?xml version="1.0"?>
	<opnsense>
	  <sysctl version="1.0.1">
	    <item uuid="2e1755c1-cc8c-4db7-bb2b-d12a02aac177">
	      <tunable>net.inet.tcp.sendspace</tunable>
	      <value>262144</value>
	      <descr>from a forum</descr>
	    </item>
	  </sysctl>
	  <system><user><password>$2y$11$notarealhash</password></user></system>
	</opnsense>
	EOF
	rm -f "$PHASE" &&
	test_expect_code 1 ctl $NTUNE doctor ssh://dut $D -o out3 >list3 2>err3 && cat err3 &&
	grep -q "config-sysctl.xml:[0-9]*: net.inet.tcp.sendspace=262144: " list3 &&
	test "$(head -n 1 out3/capture/config-sysctl.xml)" = "  <sysctl version=\"1.0.1\">" &&
	! grep -q password out3/capture/config-sysctl.xml && ! grep -rq notarealhash out3
'
test_expect_success 'a host that cannot be reached: exit 2, named, nothing written' '
	test_expect_code 2 ctl $NTUNE doctor ssh://nohost.invalid $D -o none >out2 2>err && cat err &&
	grep -q "^ntune doctor: cannot read .ssh://nohost.invalid.: " err &&
	test ! -s out2 && test ! -e none
'
test_done
