#!/bin/sh
# ntune lab rfc2544 in a lab: a table for 64 and 1518 bytes, JSON, and the results directory.
. "$(dirname "$0")/lib.sh"

test_require ROOT
p=$(test_unique)
test_lab_files
test_at_exit "\"$NTUNE\" lab down --prefix $p >/dev/null 2>&1"

test_expect_success 'setup: a route lab' 'ntune lab up --prefix "$p" 2>/dev/null'
test_expect_success 'rfc2544 prints a table for 64 and 1518 bytes and fills DIR' '
	timeout 120 "$NTUNE" lab rfc2544 --prefix "$p" --sizes 64,1518 --duration 0.4 --trials 1 \
	    --steps 2 --loads 100,50,25 -o res >out 2>err &&
	grep -q "^RFC 2544 IPv4, 0.4 s trials, loss tolerance 0%" out &&
	grep -Eq "^ +64 +[1-9][0-9]* +[1-9][0-9]* " out &&
	grep -Eq "^ +1518 +[1-9][0-9]* +[1-9][0-9]* " out &&
	grep -q "frame loss % at load" out &&
	grep -q "  64 B max " err &&
	test -f res/meta.json && test -f res/runs.jsonl && test -f res/rfc2544.json &&
	grep -q "\"kind\": \"rfc2544\"" res/meta.json && grep -q "\"complete\": true" res/meta.json &&
	test -s res/values/64B.txt && test -s res/values/1518B.txt &&
	test "$(grep -c "\"label\":\"64B\"" res/runs.jsonl)" -ge 3 &&
	grep -q "\"phase\":\"latency\"" res/runs.jsonl
'
test_expect_success 'rfc2544 --json has throughput, latency and frame loss per size' '
	timeout 120 "$NTUNE" lab rfc2544 --prefix "$p" --sizes 128 --duration 0.3 --steps 1 \
	    --loads 100,50 --json --quiet >r.json &&
	grep -q "\"size\": 128" r.json && grep -q "\"throughput_pps\":" r.json &&
	grep -q "\"frame_loss\":" r.json && grep -q "\"p99\":" r.json
'
# A stand-in for ssh(1): drops ssh's options and the host and, like ssh and sshd, joins
# the remaining words with spaces and hands that line to sh, in the lab namespace its
# role (second word) names; so the --host path runs as it would remotely, quoting included.
mkdir -p "$TRASH/bin"
cat >"$TRASH/bin/ssh" <<EOF
#!/bin/sh
echo "\$*" >>"$TRASH/ssh.log"
while [ \$# -gt 0 ]; do
	case \$1 in -o|-p|-l|-F) shift 2 ;; -T) shift ;; --) shift; break ;; *) break ;; esac
done
shift
line=\$*
role=\$(eval "set -- \$line"; echo "\$2")
exec ip netns exec "$p-\$role" sh -c "\$line"
EOF
chmod +x "$TRASH/bin/ssh"
Q="'"
test_expect_success 'rfc2544 --host runs gen and sink over ssh, each word quoted for the remote shell' '
	PATH="$TRASH/bin:$PATH" timeout 120 "$NTUNE" lab rfc2544 --host ssh://tester@dut.example:2222 \
	    --ntune "$NTUNE" --gen-args "--iface gen0 --iface-any" --sink-args "--iface sink0" \
	    --sizes 64 --duration 0.3 --steps 1 --loads 100,50 --quiet >out &&
	grep -Eq "^ +64 +[1-9][0-9]* +[1-9][0-9]* " out &&
	grep -q "^-o BatchMode=yes -o ConnectTimeout=10 .* -T -p 2222 -l tester -- dut.example ${Q}$NTUNE${Q} ${Q}gen${Q} .*${Q}--iface${Q} ${Q}gen0${Q} ${Q}--iface-any${Q}" "$TRASH/ssh.log" &&
	grep -q "^-o BatchMode=yes -o ConnectTimeout=10 .* -T -p 2222 -l tester -- dut.example ${Q}$NTUNE${Q} ${Q}sink${Q} .*${Q}--iface${Q} ${Q}sink0${Q}" "$TRASH/ssh.log"
'
test_expect_success 'rfc2544 --host passes shell text in arguments literally, never to the remote shell' '
	test_must_fail env PATH="$TRASH/bin:$PATH" timeout 60 "$NTUNE" lab rfc2544 --host ssh://tester@dut.example \
	    --ntune "$NTUNE" --gen-args "--iface gen0;touch\${IFS}$TRASH/pwned1 \$(touch\${IFS}$TRASH/pwned2)" \
	    --sink-args "--iface sink0" --sizes 64 --duration 0.3 --steps 0 --loads 100 --quiet >out 2>err &&
	! test -e "$TRASH/pwned1" && ! test -e "$TRASH/pwned2"
'
test_expect_success 'rfc2544 --host refuses a host that would be an ssh option' '
	test_expect_code 2 "$NTUNE" lab rfc2544 --host "ssh://-oProxyCommand=touch${IFS}$TRASH/pwned3" \
	    --sizes 64 --duration 0.3 --quiet >out 2>err &&
	! test -e "$TRASH/pwned3" && grep -q "host" err
'
test_expect_success 'rfc2544 --ipv6 measures IPv6 frames' '
	timeout 60 "$NTUNE" lab rfc2544 --prefix "$p" --ipv6 --sizes 128 --duration 0.3 --steps 0 \
	    --loads 100 --quiet >out &&
	grep -q "^RFC 2544 IPv6" out && grep -Eq "^ +128 +[1-9][0-9]* +[1-9][0-9]* " out
'
test_expect_success 'rfc2544 says so when the DUT does not forward' '
	ip netns exec "$p-dut" sh -c "echo 0 > /proc/sys/net/ipv4/ip_forward" &&
	test_expect_code 1 timeout 60 "$NTUNE" lab rfc2544 --prefix "$p" --sizes 64 --duration 0.3 --quiet >/dev/null 2>err &&
	grep -q "the sink saw none of the" err
'
test_done
