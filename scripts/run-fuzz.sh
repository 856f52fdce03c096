#!/bin/sh
# run-fuzz.sh BUILD SECONDS [SEED [TARGET...]]: runs each libFuzzer target of BUILD (or each TARGET,
# a path) for SECONDS with its corpus and dictionary (SEED: a fixed libFuzzer seed, so a short run in
# make check explores the same inputs each time). SECONDS '-' is $FUZZ_CHECK_SECONDS, else 5: the
# fuzz build's tests (fuzz/meson.build) run one target each this way, in parallel.
set -eu
build=$1; secs=$2; seed=${3:-0}
[ "$secs" = - ] && secs=${FUZZ_CHECK_SECONDS:-5}
[ $# -gt 3 ] && shift 3 || set -- "$build"/fuzz/fuzz_*
root=$(cd "$(dirname "$0")/.." && pwd)
fail=0
for t; do
	[ -f "$t" ] && [ -x "$t" ] || continue  # not the .p object directories
	name=$(basename "$t"); short=${name#fuzz_}
	corpus=$(mktemp -d)
	[ -d "$root/fuzz/corpus/$short" ] && cp -r "$root/fuzz/corpus/$short/." "$corpus/"
	echo "fuzz: $name for ${secs}s" >&2
	if ! "$t" -seed="$seed" -max_total_time="$secs" -max_len=4194304 -rss_limit_mb=4096 \
		-artifact_prefix="$build/$name-" "$corpus" >"$build/$name.log" 2>&1; then
		echo "fuzz: $name FAILED; see $build/$name.log" >&2
		tail -30 "$build/$name.log" >&2
		fail=1
	fi
	rm -rf "$corpus"
done
exit $fail
