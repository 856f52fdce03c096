#!/bin/sh
# ntune doctor ssh://... of the rig's Linux DUT with no ntune on it (issue 28 item 2, Linux): the
# capture script's Linux branch runs over one ssh connection in the DUT's namespace (sysctl -a,
# ip, /proc and /sys through one head, /etc/sysctl.conf and each /etc/sysctl.d file after its
# "# file:" line, two /proc samples a second apart). The DUT's /etc/sysctl.conf and
# /etc/sysctl.d are planted files bound over the real ones in the DUT sshd's own mount namespace
# only (the rig's boot-hook); the forum lines in 60-net-tuning.conf are named useless for
# forwarding by file:line, /etc/sysctl.conf's line that was never applied is not in effect
# (the running value beside it), the bench commands are ones bench --plan accepts, and nothing on the
# DUT changes: its sysctls, its planted files, its state directory.
# test-set: full
. "$(dirname "$0")/lib.sh"
RIG=$TRASH/rig
ETC=$RIG/dut/etc
mkdir -p "$ETC/sysctl.d"
cat >"$ETC/sysctl.conf" <<\EOF2
# /etc/sysctl.conf of the rig's DUT
net.ipv4.conf.all.rp_filter = 2
EOF2
cat >"$ETC/sysctl.d/10-router.conf" <<\EOF2
net.ipv4.ip_forward = 1
EOF2
cat >"$ETC/sysctl.d/60-net-tuning.conf" <<\EOF2
# from a forum thread
net.core.rmem_max = 16777216
net.core.wmem_max = 16777216
net.ipv4.tcp_rmem = 4096 87380 16777216
net.ipv4.tcp_wmem = 4096 65536 16777216
EOF2
# Run by scripts/ssh-rig.sh in the DUT sshd's mount namespace before sshd, at every boot.
cat >"$RIG/dut/boot-hook" <<EOF2
#!/bin/sh
mount --bind "$ETC/sysctl.conf" /etc/sysctl.conf && mount --bind "$ETC/sysctl.d" /etc/sysctl.d
EOF2
chmod +x "$RIG/dut/boot-hook"
. "$(dirname "$0")/rig.sh"

# No ntune reachable on the DUT: the rig's shared bin loses it (gen and sink are not used here).
rm -f "$RIG/bin/ntune"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
D="--ssh-config $RIG/ssh_config --duration 1"
dut_settings() { ip netns exec "$N-dut" sysctl net.ipv4.ip_forward net.ipv4.tcp_rmem net.ipv4.tcp_wmem \
	net.ipv4.conf.all.rp_filter net.ipv4.conf.dut0.rp_filter net.core.somaxconn; }
dut_files() { (cd "$RIG/dut" && find etc state -type f | LC_ALL=C sort | xargs -r sha256sum); }
dut_settings >"$TRASH/settings.before"
dut_files >"$TRASH/files.before"

test_expect_success 'the DUT has no ntune; its /etc/sysctl.d is the planted one, the host'"'"'s is not' '
	! on_dut command -v ntune && ! on_dut ntune --version &&
	test "$(on_dut uname -s)" = Linux &&
	on_dut cat /etc/sysctl.d/60-net-tuning.conf | grep -q "^net.core.rmem_max = 16777216$" &&
	! grep -qs "^net.core.rmem_max = 16777216$" /etc/sysctl.d/60-net-tuning.conf
'
test_expect_success 'doctor ssh://dut: the forum lines useless for forwarding by file:line, exit 1' '
	test_expect_code 1 ctl $NTUNE doctor ssh://dut $D -o out >list 2>err && cat list err &&
	grep -q "^ntune doctor: [^,]*, linux [^,]*, [0-9]* CPUs, NICs .*dut0" list &&
	grep -Eq "; samples [0-9]+\.[0-9]{2} s apart \(by the CPU tick counters\)$" list &&
	grep -q "wasted: useless for forwarding (certain)" list &&
	sed -n "/wasted: useless/,/^[0-9]*\. \|^fine:/p" list >wasted &&
	n=2 && for k in net.core.rmem_max net.core.wmem_max net.ipv4.tcp_rmem net.ipv4.tcp_wmem; do
		grep -q "^   /etc/sysctl.d/60-net-tuning.conf:$n: $k=" wasted || { echo "not named: $k at line $n"; exit 1; }
		n=$((n + 1))
	done &&
	grep -q "^  /etc/sysctl.d/10-router.conf:1: net.ipv4.ip_forward=1" list &&
	rp=$(ip netns exec "$N-dut" sysctl -n net.ipv4.conf.all.rp_filter) &&
	test "$rp" != 2 &&
	grep -q "^1\. not-in-effect: not in effect (certain)$" list &&
	grep -q "^   /etc/sysctl.conf:2: net.ipv4.conf.all.rp_filter=2, running $rp$" list &&
	! grep -q "99-sysctl.conf\|README.sysctl" list
'
test_expect_success 'the JSON: a Linux system, the samples read (CPU load of every CPU), the capture kept' '
	python3 - <<-\PY &&
	import json
	d = json.load(open("out/doctor.json"))
	assert d["schema"] == "ntune-doctor" and d["source"] == "ssh://dut" and d["dut"] == "ssh://dut", d["source"]
	s = d["system"]
	assert s["platform"] == "linux" and s["ncpu"] >= 1, s
	assert {"dut0", "dut1"} <= {n["name"] for n in s["nics"]}, s["nics"]
	# the ticks of /proc/stat between the samples: at least the 1 s of top, within the clock steps
	t0, t1 = (int(x) for x in open("out/capture/clock.txt").read().split())
	assert d["interval_from"] == "cpu-ticks", (d["interval_from"], d.get("interval_note"))
	assert 0.9 <= d["interval_s"] <= t1 - t0 + 1.01, (d["interval_s"], t1 - t0)
	assert len(d["cpu"]) == s["ncpu"], d["cpu"]
	w = [i for i in d["items"] if i["kind"] == "wasted"][0]
	assert {c["file"] for c in w["changes"]} == {"/etc/sysctl.d/60-net-tuning.conf"}, w
	PY
	grep -q "^# file: /etc/sysctl.d/60-net-tuning.conf$" out/capture/sysctl.conf.local &&
	cmp "$ETC/sysctl.conf" out/capture/sysctl.conf &&
	grep -q "^cpu " out/capture/before.txt && grep -q "^Inter-|" out/capture/after.txt &&
	grep -Eq "^([0-9a-f]{8} ){2,}[0-9a-f]{8}$" out/capture/after.txt &&
	! grep -q "no /proc/net/softnet_stat" list
'
test_expect_success 'the bench command of the wasted lines is one ntune bench accepts (--plan: nothing started)' '
	cmd=$(sed -n "/wasted: useless/,/^[0-9]*\. \|^fine:/s/^   prove:  \(.*\)   (expect no difference)$/\1/p" list) &&
	case $cmd in "ntune bench out/profiles/current.conf out/profiles/"*"-useless-for-forwarding.conf --dut ssh://dut"*) ;; *) echo "$cmd"; false ;; esac &&
	ntune ${cmd#ntune } --ssh-config "$RIG/ssh_config" --plan >plan &&
	grep -q "^plan: 2 profiles on ssh://dut" plan && grep -q "nothing was started" plan
'
test_expect_success 'a DUT that cannot be reached: exit 2 naming the host, nothing written' '
	test_expect_code 2 ctl $NTUNE doctor ssh://nohost.invalid $D -o out2 >stdout 2>err &&
	test ! -s stdout && test ! -e out2 && grep -q "^ntune doctor: .*nohost.invalid" err
'
test_expect_success 'nothing on the DUT changed: its sysctls, its planted files, its state directory' '
	dut_settings >settings.after && diff -u "$TRASH/settings.before" settings.after &&
	dut_files >files.after && diff -u "$TRASH/files.before" files.after &&
	grep -q " etc/sysctl.d/60-net-tuning.conf$" files.after &&
	test -z "$(ls -A "$RIG/dut/state")"
'
test_done
