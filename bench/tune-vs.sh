#!/bin/sh
# Is the tuner better than the alternatives? In one fresh lab: `ntune tune` (BUDGET minutes),
# then ONE interleaved bench of the defaults, `ntune advise`'s profile for the DUT, the sysctl
# part of TuneD's network-throughput profile, and tune's best.conf; prints every ratio, best
# against each of the others included. Host-global knobs are left out of every profile
# (--no-host-knobs), so all four change only the DUT's namespace.
# TuneD network-throughput [sysctl] (tuned:profiles/network-throughput/tuned.conf, HEAD
# 2bfa442) and its parent throughput-performance's (tuned:profiles/throughput-performance/
# tuned.conf), as recorded in /work/shared/notes/tuning-anchors.md section 1.
# Usage: sudo bench/tune-vs.sh [BUDGET_MINUTES] [RUNS] [MAX_RUNS]
# Environment: NTUNE (binary), OUT (results directory), DURATION (s a run, default 2).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
BUDGET=${1:-3}
RUNS=${2:-5}
MAXR=${3:-10}
bench_results tune-vs
mkdir -p "$OUT/profiles" || exit 1
bench_own_journal
P="tv$$"
bench_need_root
bench_at_exit '"$NTUNE" lab down --prefix "$P" >/dev/null 2>&1'
echo "tune-vs: budget $BUDGET min, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
"$NTUNE" lab up --prefix "$P" >/dev/null 2>&1 || { echo "lab up failed" >&2; exit 1; }
printf '# a fresh lab as it is\n' >"$OUT/profiles/defaults.conf"
ip netns exec "$P-dut" "$NTUNE" advise --goal forwarding --role router >"$OUT/profiles/advice.conf" ||
	{ echo "ntune advise failed" >&2; exit 1; }
cat >"$OUT/profiles/tuned-nt.conf" <<'TUNED'
# TuneD network-throughput, its [sysctl] section and its parent's (throughput-performance)
# tuned:profiles/network-throughput/tuned.conf
net.ipv4.tcp_notsent_lowat=131072
net.ipv4.tcp_slow_start_after_idle=0
net.ipv4.tcp_rmem=4096 131072 16777216
net.ipv4.tcp_wmem=4096 16384 16777216
# tuned:profiles/throughput-performance/tuned.conf (vm.swappiness=10 is host-global: left out)
net.core.somaxconn=2048
TUNED
"$NTUNE" tune --lab --prefix "$P" --budget "$BUDGET" -o "$OUT/tune" >"$OUT/tune.txt" 2>"$OUT/tune.err" ||
	{ echo "tune failed, see $OUT/tune.err" >&2; exit 1; }
grep '^gain over' "$OUT/tune.txt"
cp "$OUT/tune/best.conf" "$OUT/profiles/best.conf"
echo "loadavg before the bench: $(cut -d' ' -f1-3 /proc/loadavg)"
"$NTUNE" bench "$OUT/profiles/defaults.conf" "$OUT/profiles/advice.conf" "$OUT/profiles/tuned-nt.conf" \
	"$OUT/profiles/best.conf" --prefix "$P" --no-host-knobs --load "gen --cpus 0" \
	--duration "${DURATION:-2}" --runs "$RUNS" --max-runs "$MAXR" -o "$OUT/bench" \
	>"$OUT/bench.txt" 2>"$OUT/bench.err" || { cat "$OUT/bench.err"; exit 1; }
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/bench" <<'PY'
import os, sys, math, statistics as st
d = sys.argv[1]
v = {f[:-4]: [float(x) for x in open(os.path.join(d, "values", f)) if x.strip()]
     for f in os.listdir(os.path.join(d, "values"))}
T = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
     12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04}
def tq(df):
    k = max(x for x in T if x <= max(1, int(df)))
    return T[k]
def cmp(a, b):
    """b / a: ratio of means, Welch 95% interval of the difference as a fraction of mean(a)."""
    ma, mb = st.mean(a), st.mean(b)
    va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va ** 2) / (len(a) - 1) + (vb ** 2) / (len(b) - 1)) if se > 0 else 1e9
    hw = tq(df) * se
    lo, hi = (mb - ma - hw) / ma, (mb - ma + hw) / ma
    verdict = "better" if lo > 0 else "worse" if hi < 0 else "no difference proven"
    return "%.2fx  [%+.0f%%, %+.0f%%]  %s" % (mb / ma, lo * 100, hi * 100, verdict)
order = ["defaults", "advice", "tuned-nt", "best"]
print("%-9s %5s %12s" % ("profile", "runs", "mean pps"))
for k in order:
    print("%-9s %5d %12.0f" % (k, len(v[k]), st.mean(v[k])))
print()
for a, b in [("defaults", "advice"), ("defaults", "tuned-nt"), ("defaults", "best"),
             ("advice", "best"), ("tuned-nt", "best")]:
    print("%-8s / %-9s %s" % (b, a, cmp(v[a], v[b])))
PY
echo "results: $OUT" >&2
