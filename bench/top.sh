#!/bin/sh
# bench/top.sh: the CPU time ntune top spends refreshing once a second, against
# procps `top -b -d 1` measured over the same DURATION seconds (default 60) on the
# same machine, side by side. Prints both as % of one CPU and their ratio.
# usage: bench/top.sh [DURATION]     (NTUNE=path/to/ntune, default build/ntune)
. "$(dirname "$0")/lib.sh"
set -e
DURATION=${1:-60}
bench_need_binary
bench_need_top

"$NTUNE" top -b -d 1 >/dev/null &
ntune_pid=$!
top -b -d 1 >/dev/null &
top_pid=$!
trap 'kill $ntune_pid $top_pid 2>/dev/null || true' EXIT INT TERM
sleep "$DURATION"
nt=$(ticks $ntune_pid)
tp=$(ticks $top_pid)
kill $ntune_pid $top_pid 2>/dev/null || true
wait 2>/dev/null || true
trap - EXIT

awk -v nt="$nt" -v tp="$tp" -v hz="$HZ" -v d="$DURATION" 'BEGIN {
	ns = nt / hz; ts = tp / hz
	printf "ntune top -b -d 1: %.2f s CPU in %d s = %.3f%% of one CPU\n", ns, d, 100 * ns / d
	printf "top -b -d 1:       %.2f s CPU in %d s = %.3f%% of one CPU\n", ts, d, 100 * ts / d
	if (ts > 0)
		printf "ratio ntune/top: %.3f\n", ns / ts
	else
		printf "ratio ntune/top: n/a (top used less than one clock tick)\n"
	printf "goal: ntune top below 1%% of one CPU: %s\n", (100 * ns / d < 1) ? "met" : "NOT met"
}'
