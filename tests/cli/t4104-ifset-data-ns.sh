#!/bin/sh
# A NIC setting added from data alone (doc/interfaces.md, "Adding a NIC setting"): one
# line in a copy of share/knobs/if.settings and one stanza in its linux/if.knob make
# if.<ifname>.group (the netdev_group attribute of Linux net/core/net-sysfs.c, read by
# anyone, written with CAP_NET_ADMIN) a setting that verify reads, export prints, and,
# as root, apply sets in a namespace this test makes and revert restores. A broken line
# stops every command with its file and line (exit 2).
# test-set: check
. "$(dirname "$0")/lib.sh"

test_prereq_NETDEV_GROUP() { test -r /sys/class/net/lo/netdev_group; }

test_expect_success 'setup: a copy of share/ with one more line and one more stanza' '
	cp -R "$SRCDIR/share" myshare &&
	echo "group count sysfs:netdev_group - ip link set dev '\''%i'\'' group %v" \
	    >>myshare/knobs/if.settings &&
	cat >>myshare/knobs/linux/if.knob <<-\EOF &&

	name:      if.%s.group
	os:        linux
	placement: sysfs
	type:      int
	range:     0..
	default:   0
	scope:     netns
	effect:    the interface group (ip link set dev IF group N).
	risk:      low
	source:    net/core/net-sysfs.c (netdev_group)
	EOF
	! grep -q "sysfs:netdev_group" "$SRCDIR/share/knobs/if.settings"
'
test_expect_success NETDEV_GROUP 'verify reads the new setting from its line; without the line it is unknown' '
	g=$(cat /sys/class/net/lo/netdev_group) &&
	echo "if.lo.group=$g" >g.conf &&
	test_expect_code 1 ntune verify g.conf >out 2>err &&
	grep -q "^g.conf:1: if.lo.group: wanted $g, actual unreadable: unknown interface setting .if.lo.group.$" out &&
	NTUNE_SHARE="$PWD/myshare" ntune verify g.conf >out 2>err &&
	grep -q "^g.conf: 0 of 1 settings differ: the system matches$" err &&
	echo "if.lo.group=$((g + 7))" >g7.conf &&
	test_expect_code 1 env NTUNE_SHARE="$PWD/myshare" "$NTUNE" verify g7.conf >out 2>err &&
	grep -q "^g7.conf:1: if.lo.group: wanted $((g + 7)), actual $g$" out
'
test_expect_success 'check knows it from the stanza, export prints the line'\''s sh command' '
	echo "if.eth0.group=3" >e.conf &&
	NTUNE_SHARE="$PWD/myshare" ntune check e.conf 2>err &&
	! grep -q "unknown knob" err &&
	NTUNE_SHARE="$PWD/myshare" ntune export --format sh e.conf >out &&
	grep -q "^try ip link set dev .eth0. group .3.$" out &&
	ntune export --format sh --force e.conf >out 2>err &&
	! grep -q "group .3." out
'
test_expect_success 'a broken line stops every command naming the file and line, exit 2' '
	cp -R myshare badshare &&
	echo "speed count sysfs-attr:speed - -" >>badshare/knobs/if.settings &&
	n=$(wc -l <badshare/knobs/if.settings) &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/badshare" "$NTUNE" check e.conf >out 2>err &&
	grep -q "^ntune check: $PWD/badshare/knobs/if.settings:$n: unknown linux method .sysfs-attr." err &&
	! test -s out &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/badshare" "$NTUNE" verify g.conf 2>err &&
	grep -q "^ntune verify: .*/if.settings:$n: unknown linux method" err
'
test_expect_success 'a missing file fails only what names an if.* setting' '
	cp -R myshare noshare && rm noshare/knobs/if.settings &&
	echo "net.ipv4.ip_default_ttl=64" >ttl.conf &&
	NTUNE_SHARE="$PWD/noshare" ntune check ttl.conf 2>err &&
	test_expect_code 1 env NTUNE_SHARE="$PWD/noshare" "$NTUNE" verify e.conf >out 2>err &&
	grep -q "actual unreadable: cannot open .$PWD/noshare/knobs/if.settings.: No such file" out &&
	test_expect_code 2 env NTUNE_SHARE="$PWD/noshare" "$NTUNE" export --format sh e.conf >out 2>err &&
	grep -q "^ntune export: cannot open .$PWD/noshare/knobs/if.settings." err
'

if test_have_prereq ROOT,IP; then
	NS=$(test_unique)
	if ip netns add "$NS"; then
		test_at_exit "ip netns del $NS 2>/dev/null"
		ip -n "$NS" link add v0 type veth peer name v1 && test_set_prereq VETH
	fi
fi
export NTUNE_STATE_DIR="$TRASH/state"
inns() { ip netns exec "$NS" "$@"; }

test_expect_success ROOT,IP,VETH 'apply --netns sets the new setting, revert restores it' '
	g0=$(inns cat /sys/class/net/v0/netdev_group) &&
	echo "if.v0.group=$((g0 + 5))" >v.conf &&
	NTUNE_SHARE="$PWD/myshare" ntune apply --netns "$NS" --no-persist v.conf >out &&
	grep -q "^applied .*: 1 of 1 settings changed" out &&
	test "$(inns cat /sys/class/net/v0/netdev_group)" = $((g0 + 5)) &&
	ip -n "$NS" -d link show v0 | grep -q " group $((g0 + 5)) " &&
	NTUNE_SHARE="$PWD/myshare" ntune verify --netns "$NS" v.conf 2>err &&
	grep -q "0 of 1 settings differ" err &&
	NTUNE_SHARE="$PWD/myshare" ntune revert >/dev/null &&
	test "$(inns cat /sys/class/net/v0/netdev_group)" = "$g0"
'
test_done
