#!/bin/sh
# ntune top on the host, read-only: the shape of its batch and JSON output.
. "$(dirname "$0")/lib.sh"

test_expect_success 'top --json prints one object per interval with every CPU' '
	ntune top --json -n 3 -d 0.2 >out &&
	test $(wc -l <out) = 3 &&
	n=$(getconf _NPROCESSORS_ONLN) &&
	test $(head -1 out | grep -o "\"user\":" | wc -l) = "$n"
'
test_expect_success 'each CPU line of top -b adds up to 100%' '
	ntune top -b -n 1 -d 0.3 >out &&
	grep "^CPU [0-9]" out >cpus &&
	test -s cpus &&
	awk "{ s = 0; for (i = 1; i <= NF; i++) if (\$i ~ /%\$/) s += \$i + 0; if (s < 99.4 || s > 100.6) { print; exit 1 } }" cpus
'
test_expect_success 'queue interrupts of the NICs are listed with their rate' '
	if grep -Eq "(input|rx|TxRx|rxtx)[-.]?[0-9]" /proc/interrupts; then
		ntune top --json -n 1 -d 0.2 >out &&
		grep -q "\"irqs\":\[{\"irq\":\"[0-9]*\",\"nic\":\"" out
	fi
'
test_expect_success 'top -i lo shows only loopback' '
	ntune top -b -n 1 -d 0.2 -i lo >out &&
	grep -q "^lo " out && test $(grep -Ec "^[a-z][a-z0-9]* +[0-9]+ +[0-9]+ " out) = 1
'
test_expect_success 'top -n 0 is a usage error' '
	test_expect_code 2 ntune top -b -n 0 2>/dev/null
'
test_done
