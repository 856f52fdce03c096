#!/bin/sh
# ntune inspect/snapshot ssh://... of a FreeBSD-look DUT with no ntune on it (issue 28, "read"):
# only its sshd, sh and base commands, here the stand-ins of tests/cli/standin/freebsd printing
# seed 000's DEC750 (tests/fixtures/dut/seed000-dec750, ../os/seed000-dec750). The capture script
# goes over one ssh connection; the answer is parsed on the controller by the --from parsers, so
# inspect ssh://dut is inspect --from of the same files. Nothing on the DUT changes; a command
# printing garbage, or a host that is not there, is an error naming it (exit 2).
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"

SEED=$FIXTURES/os/seed000-dec750
FIX=$FIXTURES/dut/seed000-dec750
DATA=$RIG/dut/standin
# No ntune reachable on the DUT: the rig's shared bin loses it (gen and sink are not used here).
rm -f "$RIG/bin/ntune"
mkdir -p "$DATA" "$RIG/dut/root/boot" "$RIG/dut/root/conf"
cp "$SEED/ifconfig-a.txt" "$SEED/pciconf-lv.txt" "$SEED/vmstat-i.txt" "$SEED/top-P.txt" "$SEED/cpuset-irq.txt" \
	"$FIX/uname.txt" "$FIX/kenv.txt" "$FIX/netstat-ibnd.txt" "$FIX/netstat-Q.txt" \
	"$FIX/netstat-m.txt" "$FIX/opnsense-version.txt" "$DATA/"
cat "$SEED/sysctl-a.txt" "$FIX/sysctl-extra.txt" >"$DATA/sysctl-a.txt"
cp "$FIX/root/boot/loader.conf.local" "$RIG/dut/root/boot/"
cp "$FIX/root/conf/config.xml" "$RIG/dut/root/conf/"
# The DUT's commands: each stand-in, told where its text is (first on the DUT's PATH).
for c in sysctl kenv ifconfig pciconf vmstat netstat top uname dmesg opnsense-version cpuset; do
	cat >"$RIG/dut/bin/$c" <<-EOF
	#!/bin/sh
	STANDIN_DIR=$DATA SYSCTL_STANDIN_MIB=$DATA/sysctl-a.txt exec $SRCDIR/tests/cli/standin/freebsd/$c "\$@"
	EOF
	chmod +x "$RIG/dut/bin/$c"
done
D="--ssh-config $RIG/ssh_config --dut-root $RIG/dut/root"
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
# Every file the DUT has for these tests, with its checksum (and the MIB): what must not change.
dut_sums() { (cd "$RIG/dut" && find root standin -type f | LC_ALL=C sort | xargs sha256sum); }
dut_sums >"$TRASH/sums.before"

test_expect_success 'the DUT has no ntune; its uname, sysctl and top are the FreeBSD stand-ins' '
	! on_dut command -v ntune && ! on_dut ntune --version &&
	test "$(on_dut uname -s)" = FreeBSD &&
	test "$(on_dut sysctl kern.osrelease)" = "kern.osrelease: 13.2-RELEASE-p7" &&
	s=$(date +%s) && on_dut top -b -HSP -s 1 -d 2 >top.out && test $(($(date +%s) - s)) -ge 1 &&
	test "$(grep -c "^CPU 0:" top.out)" = 2
'
test_expect_success 'inspect ssh://dut is inspect --from the same files' '
	ctl $NTUNE inspect --json ssh://dut $D >ssh.json 2>err && cat err &&
	$NTUNE inspect --json --from "$DATA/sysctl-a.txt" --from "$DATA/ifconfig-a.txt" \
		--from "$DATA/pciconf-lv.txt" --from "$DATA/vmstat-i.txt" --from "$DATA/netstat-Q.txt" \
		--from "$DATA/netstat-ibnd.txt" --from "$DATA/top-P.txt" --from "$DATA/cpuset-irq.txt" >files.json &&
	diff -u files.json ssh.json &&
	python3 -c "import json,sys; q=[q for n in json.load(open(\"ssh.json\"))[\"nics\"] if n[\"name\"]==\"ax0\" for q in n[\"queues\"]]; assert [x.get(\"irq_cpu\") for x in q]==[0,1,2,3], q" &&
	grep -q "\"name\": \"ax0\"" ssh.json && grep -q "\"platform\": \"opnsense\"" ssh.json &&
	ctl $NTUNE inspect ssh://dut $D >ssh.txt && grep -q "^  os  *FreeBSD 13.2-RELEASE-p7 (OPNsense)" ssh.txt
'
test_expect_success 'snapshot ssh://dut -o FILE: the ntune-inspect schema, the DUT boot files in it' '
	ctl $NTUNE snapshot ssh://dut $D -o snap.json &&
	grep -q "\"schema\": \"ntune-inspect\"" snap.json &&
	grep -q "\"path\": \"/boot/loader.conf.local\"" snap.json &&
	grep -q "kern.ipc.nmbclusters=..1000000" snap.json &&
	! grep -q "password" snap.json &&
	python3 - snap.json <<-\EOF &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert len(d["cpu_times"]) == 8 and d["cpu_times"][0]["user"] == 96351, d["cpu_times"][:1]
	c = {i["name"]: i for i in d["if_counters"]}
	assert c["ax0"]["idrops"] == 11873 and c["ax1"]["odrops"] == 204, c
	EOF
	$NTUNE inspect --json --from snap.json >snap-inspect.json &&
	grep -q "\"name\": \"ax1\"" snap-inspect.json
'
test_expect_success 'nothing on the DUT changed: its files and its MIB are byte for byte the same' '
	grep -q " root/boot/loader.conf.local$" "$TRASH/sums.before" &&
	grep -q " standin/sysctl-a.txt$" "$TRASH/sums.before" &&
	dut_sums >sums.after && diff -u "$TRASH/sums.before" sums.after &&
	! ls "$RIG/dut/home" | grep -q .
'
test_expect_success 'a DUT command printing garbage: exit 2 naming the host, the section and the line' '
	mv "$RIG/dut/bin/vmstat" "$RIG/dut/bin/vmstat.real" &&
	test_when_finished "mv \"$RIG/dut/bin/vmstat.real\" \"$RIG/dut/bin/vmstat\"" &&
	cat >"$RIG/dut/bin/vmstat" <<-EOF &&
	#!/bin/sh
	"$RIG/dut/bin/vmstat.real" "\$@" | sed "3a\\\\
	%%% garbage %%% \\\$(touch /tmp/ntune-pwned-$N)"
	EOF
	chmod +x "$RIG/dut/bin/vmstat" &&
	test_expect_code 2 ctl $NTUNE inspect ssh://dut $D >out 2>err && cat err &&
	grep -qx "ntune inspect: ssh://dut:vmstat-i.txt:4: unrecognized line (1 in all)" err &&
	test ! -s out && test ! -e /tmp/ntune-pwned-$N
'
test_expect_success 'a sysctl printing garbage from its first line: exit 2, named' '
	mv "$RIG/dut/bin/sysctl" "$RIG/dut/bin/sysctl.real" &&
	test_when_finished "mv \"$RIG/dut/bin/sysctl.real\" \"$RIG/dut/bin/sysctl\"" &&
	cat >"$RIG/dut/bin/sysctl" <<-EOF &&
	#!/bin/sh
	echo "%%% not sysctl %%%"
	exec "$RIG/dut/bin/sysctl.real" "\$@"
	EOF
	chmod +x "$RIG/dut/bin/sysctl" &&
	test_expect_code 2 ctl $NTUNE snapshot ssh://dut $D -o bad.json 2>err && cat err &&
	grep -qx "ntune snapshot: ssh://dut:sysctl-a.txt:1: unrecognized line (1 in all)" err &&
	test ! -e bad.json
'
test_expect_success 'a host that cannot be reached is named: exit 2' '
	test_expect_code 2 ctl $NTUNE inspect ssh://nohost.invalid $D 2>err && cat err &&
	grep -q "^ntune inspect: cannot read .ssh://nohost.invalid.: " err
'
test_expect_success 'the DUT is still as it was' '
	dut_sums >sums.after && diff -u "$TRASH/sums.before" sums.after
'
test_done
