#!/bin/sh
# Does `ntune bench --dut ssh://...` reach the verdict the lab reaches? Runs the same A/B comparison
# REPS times in an `ntune lab` (the peer) and against the DUT of scripts/ssh-rig.sh, reached only
# over ssh (gen and sink on their own ssh "hosts"), alternating, and prints both ratios b/a with
# their 95% intervals: same sign, overlapping intervals.
# Usage: sudo bench/remote.sh [REPS]   Environment: NTUNE (binary), OUT (results), B (profile line b;
# a is the settings as they are), RUNS (runs each, default 4).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
REPS=${1:-3}
RUNS=${RUNS:-4}
# Default b: the bundle `ntune tune --lab` keeps (GRO with fraglist GRO and a NAPI thread on dut0).
B=${B:-"if.dut0.offload.gro=on
if.dut0.offload.rx-gro-list=on
if.dut0.napi_threaded=1"}
bench_results remote
bench_need_root
P="rl$$" N="rr$$"
mkdir -p "$OUT/rig" || exit 1
bench_at_exit '"$NTUNE" lab down --prefix "$P" >/dev/null 2>&1; sh scripts/ssh-rig.sh down "$OUT/rig" "$N" >/dev/null 2>&1'
printf '# the settings as they are\n' >"$OUT/a.conf"
printf '%s\n' "$B" >"$OUT/b.conf"
"$NTUNE" lab up --prefix "$P" >/dev/null || exit 1
NTUNE=$NTUNE sh scripts/ssh-rig.sh up "$OUT/rig" "$N" || exit 1
COMMON="--runs $RUNS --max-runs $RUNS --duration 2 --warmup 0.5"
i=1
while [ "$i" -le "$REPS" ]; do
	"$NTUNE" bench "$OUT/a.conf" "$OUT/b.conf" --prefix "$P" $COMMON -o "$OUT/lab-$i" >/dev/null 2>&1 ||
		echo "lab bench $i failed" >&2
	ip netns exec "$N-ctl" "$NTUNE" bench "$OUT/a.conf" "$OUT/b.conf" --dut ssh://dut --gen ssh://gen \
		--sink ssh://sink --ssh-config "$OUT/rig/ssh_config" $COMMON -o "$OUT/remote-$i" >/dev/null 2>&1 ||
		echo "remote bench $i failed" >&2
	i=$((i + 1))
done
python3 - "$OUT" "$REPS" "$B" <<'PY'
import json, sys, os
out, reps, b = sys.argv[1], int(sys.argv[2]), sys.argv[3]
print("b = %s against the settings as they are; ratio b/a of forwarded 64-byte pps, 95%% interval" % b.replace("\n", " + "))
agree = 0
for i in range(1, reps + 1):
    row = {}
    for kind in ("lab", "remote"):
        try:
            c = json.load(open("%s/%s-%d/verdict.json" % (out, kind, i)))["comparisons"][0]
            row[kind] = (c["ratio"], c["ratio_lo"], c["ratio_hi"], c["mean_a"])
        except (OSError, IndexError, KeyError):
            row[kind] = None
    if None in row.values():
        print("rep %d: a bench failed (%s)" % (i, ", ".join(k for k, v in row.items() if v is None)))
        continue
    l, r = row["lab"], row["remote"]
    same = (l[0] - 1) * (r[0] - 1) > 0
    overlap = l[1] <= r[2] and r[1] <= l[2]
    agree += same and overlap
    print("rep %d: lab %.3f (%.3f..%.3f, a %.0f pps)  remote %.3f (%.3f..%.3f, a %.0f pps)  same sign: %s, overlap: %s"
          % (i, l[0], l[1], l[2], l[3], r[0], r[1], r[2], r[3], "yes" if same else "no",
             "yes" if overlap else "no"))
print("%d of %d repetitions agree (same sign, overlapping intervals); results in %s" % (agree, reps, out))
PY
