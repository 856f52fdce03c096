#!/bin/sh
# Is `ntune tune` reproducible? Runs N tunes (default 5) with the same budget, each in a lab
# of its own made fresh for it (tune re-measures its final best in another fresh lab), and
# prints how often each change was kept, whether the kept sets agree, and every final gain
# with its 95% interval. Each best.conf is then re-measured independently: in yet another
# fresh lab, CHECK_ROUNDS rounds (default 5) of the defaults and best.conf applied, in
# alternating order, counted at sink0 (`ntune gen --cpus 0` for DURATION s, as tune's
# default load): is tune's reported gain within the independent one's interval?
# Goal (issue 16): the same kept set in >= 4 of 5, every interval excluding 0.
# Usage: sudo bench/tune-repeat.sh [N] [BUDGET_MINUTES] [extra ntune tune options...]
# Environment: NTUNE (binary, default build/ntune), OUT (results directory), CHECK_ROUNDS
# (0: no re-measurement), DURATION (s a re-measured run, default 2).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
N=${1:-5}
BUDGET=${2:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
bench_results tune-repeat
bench_own_journal
bench_need_root
echo "tune-repeat: $N tunes, budget $BUDGET min, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs" | tee "$OUT/header.txt"
CHECK_ROUNDS=${CHECK_ROUNDS:-5}
DUR=${DURATION:-2}
LABS=""
bench_at_exit 'for l in $LABS; do "$NTUNE" lab down --prefix "$l" >/dev/null 2>&1; done'
# pps forwarded to sink0 of lab $1 while gen sends from CPU 0 for DUR seconds.
measure() {
	a=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	"$NTUNE" lab exec --prefix "$1" gen -- "$NTUNE" gen --duration "$DUR" --cpus 0 --quiet >/dev/null 2>&1
	b=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	echo "$(( (b - a) / DUR ))"
}
# Re-measures DIR/best.conf against the defaults in a fresh lab: DIR/check.txt, "defaults best" a line.
check() {
	c="ck$$-$2"
	LABS="$LABS $c"
	"$NTUNE" lab up --prefix "$c" >/dev/null 2>&1 || return 1
	: >"$1/check.txt"
	r=1
	while [ $r -le "$CHECK_ROUNDS" ]; do
		[ $((r % 2)) = 1 ] && d=$(measure "$c")
		"$NTUNE" apply "$1/best.conf" --netns "$c-dut" --no-persist >/dev/null 2>&1 || return 1
		b=$(measure "$c")
		"$NTUNE" revert >/dev/null 2>&1 || return 1
		[ $((r % 2)) = 0 ] && d=$(measure "$c")
		echo "$d $b" >>"$1/check.txt"
		r=$((r + 1))
	done
	"$NTUNE" lab down --prefix "$c" >/dev/null 2>&1
}
i=1
while [ $i -le "$N" ]; do
	l0=$(cut -d' ' -f1 /proc/loadavg)
	# No lab of that name exists: tune makes it, and removes it at the end.
	"$NTUNE" tune --lab --prefix "tr$$-$i" --budget "$BUDGET" -o "$OUT/tune$i" "$@" \
		>"$OUT/tune$i.txt" 2>"$OUT/tune$i.err" || echo "tune $i failed (exit $?), see $OUT/tune$i.err" >&2
	echo "tune $i: loadavg $l0 -> $(cut -d' ' -f1 /proc/loadavg); $(grep '^gain over' "$OUT/tune$i.txt")" >&2
	if [ "$CHECK_ROUNDS" -gt 0 ] && grep -q '^[a-z]' "$OUT/tune$i/best.conf" 2>/dev/null; then
		check "$OUT/tune$i" "$i" || echo "tune $i: re-measurement failed" >&2
	fi
	i=$((i + 1))
done
python3 - "$OUT" "$N" <<'PY' | tee "$OUT/table.txt"
import json, os, sys, collections
out, n = sys.argv[1], int(sys.argv[2])
kept = collections.Counter()
tried = collections.Counter()
dropped = collections.Counter()
sets = collections.Counter()
rows = []
for i in range(1, n + 1):
    p = os.path.join(out, "tune%d" % i, "summary.json")
    if not os.path.exists(p):
        rows.append((i, None)); continue
    s = json.load(open(p))
    k = tuple(x["change"] for x in s["steps"] if x["kept"])
    for x in s["steps"]:
        if x.get("drop_of") is not None:
            continue  # a drop check: counted below on the step it checked
        if x.get("tried"):
            tried[x["change"]] += 1
        if x["kept"]:
            kept[x["change"]] += 1
        if x.get("dropped_at") is not None:
            dropped[x["change"]] += 1
    sets[k] += 1
    rows.append((i, s))
import statistics as st
T = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
def recheck(i):
    """Independent gain in % with its 95% half width, from paired rounds, or None."""
    p = os.path.join(out, "tune%d" % i, "check.txt")
    if not os.path.exists(p):
        return None
    rs = [float(b) / float(d) for d, b in (l.split() for l in open(p) if l.strip()) if float(d) > 0]
    if len(rs) < 2:
        return None
    m = st.mean(rs)
    return (m - 1) * 100, T.get(len(rs) - 1, 2.0) * st.stdev(rs) / len(rs) ** 0.5 * 100
print("%-5s %-5s %-20s %-9s %-22s %s" % ("tune", "kept", "final gain (95%)", "excludes0",
      "re-measured (95%)", "tune's gain inside it"))
gains_ok = 0
for i, s in rows:
    if s is None:
        print("%-5d failed" % i); continue
    has = s["kept"] and s.get("gain_pct_hw") is not None
    g = "%+.1f%% ± %.1f%%" % (s["gain_pct"], s["gain_pct_hw"] or 0) if has else "none"
    ok = bool(s["kept"]) and s["gain_proven"]
    gains_ok += ok
    rc = recheck(i)
    rcs = "%+.1f%% ± %.1f%%" % rc if rc else "-"
    inside = ("yes" if abs(s["gain_pct"] - rc[0]) <= rc[1] else "no") if rc and has else "-"
    print("%-5d %-5d %-20s %-9s %-22s %s" % (i, s["kept"], g, "yes" if ok else "no", rcs, inside))
print()
print("%-6s %-6s %-8s %s" % ("kept", "tried", "dropped", "change"))
for ch, t in sorted(tried.items(), key=lambda x: (-kept[x[0]], -x[1])):
    print("%d/%-4d %-6d %-8d %s" % (kept[ch], n, t, dropped[ch], ch))
print("(dropped: kept, then taken out by a drop check once a later step was kept)")
common, cnt = sets.most_common(1)[0] if sets else ((), 0)
print()
print("same kept set in %d of %d tunes: %s" % (cnt, n, " ; ".join(common) if common else "(nothing kept)"))
print("final gain proven (95%% interval excludes 0) in %d of %d tunes" % (gains_ok, n))
PY
echo "results: $OUT" >&2
