#!/bin/sh
# Runs `ntune tune --lab` in a fresh lab and prints the gain of the tuned profile over the
# defaults, both measured in the same final interleaved bench (best vs start).
# Usage: sudo bench/tune.sh [BUDGET_MINUTES] [extra ntune tune options...]
# Environment: NTUNE (binary, default build/ntune), OUT (results directory), LOAD (default
# `gen --method sendmmsg --cpus 0`: a generator through the host stack pinned to CPU 0, the
# set-up of the ~480 kpps -> ~690 kpps RPS measurement the goal comes from).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
BUDGET=${1:-4}
[ $# -gt 0 ] && shift
bench_results tune
P="tb$$"
bench_need_root
bench_at_exit '"$NTUNE" lab down --prefix "$P" >/dev/null 2>&1'
"$NTUNE" lab up --prefix "$P" >&2 || exit 1
"$NTUNE" tune --lab --prefix "$P" --budget "$BUDGET" --load "${LOAD:-gen --method sendmmsg --cpus 0}" -o "$OUT/tune" "$@" >"$OUT/tune.txt" || {
	cat "$OUT/tune.txt"; exit 1; }
cat "$OUT/tune.txt"
python3 - "$OUT/tune/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
kept = [x["change"] for x in s["steps"] if x["kept"]]
print("kept: %s" % (", ".join(kept) if kept else "nothing"))
if s.get("baseline_pps") and s.get("best_pps") and s["kept"]:
    hw = s.get("gain_pct_hw") or 0
    print("gain over defaults: %+.1f%% ± %.1f%% forwarded 64-byte pps (%.0f -> %.0f pps), ratio %.3f, %s"
          % (s["gain_pct"], hw, s["baseline_pps"], s["best_pps"], s["gain_ratio"],
             "proven at 95%" if s["gain_proven"] else "not proven"))
else:
    print("gain over defaults: none (no change proven better)")
PY
echo "results: $OUT/tune (ntune report $OUT/tune)"
