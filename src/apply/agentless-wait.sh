# The dead-man of a journal entry: sh wait ENTRY WHO. At the time in ENTRY/deadline (on the
# clock of ntune_now, defined before this file: seconds since boot, which a step of the date
# does not move), unless the entry is confirmed or reverted first, its restore program puts
# the originals back and WHO goes into ENTRY/reverted. One mkdir (ENTRY/decided) decides
# between it and a confirm or a revert. A restore that cannot put everything back leaves the
# entry partial and is tried again every 30 s. It waits while the apply still runs (the entry
# applying, the lock's process alive): a restore between its sets would leave half of each.
# TERM stops it and its sleep.
# shellcheck shell=sh
J=$1
s=
trap 'if [ -n "$s" ]; then kill "$s" 2>/dev/null; fi; exit 0' TERM
while [ ! -e "$J/confirmed" ] && [ ! -e "$J/reverted" ]; do
	# One reading of the clock a round, before the entry's state: a running apply holds it off.
	now=$(ntune_now)
	d=$(cat "$J/deadline" 2>/dev/null)
	case $d in '' | *[!0-9]*) d=0 ;; esac
	if [ "$(cat "$J/state" 2>/dev/null)" = applying ]; then
		l=$(cat "${J%/*}/lock/pid" 2>/dev/null)
		case $l in '' | *[!0-9]*) ;; *) kill -0 "$l" 2>/dev/null && d=$((now + 1)) ;; esac
	fi
	n=1
	if [ "$now" -ge "$d" ] && mkdir "$J/decided" 2>/dev/null; then
		if sh "$J/restore"; then
			echo "$2" >"$J/reverted"
			echo reverted >"$J/state"
			break
		fi
		echo partial >"$J/state"
		rmdir "$J/decided"
		n=30
	fi
	sleep $n &
	s=$!
	wait $s
done
if [ -f "${J%/*}/unguard" ]; then sh "${J%/*}/unguard"; fi
# ntune: end
