#!/bin/sh
# history, verify, diff and export on the journal of an agentless DUT (issue 34), as on local
# entries. The DUT is this machine through a stand-in ssh that runs the command line with sh
# (no sshd), its commands the FreeBSD stand-ins of tests/cli/standin/freebsd on a MIB
# directory, its files under --root. An entry's id is a profile for verify, diff and export,
# here and there. Red on 9b94904 (before the commands took --dut): history --dut is refused
# as an unknown option, and verify/diff/export of an id read a file of that name.
. "$(dirname "$0")/lib.sh"

cd "$TRASH" && mkdir -p bin mib/net/isr mib/net/inet/ip dut/etc dut/boot || exit 1
echo direct >mib/net/isr/dispatch && echo 256 >mib/net/inet/ip/intr_queue_maxlen || exit 1
echo "FreeBSD dut 14.1-RELEASE FreeBSD 14.1-RELEASE GENERIC amd64" >uname.txt
# ssh OPTIONS... -- HOST COMMAND-LINE: a control command (-O) succeeds, a command line runs here.
cat >bin/ssh <<EOSSH
#!/bin/sh
while [ "\$1" != -- ]; do [ "\$1" = -O ] && exit 0; shift; done
shift 2
PATH="$SRCDIR/tests/cli/standin/freebsd:\$PATH" STANDIN_DIR="$TRASH" SYSCTL_STANDIN_MIB="$TRASH/mib" exec sh -c "\$1"
EOSSH
chmod +x bin/ssh
export PATH="$TRASH/bin:$PATH" NTUNE_STATE_DIR="$TRASH/state"
D="--dut ssh://dut --root $TRASH/dut"
J=$TRASH/dut/var/db/ntune-agentless
printf 'net.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=2048\n' >p.conf

test_expect_success 'history --dut of a DUT with no journal says so' '
	ntune history $D >out && cat out &&
	test "$(cat out)" = "no journalled applies in /var/db/ntune-agentless on ssh://dut" &&
	ntune history $D --json >out && test "$(cat out)" = "[]"
'
test_expect_success 'history --dut --plan prints the program that reads the journal; nothing runs' '
	ntune history $D --plan >plan &&
	grep -qx "I=.." plan && tail -n 1 plan | grep -qx "ntune_main \"\$@\"" &&
	sh -n plan && test ! -e "$J"
'
test_expect_success 'apply --dut --dry-run says what would change as a local dry run does; nothing runs' '
	ntune apply p.conf $D --no-persist --dry-run >out && cat out &&
	grep -q "^dry run: 2 of 2 settings would change$" out &&
	grep -q "net.isr.dispatch  *direct -> deferred  (would set)" out &&
	test ! -e "$J" && test "$(cat mib/net/isr/dispatch)" = direct
'
test_expect_success 'history --dut lists an apply as history lists a local one' '
	ntune apply p.conf $D --no-persist >out && cat out &&
	id=$(cat "$J/latest") && echo "$id" >id &&
	ntune history $D >out && cat out &&
	head -n 1 out | grep -q "^ID  *CREATED  *STATE  *CHANGES  *PROFILE$" &&
	grep -q "^$id  *20[0-9-]*T[0-9:]*Z  *applied  *2  *p.conf$" out
'
test_expect_success 'history --dut --json has the keys of a local history --json' '
	mkdir -p root/boot && printf "net.isr.maxthreads=4\n" >b.conf &&
	ntune apply --os freebsd --root "$TRASH/root" b.conf >/dev/null &&
	ntune history --json >local.json && ntune history $D --json >dut.json &&
	python3 -c "
import json, sys
l, d = json.load(open(\"local.json\")), json.load(open(\"dut.json\"))
assert sorted(l[0]) == sorted(d[0]), (sorted(l[0]), sorted(d[0]))
assert d[0][\"state\"] == \"applied\" and d[0][\"changes\"] == 2 and not d[0][\"confirmed\"]
"
'
test_expect_success 'history --dut ID prints the entry with every change (old, new, action)' '
	id=$(cat id) && ntune history $D "$id" >doc && cat doc &&
	test_history_first ldoc &&
	python3 -c "
import json
d, l = json.load(open(\"doc\")), json.load(open(\"ldoc\"))
assert d[\"id\"] == \"$id\" and d[\"dut\"] == \"ssh://dut\" and d[\"os\"] == \"freebsd\"
c = {x[\"name\"]: x for x in d[\"changes\"]}
assert c[\"net.isr.dispatch\"] == {\"name\": \"net.isr.dispatch\", \"old\": \"direct\", \"new\": \"deferred\", \"action\": \"set\", \"netns\": False}, c
assert sorted(l[\"changes\"][0]) == sorted(d[\"changes\"][0])
for k in (\"schema\", \"id\", \"created\", \"state\", \"profile\", \"os\", \"netns\", \"changes\", \"confirm_deadline\", \"confirmed\"):
    assert k in l and k in d, k
"
'
test_expect_success 'an id that is not on the DUT: exit 2, the DUT says so' '
	test_expect_code 2 ntune history $D 20990101T000000Z-1-1 2>err &&
	grep -q "no journal entry 20990101T000000Z-1-1 on this host" err
'
test_expect_success 'verify ID --dut: the DUT holds what the entry applied' '
	id=$(cat id) && ntune verify "$id" $D 2>err && cat err &&
	grep -q "^$id: 0 of 2 settings differ: the system matches" err
'
test_expect_success 'after revert --dut, verify, diff and export of the entry say what it applied' '
	id=$(cat id) && ntune revert $D "$id" >/dev/null &&
	test_expect_code 1 ntune verify "$id" $D >out 2>err && cat out &&
	grep -qx "$id:1: net.isr.dispatch: wanted deferred, actual direct" out &&
	grep -qx "$id:2: net.inet.ip.intr_queue_maxlen: wanted 2048, actual 256" out &&
	test_expect_code 1 ntune diff "$id" current $D >out && cat out &&
	grep -q "^net.isr.dispatch  *deferred  |  direct$" out &&
	grep -q "^KNOB  *$id  |  ssh://dut$" out &&
	ntune export "$id" $D --format sysctl >out && cat out &&
	grep -qx "net.isr.dispatch=deferred" out && grep -qx "net.inet.ip.intr_queue_maxlen=2048" out &&
	ntune history $D "$id" | grep -q "\"reverted_by\": \"user\""
'
test_expect_success 'an entry waiting for its confirm says when it reverts; confirmed after confirm --dut' '
	ntune apply p.conf $D --no-persist --confirm 120 >/dev/null && id2=$(cat "$J/latest") &&
	ntune history $D >out && cat out &&
	grep -q "^$id2  .*  applied  *2  *p.conf \[reverts in 1[0-2][0-9]s unless confirmed\]$" out &&
	ntune confirm $D >/dev/null && ntune history $D >out &&
	grep -q "^$id2  .*  confirmed  *2  *p.conf \[confirmed\]$" out &&
	ntune revert $D >/dev/null
'
test_expect_success 'a local entry is a profile too: export and verify of its id' '
	lid=$(ntune history --json | python3 -c "import json, sys; print(json.load(sys.stdin)[0][\"id\"])") &&
	ntune export "$lid" --format loader >out && grep -qx "net.isr.maxthreads=\"4\"" out
'
test_expect_success 'diff --dut of two systems is refused; --root without --dut is a usage error' '
	test_expect_code 2 ntune diff current current $D 2>err &&
	grep -q "compares .current. with a profile or a journal entry" err &&
	test_expect_code 2 ntune history --root /x 2>err && grep -q "go with --dut" err &&
	test_expect_code 2 ntune verify p.conf --root /x 2>err && grep -q "go with --dut" err
'
test_expect_success 'a partial entry is listed with every knob it left changed and its value' '
	id=$(cat id) && echo partial >"$J/$id/state" &&
	printf "net.isr.dispatch=hybrid\nnet.inet.ip.intr_queue_maxlen=2048\n" >"$J/$id/left" &&
	ntune history $D >out && cat out &&
	grep -q "^$id  .*  partial  *2  *p.conf \[left: net.isr.dispatch=hybrid net.inet.ip.intr_queue_maxlen=2048\]$" out &&
	ntune history $D "$id" | grep -q "\"net.inet.ip.intr_queue_maxlen=2048\"" &&
	echo reverted >"$J/$id/state" && rm "$J/$id/left"
'
test_expect_success 'an entry an older ntune made (no record): listed with the time of its id; no profile of it' '
	id=$(cat id) && mv "$J/$id/entry" entry.saved &&
	ntune history $D >out &&
	grep -q "^$id  *$(echo "$id" | sed "s/^\(....\)\(..\)\(..\)T\(..\)\(..\)\(..\)Z.*/\1-\2-\3T\4:\5:\6Z/")  *reverted  *0 *$" out &&
	test_expect_code 2 ntune verify "$id" $D 2>err && grep -q "records no change" err &&
	mv entry.saved "$J/$id/entry"
'
test_expect_success 'a journal line ntune does not know is refused, not shown' '
	id=$(cat id) && printf "evil\t\$(reboot)\n" >>"$J/$id/left" &&
	printf "x\ty\n" >>"$J/$id/entry" &&
	test_expect_code 2 ntune history $D 2>err && cat err &&
	grep -q "ssh://dut: its journal holds a line ntune does not read" err
'
test_done
