#!/bin/sh
# Is the tuner better than the alternatives? In one fresh lab: `ntune tune` (BUDGET minutes),
# then ONE interleaved bench of the defaults, `ntune advise`'s profile for the DUT, the sysctl
# part of TuneD's network-throughput profile, and tune's best.conf; prints every ratio, best
# against each of the others included. Host-global knobs are left out of every profile
# (--no-host-knobs), so all four change only the DUT's namespace.
# TuneD's network-throughput is the real file of Debian 12's tuned package as `make deps`
# extracts it (scripts/deps.sh; never installed), read by ntune itself with its include
# (throughput-performance), as TuneD merges them (ntune.8, TUNED PROFILES); settings not
# known to be per network namespace (vm.*: host-global) are left out and listed.
# Usage: sudo bench/tune-vs.sh [BUDGET_MINUTES] [RUNS] [MAX_RUNS]
#        bench/tune-vs.sh --prepare-only   (TuneD's profile as the bench would get it; no root)
# Environment: NTUNE (binary), OUT (results directory), DURATION (s a run, default 2),
# TUNED_PROFILES (the extracted profiles, default /usr/local/share/ntune/peers/tuned/current).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
PREPARE_ONLY=0
[ "${1:-}" = --prepare-only ] && PREPARE_ONLY=1 && shift
BUDGET=${1:-3}
RUNS=${2:-5}
MAXR=${3:-10}
bench_results tune-vs
mkdir -p "$OUT/profiles" || exit 1

# tuned_profile OUTFILE: TuneD's network-throughput as ntune reads it (include followed), in
# ntune's profile syntax, each line with the file:line it comes from; the rest listed.
tuned_profile() {
	td=${TUNED_PROFILES:-/usr/local/share/ntune/peers/tuned/current}
	nt="$td/network-throughput/tuned.conf"
	if [ ! -f "$nt" ]; then
		echo "tune-vs: no TuneD profile at $nt: run 'make deps' (it downloads Debian's tuned" \
		    "package and extracts its profiles; it never installs it)" >&2
		return 2
	fi
	tv=$(cat "$td/.tuned-version" 2>/dev/null || echo "unknown version")
	echo "tune-vs: TuneD $tv network-throughput, $nt, its include read by ntune"
	"$NTUNE" check --os linux --json "$nt" >"$OUT/profiles/tuned-nt.json"
	[ $? -le 1 ] || { echo "tune-vs: ntune cannot read $nt" >&2; return 2; }
	python3 - "$OUT/profiles/tuned-nt.json" "$tv" "$NTUNE" >"$1" <<'PY' || return 2
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
print("# TuneD %s network-throughput as ntune reads it (its include followed)" % sys.argv[2])
for e in d["entries"]:
    x = subprocess.run([sys.argv[3], "explain", "--os", "linux", "--json", e["name"]],
                       capture_output=True, text=True)
    scope = json.loads(x.stdout)["scope"] if x.returncode == 0 else None
    line = "%s%s%s" % (e["name"], e["op"], e["value"])
    where = "%s:%d" % (e["file"], e["line"])
    if scope == "netns":
        print("# %s\n%s" % (where, line))
        continue
    why = "host-global" if scope else "not in ntune's knowledge base, not known to be per network namespace"
    print("# left out (%s): %s  # %s" % (why, line, where))
    print("tune-vs: TuneD's %s left out: %s (a lab changes only the DUT's namespace)" % (line, why),
          file=sys.stderr)
PY
	grep -v '^#' "$1" | sed 's/^/tune-vs: TuneD setting benched: /'
}
bench_need_binary
tuned_profile "$OUT/profiles/tuned-nt.conf" 2>&1 || exit 2
if [ "$PREPARE_ONLY" = 1 ]; then
	echo "tune-vs: $OUT/profiles/tuned-nt.conf:"
	cat "$OUT/profiles/tuned-nt.conf"
	exit 0
fi
bench_own_journal
P="tv$$"
bench_need_root
bench_at_exit '"$NTUNE" lab down --prefix "$P" >/dev/null 2>&1'
echo "tune-vs: budget $BUDGET min, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
"$NTUNE" lab up --prefix "$P" >/dev/null 2>&1 || { echo "lab up failed" >&2; exit 1; }
printf '# a fresh lab as it is\n' >"$OUT/profiles/defaults.conf"
ip netns exec "$P-dut" "$NTUNE" advise --goal forwarding --role router >"$OUT/profiles/advice.conf" ||
	{ echo "ntune advise failed" >&2; exit 1; }
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
