#!/bin/sh
# A capture (the agentless capture script's output, src/remote/capture.c) or a pasted command
# output (src/os/fbsd_counters.c) with a NUL byte in it is binary data: refused whole, not read
# up to the NUL (where C string readers would cut sysctl -a short and report a box with half
# its knobs).
. "$(dirname "$0")/lib.sh"
CAP="$FIXTURES/dut/seed000-dec750/capture.txt"

test_expect_success 'a NUL byte in the sysctl section: exit 2, "binary data, not a capture", nothing read' '
	awk "{ print } /^kern.hz: / { printf \"kern.x: a%cb\\n\", 0 }" "$CAP" >nul.txt &&
	test "$(tr -d "\\000" <nul.txt | wc -c)" -lt "$(wc -c <nul.txt)" &&
	test_expect_code 2 ntune inspect --from nul.txt >out 2>err &&
	grep -qx "ntune inspect: nul.txt: binary data, not a capture" err &&
	test ! -s out
'
test_expect_success 'the same capture without the NUL byte reads' '
	tr -d "\\000" <nul.txt >clean.txt &&
	ntune inspect --from clean.txt >out 2>err &&
	test -s out
'
test_expect_success 'a NUL byte in pasted counters for diagnose: exit 2, "binary data, not command output"' '
	awk "{ print } NR == 3 { printf \"x%cy\\n\", 0 }" "$FIXTURES/diagnose/opnsense-clean.txt" >nul.txt &&
	test_expect_code 2 ntune diagnose --from nul.txt >out 2>err &&
	grep -qx "ntune diagnose: nul.txt: binary data, not command output" err &&
	test ! -s out &&
	tr -d "\\000" <nul.txt | grep -v "^xy$" >clean.txt &&
	ntune diagnose --from clean.txt >out
'
test_done
