#!/bin/sh
# ntune advise: values derived from topology, every line with certainty, reason and source; passes check.
. "$(dirname "$0")/lib.sh"
SEED0="$SRCDIR/tests/fixtures/os/seed000-dec750"
from_seed0() { for f in "$SEED0"/*.txt; do printf -- "--from %s " "$f"; done; }

test_expect_success SEED_FIXTURES 'for seed 000 (4 cores, 8 threads, OPNsense) advise proposes the kernel rule rss.bits=4 (was 3) and SMT interrupts' '
	ntune advise $(from_seed0) >adv.conf &&
	grep -q "^# ntune advise for opnsense .*8 CPUs (4 cores, SMT on)" adv.conf &&
	grep -q "^net.inet.rss.bits=4$" adv.conf &&
	grep -B1 "^net.inet.rss.bits=4$" adv.conf | grep -q "^# now: 3 → 4$" &&
	grep -q "^net.isr.maxthreads=8$" adv.conf &&
	grep -q "^machdep.hyperthreading_intr_allowed=1$" adv.conf &&
	grep -B3 "^machdep.hyperthreading_intr_allowed=1$" adv.conf | grep -q "^# \[measure it\] .*-12.1%"
'
test_expect_success SEED_FIXTURES 'the advice for seed 000 passes check against the same snapshot' '
	ntune check $(from_seed0) adv.conf >out 2>err && cat out err

'
test_expect_success 'a bigger or smaller CPU gets different values, not a pasted constant' '
	ntune advise --os opnsense --cpus 16 --cores 8 >a16.conf &&
	grep -q "^#   net.inet.rss.bits=5 (the kernel sets 5 at boot for 16 CPUs)$" a16.conf && grep -q "^net.isr.maxthreads=16$" a16.conf &&
	ntune advise --os opnsense --cpus 2 >a2.conf &&
	grep -q "^#   net.inet.rss.bits=2 (the kernel sets 2 at boot for 2 CPUs)$" a2.conf &&
	grep -q "^net.isr.maxthreads=2$" a2.conf &&
	! grep -q hyperthreading a2.conf
'
test_expect_success 'every advice line has a certainty, a reason and a source' '
	ntune advise --os freebsd --cpus 8 --cores 4 >f.conf &&
	n=$(grep -c "^[a-z].*=" f.conf) && test "$n" -gt 5 &&
	test $(grep -c "^# \[\(safe\|usually helps\|measure it\)\] " f.conf) = "$n" &&
	test $(grep -c "^# source: " f.conf) = "$n" &&
	ntune check --os freebsd f.conf 2>/dev/null
'
test_expect_success 'advise for this machine passes check on this machine' '
	{ ntune advise >live.conf 2>err || { cat err; false; }; } &&
	grep -q "^net.ipv4.ip_forward=1$" live.conf &&
	{ ntune check live.conf >out 2>&1 || { cat out; false; }; }

'
test_expect_success 'advise --json lists name, value, certainty, reason, source' '
	ntune advise --json --os opnsense --cpus 8 --cores 4 >a.json &&
	python3 -c "import json; d=json.load(open(\"a.json\")); assert d[\"cpus\"]==8 and d[\"smt\"] is True; a={x[\"name\"]:x for x in d[\"advice\"]}; assert a[\"net.inet.rss.bits\"][\"value\"]==\"4\"; assert a[\"machdep.hyperthreading_intr_allowed\"][\"certainty\"]==\"measure it\"; assert all(x[\"reason\"] and x[\"source\"] for x in d[\"advice\"])"
'
test_expect_success 'goals and roles change the advice' '
	ntune advise --os linux --cpus 4 --goal latency --role host >lat.conf &&
	grep -q "^net.core.busy_poll=50$" lat.conf && ! grep -q "^net.ipv4.ip_forward" lat.conf
'
test_expect_success 'a default the kernel computes at boot is said so: rss.bits 0 on 6 CPUs is 4, maxthreads -1 is every CPU' '
	ntune advise --os opnsense --cpus 6 >a6.conf &&
	grep -q "^#   net.inet.rss.bits=4 (the kernel sets 4 at boot for 6 CPUs)$" a6.conf &&
	! grep -q "rss.bits=4 (now 0" a6.conf &&
	ntune advise --json --os opnsense --cpus 6 >a6.json &&
	python3 -c "
import json
a = {x[\"name\"]: x for x in json.load(open(\"a6.json\"))[\"advice\"]}
b = a[\"net.inet.rss.bits\"]
assert b[\"already_set\"] and b[\"current\"] == \"0\" and b[\"kernel_sets\"] == \"the kernel sets 4 at boot for 6 CPUs\", b
assert a[\"net.isr.maxthreads\"][\"kernel_sets\"] is None, a[\"net.isr.maxthreads\"]
" &&
	mkdir -p k && printf "kern.ostype: FreeBSD\nnet.isr.maxthreads: -1\n" >k/isr.txt &&
	ntune advise --os opnsense --cpus 6 --from k/isr.txt >m6.conf 2>/dev/null &&
	grep -q "^#   net.isr.maxthreads=6 (the kernel sets 6 at boot for 6 CPUs)$" m6.conf
'
test_expect_success 'advise --from an OPNsense config.xml advises for OPNsense' '
	ntune export "$SRCDIR/share/profiles/opnsense-router.conf" --format opnsense >config.xml &&
	ntune advise --from config.xml --cpus 4 --cores 4 >x.conf &&
	grep -q "^# ntune advise for opnsense" x.conf && grep -q "^#   net.inet.rss.bits=3 (the kernel sets 3 at boot for 4 CPUs)$" x.conf
'
test_expect_success 'without a CPU count advise says how to give one' '
	test_expect_code 2 ntune advise --from config.xml 2>err && grep -q "CPU count is unknown" err
'
test_expect_success SEED_FIXTURES 'a per-NIC advice rule added as data alone is printed for each NIC, with its placeholders filled' '
	cp -R "$SRCDIR/share" myshare &&
	ntune advise $(from_seed0) >before.conf &&
	! grep -q "iflib.tx_abdicate" before.conf &&
	cat >>myshare/knobs/advice/nic.advice <<-\EOF &&

	knob:      dev.{driver}.{unit}.iflib.tx_abdicate
	for:       nic
	os:        opnsense freebsd
	when:      iflib and queues >= 4 and driver ax
	value:     1
	certainty: measure it
	reason:    a test rule for {nic} (unit {unit}, {queues} queues, {queues * 2} half-queues)
	source:    iflib(4); {driver_source}
	EOF
	NTUNE_SHARE="$PWD/myshare" ntune advise $(from_seed0) >after.conf &&
	grep -B3 "^dev.ax.0.iflib.tx_abdicate=1$" after.conf | grep -q "^# \[measure it\] a test rule for ax0 (unit 0, 4 queues, 8 half-queues)$" &&
	grep -B3 "^dev.ax.1.iflib.tx_abdicate=1$" after.conf | grep -q "^# source: iflib(4); axgbe(4); " &&
	NTUNE_SHARE="$PWD/myshare" ntune advise --json $(from_seed0) >after.json &&
	python3 -c "import json; a=[x for x in json.load(open(\"after.json\"))[\"advice\"] if x[\"name\"].endswith(\"tx_abdicate\")]; assert [x[\"name\"] for x in a]==[\"dev.ax.0.iflib.tx_abdicate\", \"dev.ax.1.iflib.tx_abdicate\"], a"
'
test_expect_success 'a broken advice rule or driver file names the file and line, exit 2' '
	cp -R "$SRCDIR/share" badshare &&
	printf "\nknob: if.{nic}.x\nvalue: 1\ncertainty: safe\nreason: r\nsource: s\n" >>badshare/knobs/advice/system.advice &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/badshare" "$NTUNE" advise --os freebsd --cpus 4 2>err &&
	grep -q "badshare/knobs/advice/system.advice:[0-9]*: unknown {placeholder} in rule for .if.{nic}.x. (NIC placeholders need .for: nic.)" err &&
	cp -R "$SRCDIR/share" badshare2 &&
	printf "\ndriver: x\nos: freebsd\ninterfaces: x\niflib: maybe\nsource: s\n" >>badshare2/knobs/drivers/freebsd.drivers &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/badshare2" "$NTUNE" advise --os freebsd --cpus 4 2>err &&
	grep -q "badshare2/knobs/drivers/freebsd.drivers:[0-9]*: .iflib. is yes or no, not .maybe." err
'
test_expect_success 'a bad --goal exits 2' 'test_expect_code 2 ntune advise --goal speed 2>/dev/null'
test_done
