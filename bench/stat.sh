#!/bin/sh
# ntune stat -A against ministat -A on two files of 2,000,000 values each:
# best of 3 wall-clock runs for each tool in the same run, outputs must be identical.
# Usage: bench/stat.sh [NTUNE_BINARY] [VALUES_PER_FILE]
set -eu
nt=${1:-build/ntune}
n=${2:-2000000}
command -v ministat >/dev/null || { echo "bench/stat.sh: ministat is not installed (apt-get install ministat)" >&2; exit 2; }
[ -x "$nt" ] || { echo "bench/stat.sh: no binary '$nt' (run make first)" >&2; exit 2; }
nt=$(cd "$(dirname "$nt")" && pwd)/$(basename "$nt")
d=$(mktemp -d "${TMPDIR:-/tmp}/ntune-bench-stat.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
cd "$d"
# Per-packet latencies in microseconds and per-second packet rates: typical result files.
awk -v n="$n" 'BEGIN { srand(1); for (i = 0; i < n; i++) printf "%.3f\n", 40 + 5 * (rand() + rand() + rand()) }' > a.txt
awk -v n="$n" 'BEGIN { srand(2); for (i = 0; i < n; i++) printf "%d\n", 1700000 + 60000 * (rand() - rand()) }' > b.txt
# Warm the page cache so that both tools read from memory.
cat a.txt b.txt > /dev/null

now() { date +%s.%N; }
# best wall-clock seconds of 3 runs of "$@" (stdout to out.tmp)
best() {
	b=
	for i in 1 2 3; do
		s=$(now); "$@" > out.tmp; e=$(now)
		b=$(awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}

# CPU seconds (user + system) of one run of "$@": stable when the machine is busy.
cpu() {
	( "$@" > /dev/null; times ) | awk 'NR == 2 { n = split($0, f, /[ms ]+/)
		print f[1] * 60 + f[2] + f[3] * 60 + f[4] }'
}
bestcpu() {
	b=
	for i in 1 2 3; do
		t=$(cpu "$@")
		b=$(awk -v t="$t" -v b="$b" 'BEGIN { print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}

tm=$(best ministat -A a.txt b.txt)
mv out.tmp ministat.out
tn=$(best "$nt" stat -A a.txt b.txt)
mv out.tmp ntune.out
if ! cmp -s ministat.out ntune.out; then
	echo "bench/stat.sh: outputs differ:" >&2
	diff ministat.out ntune.out >&2 || true
	exit 1
fi
cm=$(bestcpu ministat -A a.txt b.txt)
cn=$(bestcpu "$nt" stat -A a.txt b.txt)
awk -v n="$n" -v tm="$tm" -v tn="$tn" -v cm="$cm" -v cn="$cn" 'BEGIN {
	printf "stat: ministat -A vs ntune stat -A, 2 files x %d values, best of 3\n", n
	printf "  ministat   %.3f s wall, %.2f s cpu\n", tm, cm
	printf "  ntune stat %.3f s wall, %.2f s cpu\n", tn, cn
	if (cn > 0) printf "  cpu time ratio %.1fx\n", cm / cn
	printf "  outputs identical; ratio %.1fx (wall clock; goal >= 5x, aim 10x)\n", tm / tn }'
