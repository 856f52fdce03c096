#!/bin/sh
# Where dut0's NAPI thread runs decides the gain of threaded NAPI in the lab. One interleaved
# bench in one fresh lab, generator pinned to CPU 0: the defaults, the GRO + fraglist +
# NAPI-thread bundle left to the scheduler, and the same bundle with the thread pinned to
# each CPU (if.dut0.napi_thread_cpus), and the two ways RPS takes part: RPS alone to the last CPU
# (if.dut0.rps_cpus), and RPS to the last CPU with the thread pinned to CPU 0 (the other local
# optimum a search that starts with RPS reaches). Prints each profile's ratio to the defaults.
# Usage: sudo bench/napi-placement.sh [RUNS] [MAX_RUNS]
# Environment: NTUNE (binary), OUT (results directory), DURATION (s a run, default 2),
# GEN_TSO=on (put TSO back on gen0 as in labs before 2026-12-04: then only socket-sent
# frames reach dut0's NAPI), LOAD (default `gen --cpus 0`).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
RUNS=${1:-5}
MAXR=${2:-8}
bench_results napi
P="np$$"
bench_need_root
bench_at_exit '"$NTUNE" lab down --prefix "$P" >/dev/null 2>&1'
"$NTUNE" lab up --prefix "$P" >&2 || exit 1
[ "${GEN_TSO:-off}" = on ] && ip netns exec "$P-gen" ethtool -K gen0 tso on
NCPU=$(getconf _NPROCESSORS_ONLN)
B="if.dut0.offload.gro=on
if.dut0.offload.rx-gro-list=on
if.dut0.napi_threaded=1"
mkdir -p "$OUT/profiles"
printf '# a fresh lab as it is\n' >"$OUT/profiles/defaults.conf"
printf '%s\n' "$B" >"$OUT/profiles/bundle.conf"
set -- "$OUT/profiles/defaults.conf" "$OUT/profiles/bundle.conf"
c=$((NCPU - 1))
while [ $c -ge 0 ]; do
	printf '%s\nif.dut0.napi_thread_cpus=%d\n' "$B" $c >"$OUT/profiles/bundle-cpu$c.conf"
	set -- "$@" "$OUT/profiles/bundle-cpu$c.conf"
	c=$((c - 1))
done
RPS=$(printf '%x' $((1 << (NCPU - 1))))
printf 'if.dut0.rps_cpus=%s\n' "$RPS" >"$OUT/profiles/rps.conf"
printf '%s\nif.dut0.napi_thread_cpus=0\nif.dut0.rps_cpus=%s\n' "$B" "$RPS" >"$OUT/profiles/rps-bundle-cpu0.conf"
set -- "$@" "$OUT/profiles/rps.conf" "$OUT/profiles/rps-bundle-cpu0.conf"
echo "napi-placement: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $NCPU CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg) before" >&2
"$NTUNE" bench "$@" --prefix "$P" --load "${LOAD:-gen --cpus 0}" --duration "${DURATION:-2}" \
	--runs "$RUNS" --max-runs "$MAXR" -o "$OUT/bench" >"$OUT/bench.txt" 2>"$OUT/bench.err" || {
	cat "$OUT/bench.txt" "$OUT/bench.err"; exit 1; }
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$OUT/bench" <<'PY'
import json, sys, os, statistics as st
d = sys.argv[1]
v = json.load(open(os.path.join(d, "verdict.json")))
vals = {}
for f in sorted(os.listdir(os.path.join(d, "values"))):
    xs = [float(x) for x in open(os.path.join(d, "values", f)) if x.strip()]
    vals[f[:-4]] = xs
print("%-16s %5s %12s %10s   %s" % ("profile", "runs", "median pps", "min-max", "vs defaults (95%)"))
for c in v["comparisons"]:
    pass
base = vals.get("defaults", [])
def row(label, cmp):
    xs = vals[label]
    r = "" if cmp is None else "%.2fx [%.2f, %.2f] %s" % (cmp["ratio"], cmp["ratio_lo"], cmp["ratio_hi"],
        "decided" if cmp["decided"] else "undecided")
    print("%-16s %5d %12.0f %10s   %s" % (label, len(xs), st.median(xs), "%.0fk-%.0fk" % (min(xs)/1e3, max(xs)/1e3), r))
row("defaults", None)
for c in v["comparisons"]:
    row(c["b"], c)
PY
echo "results: $OUT/bench" >&2
