#!/bin/sh
# ntune export: loader, sysctl, sysctl.d, opnsense, pfsense, sh, ansible.
. "$(dirname "$0")/lib.sh"
SEED0="$SRCDIR/share/profiles/seed-000-opnsense-dec750.conf"

test_expect_success 'loader and sysctl formats split seed 000 by placement' '
	ntune export "$SEED0" --format loader >loader.conf 2>err &&
	grep -q "^net.isr.maxthreads=\"-1\"$" loader.conf &&
	grep -q "^net.inet.rss.bits=\"3\"$" loader.conf &&
	! grep -q "kern.ipc.maxsockbuf" loader.conf &&
	grep -q "seed-000-opnsense-dec750.conf:9: .kern.ipc.maxsockbuf. does not belong in loader" err &&
	ntune export "$SEED0" --format sysctl >sysctl.conf 2>/dev/null &&
	grep -q "^kern.ipc.maxsockbuf=16777216$" sysctl.conf &&
	! grep -q "net.isr.maxthreads" sysctl.conf &&
	ntune check --os freebsd --target loader loader.conf 2>/dev/null | grep -v "rss.enabled" | { ! grep -q ": error:"; } &&
	ntune check --os freebsd sysctl.conf 2>/dev/null | { ! grep -q ": error:"; }
'
test_expect_success 'opnsense format is config.xml items that read back the same' '
	ntune export "$SEED0" --format opnsense >config.xml &&
	grep -q "^<sysctl version=\"1.0.2\">$" config.xml &&
	grep -q "<tunable>net.isr.dispatch</tunable>" config.xml &&
	grep -q "<value>deferred</value>" config.xml &&
	ntune diff "$SEED0" config.xml
'
test_expect_success 'pfsense format keeps boot-time tunables out of System Tunables (the OPNsense-only knob needs --force)' '
	test_expect_code 1 ntune export "$SEED0" --format pfsense --os pfsense >pf.xml 2>err &&
	grep -q "net.inet.rss.enabled. exists only on opnsense kernels" err &&
	ntune export "$SEED0" --format pfsense --os pfsense --force >pf.xml 2>/dev/null &&
	grep -q "<tunable>kern.ipc.maxsockbuf</tunable>" pf.xml &&
	grep -q "<!-- boot-time tunable: put net.isr.maxthreads=\"-1\" in /boot/loader.conf.local -->" pf.xml
'
test_expect_success 'sysctl.d format for a Linux profile' '
	printf "net.ipv4.ip_forward=1\nnet.ipv4.tcp_rmem=4096 131072 16777216\nif.eth0.ring.rx=4096\n" >l.conf &&
	ntune export l.conf --format sysctl.d >90.conf 2>err &&
	grep -q "^net.ipv4.tcp_rmem = 4096 131072 16777216$" 90.conf &&
	grep -q "if.eth0.ring.rx. does not belong in sysctl.d" err
'
test_expect_success 'sh format is a valid script with sysctl and ethtool commands' '
	printf "net.ipv4.ip_forward=1\nif.eth0.ring.rx=4096\nif.eth0.offload.gro=off\nif.eth0.rps_cpus=f\n" >s.conf &&
	ntune export s.conf --format sh >s.sh &&
	sh -n s.sh &&
	grep -q "^try sysctl -w .net.ipv4.ip_forward=1.$" s.sh &&
	grep -q "^try ethtool -G .eth0. rx .4096.$" s.sh &&
	grep -q "^try ethtool -K .eth0. gro off$" s.sh
'
test_expect_success 'ansible format is a playbook of ansible.posix.sysctl and lineinfile tasks' '
	ntune export "$SEED0" --format ansible >play.yml &&
	grep -q "^  tasks:$" play.yml &&
	grep -q "^      ansible.posix.sysctl:$" play.yml &&
	grep -q "^      ansible.builtin.lineinfile:$" play.yml &&
	grep -q "^        line: .net.isr.maxthreads=\"-1\".$" play.yml &&
	{ ! python3 -c "import yaml" 2>/dev/null ||
	  python3 -c "import yaml; p=yaml.safe_load(open(\"play.yml\")); assert len(p[0][\"tasks\"])==13"; }
'
test_expect_success 'a bad --format exits 2' 'test_expect_code 2 ntune export "$SEED0" --format toml 2>/dev/null'
test_done
