#!/bin/sh
# ntune apply without touching this machine: dry runs, FreeBSD boot files under --root, usage, the journal.
. "$(dirname "$0")/lib.sh"
export NTUNE_STATE_DIR="$TRASH/state"

test_expect_success 'a dry run reads current values and writes nothing' '
	printf "net.ipv4.ip_forward=1\nnet.core.somaxconn=>1\n" >l.conf &&
	ntune apply --dry-run --root "$TRASH/root" l.conf >out &&
	grep -q "^dry run: " out &&
	grep -q "net.core.somaxconn .* -> 1  (kept (condition not met))" out &&
	test ! -e "$TRASH/root" && test ! -d "$NTUNE_STATE_DIR/journal"
'
test_expect_success 'apply --dry-run --json describes every change' '
	ntune apply --dry-run --json l.conf >out.json &&
	python3 -c "import json; d=json.load(open(\"out.json\")); assert d[\"dry_run\"] and d[\"id\"] is None; c={x[\"name\"]:x for x in d[\"changes\"]}; assert c[\"net.core.somaxconn\"][\"action\"]==\"condition\""
'
test_expect_success 'FreeBSD boot-time tunables go to loader.conf.local under --root, reboot listed' '
	mkdir -p root/boot && printf "kern.hz=100\n" >root/boot/loader.conf.local &&
	printf "net.isr.maxthreads=-1\nnet.isr.bindthreads=1\n" >b.conf &&
	ntune apply --os freebsd --root "$TRASH/root" b.conf >out &&
	cat out &&
	grep -q "persisted in $TRASH/root/boot/loader.conf.local" out &&
	grep -q "^reboot needed for: net.isr.maxthreads net.isr.bindthreads$" out &&
	grep -q "^kern.hz=100$" root/boot/loader.conf.local &&
	grep -q "^# BEGIN ntune" root/boot/loader.conf.local &&
	grep -q "^net.isr.maxthreads=\"-1\"$" root/boot/loader.conf.local
'
test_expect_success 'a second apply merges into the same marked block' '
	printf "net.isr.defaultqlimit=2048\n" >c.conf &&
	ntune apply --os freebsd --root "$TRASH/root" c.conf >/dev/null &&
	test $(grep -c "^# BEGIN ntune" root/boot/loader.conf.local) = 1 &&
	grep -q "^net.isr.maxthreads=\"-1\"$" root/boot/loader.conf.local &&
	grep -q "^net.isr.defaultqlimit=\"2048\"$" root/boot/loader.conf.local
'
test_expect_success 'history lists both applies, revert restores the file of each' '
	ntune history >h && test $(grep -c " applied " h) = 2 &&
	ntune revert >out && grep -q "^reverted " out &&
	! grep -q defaultqlimit root/boot/loader.conf.local &&
	grep -q "^net.isr.maxthreads=\"-1\"$" root/boot/loader.conf.local &&
	ntune revert >/dev/null &&
	printf "kern.hz=100\n" | cmp - root/boot/loader.conf.local &&
	test $(ntune history | grep -c " reverted ") = 2
'
test_expect_success 'history --json and history ID show the journal' '
	ntune history --json >h.json &&
	python3 -c "import json; h=json.load(open(\"h.json\")); assert [e[\"state\"] for e in h]==[\"reverted\",\"reverted\"]" &&
	test_history_first e.json &&
	python3 -c "import json; e=json.load(open(\"e.json\")); c=e[\"changes\"][0]; assert (c[\"name\"], c[\"action\"], c[\"new\"])==(\"net.isr.maxthreads\", \"boot\", \"-1\")"
'
test_expect_success 'nothing left to revert exits 1' 'test_expect_code 1 ntune revert 2>/dev/null'
test_expect_success 'confirm without a pending change exits 1' 'test_expect_code 1 ntune confirm 2>/dev/null'
test_expect_success 'apply without a profile prints usage' 'test_expect_code 2 ntune apply 2>/dev/null'
test_expect_success 'apply of a broken profile exits 2 and names the line' '
	printf "a=\n" >bad.conf && test_expect_code 2 ntune apply bad.conf 2>err && grep -q "bad.conf:1: no value for .a." err
'
test_expect_success 'a bad --confirm exits 2' 'test_expect_code 2 ntune apply --confirm 0 l.conf 2>/dev/null'
test_expect_success 'an unreadable knob stops apply before anything is planned' '
	printf "net.ipv4.ip_forward=1\nnet.ipv4.no_such=1\n" >u.conf &&
	test_expect_code 1 ntune apply --dry-run u.conf 2>err && grep -q "cannot read .net.ipv4.no_such." err
'
test_expect_success 'one journal a box: without NTUNE_STATE_DIR the program here keeps it where --dut keeps a Linux router'"'"'s' '
	printf "net.core.somaxconn=4096\n" >pl.conf &&
	env -u NTUNE_STATE_DIR "$NTUNE" apply --plan pl.conf >plan &&
	grep -qx "S='"'"'/var/lib/ntune-agentless'"'"'" plan &&
	NTUNE_STATE_DIR="$TRASH/st" ntune apply --plan pl.conf >plan &&
	grep -qx "S='"'"'$TRASH/st'"'"'" plan
'
# history lists, and revert takes, entries in the order of their ids as text. Two applies in one
# second by two processes once listed newest first: the id held the pid, which wraps (pid_max
# 32768). A second apply run as pid 1 of a new pid namespace right after one run as usual lists
# after it (red on 90f4e51 whenever both fall in one second; tried until they do).
test_expect_success ROOT 'two applies in one second list oldest first, whatever their pids' '
	command -v unshare >/dev/null &&
	export NTUNE_STATE_DIR="$TRASH/order" &&
	mkdir -p oroot/boot && printf "net.isr.maxthreads=2\n" >o1.conf && printf "net.isr.maxthreads=3\n" >o2.conf &&
	i=0 && same= &&
	while [ -z "$same" ] && [ $i -lt 8 ]; do
		rm -rf "$NTUNE_STATE_DIR" oroot/boot/loader.conf.local &&
		ntune apply --os freebsd --root "$TRASH/oroot" o1.conf >/dev/null &&
		unshare --pid --fork "$NTUNE" apply --os freebsd --root "$TRASH/oroot" o2.conf >/dev/null &&
		ntune history --json >oh.json &&
		same=$(python3 -c "import json; h=json.load(open(\"oh.json\")); print(1 if h[0][\"id\"][:16] == h[1][\"id\"][:16] else \"\")") &&
		i=$((i + 1)) || return 1
	done &&
	test -n "$same" &&
	python3 -c "import json, os; h=json.load(open(\"oh.json\")); assert [os.path.basename(e[\"profile\"]) for e in h] == [\"o1.conf\", \"o2.conf\"], [e[\"id\"] for e in h]"
'
test_done
