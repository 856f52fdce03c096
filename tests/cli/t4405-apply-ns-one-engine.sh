#!/bin/sh
# apply on this machine runs the one engine (issue 34): the generated sh program of apply --dut,
# run by the local sh, its journal the DUT's format, so history --dut of this machine (through a
# stand-in ssh, the journal directory shared) lists what a local apply did; a failing write restores the ones
# before it; one change at a time (the lock, a pending entry: exit 2, nothing set). ntune runs
# inside a namespace this test makes (ip netns exec), so only that namespace's net.* change.
# Red on 77c7ff7 (the C engine, its JSON journal): history --dut finds no entry, the lock is a
# flock the program does not see, and a second apply over a pending one is taken.
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
NS=$(test_unique)
ip netns add "$NS" || test_skip_all 'ip netns add failed'
test_at_exit "ip netns del $NS 2>/dev/null"
R=$TRASH/root
J=$R/var/lib/ntune-agentless
export NTUNE_STATE_DIR="$J"
inns() { ip netns exec "$NS" "$@"; }
sysv() { inns cat "/proc/sys/$(echo "$1" | tr . /)"; }
FWD0=$(sysv net.ipv4.ip_forward) SYN0=$(sysv net.ipv4.tcp_syn_retries) TTL0=$(sysv net.ipv4.ip_default_ttl)
original() {
	test "$(sysv net.ipv4.ip_forward)" = "$FWD0" && test "$(sysv net.ipv4.tcp_syn_retries)" = "$SYN0" &&
	test "$(sysv net.ipv4.ip_default_ttl)" = "$TTL0"
}
mkdir -p "$TRASH/bin" && cat >"$TRASH/bin/ssh" <<'EOSSH'
#!/bin/sh
while [ "$1" != -- ]; do [ "$1" = -O ] && exit 0; shift; done
shift 2
exec sh -c "$1"
EOSSH
chmod +x "$TRASH/bin/ssh"
D="--dut ssh://dut --dut-root $R"
printf 'net.ipv4.ip_forward=1\nnet.ipv4.tcp_syn_retries=3\n' >"$TRASH/p.conf"

test_expect_success 'apply --plan here prints the program it would run (sh -n clean); nothing changes' '
	inns "$NTUNE" apply --plan --root "$R" --no-persist p.conf >plan &&
	sh -n plan && tail -n 1 plan | grep -qx "ntune_main \"\$@\"" &&
	test ! -e "$J" && original
'
test_expect_success 'apply here keeps the DUT journal format' '
	inns "$NTUNE" apply --root "$R" --no-persist p.conf >out && cat out &&
	grep -q "^applied .*: 2 of 2 settings changed$" out &&
	id=$(cat "$J/latest") && test -f "$J/$id/entry" && test -f "$J/$id/restore" &&
	test "$(cat "$J/$id/state")" = applied &&
	test "$(sysv net.ipv4.ip_forward)" = 1 && test "$(sysv net.ipv4.tcp_syn_retries)" = 3
'
test_expect_success 'history --dut of this machine lists the local apply as history does' '
	PATH="$TRASH/bin:$PATH" ntune history $D >there && cat there &&
	id=$(cat "$J/latest") && grep -q "^$id .* applied  *2  *p.conf$" there &&
	ntune history >here && cmp here there
'
test_expect_success 'revert here puts every original back' '
	inns "$NTUNE" revert >out && cat out && grep -q "^reverted " out && original &&
	test "$(cat "$J/$(cat "$J/latest")/state")" = reverted
'
export NTUNE_STATE_DIR="$TRASH/state"
test_expect_success 'a failing write restores the ones written before it and names the knob' '
	printf "net.ipv4.ip_forward=1\nnet.ipv4.tcp_syn_retries=3\nnet.ipv4.ip_default_ttl=999\n" >bad.conf &&
	test_expect_code 1 inns "$NTUNE" apply --no-persist --force bad.conf 2>err && cat err &&
	grep -q "cannot apply (journal entry [0-9TZ-]*): a set failed; everything restored: " err &&
	grep -q "cannot set net.ipv4.ip_default_ttl; everything restored" err &&
	original && ntune history | tail -n 1 | grep -q " failed  *3  *bad.conf$"
'
test_expect_success 'another change running: refused, exit 2, nothing set' '
	mkdir -p "$NTUNE_STATE_DIR/lock" && { sleep 30 & } && spid=$! &&
	echo $spid >"$NTUNE_STATE_DIR/lock/pid" &&
	{ inns "$NTUNE" apply --no-persist p.conf 2>err; rc=$?; } &&
	kill $spid && rm -rf "$NTUNE_STATE_DIR/lock" && cat err && test $rc = 2 &&
	grep -q "another ntune change runs on this host (pid $spid)" err && original
'
test_expect_success 'an apply while another waits for its confirm: refused with its id, exit 2' '
	inns "$NTUNE" apply --no-persist --confirm 60 p.conf >/dev/null &&
	id=$(cat "$NTUNE_STATE_DIR/latest") &&
	test_expect_code 2 inns "$NTUNE" apply --no-persist bad.conf 2>err && cat err &&
	grep -q "journal entry $id is neither confirmed nor reverted" err &&
	inns "$NTUNE" revert >/dev/null && original
'
test_done
