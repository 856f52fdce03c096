#!/bin/sh
# check --from SNAPSHOT warns where a file the OS re-applies at boot sets the same knob
# to another value (tuned's most common complaint: the sysctl.d fight).
. "$(dirname "$0")/lib.sh"

test_expect_success 'snapshot records sysctl.d and sysctl.conf files of the machine' '
	cp -r "$FIXTURES/os/linux-vm" root &&
	mkdir -p root/etc/sysctl.d &&
	printf "net.core.netdev_max_backlog = 1000\n" >root/etc/sysctl.d/99-local.conf &&
	printf "# nothing\n" >root/etc/sysctl.conf &&
	NTUNE_ROOT=$PWD/root ntune snapshot -o snap.json &&
	python3 -c "import json; d=json.load(open(\"snap.json\")); p=[f[\"path\"] for f in d[\"boot_files\"]]; assert p==[\"/etc/sysctl.d/99-local.conf\",\"/etc/sysctl.conf\"], p"
'
test_expect_success 'check --from the snapshot warns about the conflicting boot file' '
	printf "net.core.netdev_max_backlog=5000\n" >p.conf &&
	ntune check p.conf --from snap.json >out 2>&1 && cat out &&
	grep -q "p.conf:1: warning: .*99-local.conf" out
'
test_expect_success 'the same value in a boot file is not a conflict' '
	printf "net.core.netdev_max_backlog=1000\n" >same.conf &&
	ntune check same.conf --from snap.json >out 2>&1 && cat out &&
	! grep -q "99-local.conf" out
'
test_done
