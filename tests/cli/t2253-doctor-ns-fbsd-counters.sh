#!/bin/sh
# doctor ssh:// of the rig's FreeBSD-look DUT (rig-freebsd.sh; its commands the stand-ins of
# tests/cli/standin/freebsd answering live, as in t6334) names what only FreeBSD's own counters
# show (issue 33 item 3: "doctor's FreeBSD diagnosis never gets the rule terms on nic.*,
# ip.intr_queue_drops, pf.*", settled here): between the capture's two samples the NIC dut0
# (the device dut.0) misses packets on its receive rings (dev.dut.0.mac_stats.missed_packets
# grows, the em/igb counter of share/knobs/diagnose/nic-counters.rules), netisr's ip workstream
# drops (netstat -Q QDrops grows), and pf's state table is full (pfctl -si current entries at
# pfctl -sm's hard limit, and its memory counter growing: at the limit pf's state zone refuses
# the allocation, PFRES_MEMORY, sys/netpfil/pf/pf.c pf_create_state). The counters grow when the top stand-in has shown its display, which
# the capture runs between the two samples (src/remote/capture.c). The figures are this test's.
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
cat >>"$RIG/dut/fbsd-mib.conf" <<-\EOF2
	dev.dut.0.mac_stats.missed_packets=1000
	net.inet.ip.intr_queue_drops=0
EOF2
. "$(dirname "$0")/rig.sh"

rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
DATA=$RIG/dut/standin
PHASE=$RIG/dut/after-top
mkdir -p "$DATA"
cp "$FIXTURES/dut/fbsd-live/dmesg.txt" "$FIXTURES/dut/fbsd-live/kenv.txt" \
	"$FIXTURES/dut/fbsd-live/pciconf-lv.txt" "$FIXTURES/dut/seed000-dec750/netstat-m.txt" "$DATA/"
# pf: 100,000 states of a hard limit of 100,000, 1,200 then 4,800 allocations refused (the
# layout of pfctl -si and -sm on FreeBSD 14; the figures are this test's).
mkdir -p "$DATA/pf-before" "$DATA/pf-after"
for m in 1200 4800; do
	cat <<-EOF2
	Status: Enabled for 0 days 02:41:07           Debug: Urgent

	State Table                          Total             Rate
	  current entries                   100000
	  searches                        81234567         8391.0/s
	  inserts                          1265402          130.7/s
	  removals                         1165402          120.4/s
	Counters
	  match                            1301288          134.4/s
	  memory                              $m            0.4/s
	  state-limit                            0            0.0/s
	EOF2
done >"$TRASH/pf.txt"
sed -n "1,11p" "$TRASH/pf.txt" >"$DATA/pf-before/pfctl-si.txt"
sed -n "12,22p" "$TRASH/pf.txt" >"$DATA/pf-after/pfctl-si.txt"
for d in pf-before pf-after; do
	printf 'states        hard limit   100000\nsrc-nodes     hard limit    10000\nfrags         hard limit     5000\n' \
		>"$DATA/$d/pfctl-sm.txt"
done
for c in sysctl daemon vmstat ifconfig dmesg kenv pciconf cpuset; do
	cat >"$RIG/dut/bin/$c" <<-EOF2
	#!/bin/sh
	STANDIN_DIR=$DATA STANDIN_LIVE=1 exec $SRCDIR/tests/cli/standin/freebsd/$c "\$@"
	EOF2
	chmod +x "$RIG/dut/bin/$c"
done
# netstat -Q once the top display was shown: the ip workstream of CPU 0 has dropped 3,000 packets.
cat >"$RIG/dut/bin/netstat" <<EOF2
#!/bin/sh
[ "\$*" = -Q ] && [ -e "$PHASE" ] || STANDIN_DIR=$DATA STANDIN_LIVE=1 exec $SRCDIR/tests/cli/standin/freebsd/netstat "\$@"
STANDIN_DIR=$DATA STANDIN_LIVE=1 $SRCDIR/tests/cli/standin/freebsd/netstat -Q |
	awk '/^Workstreams:/ { ws = 1 } ws && \$1 == "0" && \$3 == "ip" { \$8 += 3000 } { print }'
EOF2
cat >"$RIG/dut/bin/pfctl" <<EOF2
#!/bin/sh
d=$DATA/pf-before
[ -e "$PHASE" ] && d=$DATA/pf-after
STANDIN_DIR=\$d exec $SRCDIR/tests/cli/standin/freebsd/pfctl "\$@"
EOF2
# top: its display, then the NIC's missed packets grow by 5,000 and the phase changes.
cat >"$RIG/dut/bin/top" <<EOF2
#!/bin/sh
STANDIN_DIR=$DATA STANDIN_LIVE=1 $SRCDIR/tests/cli/standin/freebsd/top "\$@"
st=\$?
echo 6000 >/proc/sys/dev/dut/0/mac_stats/missed_packets
: >"$PHASE"
exit \$st
EOF2
chmod +x "$RIG/dut/bin/netstat" "$RIG/dut/bin/top" "$RIG/dut/bin/pfctl"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }

test_expect_success 'the DUT: FreeBSD by its uname, no ntune, its NIC counter and pf as set up' '
	! on_dut command -v ntune && test "$(on_dut uname -s)" = FreeBSD &&
	test "$(on_dut sysctl -n dev.dut.0.mac_stats.missed_packets)" = 1000 &&
	on_dut pfctl -sm | grep -q "^states  *hard limit  *100000$"
'
test_expect_success 'doctor ssh://dut names the NIC missed packets, the netisr drops and the full pf table' '
	rm -f "$PHASE" &&
	test_expect_code 1 ctl $NTUNE doctor ssh://dut --ssh-config "$RIG/ssh_config" --duration 1 \
		-o out >list 2>err && cat list err &&
	python3 - <<-\PY
	import json
	d = json.load(open("out/doctor.json"))
	m, f = d["diagnosis"]["metrics"], d["diagnosis"]["findings"]
	print({k: v for k, v in m.items() if k.split(".")[0] in ("nic", "netisr", "pf", "ip")})
	print([(x["kind"], x["summary"]) for x in f])
	assert d["interval_s"] > 0, d["interval_s"]
	s = d["interval_s"]
	assert abs(m["nic.dut0.rx_missed"] - 5000 / s) < 1, m["nic.dut0.rx_missed"]
	assert abs(m["netisr.qdrops"] - 3000 / s) < 1, m["netisr.qdrops"]
	assert m["pf.states"] == 100000 and m["pf.states_limit"] == 100000, m
	assert abs(m["pf.memory"] - 3600 / s) < 1, m["pf.memory"]
	kinds = [x["kind"] for x in f]
	for k in ("netisr-queue-drops", "pf-states-full", "pf-memory"):
	    assert k in kinds, (k, kinds)
	assert any(x["kind"] == "ring-overrun" and "dut0" in x["summary"] for x in f), kinds
	PY
'
test_expect_success 'the list says it in words: dut0 missed, netisr dropped, the pf table full' '
	grep -q "dut0 missed [0-9]* packets" list &&
	grep -q "netisr queues dropped" list &&
	grep -q "pf state table is 100% full (100000 of 100000)" list &&
	! grep -q "skipped" list
'
test_done
