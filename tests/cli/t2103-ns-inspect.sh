#!/bin/sh
# ntune inspect inside a network namespace: veth without rings or coalescing is
# reported as such ("-"), not as an error.
# test-set: check
. "$(dirname "$0")/lib.sh"

test_require ROOT,IP
ns=$(test_unique)
test_at_exit "ip netns del $ns 2>/dev/null"
ip netns add "$ns" &&
ip -n "$ns" link add v0 numrxqueues 4 numtxqueues 4 type veth peer name v1 &&
ip -n "$ns" link set v0 up && ip -n "$ns" link set v1 up || { echo "cannot build the namespace"; exit 1; }

test_expect_success 'inspect names the namespace and shows the veth and its 4 queues, exit 0' '
	ip netns exec "$ns" "$NTUNE" inspect >out 2>err &&
	! test -s err &&
	grep -q "netns        $ns" out &&
	grep -q "^  v0$" out && grep -q "driver       veth" out &&
	grep -Eq "queues +rx 4, tx 4" out &&
	test $(sed -n "/^  v0$/,/^  v1$/p" out | grep -Ec "^    [0-3] +rxtx ") = 4 &&
	grep -Eq "rings +rx -, tx -" out &&
	grep -Eq "n/a +rings, coalescing \(the driver does not report them\)" out
'
test_expect_success 'a snapshot taken in the namespace reads back identically' '
	ip netns exec "$ns" "$NTUNE" snapshot -o s.json &&
	ip netns exec "$ns" "$NTUNE" inspect >a.txt &&
	"$NTUNE" inspect --from s.json >b.txt &&
	diff -u a.txt b.txt
'
test_expect_success 'the net.* tunables shown are the namespace values' '
	ip netns exec "$ns" sh -c "echo 1 >/proc/sys/net/ipv4/ip_forward" &&
	ip netns exec "$ns" "$NTUNE" inspect --json >j &&
	grep -A1 "\"name\": \"net.ipv4.ip_forward\"" j | grep -q "\"value\": \"1\""
'
test_expect_success 'host-global net.core knobs are named as set outside the namespace' '
	ip netns exec "$ns" "$NTUNE" inspect >out &&
	grep -A3 "^  host-global, set outside this network namespace:" out | grep -q "net.core.netdev_budget"
'
test_done
