#!/bin/sh
# ntune lab rfc2544 in a lab: a table for 64 and 1518 bytes, JSON, and the results directory.
. "$(dirname "$0")/lib.sh"

test_require ROOT
p=$(test_unique)
NTUNE_LAB_DIR="$TRASH/labstate"
export NTUNE_LAB_DIR
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
# A stand-in for ssh(1): drops ssh's options and the host, runs the remote command
# in the lab namespace its role names; so the --host path runs as it would remotely.
mkdir -p "$TRASH/bin"
cat >"$TRASH/bin/ssh" <<EOF
#!/bin/sh
echo "\$*" >>"$TRASH/ssh.log"
while [ \$# -gt 0 ]; do
	case \$1 in -o|-p) shift 2 ;; *) break ;; esac
done
shift
exec ip netns exec "$p-\$2" "\$@"
EOF
chmod +x "$TRASH/bin/ssh"
test_expect_success 'rfc2544 --host runs gen and sink over ssh' '
	PATH="$TRASH/bin:$PATH" timeout 120 "$NTUNE" lab rfc2544 --host ssh://tester@dut.example:2222 \
	    --ntune "$NTUNE" --gen-args "--iface gen0 --iface-any" --sink-args "--iface sink0" \
	    --sizes 64 --duration 0.3 --steps 1 --loads 100,50 --quiet >out &&
	grep -Eq "^ +64 +[1-9][0-9]* +[1-9][0-9]* " out &&
	grep -q "^-o BatchMode=yes -p 2222 tester@dut.example $NTUNE gen .*--iface gen0 --iface-any" "$TRASH/ssh.log" &&
	grep -q "^-o BatchMode=yes -p 2222 tester@dut.example $NTUNE sink .*--iface sink0" "$TRASH/ssh.log"
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
