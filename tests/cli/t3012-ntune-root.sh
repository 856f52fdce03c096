#!/bin/sh
# NTUNE_ROOT: every command that looks at this machine reads the captured tree under it
# (os_open_target), not the running system: check and advise as inspect does, and
# `diff current`. The tree is the linux-vm capture with values no live machine has.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a captured tree with its own kernel, backlog and boot file' '
	cp -r "$FIXTURES/os/linux-vm" root &&
	echo 9.9.9-ntune-root >root/proc/sys/kernel/osrelease &&
	echo 4242 >root/proc/sys/net/core/netdev_max_backlog &&
	mkdir -p root/etc/sysctl.d &&
	printf "net.core.netdev_max_backlog = 1000\n" >root/etc/sysctl.d/99-root-test.conf
'
test_expect_success 'inspect reads the kernel release of the tree' '
	NTUNE_ROOT=$PWD/root ntune inspect --json >i.json &&
	grep -q "9.9.9-ntune-root" i.json
'
test_expect_success 'advise reads the kernel release of the tree' '
	NTUNE_ROOT=$PWD/root ntune advise --json >a.json &&
	python3 -c "import json; d=json.load(open(\"a.json\")); assert d[\"version\"]==\"9.9.9-ntune-root\", d[\"version\"]"
'
test_expect_success 'check warns about a boot file of the tree, not of this machine' '
	printf "net.core.netdev_max_backlog=5000\n" >p.conf &&
	NTUNE_ROOT=$PWD/root ntune check --os linux p.conf >out 2>&1 && cat out &&
	grep -q "p.conf:1: warning: .*99-root-test.conf" out
'
test_expect_success 'diff current compares with the values of the tree' '
	test_expect_code 1 env NTUNE_ROOT="$PWD/root" "$NTUNE" diff current p.conf >out 2>err &&
	cat out && grep -q "^net.core.netdev_max_backlog  *4242  |  5000$" out
'
test_done
