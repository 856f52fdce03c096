# The start the bench/*.sh scripts share, sourced first: . "$(dirname "$0")/lib.sh"
# Sets NTUNE (the binary: $NTUNE, else build/ntune of this tree), BENCH_ROOT (the tree),
# BENCH (the script's name for messages) and HZ; the rest are functions a script calls as
# it needs them.
set -u
BENCH_ROOT=$(cd "$(dirname "$0")/.." && pwd)
NTUNE=${NTUNE:-$BENCH_ROOT/build/ntune}
BENCH=bench/$(basename "$0")
HZ=$(getconf CLK_TCK)

# bench_need_binary: the ntune binary must be built.
bench_need_binary() {
	[ -x "$NTUNE" ] || { echo "$BENCH: no ntune binary at $NTUNE (make first)" >&2; exit 2; }
}

# bench_need_root: a lab needs root (network namespaces), and the binary.
bench_need_root() {
	[ "$(id -u)" = 0 ] || { echo "$BENCH: needs root (network namespaces)" >&2; exit 2; }
	bench_need_binary
}

# bench_need_top: procps top, the peer the CPU cost of ntune is measured against.
bench_need_top() {
	command -v top >/dev/null || { echo "$BENCH: top(1) not installed (procps)" >&2; exit 2; }
}

# bench_results NAME: OUT, the results directory ($OUT, else a new /tmp/ntune-NAME.XXXXXX).
bench_results() {
	OUT=${OUT:-$(mktemp -d "/tmp/ntune-$1.XXXXXX")}
	mkdir -p "$OUT" || exit 1
}

# bench_own_journal: ntune's journal and lock in $OUT/state (unless NTUNE_STATE_DIR is set):
# other ntune runs on the machine hold the default one's lock.
bench_own_journal() {
	NTUNE_STATE_DIR=${NTUNE_STATE_DIR:-$OUT/state}
	export NTUNE_STATE_DIR
}

# bench_at_exit 'commands': run when the script ends, also on ^C or TERM (exit status 130).
bench_at_exit() {
	trap "$1" EXIT
	trap 'exit 130' INT TERM
}

# ticks PID: the CPU ticks (user + system, HZ a second) a process has used so far.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
