# renew (after S, R, I, agentless-lib.sh and -pick.sh: J): a guarded entry's lease again from
# now (the bench before each run): its dead-man and boot guard wait that long again. Nothing for
# an entry without a lease. Exit 10: no such entry, or reverted already (remote_script.h).
# shellcheck shell=sh
if [ -e "$J/reverted" ]; then
	echo "ntune-agentless: ${J##*/} was reverted already ($(cat "$J/reverted"))" >&2
	return 10
fi
if [ -f "$J/lease" ]; then
	l=$(cat "$J/lease")
	echo $(($(ntune_now) + l)) >"$J/deadline.tmp" && mv "$J/deadline.tmp" "$J/deadline" || return 1
	echo "ntune-agentless: ${J##*/} renewed for $l s"
fi
