#!/bin/sh
# ntune top's ncurses screen driven through tmux: keys q, i, s, c.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP,TMUX
ns=$(test_unique)
S="$ns-top"
test_at_exit "tmux kill-session -t $S 2>/dev/null; ip netns del $ns 2>/dev/null"
ip netns add "$ns" && ip -n "$ns" link add x0 type veth peer name x1 &&
ip -n "$ns" link set x0 up && ip -n "$ns" link set x1 up || { echo "cannot build the namespace"; exit 1; }
tmux new-session -d -s "$S" -x 140 -y 40 "ip netns exec $ns $NTUNE top -d 0.3" ||
	{ echo "cannot start tmux"; exit 1; }

screen() { tmux capture-pane -p -t "$S"; }
# Waits up to 5 s for the screen to show a pattern.
wait_for() {
	i=0
	while [ $i -lt 50 ]; do
		screen | grep -Eq "$1" && return 0
		sleep 0.1; i=$((i + 1))
	done
	screen; return 1
}

test_expect_success 'the screen shows per-CPU lines, the interfaces and the key help' '
	wait_for "^CPU 0 " && wait_for "^x0 " && wait_for "^x1 " &&
	wait_for "q quit +i interfaces \(all\) +s sort \(name\) +c per-CPU \(on\)"
'
test_expect_success 'c turns the per-CPU lines into one total line' '
	tmux send-keys -t "$S" c &&
	wait_for "per-CPU \(off\)" && wait_for "^CPU: " && ! screen | grep -q "^CPU 0 "
'
test_expect_success 's changes the sort order' '
	tmux send-keys -t "$S" s && wait_for "sort \(in pkt/s\)" &&
	tmux send-keys -t "$S" s && wait_for "sort \(out pkt/s\)"
'
test_expect_success 'i picks one interface at a time, then all again' '
	tmux send-keys -t "$S" i && wait_for "interfaces \(x0\)" &&
	! screen | grep -q "^x1 " &&
	tmux send-keys -t "$S" i && wait_for "interfaces \(x1\)" &&
	tmux send-keys -t "$S" i && wait_for "interfaces \(all\)" && wait_for "^x0 "
'
test_expect_success 'q quits' '
	tmux send-keys -t "$S" q &&
	i=0 && while tmux has-session -t "$S" 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done &&

	! tmux has-session -t "$S" 2>/dev/null
'
test_done
