# The entry of confirm, revert and renew, before their program (after S and I): J, the entry
# named I, or the latest when I is ''; none there: said, and 10.
# shellcheck shell=sh
if [ -n "$I" ]; then
	J=$S/$I
elif [ -f "$S/latest" ]; then
	J=$S/$(cat "$S/latest")
else
	J=$S/none
fi
if [ ! -f "$J/state" ]; then
	echo "ntune-agentless: no journal entry ${J##*/} on this host" >&2
	return 10
fi
