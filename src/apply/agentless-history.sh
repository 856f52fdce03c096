# The journal read back (history; an entry for verify, diff and export), after S and I (one
# entry's name, or '' for all): each entry as lines of tab-separated fields, the first
# '@ ID', then what its files say (src/apply/remote_script.h), and last the DUT's clock
# (ntune_now, the deadlines' clock).
# It writes nothing.
# shellcheck shell=sh
f=0
for e in "$S"/*/; do
	e=${e%/}
	[ -f "$e/state" ] || continue
	[ -z "$I" ] || [ "${e##*/}" = "$I" ] || continue
	f=1
	printf '@\t%s\nstate\t%s\n' "${e##*/}" "$(cat "$e/state")"
	[ ! -e "$e/confirmed" ] || echo confirmed
	[ ! -f "$e/keep" ] || echo trial
	[ ! -e "$e/reverted" ] || printf 'reverted\t%s\n' "$(cat "$e/reverted")"
	[ ! -f "$e/deadline" ] || printf 'deadline\t%s\n' "$(cat "$e/deadline")"
	[ ! -f "$e/left" ] || awk '{ print "left\t" $0 }' "$e/left"
	[ ! -f "$e/entry" ] || grep -v '^# ntune: end$' "$e/entry"
done
if [ -n "$I" ] && [ $f = 0 ]; then
	echo "ntune-agentless: no journal entry $I on this host" >&2
	return 10
fi
printf 'now\t%s\n' "$(ntune_now)"
