#!/bin/sh
# ntune knob: the internal command of the apply engine's programs for the knobs sh cannot read or
# set itself (src/cmd/knob_cmd.c). Hidden from `ntune help`; one read of a knob prints its value as
# the access layer reads it; `same` compares two values as apply does (the read-back of such a
# knob); a bad operation is a usage error; an unknown knob exits 1.
# Nothing here writes a setting.
. "$(dirname "$0")/lib.sh"

test_expect_success 'knob is not listed by ntune help but has a usage' '
	ntune help >out && ! grep -q "^ *knob " out &&
	ntune knob --help >out 2>&1 && grep -q "knob get|set \[--netns NAME\] KNOB \[VALUE\] | same KNOB VALUE VALUE" out
'
test_expect_success 'knob get prints a sysctl as /proc/sys has it' '
	ntune knob get net.core.somaxconn >out &&
	test "$(cat out)" = "$(cat /proc/sys/net/core/somaxconn)"
'
test_expect_success 'knob get reads an if.* setting of an interface' '
	ntune knob get if.lo.mtu >out &&
	test "$(cat out)" = "$(cat /sys/class/net/lo/mtu)"
'
test_expect_success 'knob with another operation or a missing value is a usage error' '
	test_expect_code 2 ntune knob frob net.core.somaxconn 2>err && grep -q "get NAME, set NAME VALUE or same NAME VALUE VALUE" err &&
	test_expect_code 2 ntune knob set net.core.somaxconn 2>/dev/null
'
test_expect_success 'knob get of a knob this machine does not have exits 1 and says so' '
	test_expect_code 1 ntune knob get net.no_such.knob 2>err && grep -q "^ntune knob: " err
'
test_expect_success 'knob same compares values as apply does: on is 1, CPU masks, blanks' '
	ntune knob same if.eth0.offload.gro on 1 &&
	ntune knob same if.eth0.rps_cpus 00000000,0000000f f &&
	ntune knob same net.ipv4.tcp_rmem "4096	131072  6291456" "4096 131072 6291456" &&
	test_expect_code 1 ntune knob same net.core.somaxconn 1024 4096
'
test_expect_success 'a refused set names the knob and the value on its one line (what apply and bench report)' '
	test_expect_code 1 ntune knob set if.ntnoif0.mtu 1500 2>err &&
	grep -qx "ntune knob: if.ntnoif0.mtu=1500: no interface .ntnoif0." err
'
test_done
