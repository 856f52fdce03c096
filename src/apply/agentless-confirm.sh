# confirm (after S, R, I, agentless-lib.sh and -pick.sh: J): entry I (or the latest) kept. Its
# dead-man is stopped; after a --trial-boot's boot, its keep program writes the tunables into
# loader.conf.local. One mkdir (ENTRY/decided) decides between confirm, the dead-man and a
# revert: a confirm that loses says so. Exit 10: no such entry, or reverted already; 13: the
# dead-man or a revert came first; 8: the trial could not be kept; 16: this boot did not have
# the trial (its keep program asks kenv(1)), so nothing is kept (remote_script.h).
# shellcheck shell=sh
if [ -e "$J/reverted" ]; then
	echo "ntune-agentless: ${J##*/} was already reverted ($(cat "$J/reverted"))" >&2
	return 10
fi
if ! mkdir "$J/decided" 2>/dev/null && [ ! -e "$J/confirmed" ]; then
	echo "ntune-agentless: ${J##*/} is already reverting (its dead-man or a revert came first)" >&2
	return 13
fi
: >"$J/confirmed"
ntune_kill
if [ -f "$J/keep" ]; then
	if [ -f "$R/boot/nextboot.conf" ] && head -n 1 "$R/boot/nextboot.conf" |
		grep -qx 'nextboot_enable="YES"'; then
		echo "ntune-agentless: ${J##*/}: its trial boot is still waiting (reboot, then confirm)"
		return 0
	fi
	sh "$J/keep"
	k=$?
	if [ $k = 16 ]; then
		echo "ntune-agentless: ${J##*/}: its trial is not kept; revert it, or reboot to try again" >&2
		return 16
	fi
	[ $k = 0 ] || {
		echo "ntune-agentless: cannot keep the trial in loader.conf.local" >&2
		return 8
	}
	rm -f "$J/keep"
fi
echo confirmed >"$J/state"
ntune_unguard
echo "ntune-agentless: confirmed ${J##*/}"
