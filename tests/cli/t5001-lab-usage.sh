#!/bin/sh
# ntune lab / gen / sink: usage errors and refusals that need no namespace.
. "$(dirname "$0")/lib.sh"

p=$(test_unique)
test_expect_failure_status 2 'ntune lab without a subcommand prints usage' 'ntune lab 2>err; rc=$?; grep -q "^usage: ntune lab" err; exit $rc'
test_expect_success 'an unknown lab subcommand is named' '
	ntune lab frob 2>err; [ $? = 2 ] && grep -q "unknown subcommand .frob." err
'
test_expect_success 'an unknown mode is refused before anything is built' '
	ntune lab up --prefix "$p" --mode switch 2>err; [ $? = 2 ] && grep -q "unknown mode .switch." err &&
	! test -e "/run/netns/$p-gen"
'
test_expect_success 'a prefix that is not a plain name is refused' '
	ntune lab up --prefix "a/b" 2>err; [ $? = 2 ] && grep -q "invalid lab prefix .a/b." err
'
test_expect_success 'bad --queues and --mtu are usage errors' '
	ntune lab up --prefix "$p" --queues 0 2>/dev/null; [ $? = 2 ] &&
	ntune lab up --prefix "$p" --mtu 20 2>/dev/null; [ $? = 2 ]
'
test_expect_failure_status 1 'status of a lab that is not up exits 1' 'ntune lab status --prefix "$p" >out; rc=$?; grep -q "not up" out; exit $rc'
test_expect_success 'down of a lab that is not up is a no-op' '
	ntune lab down --prefix "$p" 2>err && grep -q "not up; nothing to remove" err
'
test_expect_success 'exec needs a known role and a command' '
	ntune lab exec --prefix "$p" router -- true 2>err; [ $? = 2 ] && grep -q "unknown role .router." err &&
	ntune lab exec --prefix "$p" gen 2>err; [ $? = 2 ] && grep -q "needs a command" err &&
	ntune lab exec --prefix "$p" gen -- true 2>err; [ $? = 2 ] && grep -q "is not up" err
'
test_expect_success 'gen refuses to send outside a lab namespace' '
	ntune gen --duration 1 2>err; [ $? = 2 ] && grep -q "not inside an ntune lab namespace; refusing" err
'
test_expect_success 'gen refuses frames too small for the address family' '
	ntune gen --size 63 2>/dev/null; [ $? = 2 ] &&
	ntune gen --ipv6 --size 64 --iface-any --dst 2001:2::1 2>err; [ $? = 2 ] && grep -q "too small for IPv6 (minimum 84)" err
'
test_expect_success 'gen rejects malformed numbers' '
	ntune gen --rate fast 2>/dev/null; [ $? = 2 ] &&
	ntune gen --threads 0 2>/dev/null; [ $? = 2 ] &&
	ntune gen --dst-mac 1:2:3 --iface-any --dst 198.18.0.9 2>/dev/null; [ $? = 2 ]
'
test_expect_success 'sink outside the lab needs --iface' '
	ntune sink --duration 1 2>err; [ $? = 2 ] && grep -q "give --iface" err
'
test_expect_success 'rfc2544 rejects bad sizes, loads and tolerances' '
	ntune lab rfc2544 --prefix "$p" --sizes 10 2>err; [ $? = 2 ] && grep -q "invalid frame size" err &&
	ntune lab rfc2544 --prefix "$p" --loads 10,50 2>/dev/null; [ $? = 2 ] &&
	ntune lab rfc2544 --prefix "$p" --loss-tolerance 2 2>/dev/null; [ $? = 2 ] &&
	ntune lab rfc2544 --prefix "$p" --ipv6 --sizes 64 2>err; [ $? = 2 ] && grep -q "too small for IPv6" err
'
test_expect_success 'rfc2544 on a lab that is not up says so' '
	ntune lab rfc2544 --prefix "$p" --sizes 64 2>err; [ $? = 2 ] && grep -q "is not up" err
'
test_done
