#!/bin/sh
# ntune lab / gen / sink: usage errors and refusals that need no namespace.
. "$(dirname "$0")/lib.sh"

p=$(test_unique)
test_expect_success 'ntune lab without a subcommand prints usage' 'test_expect_code 2 ntune lab 2>err && grep -q "^usage: ntune lab" err'
test_expect_success 'an unknown lab subcommand is named' '
	test_expect_code 2 ntune lab frob 2>err && grep -q "unknown subcommand .frob." err
'
test_expect_success 'an unknown mode is refused before anything is built' '
	test_expect_code 2 ntune lab up --prefix "$p" --mode switch 2>err && grep -q "unknown mode .switch." err &&
	! test -e "/run/netns/$p-gen"
'
test_expect_success 'a prefix that is not a plain name is refused' '
	test_expect_code 2 ntune lab up --prefix "a/b" 2>err && grep -q "invalid lab prefix .a/b." err
'
test_expect_success 'bad --queues and --mtu are usage errors' '
	test_expect_code 2 ntune lab up --prefix "$p" --queues 0 2>/dev/null &&
	test_expect_code 2 ntune lab up --prefix "$p" --mtu 20 2>/dev/null
'
test_expect_success 'status of a lab that is not up exits 1' 'test_expect_code 1 ntune lab status --prefix "$p" >out && grep -q "not up" out'
test_expect_success 'down of a lab that is not up is a no-op' '
	ntune lab down --prefix "$p" 2>err && grep -q "not up; nothing to remove" err
'
test_expect_success 'exec needs a known role and a command' '
	test_expect_code 2 ntune lab exec --prefix "$p" router -- true 2>err && grep -q "unknown role .router." err &&
	test_expect_code 2 ntune lab exec --prefix "$p" gen 2>err && grep -q "needs a command" err &&
	test_expect_code 2 ntune lab exec --prefix "$p" gen -- true 2>err && grep -q "is not up" err
'
test_expect_success 'gen refuses to send outside a lab namespace' '
	test_expect_code 2 ntune gen --duration 1 2>err && grep -q "not inside an ntune lab namespace; refusing" err
'
test_expect_success 'gen refuses frames too small for the address family' '
	test_expect_code 2 ntune gen --size 63 2>/dev/null &&
	test_expect_code 2 ntune gen --ipv6 --size 64 --iface-any --dst 2001:2::1 2>err && grep -q "too small for IPv6 (minimum 84)" err
'
test_expect_success 'gen rejects malformed numbers' '
	test_expect_code 2 ntune gen --rate fast 2>/dev/null &&
	test_expect_code 2 ntune gen --threads 0 2>/dev/null &&
	test_expect_code 2 ntune gen --dst-mac 1:2:3 --iface-any --dst 198.18.0.9 2>/dev/null
'
test_expect_success 'sink outside the lab needs --iface' '
	test_expect_code 2 ntune sink --duration 1 2>err && grep -q "give --iface" err
'
test_expect_success 'rfc2544 rejects bad sizes, loads and tolerances' '
	test_expect_code 2 ntune lab rfc2544 --prefix "$p" --sizes 10 2>err && grep -q "invalid frame size" err &&
	test_expect_code 2 ntune lab rfc2544 --prefix "$p" --loads 10,50 2>/dev/null &&
	test_expect_code 2 ntune lab rfc2544 --prefix "$p" --loss-tolerance 2 2>/dev/null &&
	test_expect_code 2 ntune lab rfc2544 --prefix "$p" --ipv6 --sizes 64 2>err && grep -q "too small for IPv6" err
'
test_expect_success 'rfc2544 on a lab that is not up says so' '
	test_expect_code 2 ntune lab rfc2544 --prefix "$p" --sizes 64 2>err && grep -q "is not up" err
'
test_expect_success 'rfc2544 --dut with an -o folder it cannot make says which, before any ssh' '
	test_expect_code 2 ntune lab rfc2544 --dut ssh://nowhere.invalid --gen ssh://g.invalid \
		--sink ssh://s.invalid -o "$TRASH/no/such" --sizes 64 2>err &&
	grep -q "^ntune lab rfc2544: cannot create .$TRASH/no/such.: No such file" err &&
	! grep -q "nowhere.invalid" err && test ! -e "$TRASH/no"
'
test_expect_success 'rfc2544 --gen-host/--sink-host: ssh as every router command runs it, the words quoted' '
	mkdir -p fakebin &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >\"$TRASH/ssh.argv\"\necho \"fake ssh: refused\" >&2\nexit 255\n" >fakebin/ssh &&
	chmod +x fakebin/ssh &&
	test_expect_code 1 env PATH="$TRASH/fakebin:$PATH" "$NTUNE" lab rfc2544 --gen-host ssh://g.invalid \
		--sink-host ssh://u@s.invalid:2222 --sizes 64 --steps 1 --duration 0.3 2>err &&
	grep -q "ntune sink did not start (exit 255): fake ssh: refused" err &&
	for w in BatchMode=yes ConnectTimeout=10 StrictHostKeyChecking=yes ServerAliveInterval=5 -T; do
		grep -qx -- "$w" ssh.argv || { echo "ssh without $w"; cat ssh.argv; exit 1; }
	done &&
	tail -6 ssh.argv >tail &&
	printf "%s\n" 2222 -l u -- s.invalid "'"'"'ntune'"'"' '"'"'sink'"'"' '"'"'--json'"'"' '"'"'--quiet'"'"' '"'"'--idle'"'"' '"'"'0.3'"'"' '"'"'--duration'"'"' '"'"'10.300'"'"'" >want &&
	diff -u want tail
'
test_done
