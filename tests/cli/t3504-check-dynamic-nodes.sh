#!/bin/sh
# check on per-device and run-time nodes (issue 36): a dev.DRIVER.N.* leaf is judged only by
# that driver's own source, never another driver's; a node the source still creates at attach
# or run time (under a name it computes) is not "gone"; a Linux per-interface name the kernel's
# table (devinet.c) lacks is named as the global knob, and a read-only one (mode 0444) is
# read-only by its source, never "a module not loaded".
. "$(dirname "$0")/lib.sh"

test_expect_success 'dev.em.0.fc in a file tagged 10.4: no version claim from sys/dev/liquidio' '
	printf "# \$FreeBSD: releng/10.4/etc/sysctl.conf 1 \$\ndev.em.0.fc=0\ndev.igb.1.fc=0\n" >em.conf &&
	ntune check --os freebsd em.conf >out 2>err && cat out err &&
	! grep -q "liquidio" out && ! grep -q "not in the FreeBSD 10.4 source" out &&
	grep -q "0 errors, 0 warnings" err
'
test_expect_success 'a per-device leaf the catalogue has only as a generic node of some file is not checked, and says so without calling that file another driver' '
	printf "dev.em.0.coalesce.rx-usecs=10\ndev.lio.0.coalesce.rx-usecs=10\ndev.cpu.0.cx_lowest=C1\n" >lio.conf &&
	ntune check --os freebsd lio.conf >out 2>err && cat out &&
	grep -q "^lio.conf:1: note: .dev.em.0.coalesce.rx-usecs.: the catalogue has this leaf only as a per-device node of sys/dev/liquidio/lio_sysctl.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07, which it does not tie to the driver .em.; not checked$" out &&
	grep -q "^lio.conf:3: note: .dev.cpu.0.cx_lowest.: the catalogue has this leaf only as a per-device node of sys/dev/acpica/acpi_cpu.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07, which it does not tie to the driver .cpu.; not checked$" out &&
	! grep -q "another driver" out && ! grep -q "^lio.conf:2:" out
'
test_expect_success 'a leaf only a row of any name matches (aw_sid.c dev.%s.%d.*) is not known; a dev. node is never said to be of a port' '
	printf "dev.bce.0.rx_ticks=0\n" >bce.conf &&
	ntune check --os freebsd --target sysctl bce.conf >out 2>err && cat out &&
	grep -q "^bce.conf:1: note: .dev.bce.0.rx_ticks. is not known: the catalogue has no leaf of that name under dev.bce.N (the kernel makes dev.DRIVER.N for each device" out &&
	! grep -q "aw_sid" out && ! grep -q "ports" out
'
test_expect_success 'hw.psm.synaptics.two_finger_scroll: psm still creates it at attach (hw.psm.*.two_finger_scroll), not gone' '
	printf "hw.psm.synaptics.two_finger_scroll=1\n" >psm.conf &&
	ntune check --os freebsd psm.conf >out 2>err && cat out &&
	! grep -q "gone" out && grep -q "0 errors, 0 warnings, 0 notes" err
'
test_expect_success 'net.ipv4.conf.all.igmp_link_local_mcast_reports: not per interface, the global knob named with its file' '
	printf "net.ipv4.conf.all.igmp_link_local_mcast_reports=0\nnet.ipv4.igmp_link_local_mcast_reports=0\n" >igmp.conf &&
	test_expect_code 1 ntune check --os linux igmp.conf >out 2>err && cat out &&
	grep -q "^igmp.conf:1: error: .net.ipv4.conf.all.igmp_link_local_mcast_reports. does not exist: no kernel the catalogue read (Linux 3.0 to 6.12 sources) has .igmp_link_local_mcast_reports. per interface (its table, net/ipv4/devinet.c, has no such entry.*the knob is net.ipv4.igmp_link_local_mcast_reports (net/ipv4/sysctl_net_ipv4.c:[0-9]*, Linux 6.12)" out &&
	! grep -q "module not loaded" out && ! grep -q "^igmp.conf:2:" out
'
test_expect_success 'net.ipv6.conf.all.mc_forwarding is read-only by its source, whatever this machine has' '
	printf "net.ipv6.conf.all.mc_forwarding=1\n" >mc.conf &&
	test_expect_code 1 ntune check --os linux mc.conf >out 2>err && cat out &&
	grep -q "^mc.conf:1: error: .net.ipv6.conf.all.mc_forwarding. is read-only (mode 0444, net/ipv6/addrconf.c:[0-9]*, Linux 6.12)" out &&
	! grep -q "module not loaded" out
'
test_expect_success 'a mode the code changes at boot is not read as the mode (kernel.nmi_watchdog: 0444 in its 6.12 table, 0644 where the detector exists)' '
	printf "kernel.nmi_watchdog=0\nvm.mem_profiling=0\n" >nmi.conf &&
	ntune check --os linux nmi.conf >out 2>err && cat out &&
	! grep -q "read-only" out
'
test_done
