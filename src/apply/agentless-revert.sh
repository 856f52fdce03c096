# revert (after S, R, I, agentless-lib.sh and -pick.sh: J): entry I (or the latest) put back by
# its restore program, holding the lock. One mkdir (ENTRY/decided) decides between it, the dead-
# man and a confirm. A restore that cannot put every original back leaves the entry partial: the
# dead-man stays and tries again, as a later revert does. Exit 10: no such entry; 13: the dead-
# man came first; 12: partial; 14: another change runs (remote_script.h).
# shellcheck shell=sh
if [ -e "$J/reverted" ]; then
	echo "ntune-agentless: ${J##*/} is reverted already ($(cat "$J/reverted"))"
	return 0
fi
ntune_lock || return
if ! mkdir "$J/decided" 2>/dev/null && [ ! -e "$J/confirmed" ]; then
	echo "ntune-agentless: ${J##*/} is already reverting (its dead-man came first)" >&2
	return 13
fi
if ! sh "$J/restore"; then
	echo partial >"$J/state"
	rm -f "$J/confirmed"
	rmdir "$J/decided"
	echo "ntune-agentless: ${J##*/} is partial: the knobs above are not back; revert again" \
		"once the kernel takes them" >&2
	return 12
fi
echo user >"$J/reverted"
ntune_kill
echo reverted >"$J/state"
ntune_unguard
echo "ntune-agentless: reverted ${J##*/}"
