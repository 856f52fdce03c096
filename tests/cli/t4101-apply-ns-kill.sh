#!/bin/sh
# apply whose program is killed (test hook NTUNE_TEST_KILL_AFTER) after 0..N writes: `ntune revert` restores
# the exact previous state; a TERM or HUP of ntune waits until its program has made every write.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
NS=$(test_unique)
ip netns add "$NS" || test_skip_all 'ip netns add failed'
test_at_exit "ip netns del $NS 2>/dev/null"
ip -n "$NS" link add v0 type veth peer name v1
export NTUNE_STATE_DIR="$TRASH/state"
inns() { ip netns exec "$NS" "$@"; }
state() {
	for k in net/ipv4/ip_forward net/ipv4/ip_default_ttl net/ipv4/tcp_syn_retries net/core/somaxconn; do
		inns cat /proc/sys/$k
	done
	inns cat /sys/class/net/v0/tx_queue_len
}
state >"$TRASH/before"
cat >"$TRASH/p.conf" <<EOF2
net.ipv4.ip_forward=1
net.ipv4.ip_default_ttl=99
net.ipv4.tcp_syn_retries=3
net.core.somaxconn=777
if.v0.txqueuelen=2222
EOF2

for n in 1 2 3 4 5; do
	test_expect_success "apply killed after $n of 5 writes leaves an applying entry that revert undoes" "
		test_expect_code 1 env NTUNE_TEST_KILL_AFTER=$n \"\$NTUNE\" apply --netns $NS --root \"\$TRASH/root\" p.conf >/dev/null 2>&1 &&
		state >after && ! cmp -s before after &&
		ntune history | tail -1 | grep -q ' applying ' && test_unlocked &&
		ntune revert >/dev/null && state >after && cmp before after &&
		ntune history | tail -1 | grep -q ' reverted '
	"
done
test_expect_success 'SIGTERM or a hang-up in the middle waits until every write is done' '
	{ NTUNE_TEST_PAUSE_AFTER=2 "$NTUNE" apply --netns "$NS" --no-persist p.conf >/dev/null 2>&1 & } &&
	pid=$! && i=0 &&
	while ! grep -qsx applying "$NTUNE_STATE_DIR"/*/state && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done &&
	kill -TERM $pid && kill -HUP $pid &&
	{ wait $pid; rc=$?; test $rc = 143 || test $rc = 129 || { echo "apply exited $rc"; false; }; } &&
	test "$(inns cat /proc/sys/net/ipv4/ip_default_ttl)" = 99 &&
	test "$(inns cat /sys/class/net/v0/tx_queue_len)" = 2222 &&
	ntune history | tail -1 | grep -q " applied " &&
	ntune revert >/dev/null && state >after && cmp before after
'
test_expect_success 'a journal entry exists before the first write (killed after 0 writes is a no-op revert)' '
	test_expect_code 1 env NTUNE_TEST_KILL_AFTER=0 "$NTUNE" apply --netns "$NS" p.conf >/dev/null 2>&1 &&
	state >after && cmp before after &&
	ntune history | tail -1 | grep -q " applying " && test_unlocked &&
	ntune revert >/dev/null && state >after && cmp before after
'
test_done
