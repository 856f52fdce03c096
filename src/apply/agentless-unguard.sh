# STATE/unguard, after S and R: removes the boot guard's hook (any of the three places
# agentless-guard.sh names) once every journal entry with a lease is confirmed or reverted;
# a partial entry keeps it.
# shellcheck shell=sh
for e in "$S"/*/; do
	e=${e%/}
	[ -f "$e/lease" ] || continue
	[ -e "$e/confirmed" ] || [ -e "$e/reverted" ] || exit 0
done
for h in "$R/usr/local/etc/rc.d/ntune_agentless_guard.sh" \
    "$R/usr/local/etc/rc.syshook.d/start/99-ntune-agentless-guard"; do
	if grep -qx '# ntune-agentless-guard:.*' "$h" 2>/dev/null; then rm -f "$h"; fi
done
rm -f "$R/etc/systemd/system/multi-user.target.wants/ntune-agentless-guard.service" \
	"$R/etc/systemd/system/ntune-agentless-guard.service"
