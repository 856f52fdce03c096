#!/bin/sh
# if.IF.napi_thread_cpus: the NAPI kernel threads of a veth this test makes are pinned,
# read back, refused without a thread, and restored exactly by ntune revert.
. "$(dirname "$0")/lib.sh"

test_prereq_ETHTOOL() { command -v ethtool >/dev/null 2>&1; }
NS=$(test_unique)
# The interface's name is in its thread's name (napi/IF-ID): unique, so no other lab's thread matches.
IF=p$(echo "$NS" | tail -c 9)
export NTUNE_STATE_DIR="$TRASH/state"
inns() { ip netns exec "$NS" "$@"; }
threads() { for d in /proc/[0-9]*; do case "$(cat "$d/comm" 2>/dev/null)" in "napi/$IF-"*) echo "${d#/proc/}";; esac; done; }
cpus_of() { for p in $(threads); do sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status"; done | sort -u; }
ONLINE=$(cat /sys/devices/system/cpu/online)

test_expect_success ROOT,IP,ETHTOOL 'setup: a veth with GRO on (so it has NAPI) in a namespace' '
	ip netns add "$NS" &&
	test_at_exit "ip netns del $NS 2>/dev/null" &&
	ip -n "$NS" link add "$IF" type veth peer name "${IF}b" &&
	ip -n "$NS" link set "$IF" up && ip -n "$NS" link set "${IF}b" up &&
	inns ethtool -K "$IF" gro on
'
test_expect_success ROOT,IP,ETHTOOL 'without a NAPI thread it reads as the online CPUs and cannot be pinned' '
	printf "if.%s.napi_thread_cpus=0\n" "$IF" >pin.conf &&
	test_must_fail ntune apply pin.conf --netns "$NS" --no-persist 2>err &&
	grep -q "has no NAPI thread (napi_threaded=1 first)" err &&
	printf "if.%s.napi_threaded=1\nif.%s.napi_thread_cpus=0\n" "$IF" "$IF" >both.conf &&
	ntune apply both.conf --netns "$NS" --no-persist >out 2>&1 &&
	grep -q "napi_thread_cpus  $ONLINE -> 0" out
'
test_expect_success ROOT,IP,ETHTOOL 'the thread runs on the CPUs given, and revert restores threaded and affinity' '
	test -n "$(threads)" && test "$(cpus_of)" = 0 &&
	ntune revert >/dev/null 2>&1 &&
	test "$(inns cat /sys/class/net/$IF/threaded)" = 0 &&
	{ test -z "$(threads)" || test "$(cpus_of)" = "$ONLINE"; }
'
test_expect_success ROOT,IP,ETHTOOL 'a CPU that is not online is refused, nothing changed' '
	inns sh -c "echo 1 >/sys/class/net/$IF/threaded" &&
	printf "if.%s.napi_thread_cpus=1000\n" "$IF" >bad.conf &&
	test_expect_code 1 ntune apply bad.conf --netns "$NS" --no-persist 2>err &&
	grep -q "CPU 1000 is not online" err && test "$(cpus_of)" = "$ONLINE"
'
test_done
