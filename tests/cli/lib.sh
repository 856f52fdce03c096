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

test_expect_success() {
	test_count=$((test_count + 1))
	if (cd "$TRASH" && eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | tail -40
	fi
}

test_expect_failure_status() { # STATUS 'name' 'commands': the commands must exit with STATUS
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

test_need_root() { [ "$(id -u)" = 0 ]; }
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
