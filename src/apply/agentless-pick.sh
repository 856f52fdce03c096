# The entry of confirm, revert and renew, before their program (after S and I): J, the entry
# named I, or when I is '' the newest one not reverted that holds changes (the C engine's rule:
# a second revert takes the apply before; a failed apply holds none): the latest, else the last
# such in the order of the ids (their time); none there: said, and 10.
# shellcheck shell=sh
if [ -n "$I" ]; then
	J=$S/$I
else
	J=$S/none
	for e in "$S"/*/ "$S/$(cat "$S/latest" 2>/dev/null)/"; do
		e=${e%/}
		[ -e "$e/reverted" ] && continue
		case $(cat "$e/state" 2>/dev/null) in
		applied | confirmed | partial) J=$e ;;
		# One latest does not name stopped before its first set: nothing of it to keep or undo.
		applying) [ "$(cat "$S/latest" 2>/dev/null)" = "${e##*/}" ] && J=$e ;;
		esac
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
