#!/bin/sh
# ntune export and diff refuse what check refuses, keep =>/=<, write scripts that try every
# setting, and use per-queue sysfs paths; diff names the line it cannot parse.
. "$(dirname "$0")/lib.sh"

test_expect_success 'export refuses a typo check calls an error, names file and line, writes nothing' '
	printf "net.isr.maxthreads=4\nnet.isr.maxthread=4\n" >typo.conf &&
	test_expect_code 1 ntune export typo.conf --format loader >out 2>err &&
	test ! -s out &&
	grep -q "^typo.conf:2: error: unknown knob .net.isr.maxthread. (did you mean net.isr.maxthreads?)" err &&
	grep -q "nothing written, --force exports anyway" err
'
test_expect_success 'export --force writes it anyway, as apply --force does' '
	ntune export typo.conf --format loader --force >out 2>err &&
	grep -q "^net.isr.maxthread=\"4\"$" out
'
test_expect_success 'a read-only OID and a tunable no kernel has are refused too' '
	printf "net.isr.numthreads=4\n" >ro.conf &&
	test_expect_code 1 ntune export ro.conf --format sysctl 2>err && grep -q "is read-only" err &&
	printf "hw.ix.allow_unsupported_sfp=1\n" >ne.conf &&
	test_expect_code 1 ntune export ne.conf --format loader 2>err && grep -q "no FreeBSD kernel defines it" err
'
test_expect_success 'sh keeps => as a compare, and a format that cannot says so in the file and on stderr' '
	printf "net.core.rmem_max=>16777216\nnet.core.wmem_max=16777216\n" >raise.conf &&
	ntune export raise.conf --format sh >r.sh 2>err &&
	sh -n r.sh &&
	grep -q "^# net.core.rmem_max=>16777216: only raise$" r.sh &&
	grep -q "\[ \"\$cur\" -lt .16777216. \] && try sysctl -w .net.core.rmem_max=16777216." r.sh &&
	ntune export raise.conf --format sysctl.d >r.conf 2>err &&
	grep -q "^# net.core.rmem_max=>16777216 (only raise): sysctl.d cannot compare with the current value, it sets 16777216$" r.conf &&
	grep -q "raise.conf:1: .net.core.rmem_max=>16777216. (only raise) becomes a plain set in sysctl.d" err
'
test_expect_success 'the sh script tries every setting and reports each failure instead of stopping (no set -e)' '
	printf "net.ipv4.ip_forward=1\nnet.ipv4.tcp_fin_timeout=30\n" >two.conf &&
	ntune export two.conf --format sh >two.sh &&
	! grep -q "^set -e" two.sh &&
	mkdir bin && printf "#!/bin/sh\necho \"\$*\" >>\"%s/calls\"\nexit 1\n" "$PWD" >bin/sysctl && chmod +x bin/sysctl &&
	test_expect_code 1 env PATH="$PWD/bin:$PATH" sh two.sh 2>err &&
	test "$(wc -l <calls)" = 2 &&
	test "$(grep -c "^ntune export: failed: " err)" = 2 &&
	grep -q "2 setting(s) failed" err
'
test_expect_success 'per-queue RPS goes to /sys/class/net/IF/queues/rx-N, not a made-up interface' '
	printf "if.eth0.rx-3.rps_cpus=f\nif.eth0.rps_cpus=3\n" >rps.conf &&
	ntune export rps.conf --format sh >rps.sh 2>err &&
	grep -q "echo .f. > /sys/class/net/.eth0./queues/.rx-3./.rps_cpus." rps.sh &&
	! grep -q "eth0.rx-3./queues" rps.sh &&
	grep -q "/sys/class/net/.eth0./queues/rx-\*/rps_cpus" rps.sh
'
test_expect_success 'diff of a file it cannot parse is an input error with file:line, not an empty system' '
	printf "a.b=1\n" >ok.conf &&
	printf "net.isr.dispatch=deferred\nfoo=\"bar\n" >bad.conf &&
	test_expect_code 2 ntune diff ok.conf bad.conf >out 2>err &&
	grep -q "bad.conf:2: unterminated quote" err && test ! -s out
'
test_expect_success REAL_FIXTURES 'diff of real top -P or vmstat -i output is refused (no tunables), not an empty system' '
	R="$FIXTURES/os/real" &&
	test_expect_code 2 ntune diff ok.conf "$R/top-P_freebsd14.3_4cpu_3snapshots.txt" >out 2>err &&
	test ! -s out &&
	grep -q "top-P_freebsd14.3_4cpu_3snapshots.txt: holds no tunables (it reads as top-P output)" err &&
	test_expect_code 2 ntune diff "$R/vmstat-i_freebsd14.3_4cpu_igc-4rxq.txt" ok.conf >out 2>err &&
	test ! -s out && grep -q "holds no tunables (it reads as vmstat-i output)" err &&
	printf "dev.ix.0.fc=0\n" >fc.conf &&
	test_expect_code 1 ntune diff "$R/sysctl-dev.ix.0_pfsense_partial.txt" fc.conf >out &&
	grep -q "^dev.ix.0.fc  *3  |  0$" out
'
test_done
