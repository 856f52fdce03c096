# The ssh rig of the t62xx tests, sourced after lib.sh: three "hosts" (network namespaces, each with
# its own real OpenSSH server, keys made here) and the controller's namespace, built by
# scripts/ssh-rig.sh and removed at exit. Sets N (the rig's unique name), RIG (its directory), ctl().
test_prereq_SSHD() { [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1; }
test_require ROOT,IP,SSHD
N=$(test_unique)
RIG=$TRASH/rig
mkdir -p "$RIG"
test_at_exit "sh \"$SRCDIR/scripts/ssh-rig.sh\" down \"$RIG\" $N >/dev/null 2>&1"
# sshd and ssh are installed by make deps (SSHD above): a rig that does not come up is a
# failure, never a skip (on 2026-12-05 three tests were skipped in a green run this way).
if ! timeout 90 sh "$SRCDIR/scripts/ssh-rig.sh" up "$RIG" "$N" >"$TRASH/rig.log" 2>&1; then
	cat "$TRASH/rig.log" >&2
	test_expect_success 'the ssh rig comes up within 90 s (scripts/ssh-rig.sh, its log above)' 'false'
	test_done
fi
# Runs a command in the controller's namespace: it reaches the hosts only over ssh.
ctl() { ip netns exec "$N-ctl" "$@"; }
# wait_until SECS COMMAND: until COMMAND (eval'd) succeeds, at most SECS seconds; 1 when it never did.
wait_until() {
	_end=$(($(date +%s) + $1))
	while ! eval "$2" 2>/dev/null; do [ "$(date +%s)" -lt $_end ] || return 1; sleep 0.5; done
}
