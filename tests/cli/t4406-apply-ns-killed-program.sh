#!/bin/sh
# apply's program killed after its Nth read of a knob, before, between and after its sets (a
# cat stand-in kills its process group: the sh dies as on a crash or a cut connection), with no
# hook in the program: `ntune revert` restores the exact previous state, and a program killed
# before its first set leaves nothing to revert and nothing that blocks the next apply. Inside
# a namespace this test makes (ip netns exec). Red on the merge of the engine (e188a3f) before
# fcae37a: an entry killed before its first set stayed "applying", refused every later apply
# as pending and could not be reverted (no latest, no restore program).
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
NS=$(test_unique)
ip netns add "$NS" || test_skip_all 'ip netns add failed'
test_at_exit "ip netns del $NS 2>/dev/null"
export NTUNE_STATE_DIR="$TRASH/state"
inns() { ip netns exec "$NS" "$@"; }
state() {
	inns sh -c "cd /proc/sys && cat net/ipv4/ip_forward net/ipv4/ip_default_ttl net/ipv4/tcp_syn_retries \
	    net/core/somaxconn net/ipv4/tcp_fin_timeout"
}
state >"$TRASH/before"
cat >"$TRASH/p.conf" <<EOF2
net.ipv4.tcp_fin_timeout=41
net.ipv4.ip_default_ttl=98
net.core.somaxconn=778
net.ipv4.tcp_syn_retries=4
net.ipv4.ip_forward=1
EOF2
mkdir -p "$TRASH/bin" && cat >"$TRASH/bin/cat" <<'EOCAT'
#!/bin/sh
# The program's reads of /proc/sys counted; at the KILL_AT-th, its process group killed.
case $1 in
/proc/sys/*)
	n=$(($(/bin/cat "$CATS" 2>/dev/null || echo 0) + 1)) && echo $n >"$CATS"
	[ "$n" = "$KILL_AT" ] && kill -KILL 0 ;;
esac
exec /bin/cat "$@"
EOCAT
chmod +x "$TRASH/bin/cat"
export CATS="$TRASH/cats"
# 5 knobs: reads 1-5 are ntune reading the originals, 6-10 the program checking them again
# before its first set, 11-15 its read-back after the sets. A program killed before its first
# set leaves an entry "applying" that neither blocks the next apply nor needs a revert.
for n in 1 6 10 11 15; do
	test_expect_success "the program killed at its read $n of a knob: revert leaves the state before" "
		rm -f \"\$CATS\" &&
		! inns env PATH=\"\$TRASH/bin:\$PATH\" KILL_AT=$n \"\$NTUNE\" apply --no-persist \"\$TRASH/p.conf\" >out 2>&1 &&
		cat out && state >killed && test_unlocked &&
		{ inns \"\$NTUNE\" revert >/dev/null || cmp -s \"\$TRASH/before\" killed; } &&
		state >after && cmp \"\$TRASH/before\" after &&
		{ cmp -s \"\$TRASH/before\" killed || echo $n >>\"\$TRASH/changed\"; }
	"
done
test_expect_success 'some of those kills came after a set (the revert had work to do)' '
	test -s "$TRASH/changed" && cat "$TRASH/changed"
'
test_expect_success 'after them all, an apply runs to the end and reverts exactly: none of them blocks it' '
	inns "$NTUNE" apply --no-persist "$TRASH/p.conf" >/dev/null &&
	test "$(inns cat /proc/sys/net/ipv4/ip_default_ttl)" = 98 &&
	ntune history | tail -n 1 | grep -q " applied " &&
	inns "$NTUNE" revert >/dev/null && state >after && cmp "$TRASH/before" after
'
test_done
