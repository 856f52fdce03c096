#!/bin/sh
# ntune top with real traffic: two namespaces joined by a veth pair (198.18.x),
# `ntune gen` sending at a fixed rate; top must report that rate within 10%.
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
ns=$(test_unique)
test_at_exit "ip netns del ${ns}a 2>/dev/null; ip netns del ${ns}b 2>/dev/null"
ip netns add "${ns}a" && ip netns add "${ns}b" &&
ip link add a0 netns "${ns}a" type veth peer name b0 netns "${ns}b" &&
ip -n "${ns}a" addr add 198.18.77.1/24 dev a0 &&
ip -n "${ns}b" addr add 198.18.77.2/24 dev b0 &&
ip -n "${ns}a" link set a0 up && ip -n "${ns}b" link set b0 up &&
ip -n "${ns}a" neigh replace 198.18.77.2 lladdr "$(ip netns exec "${ns}b" cat /sys/class/net/b0/address)" \
    dev a0 nud permanent || { echo "cannot build the namespaces"; exit 1; }

RATE=5000
# The sender runs 7 s; top measures 3 intervals of 1 s in the middle of it.
send() {
	ip netns exec "${ns}a" timeout 30 "$NTUNE" gen --iface a0 --dst 198.18.77.2 --iface-any \
	    --rate $RATE --duration 7 --json >"$TRASH/gen.json" 2>"$TRASH/gen.err" &
	sleep 2
}
# Prints the in_pps of IFACE from each JSON line of ntune top.
in_pps() {
	sed -n "s/.*\"name\":\"$1\",\"in_pps\":\([0-9.]*\).*/\1/p" "$2"
}
within10() { # RATE VALUE
	awk -v r="$1" -v v="$2" 'BEGIN { d = (v - r) / r; if (d < 0) d = -d; exit !(d <= 0.10) }'
}

test_expect_success 'top --json reports the pps that was sent, within 10%' '
	send &&
	ip netns exec "${ns}b" timeout 20 "$NTUNE" top --json -n 3 -d 1 -i b0 >top.json &&
	wait &&
	test $(wc -l <top.json) = 3 &&
	sent=$(sed -n "s/^ *\"pps\": *\([0-9.]*\).*/\1/p" gen.json) &&
	echo "sent $sent pps; top saw: $(in_pps b0 top.json | tr "\n" " ")" &&
	test -n "$sent" && within10 $RATE "$sent" &&
	for v in $(in_pps b0 top.json); do within10 "$sent" "$v" || exit 1; done
'
test_expect_success 'the sender side sees the same rate going out' '
	send &&
	ip netns exec "${ns}a" timeout 20 "$NTUNE" top --json -n 2 -d 1 -i a0 >top.json &&
	wait &&
	for v in $(sed -n "s/.*\"name\":\"a0\",\"in_pps\":[0-9.]*,\"out_pps\":\([0-9.]*\).*/\1/p" top.json); do
		within10 $RATE "$v" || exit 1
	done
'
test_expect_success 'top -b prints plain lines per interval with per-CPU load and the interface' '
	send &&
	ip netns exec "${ns}b" timeout 20 "$NTUNE" top -b -n 2 -d 1 -i b0 >top.txt &&
	wait &&
	test $(grep -c "^ntune top" top.txt) = 2 &&
	grep -Eq "^CPU 0 +[0-9.]+% user +[0-9.]+% nice +[0-9.]+% system +[0-9.]+% interrupt +[0-9.]+% idle" top.txt &&
	grep -Eq "^b0 +[0-9]+ +[0-9]+ " top.txt &&
	v=$(awk "/^b0 /{print \$2}" top.txt | tail -1) && within10 $RATE "$v"
'
test_expect_success 'top -i with an unknown interface exits 2' '
	test_expect_code 2 ip netns exec "${ns}b" "$NTUNE" top -b -n 1 -i nope0 2>err && grep -q "no interface .nope0." err
'
test_expect_success 'top rejects a bad interval' '
	test_expect_code 2 "$NTUNE" top -b -d 0 -n 1 2>/dev/null
'
test_done
