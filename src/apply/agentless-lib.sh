# The shell functions of ntune's agentless programs (apply, its restore and wait programs,
# keep, confirm, revert, renew). src/apply/remote_script.c puts this file into each program it
# sends a DUT, after the DUT's ntune_now, ntune_get and ntune_set (and ntune_self, where ntune
# runs the programs on its own machine), the lines around ntune's
# block in a boot file (ntune_b, ntune_e: APPLY_BLOCK_BEGIN and _END of src/apply/apply.h, the
# one definition) and the variables S (the journal directory), R (the root prefix) and, but in
# the entry-picking programs, J (the entry).
# POSIX sh: FreeBSD's sh, dash, BusyBox ash. The build embeds it (src/apply/meson.build).
# shellcheck shell=sh
# shellcheck disable=SC2154 # ntune_b, ntune_e: set before this file

# Is the dead-man job of $J running? Its pid (in p) is checked to be that job: a pid from
# before a reboot may be another process now.
ntune_job() {
	[ -f "$J/deadman.pid" ] || return 1
	p=$(cat "$J/deadman.pid" 2>/dev/null)
	case $p in '' | *[!0-9]*) return 1 ;; esac
	kill -0 "$p" 2>/dev/null || return 1
	if [ -r "/proc/$p/cmdline" ]; then
		c=$(tr '\0' ' ' <"/proc/$p/cmdline")
	else
		c=$(ps -o args= -p "$p" 2>/dev/null)
	fi
	case $c in *"$J/wait"*) return 0 ;; esac
	return 1
}

# The dead-man job stopped (its wait program stops its sleep on TERM).
ntune_kill() {
	if ntune_job; then kill "$p" 2>/dev/null; fi
	return 0
}

# The dead-man job proven alive: its pid file written and that process running (5 s).
ntune_alive() {
	i=0
	while [ $i -lt 50 ]; do
		ntune_job && return 0
		sleep 0.1 2>/dev/null || sleep 1
		i=$((i + 1))
	done
	return 1
}

# Linux: the dead-man job of $J started detached, its pid in $J/deadman.pid. Under systemd
# (/run/systemd/system, sd_booted(3)'s test) a transient service of its own (systemd-run), which
# the end of the admin's login session does not stop (logind's KillUserProcesses=yes kills
# everything in the session's scope, setsid or not); elsewhere setsid nohup.
ntune_deadman() {
	if [ -d "$R/run/systemd/system" ] && command -v systemd-run >/dev/null 2>&1; then
		u="ntune-deadman-${J##*/}"
		systemd-run --quiet --collect --unit="$u" sh "$J/wait" "$J" 'dead-man timer' \
			</dev/null >/dev/null 2>&1 || return 1
		i=0
		while p=$(systemctl show -p MainPID --value "$u" 2>/dev/null) && [ "${p:-0}" = 0 ] &&
			[ $i -lt 50 ]; do
			sleep 0.1 2>/dev/null || sleep 1
			i=$((i + 1))
		done
		echo "$p" >"$J/deadman.pid"
	else
		setsid nohup sh "$J/wait" "$J" 'dead-man timer' </dev/null >/dev/null 2>&1 &
		echo $! >"$J/deadman.pid"
	fi
}

ntune_unguard() {
	if [ -f "$S/unguard" ]; then sh "$S/unguard"; fi
	return 0
}

# ntune_is NAME PATH VALUE: the knob reads VALUE (in v), runs of blanks as one space (Linux
# prints tcp_rmem with tabs); a knob of `ntune knob` (PATH @..., a run on ntune's own machine)
# as apply compares values: `ntune knob same` (the knowledge base's on = 1, CPU masks, numbers).
# shellcheck disable=SC2154 # ntune_self: set where a PATH @... can be (rscript.self)
ntune_is() {
	v=$(ntune_get "$1" "$2") || return 1
	case $2 in
	@*) [ "$v" = "$3" ] || "$ntune_self" knob same "$1" "$v" "$3" ;;
	*) [ "$(printf '%s' "$v" | tr -s ' \t' '  ')" = "$(printf '%s' "$3" | tr -s ' \t' '  ')" ] ;;
	esac
}

# ntune_put FILE: standard input into FILE, which must end with the line '# ntune: end'
# (a full file system cuts it short: then it fails).
ntune_put() {
	cat >"$1" && [ "$(tail -n 1 "$1")" = '# ntune: end' ]
}

# ntune_state WORD: the entry's state written and read back.
ntune_state() {
	echo "$1" >"$J/state" && [ "$(cat "$J/state")" = "$1" ]
}

# ntune_save FILE NR: FILE copied to $J/backup.NR and compared, or $J/absent.NR made.
ntune_save() {
	if [ -e "$1" ]; then
		cp -p "$1" "$J/backup.$2" && cmp -s "$1" "$J/backup.$2"
	else
		: >"$J/absent.$2"
	fi
}

# Standard input without ntune's block; with only ntune's block.
ntune_strip() {
	awk -v b="$ntune_b" -v e="$ntune_e" '$0 == b { s = 1; next } s && $0 == e { s = 0; next } !s'
}
ntune_only() {
	awk -v b="$ntune_b" -v e="$ntune_e" '$0 == b { s = 1 } s { print } $0 == e { s = 0 }'
}

# ntune_move TMP FILE: TMP, complete (its last line is want, or no line is wanted: ''),
# renamed over FILE; TMP removed when not.
ntune_move() {
	if [ -z "$want" ] || [ "$(tail -n 1 "$1")" = "$want" ]; then
		chmod 644 "$1" && mv "$1" "$2" && return 0
	fi
	rm -f "$1"
	return 1
}

# ntune_block FILE NAME...: ntune's block in FILE replaced by standard input's (its begin line,
# the lines of NAME..., its end line) with, after its begin line, the lines of FILE's block (an
# earlier apply's) that set no NAME; written to a temporary file next to FILE (its directory
# made) and renamed.
ntune_block() {
	bf=$1
	shift
	mkdir -p "${bf%/*}" && t=$(mktemp "$bf.XXXXXX") || return 1
	{
		if [ -e "$bf" ]; then ntune_strip <"$bf"; fi
		IFS= read -r l && printf '%s\n' "$l" &&
			if [ -e "$bf" ]; then ntune_only <"$bf" | ntune_kept "$@"; fi && cat
	} >"$t" || { rm -f "$t"; return 1; }
	want=$ntune_e ntune_move "$t" "$bf"
}

# ntune_kept NAME...: the lines of the block on standard input, without its begin and end lines,
# that set none of NAME (NAME=VALUE, NAME="VALUE" or NAME = VALUE).
ntune_kept() {
	awk -v b="$ntune_b" -v e="$ntune_e" -v names=" $* " '$0 == b || $0 == e { next }
	{ k = $0; sub(/[ \t]*=.*/, "", k); if (index(names, " " k " ") == 0) print }'
}

# ntune_unblock FILE NR: FILE as the apply found it, byte for byte, when nothing outside
# ntune's block changed since; else only ntune's block put back as it was (or removed).
ntune_unblock() {
	if [ -e "$J/backup.$2" ]; then
		t=$(mktemp "$1.XXXXXX") || return 1
		if [ -e "$1" ] && [ "$(ntune_strip <"$1")" = "$(ntune_strip <"$J/backup.$2")" ]; then
			cp "$J/backup.$2" "$t"
		else
			{
				if [ -e "$1" ]; then ntune_strip <"$1"; fi
				ntune_only <"$J/backup.$2"
			} >"$t"
		fi || { rm -f "$t"; return 1; }
		want='' ntune_move "$t" "$1"
	elif [ -e "$J/absent.$2" ] && [ -e "$1" ]; then
		if [ -z "$(ntune_strip <"$1")" ]; then
			rm -f "$1"
		else
			t=$(mktemp "$1.XXXXXX") && { ntune_strip <"$1" >"$t" || { rm -f "$t"; return 1; }; } &&
				want='' ntune_move "$t" "$1"
		fi
	fi
}

# ntune_back NAME PATH OLD (the restore program): OLD set and read back; else the knob and
# what it reads are said, and added to $J/left, and ok=1. A knob of a namespace that is gone
# (ip-netns(8) names one by /run/netns/NAME; NTUNE_NETNS_DIR for the tests) has nothing left
# to put back.
# shellcheck disable=SC2034 # ok: the restore program's exit status
ntune_back() {
	case $2 in @?*) [ -e "${NTUNE_NETNS_DIR:-/run/netns}/${2#@}" ] || return 0 ;; esac
	ntune_set "$1" "$2" "$3" 2>/dev/null
	ntune_is "$1" "$2" "$3" && return 0
	ok=1
	echo "ntune-agentless: $1 left at '$v', not restored to '$3'" >&2
	echo "$1=$v" >>"$J/left"
}

# ntune_undo CODE WHY: after a failure while setting: every original back, read back; then
# CODE. When one cannot be put back: the entry is partial, the dead-man and the boot guard
# stay (they try again; `ntune revert` does too), and 12.
ntune_undo() {
	if sh "$J/restore"; then
		echo "ntune-agentless: $2; everything restored and read back" >&2
		echo failed >"$J/state"
		: >"$J/reverted"
		ntune_kill
		ntune_unguard
		return "$1"
	fi
	echo partial >"$J/state"
	echo "ntune-agentless: $2; NOT everything restored: ${J##*/} is partial, its dead-man and" \
		"boot guard stay until a revert succeeds" >&2
	return 12
}

# ntune_abort CODE WHY: a step before the first set failed: nothing was set; the entry goes.
ntune_abort() {
	echo "ntune-agentless: $2; nothing set" >&2
	ntune_kill
	rm -rf "$J"
	ntune_unguard
	return "$1"
}

# ntune_lock: one change at a time on this host: $S/lock, made by mkdir, holds the pid of
# its sh; a lock whose pid runs no more is stale and taken. Released when the program ends.
# A lock without its pid yet is being taken (mkdir, then the pid): it gets 3 s to say who.
# Is process $1 running? A zombie (ended, not yet reaped by its parent) is not, though kill -0
# finds it: the state field of /proc/PID/stat after the command's ')' (Linux), else ps(1)'s.
ntune_running() {
	kill -0 "$1" 2>/dev/null || return 1
	if [ -r "/proc/$1/stat" ]; then
		z=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)
	else
		z=$(ps -o state= -p "$1" 2>/dev/null)
	fi
	case $z in Z*) return 1 ;; esac
	return 0
}

ntune_lock() {
	mkdir -p "$S" || return 3
	if ! mkdir "$S/lock" 2>/dev/null; then
		l=$(cat "$S/lock/pid" 2>/dev/null)
		i=0
		while [ -z "$l" ] && [ -d "$S/lock" ] && [ $i -lt 30 ]; do
			sleep 0.1 2>/dev/null || sleep 1
			l=$(cat "$S/lock/pid" 2>/dev/null)
			i=$((i + 1))
		done
		case $l in '' | *[!0-9]*) l=0 ;; esac
		if [ "$l" != 0 ] && ntune_running "$l"; then
			echo "ntune-agentless: another ntune change runs on this host (pid $l)" >&2
			return 14
		fi
		rm -rf "$S/lock"
		mkdir "$S/lock" 2>/dev/null || {
			echo "ntune-agentless: another ntune change took the lock first" >&2
			return 14
		}
	fi
	echo $$ >"$S/lock/pid" || {
		rm -rf "$S/lock"
		echo "ntune-agentless: cannot write in $S; nothing set" >&2
		return 11
	}
	trap 'if [ "$(cat "$S/lock/pid" 2>/dev/null)" = $$ ]; then rm -rf "$S/lock"; fi' EXIT
}

# ntune_pending: no entry is neither confirmed nor reverted (else it is named, and 15). An
# entry applied without a dead-man (by an ntune before confirmed marked those) is done.
ntune_pending() {
	for e in "$S"/*/; do
		e=${e%/}
		[ -f "$e/state" ] || continue
		{ [ -e "$e/confirmed" ] || [ -e "$e/reverted" ]; } && continue
		case $(cat "$e/state") in
		applied) [ -f "$e/deadman.pid" ] || [ -f "$e/lease" ] || continue ;;
		# Stopped before its first set (latest is written just before the sets) unless latest.
		applying) [ "$(cat "$S/latest" 2>/dev/null)" = "${e##*/}" ] || continue ;;
		partial) ;;
		*) continue ;;
		esac
		echo "ntune-agentless: journal entry ${e##*/} is neither confirmed nor reverted" \
			"($(cat "$e/state")): confirm or revert it first" >&2
		return 15
	done
	return 0
}
