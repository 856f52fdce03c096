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
# A bench, tune or rfc2544 --dut reaches the DUT agentless, the ntune on the rig's DUT unused
# (issue 35): the DUT's journal of agentless applies under --dut-root $RIG/dut/root (Linux's;
# rig-freebsd.sh sets FreeBSD's; remote_script.h); dut_clean when no entry is left applied (or
# applying) there, and none was ever made by an ntune on the DUT (its own journal, $RIG/dut/state).
DUT_J=${DUT_J:-$RIG/dut/root/var/lib/ntune-agentless}
dut_clean() {
	! grep -lxE "applied|applying" "$DUT_J"/*/state 2>/dev/null | grep -q . &&
	test -z "$(NTUNE_STATE_DIR="$RIG/dut/state" "$NTUNE" history 2>/dev/null | grep -E " (applied|applying|reverted|confirmed) ")" ||
	{ echo "left on the DUT:"; grep . "$DUT_J"/*/state; NTUNE_STATE_DIR="$RIG/dut/state" "$NTUNE" history; false; }
}
