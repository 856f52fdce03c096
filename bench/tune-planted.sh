#!/bin/sh
# Does tune find what is there? For each planted bottleneck (`ntune lab up --impair NAME`):
# tune the impaired lab within BUDGET, then measure, alternating in ROUNDS rounds, an
# unimpaired fresh lab (defaults), the impaired lab as it is, and the impaired lab with
# tune's best.conf applied; print the fix tune kept and best / unimpaired with its spread.
# Goal (issue 16): the fixing knob kept, best >= 90% of the unimpaired rate.
# Usage: sudo bench/tune-planted.sh [BUDGET_MINUTES] [ROUNDS] [IMPAIRMENT...]
# Environment: NTUNE (binary), OUT (results directory), DURATION (s a measured run, default 2).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
BUDGET=${1:-2}
ROUNDS=${2:-5}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- rp-filter napi-on-sender
DUR=${DURATION:-2}
bench_results planted
bench_own_journal
bench_need_root
U="pu$$"
LABS="$U"
bench_at_exit 'for l in $LABS; do "$NTUNE" lab down --prefix "$l" >/dev/null 2>&1; done'
echo "tune-planted: budget $BUDGET min, $ROUNDS rounds of $DUR s, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
"$NTUNE" lab up --prefix "$U" >/dev/null 2>&1 || { echo "lab up failed" >&2; exit 1; }
# pps forwarded to sink0 of lab $1 while the lab's default load (gen on CPU 0) sends.
measure() {
	a=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	"$NTUNE" lab exec --prefix "$1" gen -- "$NTUNE" gen --duration "$DUR" --cpus 0 --quiet >/dev/null 2>&1
	b=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	echo "$(( (b - a) / DUR ))"
}
for imp in "$@"; do
	I="pi$$$(echo "$imp" | cut -c1-3)"
	LABS="$LABS $I"
	D="$OUT/$imp"
	mkdir -p "$D"
	"$NTUNE" lab up --prefix "$I" --impair "$imp" >/dev/null 2>"$D/up.err" || { cat "$D/up.err"; continue; }
	"$NTUNE" tune --lab --prefix "$I" --budget "$BUDGET" -o "$D/tune" >"$D/tune.txt" 2>"$D/tune.err" ||
		echo "$imp: tune failed (exit $?), see $D/tune.err" >&2
	: >"$D/unimpaired.txt"; : >"$D/impaired.txt"; : >"$D/best.txt"
	r=1
	# Odd rounds unimpaired first, even rounds last, so that drift does not favour either.
	while [ $r -le "$ROUNDS" ]; do
		[ $((r % 2)) = 1 ] && measure "$U" >>"$D/unimpaired.txt"
		measure "$I" >>"$D/impaired.txt"
		if grep -q '^[a-z]' "$D/tune/best.conf" 2>/dev/null; then
			"$NTUNE" apply "$D/tune/best.conf" --netns "$I-dut" --no-persist >/dev/null 2>&1 &&
				measure "$I" >>"$D/best.txt"
			"$NTUNE" revert >/dev/null 2>&1
		fi
		[ $((r % 2)) = 0 ] && measure "$U" >>"$D/unimpaired.txt"
		r=$((r + 1))
	done
	"$NTUNE" lab down --prefix "$I" >/dev/null 2>&1
	python3 - "$imp" "$D" <<'PY'
import json, sys, os, statistics as st
imp, d = sys.argv[1], sys.argv[2]
def vals(n):
    return [float(x) for x in open(os.path.join(d, n + ".txt")) if x.strip()]
u, i, b = vals("unimpaired"), vals("impaired"), vals("best")
kept = []
try:
    s = json.load(open(os.path.join(d, "tune", "summary.json")))
    kept = [x["change"] for x in s["steps"] if x["kept"]]
except Exception as e:
    print("%s: no tune summary (%s)" % (imp, e))
def m(x):
    return "%.0f (%.0f-%.0f)" % (st.mean(x), min(x), max(x)) if x else "-"
print("%s: kept %s" % (imp, "; ".join(kept) if kept else "nothing"))
print("  pps mean (min-max): unimpaired %s, impaired %s, impaired + best.conf %s" % (m(u), m(i), m(b)))
if b and u:
    # per-round ratios: each round measured the two labs back to back
    rs = [x / y for x, y in zip(b, u) if y > 0]
    sd = st.stdev(rs) if len(rs) > 1 else 0
    t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36}.get(len(rs), 2.0)
    hw = t * sd / len(rs) ** 0.5
    mr = st.mean(rs)
    print("  best / unimpaired: %.2f ± %.2f (95%%, %d paired rounds) -> %s" % (mr, hw, len(rs),
          "recovered (>= 0.90)" if mr >= 0.90 else "NOT recovered (< 0.90)"))
PY
done
echo "results: $OUT" >&2
