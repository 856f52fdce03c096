#!/bin/sh
# A hostile DUT inside a bench (agentless, the FreeBSD-look DUT of rig-freebsd.sh with no ntune):
# its sysctl starts printing garbage after the first run, a profile's value carries shell
# text, its ssh connection is dropped in the middle of a run. Each time the bench stops with an
# error that names the DUT and what went wrong, the DUT ends with its original settings (put back
# by the bench, or by its own dead-man job once the connection is gone), and nothing that was
# not given as data ran there (the marker file a `$(touch ...)` would make never appears).
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig-freebsd.sh"
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts; the DUT gets the FreeBSD stand-ins.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune" "$RIG/bin/ntune-fbsd"
cp "$SRCDIR/tests/cli/standin/freebsd/sysctl" "$SRCDIR/tests/cli/standin/freebsd/daemon" "$RIG/dut/bin/"
J=$RIG/dut/root/var/db/ntune-agentless
M=/tmp/ntune-pwned-$N
mkdir -p "$J"
test_at_exit "rm -f $M"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
HOSTS="--dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
# The originals: the runtime values as the rig's boot made them, nothing of ours in the boot
# files, no journal entry left applied (or applying), no marker.
originals() {
	test "$(fbsd_oid net.isr.dispatch)" = direct && test "$(fbsd_oid net.inet.ip.intr_queue_maxlen)" = 256 &&
	! grep -qs "net.isr" "$RIG/dut/root/etc/sysctl.conf.local" "$RIG/dut/root/boot/loader.conf.local" &&
	! grep -lxE "applied|applying" "$J"/*/state 2>/dev/null | grep -q . && test ! -e "$M" ||
	{ echo "not the originals: $(fbsd_oid net.isr.dispatch) $(fbsd_oid net.inet.ip.intr_queue_maxlen)"
	  grep . "$J"/*/state; ls -l "$M" 2>/dev/null; false; }
}
printf '' >"$TRASH/base.conf"
printf 'net.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=1024\n' >"$TRASH/rt.conf"

test_expect_success 'the DUT has no ntune: only its stand-ins answer' '
	! on_dut command -v ntune && test "$(on_dut sysctl -n net.isr.dispatch)" = direct && originals
'
# The DUT's sysctl: honest until a profile was applied and reverted once (the first run of
# rt); then every read answers with what $RIG/dut/garbage says: "lines", lines nobody asked
# for, carrying shell text; "value", the OID asked for with shell text as its value.
mv "$RIG/dut/bin/sysctl" "$RIG/dut/bin/sysctl.real"
cat >"$RIG/dut/bin/sysctl" <<EOF
#!/bin/sh
case "\$*" in *=*) exec "$RIG/dut/bin/sysctl.real" "\$@" ;; esac
if ls "$J"/*/reverted >/dev/null 2>&1; then
	case \$(cat "$RIG/dut/garbage" 2>/dev/null) in
	lines)
		echo "evil.oid=\\\`touch $M\\\`"
		echo "kern.cp_times: x y \\\$(touch $M)"
		exit 0 ;;
	value)
		for a; do case \$a in -*) ;; *) echo "\$a=\\\$(touch $M)" ;; esac; done
		exit 0 ;;
	esac
fi
exec "$RIG/dut/bin/sysctl.real" "\$@"
EOF
chmod +x "$RIG/dut/bin/sysctl"
# garbage MODE: the bench of base and rt stops at the second apply of rt, with what it said.
garbage() {
	echo "$1" >"$RIG/dut/garbage" && rm -rf "$J" && mkdir -p "$J" &&
	{ test_expect_code 1 ctl timeout 300 $NTUNE bench $HOSTS --runs 2 --max-runs 2 --duration 0.5 --warmup 0 \
		--seed 1 -o "g-$1" "$TRASH/base.conf" "$TRASH/rt.conf" >out 2>err || { cat err; false; }; } && cat err &&
	tail -n 1 err | grep -x "ntune bench: settings restored; partial results kept in g-$1 (marked incomplete)" &&
	test -s "g-$1/runs.jsonl" && ls "$J" | grep -vx latest >new && test -s new &&
	test "$(cat "$J/$(head -n 1 new)/reverted")" = user && : >"$RIG/dut/garbage" && originals
}
test_expect_success 'its sysctl prints lines nobody asked for after the first run: the bench stops, the DUT restored' '
	garbage lines &&
	grep -q "^ntune bench: cannot apply .rt. on ssh://dut: .*sysctl -e printed a line that is not one asked for: .evil.oid=.touch $M" err
'
test_expect_success 'its sysctl answers with shell text as the value after the first run: refused, the DUT restored' '
	garbage value &&
	grep -q "^ntune bench: cannot apply .rt. on ssh://dut: agentless mode refuses the original value .\$(touch $M). of .net.isr.dispatch." err
'
test_expect_success 'a profile value with shell text: refused before the first run, nothing sent, nothing ran' '
	printf "net.isr.dispatch=\$(touch $M)\n" >"$TRASH/bad1.conf" &&
	printf "net.inet.tcp.functions_default=freebsd;touch $M\n" >"$TRASH/bad2.conf" &&
	printf "net.inet.tcp.functions_default=\`touch $M\`\n" >"$TRASH/bad3.conf" &&
	printf "net.inet.tcp.functions_default=\$(touch $M)\n" >"$TRASH/bad4.conf" &&
	ls "$J" >before &&
	test_expect_code 2 ctl timeout 120 $NTUNE bench $HOSTS --runs 2 --max-runs 2 --duration 0.5 \
		--warmup 0 --seed 1 -o bad1 "$TRASH/base.conf" "$TRASH/bad1.conf" >out 2>err &&
	cat err && grep -q "bad1.conf:1: net.isr.dispatch: .\$(touch $M). is not one of" err &&
	for b in bad2 bad3 bad4; do
		test_expect_code 2 ctl timeout 120 $NTUNE bench $HOSTS --runs 2 --max-runs 2 --duration 0.5 \
			--warmup 0 --seed 1 -o "$b" "$TRASH/base.conf" "$TRASH/$b.conf" >out 2>err &&
		cat err && grep -q "$b.conf:1: agentless mode refuses the value .* of .net.inet.tcp.functions_default." err &&
		test ! -s "$b/runs.jsonl" || return 1
	done &&
	ls "$J" | diff - before && originals
'
test_expect_success 'the ssh connection dropped in the middle of a run: the bench stops, the DUT job restores' '
	printf "net.isr.dispatch=hybrid\n" >"$TRASH/rt2.conf" &&
	ls "$J" >before &&
	{ ip netns exec "$N-ctl" timeout 300 $NTUNE bench $HOSTS --runs 2 --max-runs 2 --duration 20 --warmup 0 \
		--seed 1 --dut-confirm 40 -o b2 "$TRASH/rt.conf" "$TRASH/rt2.conf" >out 2>err & } &&
	pid=$! &&
	wait_until 120 "ls \"\$J\" | grep -vxF -f before | grep -vx latest | grep -q ." &&
	e=$(ls "$J" | grep -vxF -f before | grep -vx latest | head -n 1) &&
	wait_until 30 "test \"\$(cat \"\$J/\$e/state\")\" = applied" && sleep 2 &&
	test_when_finished "ip netns exec $N-dut nft delete table inet hostile 2>/dev/null || :" &&
	ip netns exec "$N-dut" nft -f - <<-\EOF &&
	table inet hostile {
		chain in { type filter hook input priority 0; tcp dport 22 reject with tcp reset; }
	}
	EOF
	for p in $(ip netns pids "$N-dut"); do
		test "$p" != "$(cat "$RIG/dut/sshd.pid")" && test "$(cat /proc/$p/comm 2>/dev/null)" = sshd &&
			kill -9 "$p" 2>/dev/null; :
	done &&
	t0=$(date +%s) &&
	{ wait $pid; rc=$?; } && echo "bench exit $rc after $(($(date +%s) - t0)) s" && cat err &&
	test $rc = 1 &&
	grep -q "^ntune bench: cannot read the counters of ssh://dut: .*Connection refused" err &&
	grep -q "reverts itself when its --confirm time runs out; or run .ntune revert --dut ssh://dut $e." err &&
	tail -n 1 err | grep -x "ntune bench: settings NOT restored: journal entry $e on ssh://dut is still applied (see above); partial results kept in b2 (marked incomplete)" &&
	test "$(cat "$J/$e/state")" = applied && test ! -e "$J/$e/reverted" &&
	ip netns exec "$N-dut" nft delete table inet hostile &&
	wait_until 60 "test \"\$(fbsd_oid net.isr.dispatch)\" = direct" &&
	wait_until 10 "test \"\$(cat \"\$J/\$e/state\")\" = reverted" &&
	test "$(cat "$J/$e/reverted")" = "dead-man timer" &&
	originals
'
test_done
