#!/bin/sh
# tests/cli/standin/freebsd/sysctl, the FreeBSD sysctl(8) of the rig's FreeBSD-look DUTs, answers
# in sbin/sysctl/sysctl.c's formats (show_var's "name: value", -e "name=value", -n, -N, a set's
# "name: old -> new", warnx texts and the exit status counting failed arguments), on a MIB
# directory and on a MIB file in `sysctl -a` form.
. "$(dirname "$0")/lib.sh"

sc="$SRCDIR/tests/cli/standin/freebsd/sysctl"
cd "$TRASH" &&
mkdir -p mib/net/isr mib/kern
echo 1 >mib/net/isr/maxthreads && chmod 444 mib/net/isr/maxthreads
echo direct >mib/net/isr/dispatch
printf 'options\tSMP\ndevice\tix\n' >mib/kern/conftxt
echo 'FreeBSD 14.3' >mib/kern/version && chmod 400 mib/kern/version
export SYSCTL_STANDIN_MIB="$TRASH/mib"

test_expect_success 'name, -e, -n, -N and a node print as show_var and sysctl_all do' '
	"$sc" net.isr.dispatch >out && printf "net.isr.dispatch: direct\n" | diff -u - out &&
	"$sc" -e net.isr.dispatch >out && printf "net.isr.dispatch=direct\n" | diff -u - out &&
	"$sc" -n net.isr.dispatch >out && printf "direct\n" | diff -u - out &&
	"$sc" -N net.isr >out && printf "net.isr.dispatch\nnet.isr.maxthreads\n" | diff -u - out &&
	"$sc" -e net.isr >out && printf "net.isr.dispatch=direct\nnet.isr.maxthreads=1\n" | diff -u - out &&
	"$sc" -n kern.conftxt >out && printf "options\tSMP\ndevice\tix\n" | diff -u - out
'
test_expect_success 'a set prints name: old -> new and the value is kept' '
	"$sc" net.isr.dispatch=deferred >out && printf "net.isr.dispatch: direct -> deferred\n" | diff -u - out &&
	"$sc" -n net.isr.dispatch >out && echo deferred | diff -u - out &&
	"$sc" "net.isr.dispatch=\"hybrid\"" >out && printf "net.isr.dispatch: deferred -> hybrid\n" | diff -u - out
'
test_expect_success 'unknown OIDs are warnx lines and counted in the exit status; -i ignores, -q silences' '
	test_expect_code 2 "$sc" no.such net.isr.dispatch other.one >out 2>err &&
	printf "net.isr.dispatch: hybrid\n" | diff -u - out &&
	printf "sysctl: unknown oid '\''no.such'\''\nsysctl: unknown oid '\''other.one'\''\n" | diff -u - err &&
	"$sc" -i no.such >out 2>err && ! test -s out && ! test -s err &&
	test_expect_code 1 "$sc" -q no.such 2>err && ! test -s err
'
test_expect_success 'refused sets: read-only tunable, read only, node, bad integer' '
	test_expect_code 1 "$sc" net.isr.maxthreads=2 2>err &&
	printf "sysctl: oid '\''net.isr.maxthreads'\'' is a read only tunable\nsysctl: Tunable values are set in /boot/loader.conf\n" | diff -u - err &&
	test_expect_code 1 "$sc" kern.version=x 2>err &&
	printf "sysctl: oid '\''kern.version'\'' is read only\n" | diff -u - err &&
	test_expect_code 1 "$sc" net.isr=1 2>err &&
	printf "sysctl: oid '\''net.isr'\'' isn'\''t a leaf node\n" | diff -u - err &&
	test_expect_code 1 "$sc" net.isr.maxthreads=abc 2>err &&
	test "$("$sc" -n net.isr.maxthreads)" = 1
'
test_expect_success 'an integer OID takes strtol base-0 numbers and refuses words' '
	echo 256 >mib/net/isr/defaultqlimit &&
	"$sc" net.isr.defaultqlimit=0x200 >out && echo "net.isr.defaultqlimit: 256 -> 512" | diff -u - out &&
	test_expect_code 1 "$sc" net.isr.defaultqlimit=lots 2>err &&
	echo "sysctl: invalid integer '\''lots'\''" | diff -u - err
'
test_expect_success 'a MIB file in sysctl -a form: -a prints it byte for byte, sets rewrite it' '
	"$sc" -a >capture && SYSCTL_STANDIN_MIB="$TRASH/capture" "$sc" -a | diff -u capture - &&
	SYSCTL_STANDIN_MIB="$TRASH/capture" "$sc" -e kern.conftxt net.isr.defaultqlimit >out &&
	printf "kern.conftxt=options\tSMP\ndevice\tix\nnet.isr.defaultqlimit=512\n" | diff -u - out &&
	SYSCTL_STANDIN_MIB="$TRASH/capture" "$sc" net.isr.defaultqlimit=64 >out &&
	echo "net.isr.defaultqlimit: 512 -> 64" | diff -u - out &&
	grep -qx "net.isr.defaultqlimit: 64" capture && grep -qx "device	ix" capture
'
test_done
