#!/bin/sh
# bench/diagnose-cost.sh: the CPU time `ntune diagnose -d 1` spends, run back to back for
# DURATION seconds (default 30): each run samples twice 1 s apart and evaluates the rules,
# so this is the cost of diagnosing at a 1 s interval. procps `top -b -d 1` runs alongside
# over the same seconds as the peer. RUNS times (default 3): each run, then mean and range.
# usage: bench/diagnose-cost.sh [DURATION] [RUNS]     (NTUNE=path/to/ntune, default build/ntune)
. "$(dirname "$0")/lib.sh"
set -e
DURATION=${1:-30}
RUNS=${2:-3}
bench_need_binary
bench_need_top

# One run: prints "DIAG_SECONDS TOP_SECONDS" of CPU over DURATION seconds.
one() {
	top -b -d 1 >/dev/null &
	top_pid=$!
	end=$(($(date +%s) + DURATION))
	# the loop's children's CPU time, from the shell's `times` (second line: children user sys)
	d=$(sh -c 'while [ "$(date +%s)" -lt "$1" ]; do "$2" diagnose -d 1 >/dev/null 2>&1 || [ $? = 1 ]; done; times' \
	    sh "$end" "$NTUNE" | awk 'NR == 2 { n = split($0, f, /[ms]+/); s = 0
		for (i = 1; i + 1 <= n; i += 2) s += f[i] * 60 + f[i + 1]; print s }')
	tp=$(ticks $top_pid)
	kill $top_pid 2>/dev/null || true
	wait $top_pid 2>/dev/null || true
	echo "$d $(awk -v t="$tp" -v hz="$HZ" 'BEGIN { print t / hz }')"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(uname -n), $(nproc) CPUs, $(uname -r)"
i=1
while [ $i -le "$RUNS" ]; do
	one
	i=$((i + 1))
done | awk -v d="$DURATION" '{
	pd = 100 * $1 / d; pt = 100 * $2 / d; r = $2 > 0 ? $1 / $2 : 0
	printf "run %d: diagnose -d 1 %.3f%% of one CPU, top -b -d 1 %.3f%%, ratio diagnose/top %.2f\n", NR, pd, pt, r
	sd += pd; st += pt; sr += r
	if (NR == 1 || pd < lo) lo = pd; if (NR == 1 || pd > hi) hi = pd
	if (NR == 1 || r < rlo) rlo = r; if (NR == 1 || r > rhi) rhi = r
} END {
	printf "mean over %d runs of %d s: diagnose %.3f%% of one CPU (range %.3f-%.3f), top %.3f%%, ratio %.2f (range %.2f-%.2f)\n", NR, d, sd / NR, lo, hi, st / NR, sr / NR, rlo, rhi
	printf "goal: sampling below 1%% of one CPU at a 1 s interval: %s\n", (hi < 1) ? "met" : "NOT met"
}'
