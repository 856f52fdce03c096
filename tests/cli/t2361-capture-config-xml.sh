#!/bin/sh
# A capture never carries an OPNsense/pfSense config.xml's secrets (issue 33 item 7): the
# capture script keeps only its <sysctl> elements even when the file is one line, a capture
# that holds more (an older script's, or one handed over) is filtered when it is read, and
# doctor -o DIR writes a capture holding config-sysctl.xml as a 0700 folder of 0600 files.
. "$(dirname "$0")/lib.sh"

# A config.xml saved on one line: a password hash, a private key and two tunables.
one_line_config() {
	printf "%s" "<?xml version=\"1.0\"?><opnsense><system><user><name>root</name><password>\$2y\$10\$CANARYHASH</password></user></system>" &&
	printf "%s" "<sysctl version=\"1.0.0\"><item><descr>Max socket buffer</descr><tunable>kern.ipc.maxsockbuf</tunable><value>4262144</value></item>" &&
	printf "%s\n" "<item><tunable>net.isr.dispatch</tunable><value>deferred</value></item></sysctl><cert><prv>CANARYKEY</prv></cert></opnsense>"
}

test_expect_success 'the capture script keeps only the <sysctl> elements of a one-line config.xml' '
	mkdir -p bin root/conf &&
	printf "#!/bin/sh\necho FreeBSD\n" >bin/uname && chmod +x bin/uname &&
	one_line_config >root/conf/config.xml &&
	ntune doctor --capture-script >capture.sh &&
	PATH=$PWD/bin:$PATH NTUNE_CAPTURE_TOP=no sh capture.sh 1 "$PWD/root" >cap.txt 2>/dev/null &&
	sed -n "/:: begin config-sysctl.xml$/,/:: end config-sysctl.xml/p" cap.txt >section &&
	cat section &&
	grep -q "<tunable>kern.ipc.maxsockbuf</tunable>" section &&
	grep -q "<tunable>net.isr.dispatch</tunable>" section &&
	! grep -q "CANARY\|password\|opnsense" cap.txt
'
test_expect_success 'doctor -o DIR: a capture holding a whole config.xml is filtered, written 0700 and 0600' '
	cp -R "$FIXTURES/doctor/seed000" s &&
	one_line_config >s/config-sysctl.xml &&
	test_expect_code 1 ntune doctor --from s -o o >out &&
	grep -q "config-sysctl.xml:1: kern.ipc.maxsockbuf=4262144" out &&
	! grep -rq CANARY o out &&
	grep -q "<value>deferred</value></item></sysctl>$" o/capture/config-sysctl.xml &&
	test "$(stat -c %a o/capture)" = 700 &&
	test "$(stat -c %a o/capture/config-sysctl.xml)" = 600 &&
	test "$(stat -c %a o/capture/sysctl-a.txt)" = 600
'
test_expect_success 'a multi-line config-sysctl.xml is kept as it was (line numbers too)' '
	cp -R "$FIXTURES/doctor/seed000" m &&
	sed -n "/<sysctl version/,/<\/sysctl>/p" "$FIXTURES/kb/config.xml" >m/config-sysctl.xml &&
	test_expect_code 1 ntune doctor --from m -o mo >out &&
	cmp m/config-sysctl.xml mo/capture/config-sysctl.xml
'
test_done
