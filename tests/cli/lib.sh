# Shell test library in the style of git's t/test-lib.sh.
# Each test file: . "$(dirname "$0")/lib.sh"; test_expect_success 'what a user observes' 'commands'; test_done
# Environment: NTUNE (binary), SRCDIR (source root); TMPDIR per file, removed at exit.
set -u
: "${NTUNE:=$(cd "$(dirname "$0")/../.." && pwd)/build/ntune}"
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export NTUNE SRCDIR
# The host lock (tests/README.md). Tests run in parallel; what they share is the host: its
# host-wide sysctls (netdev_max_backlog, nf_conntrack_max: every namespace's traffic goes through
# them) and its CPUs (a figure measured under load moves when another test loads them). A file
# with the line '# test-lock: exclusive' (it changes host-wide state, or asserts on a figure another
# test's load would move) runs alone among the locked ones; every other *-ns-* file takes the lock
# shared. Run as root only (the others skip what needs root). The file is run again under
# flock -o, so nothing it starts (sshd, dead-man timers) holds the lock after it ends.
if [ -z "${NTUNE_TEST_LOCKED:-}" ] && [ "$(id -u)" = 0 ] && command -v flock >/dev/null 2>&1; then
	_lock=
	case ${0##*/} in *-ns-*|*-ns.sh) _lock=-s ;; esac
	grep -qx '# test-lock: exclusive' "$0" 2>/dev/null && _lock=-x
	# Fair to the exclusive ones: one waits in LOCK.queue, which a shared one passes through
	# first, so shared files that keep coming do not keep it waiting (nor past meson's timeout).
	_l=${NTUNE_TEST_LOCK:-/run/lock/ntune-tests.lock}
	export NTUNE_TEST_LOCKED="${0##*/}"
	if [ "$_lock" = -x ]; then
		exec flock -o -x "$_l.queue" flock -o -x "$_l" /bin/sh "$0" "$@"
	elif [ -n "$_lock" ]; then
		flock -x "$_l.queue" true
		exec flock -o -s "$_l" /bin/sh "$0" "$@"
	fi
	unset NTUNE_TEST_LOCKED
fi
GOLDEN="$SRCDIR/tests/cli/golden"
FIXTURES="$SRCDIR/tests/fixtures"
SHARED_FIXTURES="$SRCDIR/../shared/fixtures"
# TuneD's own profiles, downloaded and extracted (never installed) by scripts/deps.sh.
TUNED_PROFILES="${NTUNE_TUNED_PROFILES:-/usr/local/share/ntune/peers/tuned/current}"
test_count=0; test_failed=0; test_skipped=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/ntune-test.XXXXXX")
# The file's TMPDIR is in the trash: what ntune or a test leaves there fails the test that
# left it, named (test_tmp_clean), instead of piling up in /tmp. Its path is short (24 bytes
# under /tmp) so that ntune's ssh control directory goes there too (src/remote/ssh.c); "_",
# a name no test uses for its own files.
mkdir "$TRASH/_" && TMPDIR="$TRASH/_" && export TMPDIR
# Cleanup commands go to a file, so a test body (a subshell) can register them too; last first.
test_at_exit() { { echo "$1"; cat "$TRASH/.cleanup" 2>/dev/null || :; } >"$TRASH/.cleanup.new" && mv "$TRASH/.cleanup.new" "$TRASH/.cleanup"; }
trap '[ -f "$TRASH/.cleanup" ] && . "$TRASH/.cleanup"; rm -rf "$TRASH"' EXIT
trap 'exit 130' INT TERM

ntune() { "$NTUNE" "$@"; }

# Prerequisites, as in git's test-lib: a test may name them (comma-separated) before its title.
# Each is a word whose check is test_prereq_NAME; test_set_prereq/test_unset_prereq fix one's answer.
# NTUNE_TEST_NO_ROOT=1 (the Debian package's test run, debian/rules): as if not root.
test_prereq_ROOT() { [ "$(id -u)" = 0 ] && [ "${NTUNE_TEST_NO_ROOT:-0}" != 1 ]; }
test_prereq_IP() { command -v ip >/dev/null 2>&1; }
test_prereq_IPERF3() { command -v iperf3 >/dev/null 2>&1; }
test_prereq_MINISTAT() { command -v ministat >/dev/null 2>&1; }
test_prereq_MANDOC() { command -v mandoc >/dev/null 2>&1; }
test_prereq_TMUX() { command -v tmux >/dev/null 2>&1; }
test_prereq_SETSID() { command -v setsid >/dev/null 2>&1; }
test_prereq_SCRIPT() { command -v script >/dev/null 2>&1; }
test_prereq_CHROMIUM() { command -v chromium >/dev/null 2>&1; }
test_prereq_SHARED_FIXTURES() { [ -d "$SHARED_FIXTURES/real" ]; }
test_prereq_TUNED_PROFILES() { [ -f "$TUNED_PROFILES/network-throughput/tuned.conf" ]; }
# The netdev netlink family lists an interface's NAPI threads from Linux 6.9.
test_prereq_NAPI_PIDS() {
	v=$(uname -r) && maj=${v%%.*} && rest=${v#*.} && min=${rest%%[!0-9]*} &&
	{ [ "$maj" -gt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -ge 9 ]; }; }
}
# Fixtures that may be absent from a trimmed source tree.
test_prereq_SEED_FIXTURES() { [ -d "$FIXTURES/os/seed000-dec750" ]; }
test_prereq_REAL_FIXTURES() { [ -d "$FIXTURES/os/real" ]; }
# Speed assertions hold only for a build without sanitizers (meson passes NTUNE_SANITIZE).
test_prereq_NOT_SANITIZED() { [ "${NTUNE_SANITIZE:-none}" = none ]; }
test_set_prereq() { eval "test_prereq_$1() { :; }"; }
test_unset_prereq() { eval "test_prereq_$1() { false; }"; }
# test_have_prereq A,B: true when every named prerequisite holds; names the first missing one in $test_missing_prereq.
test_have_prereq() {
	test_missing_prereq=
	_ifs=$IFS; IFS=,
	set -- $1
	IFS=$_ifs
	for _p; do
		if ! command -v "test_prereq_$_p" >/dev/null 2>&1 || ! "test_prereq_$_p"; then
			test_missing_prereq=$_p
			return 1
		fi
	done
	return 0
}

# test_expect_success [PREREQ,...] 'name' 'commands': the commands, joined by &&, must succeed.
# A body whose &&-chain is broken (a check whose failure would be ignored) fails as a bug in the test,
# as git's chain lint does: with the chain intact, "(exit 117) && body" runs nothing and returns 117.
test_expect_success() {
	_prereq=
	if [ $# = 3 ]; then _prereq=$1; shift; fi
	[ $# = 2 ] || { echo "bug in the test script: test_expect_success takes [PREREQ] NAME BODY" >&2; exit 2; }
	if [ -n "$_prereq" ] && ! test_have_prereq "$_prereq"; then
		test_skip "$1" "missing $test_missing_prereq"
		return 0
	fi
	test_count=$((test_count + 1))
	_lint=$( (cd "$TRASH" && eval "(exit 117) && $2") >/dev/null 2>&1; echo $?)
	if [ "$_lint" != 117 ]; then
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		echo "#   bug in the test script: broken &&-chain (a command whose failure is not checked)"
		return 0
	fi
	_ok=0
	(cd "$TRASH" && test_cleanup= && { eval "$2"; test_run_cleanup $?; }) >"$TRASH/.out" 2>&1 9>&1 || _ok=1
	test_tmp_clean >>"$TRASH/.out" 2>&1 || _ok=1
	if [ $_ok = 0 ]; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | tail -40
	fi
}

# test_killed_tmp: a controller killed by SIGKILL cannot remove its temporary folders (a
# capture's tree, ssh's control folder): the test that killed it removes them, and only those.
test_killed_tmp() { rm -rf "$TMPDIR"/ntune-capture-* "$TMPDIR"/ntune-ssh.*; }

# test_tmp_clean: false, naming them, when files were left in TMPDIR (removed then, so the
# next test starts clean); a command that makes temporary files must remove them.
test_tmp_clean() {
	[ -d "$TRASH/_" ] || mkdir "$TRASH/_"
	_left=$(cd "$TRASH/_" && ls -A)
	[ -z "$_left" ] && return 0
	echo "left behind in TMPDIR (would be in /tmp outside the tests): $(echo $_left)"
	rm -rf "$TRASH/_" && mkdir "$TRASH/_"
	return 1
}

# test_say MESSAGE: a helper's diagnostic goes to the test's log (fd 9) even when the command's
# stderr is redirected to a file, as git's test_expect_code writes to its fd 4.
test_say() {
	{ echo "$1" >&9; } 2>/dev/null || echo "$1" >&2
}

# test_when_finished 'cmd': inside a test body, run cmd when the test ends, passed or failed (last first);
# a cleanup that fails fails the test, as in git.
test_when_finished() {
	test_cleanup="{ $1
} || test_cleanup_failed=1
$test_cleanup"
}
test_run_cleanup() {
	test_cleanup_failed=
	eval "$test_cleanup"
	if [ -n "$test_cleanup_failed" ]; then
		echo "test_when_finished: a cleanup command failed" >&2
		return 1
	fi
	return "$1"
}

# test_expect_code N cmd...: true only when cmd exits with status N, so it chains with && like git's.
test_expect_code() {
	_want=$1; shift
	_rc=0; "$@" || _rc=$?
	if [ "$_rc" = "$_want" ]; then return 0; fi
	test_say "test_expect_code: '$*' exited $_rc, wanted $_want"
	return 1
}

# test_must_fail cmd...: true when cmd fails in an orderly way (exit 1..125), false on success or a crash/signal.
test_must_fail() {
	_rc=0; "$@" || _rc=$?
	if [ "$_rc" = 0 ]; then
		test_say "test_must_fail: '$*' succeeded"; return 1
	elif [ "$_rc" -gt 125 ]; then
		test_say "test_must_fail: '$*' died (exit $_rc)"; return 1
	fi
	return 0
}

# test_skip 'name' 'reason': one test not run, as TAP says it ("ok N # SKIP ...").
test_skip() {
	test_count=$((test_count + 1)); test_skipped=$((test_skipped + 1))
	echo "ok $test_count # SKIP $1 ($2)"
}

# test_require PREREQ,...: the whole file needs these (for set-up outside the tests); without one it is skipped.
test_require() {
	test_have_prereq "$1" || test_skip_all "missing $test_missing_prereq"
}

# test_skip_all 'reason': stop here; the tests not yet run are skipped. Exit 77 is meson's "skipped".
test_skip_all() {
	if [ "$test_count" = 0 ]; then
		echo "1..0 # SKIP $1"
		exit 77
	fi
	echo "# the rest is skipped: $1"
	test_done
}

# Compares a file with a golden file; NTUNE_UPDATE_GOLDEN=1 rewrites the golden instead.
test_cmp_golden() {
	if [ "${NTUNE_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$GOLDEN/$1"; return 0; fi
	diff -u "$GOLDEN/$1" "$2"
}

# A name unique to this test run, for namespaces and labs.
test_unique() { echo "nt$$$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')"; }

# test_lab_files: `ntune lab` keeps the state of the labs this file makes in the trash
# (NTUNE_LAB_DIR), not with the machine's other labs.
test_lab_files() {
	NTUNE_LAB_DIR="$TRASH/labstate"
	export NTUNE_LAB_DIR
}

# test_lab_up: a route lab of this file's own for all its tests (needs root and ip, else the
# file is skipped): P its prefix, ntune's journal in the trash (NTUNE_STATE_DIR), taken down
# at exit; if it does not come up the rest of the file is skipped.
test_lab_up() {
	test_require ROOT,IP
	P=$(test_unique)
	NTUNE_STATE_DIR="$TRASH/state"
	export NTUNE_STATE_DIR
	ntune lab up --prefix "$P" >/dev/null 2>&1 || test_skip_all 'lab up failed'
	test_at_exit "\"$NTUNE\" lab down --prefix $P >/dev/null 2>&1"
}

# test_wait_for TEXT FILE: until FILE holds TEXT (a grep pattern), at most 10 s.
test_wait_for() {
	_i=0
	while ! grep -q "$1" "$2" 2>/dev/null && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
}

# test_unlocked: until the apply journal's lock ($NTUNE_STATE_DIR/lock) has no live holder, or
# 5 s. A killed apply program's sh may stay a zombie a moment, until init reaps it, which
# kill -0 still finds (the stale-lock rule of src/apply/agentless-lib.sh).
test_unlocked() {
	_i=0
	while [ -f "$NTUNE_STATE_DIR/lock/pid" ] && kill -0 "$(cat "$NTUNE_STATE_DIR/lock/pid")" 2>/dev/null &&
	    [ $_i -lt 100 ]; do
		sleep 0.05; _i=$((_i + 1))
	done
}

# test_history_first FILE: `ntune history ID` of the first entry `ntune history --json` lists, into FILE.
test_history_first() {
	_id=$(ntune history --json | python3 -c "import json, sys; print(json.load(sys.stdin)[0][\"id\"])") &&
	ntune history "$_id" >"$1"
}

# Exit 1 when a test failed; 77 (meson's "skipped") when every test was skipped.
test_done() {
	echo "1..$test_count"
	if [ "$test_failed" -gt 0 ]; then
		echo "# failed $test_failed of $test_count"
		exit 1
	fi
	if [ "$test_count" -gt 0 ] && [ "$test_skipped" = "$test_count" ]; then
		exit 77
	fi
	exit 0
}
