#!/bin/sh
# No value is ever shell text (issue 34): a profile copied from a forum with ' $(...) ` ; or a
# newline in a string value is an error of `ntune check` naming its line, and `ntune export
# --format sh|ansible` writes no script of it, --force or not. What it writes quotes every word:
# run with stand-in commands, the script passes each value as one argument and runs nothing else.
# Red on 405000c: check said nothing of kern.hostname='x'\''; touch ...', and export --force
# wrote `sysctl 'kern.hostname=x'; touch .../canary; echo ''` and `tc ... root x;touch ...`,
# whose run made the canary.
. "$(dirname "$0")/lib.sh"

# Stand-ins that only record their arguments, one a line.
cd "$TRASH" && mkdir bin || exit 1
for c in sysctl tc ethtool ip; do
	printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done >>"%s/calls.%s"\n' "$PWD" "$c" >"bin/$c"
	chmod +x "bin/$c"
done
C="$PWD/canary"
# Each hostile value, one a line: a quote, $(...), backticks, a ; and a | of their own.
cat >values <<EOF
x'; touch $C; echo '
\$(touch $C)
\`touch $C\`
fq;touch $C
fq|touch $C
EOF

test_expect_success 'check makes shell text in a string value an error naming file:line (FreeBSD and Linux)' '
	n=0 &&
	while IFS= read -r v; do
		n=$((n + 1)) &&
		printf "kern.ipc.somaxconn=1024\nkern.hostname=%s\n" "$v" >bsd$n.conf &&
		test_expect_code 1 ntune check bsd$n.conf --os freebsd >out 2>&1 &&
		grep -q "^bsd$n.conf:2: error: kern.hostname: .* has shell metacharacters" out &&
		printf "net.ipv4.tcp_congestion_control=%s\n" "$v" >lnx$n.conf &&
		test_expect_code 1 ntune check lnx$n.conf --os linux >out 2>&1 &&
		grep -q "^lnx$n.conf:1: error: net.ipv4.tcp_congestion_control: .* has shell metacharacters" out &&
		printf "if.eth0.qdisc=%s\n" "$v" >qd$n.conf || return 1
	done <values &&
	test $n = 5
'
test_expect_success 'export --format sh and ansible write nothing of them, --force or not; nothing runs' '
	for p in bsd1 bsd2 bsd3 bsd4 bsd5 lnx1 lnx2 lnx3 lnx4 lnx5 qd1 qd2 qd3 qd4 qd5; do
		for f in sh ansible; do
			test_expect_code 1 ntune export $p.conf --format $f --force >$p.$f 2>err &&
			test ! -s $p.$f &&
			grep -q "^$p.conf:[12]: error: .* refuses the value" err &&
			grep -q "cannot go into a $f script; nothing written (--force does not change this)" err &&
			test_expect_code 1 ntune export $p.conf --format $f >$p.$f 2>err &&
			test ! -s $p.$f || return 1
		done &&
		PATH="$PWD/bin:$PATH" sh $p.sh || return 1
	done &&
	test ! -e "$C"
'
test_expect_success 'a newline in an XML value is one space in one quoted word; the script runs nothing else' '
	printf "<sysctl><item><tunable>kern.hostname</tunable><value>r1\ntouch %s</value></item></sysctl>\n" "$C" >nl.xml &&
	ntune export nl.xml --format sh --os freebsd --force >nl.sh 2>err &&
	grep -q "^try sysctl .kern.hostname=r1 touch $C.$" nl.sh &&
	PATH="$PWD/bin:$PATH" sh nl.sh &&
	test "$(cat calls.sysctl)" = "kern.hostname=r1 touch $C" &&
	test ! -e "$C"
'
test_expect_success 'every word the sh script writes is quoted: a qdisc with options is three words, a glob name one' '
	rm -f calls.* &&
	printf "if.eth0.qdisc=fq_codel limit 100\nnet.ipv4.conf.*.rp_filter=1\nif.eth0.rx-3.rps_cpus=f\n" >q.conf &&
	ntune export q.conf --format sh --force >q.sh 2>err &&
	grep -qx "try tc qdisc replace dev .eth0. root .fq_codel. .limit. .100." q.sh &&
	grep -qx "try sysctl -w .net.ipv4.conf.\*.rp_filter=1." q.sh &&
	grep -q "echo .f. > /sys/class/net/.eth0./queues/.rx-3./.rps_cpus." q.sh &&
	: >net.ipv4.conf.x.rp_filter=1 &&
	{ PATH="$PWD/bin:$PATH" sh q.sh 2>/dev/null || :; } &&
	test "$(tr "\n" " " <calls.tc)" = "qdisc replace dev eth0 root fq_codel limit 100 " &&
	test "$(cat calls.sysctl)" = "-w
net.ipv4.conf.*.rp_filter=1"
'
test_done
