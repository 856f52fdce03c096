# Shell test library in the style of git's t/test-lib.sh.
# Each test file: . "$(dirname "$0")/lib.sh"; test_expect_success 'what a user observes' 'commands'; test_done
# Environment: NTUNE (binary), SRCDIR (source root); TMPDIR per file, removed at exit.
set -u
: "${NTUNE:=$(cd "$(dirname "$0")/../.." && pwd)/build/ntune}"
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export NTUNE SRCDIR
GOLDEN="$SRCDIR/tests/cli/golden"
FIXTURES="$SRCDIR/tests/fixtures"
SHARED_FIXTURES="$SRCDIR/../shared/fixtures"
test_count=0; test_failed=0; test_skipped=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/ntune-test.XXXXXX")
# Cleanup commands go to a file, so a test body (a subshell) can register them too; last first.
test_at_exit() { { echo "$1"; cat "$TRASH/.cleanup" 2>/dev/null || :; } >"$TRASH/.cleanup.new" && mv "$TRASH/.cleanup.new" "$TRASH/.cleanup"; }
trap '[ -f "$TRASH/.cleanup" ] && . "$TRASH/.cleanup"; rm -rf "$TRASH"' EXIT
trap 'exit 130' INT TERM

ntune() { "$NTUNE" "$@"; }

# Prerequisites, as in git's test-lib: a test may name them (comma-separated) before its title.
# Each is a word whose check is test_prereq_NAME; a lazy prerequisite can be set with test_set_prereq.
test_prereq_ROOT() { [ "$(id -u)" = 0 ]; }
test_prereq_IP() { command -v ip >/dev/null 2>&1; }
test_prereq_IPERF3() { command -v iperf3 >/dev/null 2>&1; }
test_prereq_MINISTAT() { command -v ministat >/dev/null 2>&1; }
test_prereq_MANDOC() { command -v mandoc >/dev/null 2>&1; }
test_prereq_TMUX() { command -v tmux >/dev/null 2>&1; }
test_prereq_SETSID() { command -v setsid >/dev/null 2>&1; }
test_prereq_SHARED_FIXTURES() { [ -d "$SHARED_FIXTURES/real" ]; }
test_set_prereq() { eval "test_prereq_$1() { :; }"; }
test_unset_prereq() { eval "test_prereq_$1() { false; }"; }
# test_have_prereq A,B: true when every named prerequisite holds; names the first missing one in $test_missing_prereq.
test_have_prereq() {
	test_missing_prereq=
	_ifs=$IFS; IFS=,
	for _p in $1; do
		IFS=$_ifs
		if ! command -v "test_prereq_$_p" >/dev/null 2>&1 || ! "test_prereq_$_p"; then
			test_missing_prereq=$_p
			return 1
		fi
	done
	IFS=$_ifs
	return 0
}

# test_expect_success [PREREQ,...] 'name' 'commands': the commands (run with && between checks) must succeed.
test_expect_success() {
	if [ $# = 3 ]; then
		if ! test_have_prereq "$1"; then
			test_skip "$2" "missing $test_missing_prereq"
			return 0
		fi
		shift
	fi
	[ $# = 2 ] || { echo "bug in the test script: test_expect_success takes [PREREQ] NAME BODY" >&2; exit 2; }
	test_count=$((test_count + 1))
	if (cd "$TRASH" && eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | tail -40
	fi
}

# test_expect_code N cmd...: true only when cmd exits with status N, so it chains with && like git's.
test_expect_code() {
	_want=$1; shift
	"$@"; _rc=$?
	if [ "$_rc" = "$_want" ]; then return 0; fi
	echo "test_expect_code: '$*' exited $_rc, wanted $_want" >&2
	return 1
}

# test_must_fail cmd...: true when cmd fails in an orderly way (exit 1..125), false on success or a crash/signal.
test_must_fail() {
	"$@"; _rc=$?
	if [ "$_rc" = 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2; return 1
	elif [ "$_rc" -gt 125 ]; then
		echo "test_must_fail: '$*' died (exit $_rc)" >&2; return 1
	fi
	return 0
}

# Deprecated: passes whenever the exit status matches, whatever the checks inside found. Being replaced by test_expect_code.
test_expect_failure_status() { # STATUS 'name' 'commands'
	test_expect_success "$2" "( $3 ); rc=\$?; [ \$rc = $1 ] || { echo \"exit \$rc, wanted $1\"; false; }"
}

test_skip() {
	test_count=$((test_count + 1)); test_skipped=$((test_skipped + 1))
	echo "ok $test_count - # SKIP $1 ($2)"
}

# Compares a file with a golden file; NTUNE_UPDATE_GOLDEN=1 rewrites the golden instead.
test_cmp_golden() {
	if [ "${NTUNE_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$GOLDEN/$1"; return 0; fi
	diff -u "$GOLDEN/$1" "$2"
}

test_need_root() { test_prereq_ROOT; }
# A name unique to this test run, for namespaces and labs.
test_unique() { echo "nt$$$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')"; }

test_done() {
	echo "1..$test_count"
	if [ "$test_failed" -gt 0 ]; then
		echo "# failed $test_failed of $test_count"
		exit 1
	fi
	exit 0
}
