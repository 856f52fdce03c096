#!/bin/sh
# apply --confirm SECS: the change reverts itself unless `ntune confirm` arrives, even when the session ends.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP,SETSID
NS=$(test_unique)
ip netns add "$NS" || test_skip_all 'ip netns add failed'
test_at_exit "ip netns del $NS 2>/dev/null"
export NTUNE_STATE_DIR="$TRASH/state"
ttl() { ip netns exec "$NS" cat /proc/sys/net/ipv4/ip_default_ttl; }
TTL0=$(ttl)
printf 'net.ipv4.ip_default_ttl=88\n' >"$TRASH/p.conf"
# Waits up to $1 seconds for the TTL to read $2.
wait_ttl() { i=0; while [ "$(ttl)" != "$2" ] && [ $i -lt $(($1 * 10)) ]; do sleep 0.1; i=$((i + 1)); done; [ "$(ttl)" = "$2" ]; }

test_expect_success 'without confirm the change reverts itself after SECS' '
	ntune apply --netns "$NS" --no-persist --confirm 4 p.conf >out && cat out &&
	grep -q "reverts in 4 s unless .ntune confirm " out &&
	test "$(ttl)" = 88 &&
	ntune history | tail -1 | grep -q "reverts in" &&
	wait_ttl 10 "$TTL0" &&
	sleep 0.5 && ntune history | tail -1 | grep -q " reverted .*\[reverted by the dead-man timer\]"
'
test_expect_success 'ntune confirm keeps the change' '
	ntune apply --netns "$NS" --no-persist --confirm 4 p.conf >/dev/null &&
	ntune confirm >out && grep -q "^confirmed " out &&
	sleep 5.5 && test "$(ttl)" = 88 &&
	ntune history | tail -1 | grep -q "\[confirmed\]" &&
	ntune revert >/dev/null && test "$(ttl)" = "$TTL0"
'
test_expect_success 'the timer survives the end of the session that started it (hang-up)' '
	{ setsid sh -c "\"$NTUNE\" apply --netns $NS --no-persist --confirm 4 p.conf >started 2>&1; sleep 30" & } &&
	pid=$! && i=0 &&
	while ! grep -q "^applied" started 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done &&
	test "$(ttl)" = 88 &&
	sid=$(ps -o sid= -p $pid | tr -d " ") &&
	# The session may already be partly gone: the hang-up is the action, the TTL below the check.
	{ pkill -HUP -s "$sid" 2>/dev/null; kill -HUP -- -$pid 2>/dev/null; kill $pid 2>/dev/null; :; } &&
	wait_ttl 10 "$TTL0"
'
test_done
