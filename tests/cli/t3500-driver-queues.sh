#!/bin/sh
# Queue counts advised per FreeBSD iflib driver, against the figure read at source
# (share/knobs/drivers/freebsd.drivers, FreeBSD 14.0-CURRENT tree of share/catalog): where the
# driver's constant limits the count, advise proposes min(CPUs, that figure); where the
# hardware sets the count at attach, it proposes nothing above the running count and says why.
. "$(dirname "$0")/lib.sh"
SEED0="$SRCDIR/tests/fixtures/os/seed000-dec750"
DRIVERS="$SRCDIR/share/knobs/drivers/freebsd.drivers"

# The DEC750 dump (two ax ports, 4 queues each) as a box of 128 CPUs with driver $1's ports
# running 2 queues each.
box() {
	sed "s/^hw.ncpu: 8/hw.ncpu: 128/; s/^kern.smp.cpus: 8/kern.smp.cpus: 128/; s/^kern.smp.maxid: 7/kern.smp.maxid: 127/; /^kern.sched.topology_spec/,/^<\/groups>/d; /iflib\.[rt]xq[23]\./d; s/dev\.ax\./dev.$1./g; s/%driver: ax/%driver: $1/" "$SEED0/sysctl-a.txt"
}

# driver, the figure, where the source says it (must be in the driver's queues-source)
while read -r drv max where; do
	test_expect_success "$drv: advise proposes $max queues, the figure at $where" "
		box $drv >$drv.txt &&
		grep -q \"^dev.$drv.0.iflib.override_nrxqs: 0\" $drv.txt &&
		ntune advise --from $drv.txt >$drv.conf &&
		grep -q \"^dev.$drv.0.iflib.override_nrxqs=$max\$\" $drv.conf &&
		grep -q \"^dev.$drv.0.iflib.override_ntxqs=$max\$\" $drv.conf &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep -q \"^max-queues: *$max\$\" &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep \"^queues-source:\" | grep -q \"$where\"
	"
done <<'TABLE'
ix 16 sys/dev/ixgbe/if_ix.c:999 isc_nrxqsets_max = 64 for X550, X550EM_x, X550EM_a, :1003 16
ixl 64 sys/dev/ixl/if_ixl.c:419 isc_nrxqsets_max = 128 on X722, :421 64
igc 4 sys/dev/igc/if_igc.c:437 igc_set_num_queues: maxqueues = 4
vmx 8 VMXNET3_MAX_TX_QUEUES 8
TABLE

# driver (its ports' device name), where the source says the hardware sets the count
while read -r drv dev where; do
	test_expect_success "$dev ($drv): no queue count above the 2 running, because of $where" "
		box $dev >$dev.txt &&
		ntune advise --from $dev.txt >$dev.conf &&
		! grep -q \"^dev.$dev.0.iflib.override_n[rt]xqs=\" $dev.conf &&
		grep \"^#   dev.$dev.0.iflib.override_nrxqs: no more rx queues than the 2 ${dev}0 runs: its driver sets the count from the hardware at attach\" $dev.conf |
			grep -q \"$where\" &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep -q \"^queues: *hardware\$\"
	"
done <<'TABLE'
ax ax if_axgbe_pci.c:645-647 axgbe_set_counts
em em if_em.c:737-763 em_set_num_queues
em igb if_em.c:737-763 em_set_num_queues
ixv ixv if_ixv.c:487 isc_nrxqsets_max = 2
iavf iavf if_iavf_iflib.c:359-360 isc_nrxqsets_max = vsi_res->num_queue_pairs
ice ice if_ice_iflib.c:372-373 isc_nrxqsets_max = the function's num_rxq
bnxt bnxt if_bnxt.c:844-851 isc_nrxqsets_max = min(MSI-X vectors - 1
TABLE

# Drivers outside iflib whose hardware fixes the count: the figure read at source, and advise
# proposes no queue or channel count for their ports (driver, ports, the figure's place)
while read -r drv dev where; do
	test_expect_success "$dev ($drv, not iflib): no queue count proposed; the count is the hardware's ($where)" "
		box $dev >$dev.txt &&
		ntune advise --from $dev.txt >$dev.conf &&
		! grep -Eq \"^dev.$dev.[0-9]+.(iflib.override_n[rt]xqs|conf.channels)=\" $dev.conf &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep -q \"^queues: *hardware\$\" &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep -q \"^iflib: *no\$\" &&
		awk '/^driver: *$drv\$/,/^\$/' \"$DRIVERS\" | grep \"^queues-source:\" | grep -q \"$where\"
	"
done <<'TABLE'
mlx5 mce mlx5_main.c:309-336 mlx5_enable_msix
mlx4 mlxen mlx4_en_rx.c:328-337 mlx4_en_set_num_rx_rings
re re if_re.c:1287-1298 re_attach asks for RL_MSI_MESSAGES vectors, 1
TABLE

test_expect_success 'an iflib driver whose queue facts were not read: no count, "unverified: one-boot trial only"' '
	box ax >ax.txt &&
	mkdir -p share/knobs/drivers && cp -R "$SRCDIR/share/." share/ &&
	awk "/^driver: *ax\$/{skip=1} skip && /^(queues|max-queues|queues-source):/{next} /^\$/{skip=0} {print}" "$DRIVERS" >share/knobs/drivers/freebsd.drivers &&
	! grep -A12 "^driver: *ax$" share/knobs/drivers/freebsd.drivers | grep -q "^queues" &&
	NTUNE_SHARE="$PWD/share" ntune advise --from ax.txt >u.conf &&
	! grep -q "^dev.ax.0.iflib.override_n[rt]xqs=" u.conf &&
	grep -q "^#   dev.ax.0.iflib.override_nrxqs: unverified: one-boot trial only" u.conf
'

test_expect_success 'doctor on the seed DEC750 proposes no override_nrxqs/ntxqs above 4 for ax0/ax1 and says why' '
	test_expect_code 1 ntune doctor --from "$SRCDIR/tests/fixtures/doctor/seed000" >doc.txt &&
	! grep -E "override_n[rt]xqs=([5-9]|[1-9][0-9])" doc.txt &&
	grep -q "^   not proposed: dev.ax.0.iflib.override_nrxqs: no more rx queues than the 4 ax0 runs" doc.txt &&
	test_expect_code 1 ntune doctor --json --from "$SRCDIR/tests/fixtures/doctor/seed000" >doc.json &&
	! grep -E "override_n[rt]xqs.*\"(8|16)\"" doc.json &&
	test_expect_code 1 ntune doctor -o out --from "$SRCDIR/tests/fixtures/doctor/seed000" >/dev/null &&
	grep -q "not-proposed" out/doctor.html &&
	! grep -rE "override_n[rt]xqs=([5-9]|[1-9][0-9])" out/proposed.conf out/profiles out/doctor.html
'

test_done
