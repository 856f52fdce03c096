#!/bin/sh
# run-fuzz.sh BUILD SECONDS [SEED]: runs each libFuzzer target for SECONDS with its corpus and dictionary
# (SEED: a fixed libFuzzer seed, so a short run in make check explores the same inputs each time).
set -eu
build=$1; secs=$2; seed=${3:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
fail=0
for t in "$build"/fuzz/fuzz_*; do
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
