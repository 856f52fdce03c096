#!/bin/sh
# Regenerates doc/report.png, the README's picture of `ntune report`, from a real run:
# a short bench in a fresh lab (the settings as they are against the GRO + fraglist GRO +
# NAPI-thread bundle that `ntune tune --lab` keeps), its HTML report, and a screenshot of
# that page in headless Chromium. Needs root (network namespaces) and chromium.
# Usage: sudo scripts/report-screenshot.sh [RESULTS_DIR]
#   with RESULTS_DIR: no bench, the screenshot of that directory's report.
# Environment: NTUNE (binary, default build/ntune), OUT (default doc/report.png),
#   RUNS (runs a profile, default 3), DURATION (seconds a run, default 2), WIDTH (default 1100),
#   HEIGHT (default 1400).
set -eu
cd "$(dirname "$0")/.."
NTUNE=${NTUNE:-$PWD/build/ntune}
OUT=${OUT:-$PWD/doc/report.png}
RUNS=${RUNS:-3}
DURATION=${DURATION:-2}
WIDTH=${WIDTH:-1100}
die() { echo "report-screenshot: $*" >&2; exit 1; }
[ -x "$NTUNE" ] || die "no binary at $NTUNE (run make first)"
command -v chromium >/dev/null 2>&1 || die "no chromium on PATH"
# Refused before anything is made: a refusal leaves nothing behind in TMPDIR.
if [ $# -ge 1 ]; then
	[ -f "$1/meta.json" ] || die "$1: not a results directory (no meta.json)"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ntune-shot.XXXXXX")
P="shot$$"
cleanup() {
	if [ -z "${1:-}" ]; then "$NTUNE" lab down --prefix "$P" >/dev/null 2>&1 || :; fi
	rm -rf "$WORK"
}
if [ $# -ge 1 ]; then
	cp -r "$1" "$WORK/r"
	trap 'cleanup given' EXIT
else
	[ "$(id -u)" = 0 ] || die "the lab needs root: sudo $0"
	trap cleanup EXIT
	NTUNE_STATE_DIR="$WORK/state"; export NTUNE_STATE_DIR
	"$NTUNE" lab up --prefix "$P" >/dev/null || die "ntune lab up failed"
	printf '# the settings as they are\n' >"$WORK/defaults.conf"
	printf 'if.dut0.offload.gro=on\nif.dut0.offload.rx-gro-list=on\nif.dut0.napi_threaded=1\n' >"$WORK/bundle.conf"
	"$NTUNE" bench "$WORK/defaults.conf" "$WORK/bundle.conf" --prefix "$P" --duration "$DURATION" \
		--runs "$RUNS" --max-runs "$RUNS" -o "$WORK/r" || die "ntune bench failed"
fi
"$NTUNE" report "$WORK/r" >/dev/null || die "ntune report failed"
# The top of the page (verdict, box plot, pps over time); HEIGHT for more of it.
timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
	--disable-background-networking --disable-component-update --hide-scrollbars \
	--user-data-dir="$WORK/chrome2" --window-size="$WIDTH,${HEIGHT:-1400}" \
	--screenshot="$WORK/shot.png" "file://$WORK/r/report.html" 2>"$WORK/chrome.log" ||
	{ cat "$WORK/chrome.log" >&2; die "chromium failed"; }
[ -s "$WORK/shot.png" ] || die "chromium wrote no picture"
mkdir -p "$(dirname "$OUT")"
cp "$WORK/shot.png" "$OUT"
grep -h '"verdict"\|forwards\|no difference' "$WORK/r/verdict.json" 2>/dev/null | head -3 >&2 || :
echo "$OUT"
