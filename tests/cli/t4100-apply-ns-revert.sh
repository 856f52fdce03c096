#!/bin/sh
# ntune apply/verify/diff/revert of real net.* sysctls and if.* settings inside a namespace this test makes.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
NS=$(test_unique)
ip netns add "$NS" || test_skip_all 'ip netns add failed'
test_at_exit "ip netns del $NS 2>/dev/null"
ip -n "$NS" link add v0 type veth peer name v1 && ip -n "$NS" link set v0 up
export NTUNE_STATE_DIR="$TRASH/state"
inns() { ip netns exec "$NS" "$@"; }
sysv() { inns cat "/proc/sys/$(echo "$1" | tr . /)"; }
FWD0=$(sysv net.ipv4.ip_forward)
TTL0=$(sysv net.ipv4.ip_default_ttl)
QLEN0=$(inns cat /sys/class/net/v0/tx_queue_len)
RPS0=$(inns cat /sys/class/net/v0/queues/rx-0/rps_cpus)
HOSTFWD=$(cat /proc/sys/net/ipv4/ip_forward)
cat >"$TRASH/p.conf" <<EOF2
net.ipv4.ip_forward=1
net.ipv4.ip_default_ttl=77
if.v0.txqueuelen=4321
if.v0.rps_cpus=1
EOF2
cat >"$TRASH/orig.conf" <<EOF2
net.ipv4.ip_forward=$FWD0
net.ipv4.ip_default_ttl=$TTL0
if.v0.txqueuelen=$QLEN0
if.v0.rps_cpus=$RPS0
EOF2
original() {
	test "$(sysv net.ipv4.ip_forward)" = "$FWD0" && test "$(sysv net.ipv4.ip_default_ttl)" = "$TTL0" &&
	test "$(inns cat /sys/class/net/v0/tx_queue_len)" = "$QLEN0" &&
	test "$(inns cat /sys/class/net/v0/queues/rx-0/rps_cpus)" = "$RPS0" &&
	test "$(cat /proc/sys/net/ipv4/ip_forward)" = "$HOSTFWD"
}

test_expect_success 'apply --netns sets net.* and if.* inside the namespace, not on the host' '
	ntune apply --netns "$NS" --no-persist p.conf >out && cat out &&
	grep -q "^applied .*: 4 of 4 settings changed" out &&
	test "$(sysv net.ipv4.ip_forward)" = 1 && test "$(sysv net.ipv4.ip_default_ttl)" = 77 &&
	test "$(inns cat /sys/class/net/v0/tx_queue_len)" = 4321 &&
	test "$(cat /proc/sys/net/ipv4/ip_forward)" = "$HOSTFWD"
'
test_expect_success 'verify --netns finds the system matching the profile' '
	ntune verify --netns "$NS" p.conf 2>err && grep -q "0 of 4 settings differ" err
'
test_expect_success 'verify lists each differing knob with wanted and actual values' '
	test_expect_code 1 ntune verify --netns "$NS" orig.conf >out 2>err && cat out &&
	grep -q "^orig.conf:2: net.ipv4.ip_default_ttl: wanted $TTL0, actual 77$" out &&
	grep -q "4 of 4 settings differ" err
'
test_expect_success 'verify --json reports each knob' '
	test_expect_code 1 ntune verify --netns "$NS" --json orig.conf >v.json &&
	python3 -c "import json; d=json.load(open(\"v.json\")); assert d[\"differ\"]==4; k=d[\"knobs\"][1]; assert (k[\"wanted\"],k[\"actual\"],k[\"match\"])==(\"$TTL0\",\"77\",False)"
'
test_expect_success 'diff of the profile against the namespace state shows nothing but the changes' '
	test_expect_code 1 inns "$NTUNE" diff orig.conf current >out 2>err && cat out &&
	grep -q "^net.ipv4.ip_default_ttl  *$TTL0  |  77$" out && grep -q "4 of 4 knobs differ" err
'
test_expect_success 'revert restores every value exactly' '
	ntune revert >out && grep -q "^reverted " out && original &&
	ntune verify --netns "$NS" orig.conf 2>/dev/null
'
test_expect_success 'a failing write restores the ones written before it and names the knob' '
	printf "if.v0.txqueuelen=99\nnet.ipv4.ip_forward=1\nnet.ipv4.ip_default_ttl=999\n" >bad.conf &&
	test_expect_code 1 ntune apply --netns "$NS" --no-persist bad.conf 2>err && cat err &&
	grep -q "a set failed; everything restored: " err &&
	grep -q "cannot set net.ipv4.ip_default_ttl; everything restored" err &&
	original && ntune history | grep -q " failed "
'
test_expect_success 'inside a namespace apply persists to sysctl.d under --root and revert restores it' '
	inns "$NTUNE" apply --root "$TRASH/root" p.conf >out && cat out &&
	grep -q "persisted in $TRASH/root/etc/sysctl.d/90-ntune.conf" out &&
	grep -q "^net.ipv4.ip_default_ttl *= *77$" root/etc/sysctl.d/90-ntune.conf &&
	grep -q "^not persisted (runtime only): if.v0.txqueuelen if.v0.rps_cpus$" out &&
	inns "$NTUNE" revert >/dev/null && original && test ! -e root/etc/sysctl.d/90-ntune.conf
'
test_expect_success 'a profile with lint errors is refused before anything changes' '
	printf "net.ipv4.ip_default_ttl=55\nnet.ipv4.ip_forwrd=1\n" >typo.conf &&
	test_expect_code 1 ntune apply --netns "$NS" --no-persist typo.conf 2>err && cat err &&
	grep -q "^typo.conf:2: error: unknown knob .net.ipv4.ip_forwrd. (did you mean net.ipv4.ip_forward?)" err &&
	grep -q "has errors (see .ntune check.); nothing changed" err && original
'
test_expect_success 'revert of a change to a namespace that is gone restores the rest and closes the entry' '
	NS2="${NS}b" && ip netns add "$NS2" &&
	printf "net.ipv4.ip_default_ttl=33\n" >gone.conf &&
	ntune apply --netns "$NS2" --no-persist gone.conf >/dev/null &&
	ip netns del "$NS2" &&
	ntune revert >out 2>&1 && cat out &&
	ntune history | tail -1 | grep -q " reverted "
'
feat() { inns ethtool -k v0 | sed -n "s/^$1: \\([a-z]*\\).*/\\1/p"; }
test_expect_success 'ethtool features by name and the NAPI thread apply as one step and revert exactly' '
	g0=$(feat generic-receive-offload) && l0=$(feat rx-gro-list) &&
	t0=$(inns cat /sys/class/net/v0/threaded) && test "$g0" = off &&
	printf "if.v0.offload.gro=on\nif.v0.offload.rx-gro-list=on\nif.v0.napi_threaded=1\n" >napi.conf &&
	ntune apply --netns "$NS" --no-persist napi.conf >out && cat out &&
	test "$(feat generic-receive-offload)" = on && test "$(feat rx-gro-list)" = on &&
	test "$(inns cat /sys/class/net/v0/threaded)" = 1 &&
	ntune verify --netns "$NS" napi.conf 2>err && grep -q "0 of 3 settings differ" err &&
	ntune revert >/dev/null && test "$(feat generic-receive-offload)" = "$g0" &&
	test "$(feat rx-gro-list)" = "$l0" && test "$(inns cat /sys/class/net/v0/threaded)" = "$t0"
'
test_expect_success 'a NAPI thread on a veth without NAPI is refused with the reason, nothing changed' '
	printf "if.v0.txqueuelen=77\nif.v0.napi_threaded=1\n" >nonapi.conf &&
	test_expect_code 1 ntune apply --netns "$NS" --no-persist nonapi.conf 2>err && cat err &&
	grep -q "cannot set if.v0.napi_threaded; everything restored" err &&
	original
'
test_expect_success 'a value over the device maximum is refused, the knob named once' '
	printf "if.v0.txqueuelen=77\nif.v0.channels.rx=999\n" >chan.conf &&
	test_expect_code 1 ntune apply --netns "$NS" --no-persist chan.conf 2>err && cat err &&
	grep -q "maximum is [0-9]*$" err && grep -q "cannot set if.v0.channels.rx; everything restored" err &&
	test "$(grep -o "cannot set" err | wc -l)" = 1 &&
	original
'
test_expect_success 'a concurrent apply is refused with a clear message, nothing set (exit 2)' '
	mkdir -p "$NTUNE_STATE_DIR/lock" && { sleep 5 & } && spid=$! && echo $spid >"$NTUNE_STATE_DIR/lock/pid" &&
	{ ntune apply --netns "$NS" --no-persist p.conf 2>err; rc=$?; } &&
	kill $spid && rm -rf "$NTUNE_STATE_DIR/lock" && cat err && test $rc = 2 &&
	grep -q "another ntune change runs on this host (pid $spid)" err && original
'
test_done
