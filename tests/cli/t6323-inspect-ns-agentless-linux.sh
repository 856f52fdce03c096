#!/bin/sh
# ntune inspect/snapshot ssh://... of a Linux DUT with no ntune on it (issue 28, "read"): the
# rig's DUT namespace, reached over ssh; the capture script's Linux part (sysctl -a, /proc and
# /sys files through one `head`, the NICs' device links) is put back on the controller as a
# private /proc + /sys tree that the Linux backend reads; what the DUT's kernel tells only through
# ioctls and netlink comes from its ethtool, tc and /proc text (t6328 compares whole snapshots).
# Nothing on the DUT changes; garbage is named (exit 2).
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"

# No ntune reachable on the DUT: the rig's shared bin loses it (gen and sink are not used here).
rm -f "$RIG/bin/ntune"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
D="--ssh-config $RIG/ssh_config"
# The DUT's settings that a read must leave alone.
dut_settings() { ip netns exec "$N-dut" sysctl net.ipv4.ip_forward net.core.somaxconn net.ipv4.conf.dut1.forwarding \
	net.ipv4.conf.dut0.rp_filter; }
dut_settings >"$TRASH/settings.before"

test_expect_success 'the DUT has no ntune' '
	! on_dut command -v ntune && ! on_dut ntune --version &&
	test "$(on_dut uname -s)" = Linux
'
test_expect_success 'inspect ssh://dut: the NICs and sysctls that ntune on the DUT reads' '
	ctl $NTUNE inspect --json ssh://dut $D >ssh.json 2>err && cat err &&
	ip netns exec "$N-dut" $NTUNE inspect --json >live.json &&
	python3 - ssh.json live.json <<-\EOF
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:3])
	assert a["system"]["os"] == "Linux" and a["cpu"]["threads"] == b["cpu"]["threads"], a["cpu"]
	na = {n["name"]: (n["mtu"], n["mac"], n["up"]) for n in a["nics"]}
	nb = {n["name"]: (n["mtu"], n["mac"], n["up"]) for n in b["nics"]}
	assert na == nb and "dut0" in na and "dut1" in na, (na, nb)
	ta = {t["name"]: t["value"] for t in a["tunables"] if not t["name"].startswith("if.")}
	tb = {t["name"]: t["value"] for t in b["tunables"] if not t["name"].startswith("if.")}
	assert ta == tb, [(k, ta.get(k), tb.get(k)) for k in set(ta) | set(tb) if ta.get(k) != tb.get(k)]
	assert ta["net.ipv4.ip_forward"] == "1", ta["net.ipv4.ip_forward"]
	EOF
'
test_expect_success 'snapshot ssh://dut -o FILE: the ntune-inspect schema, the DUT sysctls in it' '
	ctl $NTUNE snapshot ssh://dut $D -o snap.json &&
	grep -q "\"schema\": \"ntune-inspect\"" snap.json &&
	grep -q "\"net.ipv4.conf.dut0.forwarding\": \"1\"" snap.json &&
	$NTUNE inspect --json --from snap.json >snap-inspect.json &&
	grep -q "\"name\": \"dut1\"" snap-inspect.json
'
test_expect_success 'a sysctl printing garbage: exit 2 naming the host, the section and the line' '
	cat >"$RIG/dut/bin/sysctl" <<-EOF &&
	#!/bin/sh
	echo "%%% not sysctl \\\$(touch /tmp/ntune-pwned-$N) %%%"
	exec /sbin/sysctl "\$@"
	EOF
	chmod +x "$RIG/dut/bin/sysctl" &&
	test_when_finished "rm -f \"$RIG/dut/bin/sysctl\"" &&
	test_expect_code 2 ctl $NTUNE inspect ssh://dut $D >out 2>err && cat err &&
	grep -q "^ntune inspect: ssh://dut:sysctl-a.txt:1: not a .name = value. line of sysctl -a: .%%% not sysctl" err &&
	test ! -s out && test ! -e /tmp/ntune-pwned-$N
'
test_expect_success 'nothing on the DUT changed' '
	grep -q "^net.ipv4.conf.dut0.rp_filter = " "$TRASH/settings.before" &&
	dut_settings >settings.after && diff -u "$TRASH/settings.before" settings.after
'
test_done
