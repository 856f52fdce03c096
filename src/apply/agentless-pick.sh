# The entry of confirm, revert and renew, before their program (after S and I): J, the entry
# named I, or when I is '' the newest one not reverted (the C engine's rule: a second revert
# takes the apply before); none there: said, and 10.
# shellcheck shell=sh
if [ -n "$I" ]; then
	J=$S/$I
else
	J=$S/none
	for e in "$S"/*/; do
		e=${e%/}
		if [ -f "$e/state" ] && [ ! -e "$e/reverted" ]; then J=$e; fi
	done
fi
if [ ! -f "$J/state" ]; then
	if [ -n "$I" ]; then
		echo "ntune-agentless: no journal entry ${J##*/} on this host" >&2
	else
		echo "ntune-agentless: no journal entry on this host that is not reverted" >&2
	fi
	return 10
fi
