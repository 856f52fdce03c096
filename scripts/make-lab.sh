#!/bin/sh
# `sudo make lab`: the main job. Builds a router lab in network namespaces, inspects the
# DUT, asks for advice, benchmarks the defaults against the advice, runs a short tune,
# writes the HTML reports, tears the lab down (also on failure or Ctrl-C) and prints the
# verdicts and the reports' paths. A few minutes on 2 cores.
# Environment: BUILD (default build), LAB_BUDGET (tune budget in minutes, default 2),
# LAB_OUT (results directory, default lab-results/<time>), LAB_DURATION (seconds a run,
# default 2), LAB_RUNS / LAB_MAX_RUNS (runs a profile, default 3 / 6), LAB_LOAD (the
# load, default `gen --method sendmmsg --cpus 0`: a generator through the host stack
# pinned to CPU 0, as in the measurements the tuner's goal comes from).
set -u
cd "$(dirname "$0")/.."
NTUNE=${NTUNE:-$PWD/${BUILD:-build}/ntune}
BUDGET=${LAB_BUDGET:-2}
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=${LAB_OUT:-lab-results/$STAMP}
P="lab$$"
DUR=${LAB_DURATION:-2}
RUNS=${LAB_RUNS:-3}
MAXR=${LAB_MAX_RUNS:-6}
LOAD=${LAB_LOAD:-gen --method sendmmsg --cpus 0}

step() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'make lab: %s\n' "$*" >&2; exit 1; }

[ -x "$NTUNE" ] || die "no binary at $NTUNE (run make first)"
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

# Without root (or namespaces) there is no lab; still do the statistics part for real:
# seed 001's published rx/tx_process_limit figures through ntune stat.
fallback() {
	step "no lab here ($1); ntune stat on seed 001's published figures instead"
	"$NTUNE" stat --summary '5:1704710.4:48677.407:process_limit=256 (default)' \
		--summary '5:1681153.8:17459.489:process_limit=512' || true
	echo "make lab: the lab needs root and network namespaces: sudo make lab" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || fallback "not root"
command -v ip >/dev/null 2>&1 || fallback "no ip(8)"

cleanup() {
	trap - EXIT INT TERM
	step "tearing the lab '$P' down"
	"$NTUNE" lab down --prefix "$P" >&2 || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

T0=$(date +%s)
step "1/6 building the lab '$P' (gen -> dut -> sink in network namespaces)"
"$NTUNE" lab up --prefix "$P" >&2 || fallback "ntune lab up failed"

step "2/6 inspecting the DUT ($P-dut)"
ip netns exec "$P-dut" "$NTUNE" inspect | tee "$OUT/inspect.txt" | sed -n '1,/^NICs/p' >&2

step "3/6 advice for the DUT (a router, goal forwarding)"
if ip netns exec "$P-dut" "$NTUNE" advise --goal forwarding --role router >"$OUT/advice.conf"; then
	grep -v '^#' "$OUT/advice.conf" | grep . >&2
else
	die "ntune advise failed"
fi
printf '# the settings of a fresh lab, as they are\n' >"$OUT/defaults.conf"

step "4/6 benchmark: defaults against the advice (host-global knobs left out)"
"$NTUNE" bench "$OUT/defaults.conf" "$OUT/advice.conf" --prefix "$P" --no-host-knobs \
	--load "$LOAD" --duration "$DUR" --runs "$RUNS" --max-runs "$MAXR" -o "$OUT/bench" \
	>"$OUT/bench.txt" || die "ntune bench failed"
cat "$OUT/bench.txt"

step "5/6 short tune (budget $BUDGET min): keep only changes proven better"
"$NTUNE" tune --lab --prefix "$P" --budget "$BUDGET" --load "$LOAD" --duration "$DUR" \
	--runs "$RUNS" --max-runs "$MAXR" -o "$OUT/tune" >"$OUT/tune.txt" || die "ntune tune failed"
cat "$OUT/tune.txt"

step "6/6 reports"
"$NTUNE" report "$OUT/bench" >/dev/null || die "ntune report failed"
"$NTUNE" report "$OUT/tune" >/dev/null || die "ntune report failed"

T1=$(date +%s)
printf '\nmake lab: done in %d s\n' $((T1 - T0))
printf 'advice vs defaults: %s\n' "$(grep -E 'forwards|no difference proven' "$OUT/bench.txt" | tail -1)"
printf 'tune: %s\n' "$(grep '^gain over' "$OUT/tune.txt")"
printf 'best profile: %s/tune/best.conf\n' "$OUT"
printf 'reports: %s/bench/report.html\n         %s/tune/report.html\n' "$OUT" "$OUT"
