#!/bin/sh
# ntune apply/confirm/revert --dut against a FreeBSD-look DUT with no ntune on it: only its sshd,
# sh and base commands, here the stand-ins of tests/cli/standin/freebsd (sysctl, daemon; nextboot
# from rig-freebsd.sh). The dead-man job runs on the DUT itself: the controller is gone long
# before it fires. Hostile input (a value with shell text, a sysctl printing garbage, a connection
# dropped in the middle of the apply) never leaves the DUT half-applied without its revert job.
# history, verify and export --dut read the DUT's journal over the same ssh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

# No ntune reachable on the DUT: the rig's shared bin loses it (gen and sink are not used here).
rm -f "$RIG/bin/ntune"
cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
D="--dut ssh://dut --ssh-config $RIG/ssh_config --root $RIG/dut/root"
J=$RIG/dut/root/var/db/ntune-agentless
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
printf 'net.isr.dispatch=hybrid\nnet.inet.ip.intr_queue_maxlen=2048\n' >"$TRASH/p.conf"
printf '# the owner'"'"'s own lines\nkern.ipc.somaxconn=1024\n' >"$RIG/dut/root/etc/sysctl.conf.local"
cp "$RIG/dut/root/etc/sysctl.conf.local" "$TRASH/sysctl.conf.local.orig"
originals() {
	test "$(fbsd_oid net.isr.dispatch)" = direct && test "$(fbsd_oid net.inet.ip.intr_queue_maxlen)" = 256 &&
	cmp "$RIG/dut/root/etc/sysctl.conf.local" "$TRASH/sysctl.conf.local.orig" ||
	{ echo "not the originals: $(fbsd_oid net.isr.dispatch) $(fbsd_oid net.inet.ip.intr_queue_maxlen)"; false; }
}

test_expect_success 'the DUT has no ntune, and its sysctl is the FreeBSD stand-in' '
	! on_dut command -v ntune && ! on_dut ntune --version &&
	test "$(on_dut sysctl net.isr.dispatch)" = "net.isr.dispatch: direct"
'
test_expect_success 'apply --dut --plan prints the script and changes nothing' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --plan --confirm 30 >plan &&
	grep -qx "ntune_set '\''net.isr.dispatch'\'' - '\''hybrid'\'' || { ntune_undo 6 \"cannot set net.isr.dispatch\"; return; }" plan &&
	grep -qx "ntune_is '\''net.isr.dispatch'\'' - '\''direct'\'' ||.*" plan &&
	grep -q "^daemon -f -p " plan && tail -n 1 plan | grep -qx "ntune_main \"\$@\"" &&
	originals && test ! -e "$J"
'
test_expect_success 'apply --dut --confirm: set and read back; the DUT reverts itself when nobody confirms' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 10 --no-persist >out && cat out &&
	grep -q "^applied .* on ssh://dut: 2 of 2 settings changed" out &&
	grep -q "^reverts in 10 s unless .ntune confirm --dut ssh://dut " out &&
	test "$(fbsd_oid net.isr.dispatch)" = hybrid && test "$(fbsd_oid net.inet.ip.intr_queue_maxlen)" = 2048 &&
	id=$(cat "$J/latest") && test "$(cat "$J/$id/state")" = applied &&
	wait_until 30 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" &&
	originals && test "$(cat "$J/$id/reverted")" = "dead-man timer" && test "$(cat "$J/$id/state")" = reverted
'
test_expect_success 'confirm --dut stops the dead-man job' '
	ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 8 --no-persist >out &&
	ctl $NTUNE confirm $D >out && cat out && grep -q "^ssh://dut: ntune-agentless: confirmed " out &&
	sleep 10 && test "$(fbsd_oid net.isr.dispatch)" = hybrid &&
	ctl $NTUNE revert $D >out && grep -q "reverted" out && originals
'
test_expect_success 'a persisted apply, then revert --dut: the files back byte for byte' '
	ctl $NTUNE apply "$TRASH/p.conf" $D >out && cat out &&
	grep -qx "net.isr.dispatch=hybrid" "$RIG/dut/root/etc/sysctl.conf.local" &&
	grep -qx "kern.ipc.somaxconn=1024" "$RIG/dut/root/etc/sysctl.conf.local" &&
	ctl $NTUNE revert $D >out && cat out && originals
'
test_expect_success 'history --dut over ssh lists the entries; verify and export --dut read the reverted one' '
	ctl $NTUNE history $D >out && cat out && id=$(cat "$J/latest") &&
	grep -q "^$id  *20[0-9T:-]*Z  *reverted  *2  *$TRASH/p.conf$" out &&
	test_expect_code 1 ctl $NTUNE verify "$id" $D >out &&
	grep -qx "$id:1: net.isr.dispatch: wanted hybrid, actual direct" out &&
	ctl $NTUNE export "$id" $D --format sysctl >out && grep -qx "net.isr.dispatch=hybrid" out
'
test_expect_success 'a value with shell text is refused before anything is sent; nothing changed' '
	printf "net.isr.dispatch=\$(touch /tmp/ntune-pwned-$N)\n" >"$TRASH/bad.conf" &&
	test_expect_code 1 ctl $NTUNE apply "$TRASH/bad.conf" $D --force --confirm 30 2>err && cat err &&
	grep -q "agentless mode refuses the value" err && test ! -e /tmp/ntune-pwned-$N && originals
'
test_expect_success 'a knob name with shell text is refused with its file and line (exit 2); nothing ran, nothing changed' '
	ls "$J" >before &&
	printf "net.isr.dispatch\$(touch /tmp/ntune-pwned-$N)=hybrid\n" >"$TRASH/badname.conf" &&
	test_expect_code 2 ctl $NTUNE apply "$TRASH/badname.conf" $D --force --confirm 30 2>err && cat err &&
	grep -q "badname.conf:1: bad character .\$. in name" err &&
	test ! -e /tmp/ntune-pwned-$N && ls "$J" | diff - before && originals
'
test_expect_success 'a sysctl printing garbage: refused, nothing changed, no journal entry' '
	ls "$J" >before &&
	mv "$RIG/dut/bin/sysctl" "$RIG/dut/bin/sysctl.real" &&
	printf "#!/bin/sh\nprintf \"net.isr.dispatch=direct\\\\nevil.oid=\\\$(touch /tmp/ntune-pwned-$N)\\\\n\"\n" >"$RIG/dut/bin/sysctl" &&
	chmod +x "$RIG/dut/bin/sysctl" &&
	test_when_finished "mv \"$RIG/dut/bin/sysctl.real\" \"$RIG/dut/bin/sysctl\"" &&
	test_expect_code 1 ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 30 2>err && cat err &&
	grep -q "sysctl -e printed a line that is not one asked for: .evil.oid=" err &&
	ls "$J" | diff - before && test ! -e /tmp/ntune-pwned-$N
'
test_expect_success 'a full /var on the DUT (its restore program cut short): nothing set, exit 2, the DUT says why' '
	ls "$J" >before &&
	cat >"$RIG/dut/bin/cat" <<-\EOF &&
	#!/bin/sh
	# cat(1) on a full file system: the restore program stops at 40 bytes and cat exits 0.
	case $(readlink "/proc/$$/fd/1") in */restore) head -c 40; exit 0 ;; esac
	exec /bin/cat "$@"
	EOF
	chmod +x "$RIG/dut/bin/cat" &&
	test_when_finished "rm -f \"$RIG/dut/bin/cat\"" &&
	test_expect_code 2 ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 30 2>err && cat err &&
	grep -q "a write before the first set failed; nothing set" err &&
	grep -q "cannot write the restore program; nothing set" err &&
	originals && ls "$J" | diff - before
'
test_expect_success 'the connection dropped in the middle of the apply: the DUT job restores everything' '
	mv "$RIG/dut/bin/sysctl" "$RIG/dut/bin/sysctl.real" &&
	test_when_finished "mv \"$RIG/dut/bin/sysctl.real\" \"$RIG/dut/bin/sysctl\"" &&
	cat >"$RIG/dut/bin/sysctl" <<-EOF &&
	#!/bin/sh
	# Kills the sshd of this session at the first set of net.inet.ip.intr_queue_maxlen.
	case "\$*" in net.inet.ip.intr_queue_maxlen=2048)
		p=\$\$
		while [ "\$p" -gt 1 ]; do
			p=\$(awk "/^PPid:/ { print \\\$2 }" /proc/\$p/status)
			case \$(cat /proc/\$p/comm) in sshd*) kill -9 \$p; break ;; esac
		done ;;
	esac
	exec "$RIG/dut/bin/sysctl.real" "\$@"
	EOF
	chmod +x "$RIG/dut/bin/sysctl" &&
	test_expect_code 1 ctl $NTUNE apply "$TRASH/p.conf" $D --confirm 5 --no-persist 2>err && cat err &&
	grep -q "the DUT.s own dead-man job restores the originals" err &&
	wait_until 20 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct && test \"\$(fbsd_oid net.inet.ip.intr_queue_maxlen)\" = 256" &&
	originals
'
test_done
