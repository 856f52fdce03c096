# The boot guard (STATE/boot-guard), after S, R and agentless-lib.sh: started at boot by the
# hook a persisted apply with a dead-man wrote (FreeBSD, pfSense:
# /usr/local/etc/rc.d/ntune_agentless_guard.sh; OPNsense:
# /usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard; Linux: the systemd unit
# ntune-agentless-guard.service). Each journal entry with a lease, neither confirmed nor
# reverted, whose wait job does not run already (a hook run twice in one boot), gets its
# lease again from this boot, then its originals back unless the controller renews,
# confirms or reverts it in time.
# shellcheck shell=sh
for e in "$S"/*/; do
	J=${e%/}
	if [ ! -f "$J/lease" ] || [ ! -f "$J/wait" ]; then continue; fi
	{ [ -e "$J/confirmed" ] || [ -e "$J/reverted" ]; } && continue
	ntune_job && continue
	l=$(cat "$J/lease")
	case $l in '' | *[!0-9]*) l=0 ;; esac
	echo $(($(ntune_now) + l)) >"$J/deadline.tmp" && mv "$J/deadline.tmp" "$J/deadline"
	sh "$J/wait" "$J" 'boot guard' &
	echo $! >"$J/deadman.pid"
done
wait
sh "$S/unguard"
