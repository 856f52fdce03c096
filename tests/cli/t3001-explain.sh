#!/bin/sh
# ntune explain: a knob of the knowledge base, readable and as JSON; the list.
. "$(dirname "$0")/lib.sh"

test_expect_success 'explain prints placement, type, default, effect and sources of a knob' '
	ntune explain net.isr.maxthreads >out &&
	grep -q "^net.isr.maxthreads (freebsd)$" out &&
	grep -q "^  placement    loader: boot time only" out &&
	grep -q "^  type         int, range -1..ncpu$" out &&
	grep -q "^  default      1$" out &&
	grep -q "^  sources      netisr(9)" out &&
	grep -q "seed 000" out
'
test_expect_success 'explain resolves a concrete name to its pattern' '
	ntune explain dev.ix.3.fc | grep -q "^dev.ix.%d.fc (freebsd)$" &&
	ntune explain if.eth0.rx-2.rps_cpus | grep -q "^if.%s.rx-%d.rps_cpus (linux)$"
'
test_expect_success 'explain shows what replaced an obsolete knob' '
	ntune explain hw.ix.rxd >out &&
	grep -q "^  removed      12.0$" out &&
	grep -q "^  replaced by  dev.ix.%d.iflib.override_nrxds$" out
'
test_expect_success 'explain says whether a Linux knob lives per network namespace' '
	ntune explain net.core.netdev_budget | grep -q "host-global" &&
	ntune explain net.ipv4.ip_forward | grep -q "per network namespace"
'
test_expect_success 'explain --json prints one object with stable keys' '
	ntune explain --json net.isr.dispatch >out.json &&
	python3 -c "import json; k=json.load(open(\"out.json\")); assert k[\"name\"]==\"net.isr.dispatch\"; assert k[\"values\"]==[\"direct\",\"hybrid\",\"deferred\"]; assert k[\"placement\"]==\"both\"; assert k[\"sources\"]"
'
test_expect_success 'an unknown knob exits 2 with a suggestion' '
	test_expect_code 2 ntune explain net.isr.maxthread 2>err && grep -q "unknown knob .net.isr.maxthread. (did you mean net.isr.maxthreads?)" err
'
test_expect_success 'explain --list lists at least 80 knobs, --os filters them' '
	test $(ntune explain --list | wc -l) -ge 80 &&
	ntune explain --list --os linux >linux.txt &&
	grep -q "^net.core.netdev_budget " linux.txt &&
	! grep -q "^net.isr" linux.txt &&
	ntune explain --list --os opnsense | grep -q "^net.inet.rss.enabled " &&
	! ntune explain --list --os freebsd | grep -q "^net.inet.rss.enabled "
'
test_expect_success 'explain --list --json is an array of knobs' '
	ntune explain --list --json --os freebsd >all.json &&
	python3 -c "import json; a=json.load(open(\"all.json\")); assert len(a) > 40 and all(k[\"os\"]==\"freebsd\" for k in a)"
'
test_expect_success 'explain without a knob prints usage' 'test_expect_code 2 ntune explain 2>/dev/null'
test_done
