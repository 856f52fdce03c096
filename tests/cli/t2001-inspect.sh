#!/bin/sh
# ntune inspect and ntune snapshot: live, from a JSON snapshot, from pasted FreeBSD text.
. "$(dirname "$0")/lib.sh"
OS="$FIXTURES/os"

test_expect_success 'inspect prints the system, CPU, NICs and tunables of this machine' '
	ntune inspect >out 2>err &&
	grep -q "^System" out && grep -q "^CPU" out && grep -q "^NICs" out &&
	grep -q "^Tunables" out &&
	grep -q "os           Linux" out &&
	grep -Eq "topology +[0-9-]+ packages, [0-9]+ cores, [0-9]+ threads, SMT (on|off)" out &&
	grep -Eq "^  net\.core\.netdev_budget +runtime +[0-9]+" out
'
test_expect_success 'inspect --json is the documented schema, version 1' '
	ntune inspect --json >out.json &&
	grep -q "\"schema\": \"ntune-inspect\"" out.json &&
	grep -q "\"version\": 1" out.json &&
	grep -q "\"nics\": \[" out.json && grep -q "\"tunables\": \[" out.json &&
	grep -q "\"errors\": \[\]" out.json
'
test_expect_success 'inspect --from a snapshot prints exactly what inspect printed' '
	ntune snapshot -o snap.json &&
	ntune inspect >live.txt &&
	ntune inspect --from snap.json >from.txt &&
	diff -u live.txt from.txt
'
test_expect_success 'a snapshot holds the net. and vm. sysctls and the raw counters' '
	ntune snapshot >snap.json &&
	grep -q "\"net.core.somaxconn\":" snap.json &&
	grep -q "\"vm.swappiness\":" snap.json &&
	grep -q "\"cpu_times\":" snap.json && grep -q "\"irqs\":" snap.json &&
	grep -q "\"if_counters\":" snap.json
'
test_expect_success 'the seed 000 DEC750 dumps: 8 threads, SMT on, ax queues and their CPUs, CPU load' '
	ntune inspect --from "$OS/seed000-dec750/sysctl-a.txt" \
	    --from "$OS/seed000-dec750/vmstat-i.txt" --from "$OS/seed000-dec750/ifconfig-a.txt" \
	    --from "$OS/seed000-dec750/pciconf-lv.txt" --from "$OS/seed000-dec750/top-P.txt" \
	    --from "$OS/seed000-dec750/cpuset-irq.txt" >out &&
	test_cmp_golden inspect-seed000.txt out
'
test_expect_success 'a real top -P capture: the last snapshot per CPU, interrupt % included, in text and JSON' '
	top="$OS/real/top-P_freebsd14.3_4cpu_3snapshots.txt" &&
	ntune inspect --from "$top" >out &&
	grep -A5 "^CPU load (top -P)$" out >load &&
	test "$(grep -c "^  CPU [0-9]" load)" = 4 &&
	grep -q "^  CPU 0 *0.4% user *0.0% nice *1.6% system *0.0% interrupt *98.0% idle$" load &&
	grep -q "^  CPU 3 *0.0% user *0.0% nice *0.4% system *0.0% interrupt *99.6% idle$" load &&
	ntune inspect --json --from "$top" >load.json &&
	python3 -c "import json; l=json.load(open(\"load.json\"))[\"cpu_load\"]; assert len(l)==4 and l[0]==dict(user=0.4,nice=0.0,system=1.6,interrupt=0.0,idle=98.0), l"
'
test_expect_success 'seed 000 evidence (top -P after tuning): interrupt load on all 8 CPUs, and a snapshot keeps it' '
	ntune inspect --json --from "$OS/seed000-dec750/top-P.txt" >s0.json &&
	python3 -c "import json; l=json.load(open(\"s0.json\"))[\"cpu_load\"]; assert [c[\"interrupt\"] for c in l]==[67.5,43.9,21.2,29.0,53.3,87.8,54.1,73.7], l" &&
	ntune snapshot --from "$OS/seed000-dec750/top-P.txt" -o s0snap.json &&
	ntune inspect --from s0snap.json >s0.txt &&
	grep -q "^  CPU 5 *5.9% user *0.0% nice *3.9% system *87.8% interrupt *2.4% idle$" s0.txt
'
test_expect_success 'a missing or empty knowledge base is an error naming its directory, exit 2' '
	mkdir -p empty-share/knobs &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/empty-share" "$NTUNE" inspect --from "$OS/seed000-dec750/top-P.txt" >out 2>err &&
	grep -q "^ntune inspect: the knowledge base in .$PWD/empty-share/knobs. holds no knobs" err &&
	! test -s out &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/no-share" "$NTUNE" snapshot -o s.json 2>err &&
	grep -q "^ntune snapshot: cannot read the knowledge base in .$PWD/no-share/knobs." err &&
	! test -e s.json
'
test_expect_success 'the seed 001 Xeon dumps: X540 by PCI id, hw.ix limits' '
	ntune inspect --from "$OS/seed001-xeon-ix/sysctl-a.txt" \
	    --from "$OS/seed001-xeon-ix/pciconf-lv.txt" --from "$OS/seed001-xeon-ix/vmstat-i.txt" >out &&
	grep -q "Intel Corporation Ethernet Controller 10-Gigabit X540-AT2 8086:1528" out &&
	grep -Eq "^  hw.ix.rx_process_limit +loader +256" out &&
	grep -Eq "^    0 +rxtx +264 " out
'
test_expect_success 'every real FreeBSD output given together is read' '
	set -- &&
	for f in "$OS"/real/pciconf-* "$OS"/real/vmstat-i_freebsd14* "$OS"/real/netstat-* \
	    "$OS"/real/top-P_* "$OS"/real/sysctl-kern.smp*; do set -- "$@" --from "$f"; done &&
	ntune inspect "$@" >out 2>err &&
	grep -q "igc1" out && grep -q "mlx5" out && ! test -s err
'
test_expect_success 'inspect --from a snapshot of FreeBSD text round-trips' '
	ntune snapshot --from "$OS/seed000-dec750/sysctl-a.txt" --from "$OS/seed000-dec750/vmstat-i.txt" -o fb.json &&
	ntune inspect --from "$OS/seed000-dec750/sysctl-a.txt" --from "$OS/seed000-dec750/vmstat-i.txt" >a.txt &&
	ntune inspect --from fb.json >b.txt &&
	diff -u a.txt b.txt
'
test_expect_success 'a dump cut short: the rest is printed, the cut is named, exit 1' '
	test_expect_code 1 ntune inspect --from "$OS/real/vmstat-i_freebsd13-14_8cpu_igb-em_partial.txt" >out 2>err &&
	grep -q "igb0:rxq3" out &&
	grep -q "vmstat-i_freebsd13-14_8cpu_igb-em_partial.txt:27: vmstat -i line cut short" err
'
test_expect_success 'a loader.conf given to inspect is named as a profile, exit 1' '
	test_expect_code 1 ntune inspect --from "$OS/real/loader.conf.local_netbenches_atom-c2758_ix-82599.txt" >out 2>err &&
	grep -q "a loader.conf/sysctl.conf profile" err
'
test_expect_success 'a /proc file missing: the rest is printed, what is missing is named, exit 1' '
	cp -R "$OS/linux-vm" tree && rm tree/proc/interrupts &&
	test_expect_code 1 env NTUNE_ROOT="$PWD/tree" "$NTUNE" inspect >out 2>err &&

	grep -q "^  eth0$" out && grep -q "virtio_net" out &&
	grep -q "NIC .eth0.: cannot read its queue interrupts (./proc/interrupts.): No such file or directory" err
'
test_expect_success 'a captured tree reads like the live machine it came from' '
	NTUNE_ROOT="$OS/linux-vm" ntune inspect >out &&
	grep -q "0     rx    38 " out && grep -q "virtio2-input.0" out
'
test_expect_success 'a missing --from file is an input error naming the file' '
	test_expect_code 2 ntune inspect --from /nonexistent/dump.txt 2>err && grep -q "/nonexistent/dump.txt" err
'
test_expect_success 'a broken JSON snapshot is refused with file and line' '
	printf "{\n\"schema\": \"ntune-inspect\",\n\"version\": 1,\n x\n" >bad.json &&
	test_expect_code 2 ntune inspect --from bad.json 2>err && grep -q "bad.json:4: invalid JSON" err
'
test_expect_success 'snapshot to an unwritable place exits 2 and leaves nothing' '
	test_expect_code 2 ntune snapshot -o /nonexistent/dir/s.json 2>err && grep -q "/nonexistent/dir" err && ! test -e /nonexistent/dir/s.json
'
test_expect_success 'inspect refuses stray arguments' '
	test_expect_code 2 ntune inspect extra 2>/dev/null
'
test_expect_success 'inspect --json writes a pasted percentage as it was pasted (87.8, not 87.799999999999997)' '
	ntune inspect --json --from "$SRCDIR/tests/fixtures/diagnose/real-top-P_opnsense_dec750_seed000.txt" >out &&
	grep "\"interrupt\": 87.8,$" out &&
	! grep "99999999" out
'
test_done
