#!/bin/sh
# Is `ntune tune` reproducible? Runs N tunes (default 5) with the same budget, each in a lab
# of its own made fresh for it (tune re-measures its final best in another fresh lab), and
# prints how often each change was kept, whether the kept sets agree, and every final gain
# with its 95% interval. Goal (issue 16): the same kept set in >= 4 of 5, every interval
# excluding 0.
# Usage: sudo bench/tune-repeat.sh [N] [BUDGET_MINUTES] [extra ntune tune options...]
# Environment: NTUNE (binary, default build/ntune), OUT (results directory).
set -u
cd "$(dirname "$0")/.."
NTUNE=${NTUNE:-$PWD/build/ntune}
N=${1:-5}
BUDGET=${2:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
OUT=${OUT:-$(mktemp -d /tmp/ntune-tune-repeat.XXXXXX)}
mkdir -p "$OUT" || exit 1
# A journal of its own: other ntune runs on the machine hold the default one's lock.
export NTUNE_STATE_DIR=${NTUNE_STATE_DIR:-$OUT/state}
[ "$(id -u)" = 0 ] || { echo "bench/tune-repeat.sh: needs root (network namespaces)" >&2; exit 2; }
[ -x "$NTUNE" ] || { echo "bench/tune-repeat.sh: no $NTUNE (run make)" >&2; exit 2; }
trap 'exit 130' INT TERM
echo "tune-repeat: $N tunes, budget $BUDGET min, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs" | tee "$OUT/header.txt"
i=1
while [ $i -le "$N" ]; do
	l0=$(cut -d' ' -f1 /proc/loadavg)
	# No lab of that name exists: tune makes it, and removes it at the end.
	"$NTUNE" tune --lab --prefix "tr$$-$i" --budget "$BUDGET" -o "$OUT/tune$i" "$@" \
		>"$OUT/tune$i.txt" 2>"$OUT/tune$i.err" || echo "tune $i failed (exit $?), see $OUT/tune$i.err" >&2
	echo "tune $i: loadavg $l0 -> $(cut -d' ' -f1 /proc/loadavg); $(grep '^gain over' "$OUT/tune$i.txt")" >&2
	i=$((i + 1))
done
python3 - "$OUT" "$N" <<'PY' | tee "$OUT/table.txt"
import json, os, sys, collections
out, n = sys.argv[1], int(sys.argv[2])
kept = collections.Counter()
tried = collections.Counter()
sets = collections.Counter()
rows = []
for i in range(1, n + 1):
    p = os.path.join(out, "tune%d" % i, "summary.json")
    if not os.path.exists(p):
        rows.append((i, None)); continue
    s = json.load(open(p))
    k = tuple(x["change"] for x in s["steps"] if x["kept"])
    for x in s["steps"]:
        if x.get("tried"):
            tried[x["change"]] += 1
        if x["kept"]:
            kept[x["change"]] += 1
    sets[k] += 1
    rows.append((i, s))
print("%-5s %-5s %-22s %-9s %s" % ("tune", "kept", "final gain (95%)", "excludes0", "final lab / verdict"))
gains_ok = 0
for i, s in rows:
    if s is None:
        print("%-5d failed" % i); continue
    g = "%+.1f%% ± %.1f%%" % (s["gain_pct"], s["gain_pct_hw"] or 0) if s["kept"] and s.get("gain_pct_hw") is not None else "none"
    ok = bool(s["kept"]) and s["gain_proven"]
    gains_ok += ok
    print("%-5d %-5d %-22s %-9s %s" % (i, s["kept"], g, "yes" if ok else "no", s.get("final_lab") or "-"))
print()
print("%-6s %-6s %s" % ("kept", "tried", "change"))
for ch, t in sorted(tried.items(), key=lambda x: (-kept[x[0]], -x[1])):
    print("%d/%-4d %-6d %s" % (kept[ch], n, t, ch))
common, cnt = sets.most_common(1)[0] if sets else ((), 0)
print()
print("same kept set in %d of %d tunes: %s" % (cnt, n, " ; ".join(common) if common else "(nothing kept)"))
print("final gain proven (95%% interval excludes 0) in %d of %d tunes" % (gains_ok, n))
PY
echo "results: $OUT" >&2
