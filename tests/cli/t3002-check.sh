#!/bin/sh
# ntune check: compiler-style diagnostics, exit 1 on errors, --json, placement by file name, config.xml.
. "$(dirname "$0")/lib.sh"
PROFILES="$SRCDIR/share/profiles"

test_expect_success 'seed 000 is clean for OPNsense (it is an OPNsense block)' '
	ntune check "$PROFILES/seed-000-opnsense-dec750.conf" >out 2>err &&
	grep -q "13 settings for opnsense: 0 errors" err &&
	! grep -q ": error:" out
'
test_expect_success 'seed 000 on stock FreeBSD: rss.enabled is an OPNsense kernel knob' '
	test_expect_code 1 ntune check --os freebsd "$PROFILES/seed-000-opnsense-dec750.conf" >out 2>/dev/null && grep -q "seed-000-opnsense-dec750.conf:12: error: .net.inet.rss.enabled. exists only on opnsense kernels" out &&
	grep -q ":11: warning: .net.inet.rss.bits. exists only in kernels built with options RSS" out
'
test_expect_success 'every shipped profile passes check without errors' '
	for f in "$PROFILES"/*.conf; do
		ntune check "$f" >out 2>&1 || { cat out; exit 1; }
	done
'
test_expect_success 'seed 001 is flagged obsolete with its iflib replacements' '
	ntune check "$PROFILES/seed-001-freebsd-ix.conf" >out 2>/dev/null &&
	grep -q "warning: .hw.ix.rxd. was removed in 12.0; use dev.ix.N.iflib.override_nrxds" out &&
	grep -q "warning: .kern.random.sys.harvest.ethernet. was removed in 11.0; use kern.random.harvest.mask" out &&
	grep -q "warning: kern.ipc.maxsockbuf=524288 lowers the limit below the default value 2097152" out
'
test_expect_success 'typos, bad values and duplicates are errors with file:line' '
	cat >p.conf <<-\EOF2 &&
	net.isr.maxthread=4
	net.isr.dispatch=defered
	net.isr.bindthreads=1
	net.isr.bindthreads=0
	EOF2
	test_expect_code 1 ntune check p.conf >out 2>/dev/null && cat out &&
	grep -q "^p.conf:1: error: unknown knob .net.isr.maxthread. (did you mean net.isr.maxthreads?)$" out &&
	grep -q "^p.conf:2: error: net.isr.dispatch: .defered. is not one of: direct, hybrid, deferred$" out &&
	grep -q "^p.conf:4: error: .net.isr.bindthreads. set again to .0. (line 3 set .1.)" out
'
test_expect_success 'a runtime sysctl in loader.conf is a placement error' '
	mkdir -p boot && printf "net.inet.ip.redirect=0\nnet.isr.maxthreads=-1\n" >boot/loader.conf.local &&
	test_expect_code 1 ntune check boot/loader.conf.local >out 2>/dev/null && grep -q "loader.conf.local:1: error: .net.inet.ip.redirect. is a runtime sysctl (CTLFLAG_RW, no tunable, sys/netinet/ip_input.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07); in loader.conf it is ignored" out &&
	! grep -q ":2: error" out
'
test_expect_success 'a loader tunable in sysctl.conf is a placement error' '
	printf "net.isr.maxthreads=-1\n" >sysctl.conf &&
	test_expect_code 1 ntune check sysctl.conf >out 2>/dev/null && grep -q "sysctl.conf:1: error: .net.isr.maxthreads. is a boot-time tunable" out
'
test_expect_success 'an OPNsense config.xml is read and linted' '
	ntune export "$PROFILES/seed-000-opnsense-dec750.conf" --format opnsense >config.xml &&
	ntune check config.xml >out 2>err &&
	grep -q "13 settings for opnsense: 0 errors" err &&
	grep -q "is a boot-time tunable (CTLFLAG_RDTUN, sys/net/netisr.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): OPNsense writes it to /boot/loader.conf" out
'
test_expect_success 'config.xml items left to the appliance (value default or empty) are one note, never dropped without a word' '
	printf "%s\n" "<opnsense><sysctl>" "<item><tunable>net.inet.tcp.blackhole</tunable><value>default</value></item>" \
	    "<item><tunable>net.inet.udp.blackhole</tunable><value></value></item>" \
	    "<item><tunable>net.inet.ip.random_id</tunable><value>1</value></item>" "</sysctl></opnsense>" >d.xml &&
	ntune check --os opnsense d.xml >out 2>err && cat out err &&
	grep -q "^d.xml:2: note: 2 <item>s with the value .default. or none (net.inet.tcp.blackhole, net.inet.udp.blackhole) are left to the appliance.s default: not checked$" out &&
	test $(grep -c "^d.xml:" out) = 1 &&
	grep -q "[^0-9]1 setting for opnsense" err
'
test_expect_success 'check --from config.xml warns where OPNsense already sets a knob differently' '
	printf "net.isr.maxthreads=2\n" >m.conf &&
	ntune check --from config.xml m.conf >out 2>err && cat out err &&
	grep -q "m.conf:1: warning: config.xml:[0-9]* sets .net.isr.maxthreads. to .-1." out &&
	grep -q "for opnsense" err
'
test_expect_success SEED_FIXTURES 'a pasted item list of driver knobs is checked against the snapshot hardware' '
	S="$FIXTURES/os/seed000-dec750" &&
	ntune check $(for f in "$S"/*.txt; do printf -- "--from %s " "$f"; done) \
	    "$FIXTURES/kb/opnsense-i226-gist-items.xml" >out 2>err && cat out err &&
	grep -q "11 settings for opnsense 13.2-RELEASE-p7: 0 errors" err &&
	grep -q "gist-items.xml:46: warning: no ix interface on this system; .hw.ix.flow_control. has no effect" out &&
	grep -q "gist-items.xml:51: warning: no interface igc0 on this system" out
'
test_expect_success 'only the <sysctl> items of a config.xml are tunables, "default" ones are skipped' '
	ntune check "$FIXTURES/kb/config.xml" >out 2>err &&
	grep -q "config.xml: 3 settings for opnsense" err
'
test_expect_success 'check --json gives counts and diagnostics' '
	printf "net.isr.maxthread=4\nhw.ibrs_disable=1\n" >j.conf &&
	test_expect_code 1 ntune check --json j.conf >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"errors\"]==1 and d[\"notes\"]==1; x=d[\"diagnostics\"][0]; assert (x[\"line\"],x[\"severity\"],x[\"rule\"],x[\"knob\"])==(1,\"error\",\"unknown-knob\",\"net.isr.maxthread\")"
'
test_expect_success 'on this Linux machine check compares with the live values and sysctl.d files' '
	mkdir -p root/etc/sysctl.d &&
	printf "net.ipv4.ip_forward = 0\n" >root/etc/sysctl.d/99-other.conf &&
	printf "net.ipv4.ip_forward=1\n" >l.conf &&
	ntune check --os linux --root "$TRASH/root" l.conf >out 2>&1 && cat out &&
	grep -q "99-other.conf:1 sets .net.ipv4.ip_forward. to .0.; sysctl --system re-applies it" out
'
test_expect_success REAL_FIXTURES 'the real netbenches files: errors only for what no kernel reads there (hw.ix.allow_unsupported_sfp, simple_tx in sysctl.conf); hw.ixl.flow_control unsettled' '
	R="$FIXTURES/os/real" &&
	mkdir -p nb1/boot nb2/boot nb1/etc &&
	cp "$R/loader.conf.local_netbenches_atom-c2758_ix-82599.txt" nb1/boot/loader.conf.local &&
	cp "$R/loader.conf.local_netbenches_ryzen7-8845hs_ixl-x710.txt" nb2/boot/loader.conf.local &&
	cp "$R/sysctl.conf_netbenches_atom-c2758_ix-82599.txt" nb1/etc/sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd nb1/boot/loader.conf.local >o1 &&
	ntune check --os freebsd nb2/boot/loader.conf.local >o2 &&
	test_expect_code 1 ntune check --os freebsd nb1/etc/sysctl.conf >o3 &&
	! grep -q "unknown" o1 &&
	grep -q "hw.ix.rx_process_limit. was removed in 12.0; use dev.ix.N.iflib.rx_budget" o1 &&
	grep -q "hw.em.rx_process_limit. has had no effect since 12.0 (still declared, CTLFLAG_RDTUN in sys/dev/e1000/if_em.c:[0-9]*, but read nowhere); use dev.em.N.iflib.rx_budget" o1 &&
	grep -q ":30: error: .hw.ix.allow_unsupported_sfp. does nothing: no FreeBSD kernel defines it" o1 &&
	grep -q ":20: note: .hw.ixl.flow_control.: unverified, .*which stock release has it is not settled here" o2 &&
	test "$(grep -c ": error:" o2)" = 0 &&
	grep -q ":13: error: .dev.ix.1.iflib.simple_tx. is a boot-time tunable" o3
'
test_expect_success 'a profile that does not parse exits 2 naming file and line' '
	printf "a=1\nfoo=\"bar\n" >bad.conf && test_expect_code 2 ntune check bad.conf >out 2>err &&
	grep -q "^bad.conf:2: error: unterminated quote in value of .foo.$" out
'
test_expect_success 'a missing profile exits 2' 'test_expect_code 2 ntune check nonexistent.conf 2>/dev/null'
test_expect_success 'a bad --os exits 2' 'test_expect_code 2 ntune check --os plan9 l.conf 2>/dev/null'
test_done
