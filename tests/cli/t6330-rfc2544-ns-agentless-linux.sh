#!/bin/sh
# ntune lab rfc2544 --dut against a Linux DUT with no ntune on it (agentless), end to end: the
# RFC 2544 search through the rig's DUT namespace, each trial's figures from what the generator
# sent and the sink counted, the DUT's counters read idle with its own cat of /proc, --profile
# applied with the DUT's own sh and `setsid nohup` dead-man job, read back and reverted. Only
# the generator and the sink run ntune; the DUT's PATH never has one. bench --dut then takes a
# snapshot of the DUT around each run from its capture (agentless), the same document, key for
# key, as `ntune snapshot` makes when run on the DUT by hand; an ntune installed there is not used
# (issue 35).
# test-set: full
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rig.sh"

# ntune only on the load hosts.
for h in gen sink; do cp -P "$RIG/bin/ntune" "$RIG/$h/bin/"; done
rm -f "$RIG/bin/ntune"
J=$RIG/dut/root/var/lib/ntune-agentless
on_dut() { ctl ssh -F "$RIG/ssh_config" -o BatchMode=yes dut "$@"; }
knob() { ip netns exec "$N-dut" cat "/proc/sys/$(echo "$1" | tr . /)"; }
SOMAX=$(knob net.core.somaxconn)
printf 'net.core.somaxconn=1002\n' >"$TRASH/p.conf"
RFC="timeout 300 $NTUNE lab rfc2544 --dut ssh://dut --gen ssh://gen --sink ssh://sink
	--ssh-config $RIG/ssh_config --dut-root $RIG/dut/root --duration 0.3 --steps 1 --loads 100,50"

test_expect_success 'the DUT is Linux and no ntune is on its PATH' '
	test "$(on_dut uname -s)" = Linux && ! on_dut command -v ntune && ! on_dut ntune --version
'
test_expect_success 'rfc2544 --dut --profile, agentless: the search runs, the profile applied, read back, reverted' '
	{ ctl $RFC --sizes 64,256 --profile "$TRASH/p.conf" -o r1 >out 2>err ||
		{ echo "rfc2544 exit $?"; tail -30 err; false; }; } &&
	cat out && tail -20 err &&
	grep -q "^ntune lab rfc2544: DUT ssh://dut: Linux .*; no ntune there: agentless; boot " err &&
	grep -q "^RFC 2544 IPv4, 0.3 s trials, loss tolerance 0%" out &&
	grep -Eq "^ +64 +[1-9][0-9]* +[0-9]+ " out && grep -Eq "^ +256 +[1-9][0-9]* +[0-9]+ " out &&
	grep -q "\"complete\": true" r1/meta.json &&
	test "$(knob net.core.somaxconn)" = "$SOMAX" &&
	ls "$J" | grep -vx latest >entries && { grep . "$J"/*/state "$J"/*/reverted || :; } &&
	test $(wc -l <entries) = 1 &&
	e=$(cat entries) && test "$(cat "$J/$e/state")" = reverted && test "$(cat "$J/$e/reverted")" = user &&
	grep -q "^ntune_back .net.core.somaxconn. ./proc/sys/net/core/somaxconn. .$SOMAX.$" "$J/$e/restore" &&
	! on_dut command -v ntune
'
test_expect_success 'each trial: what the generator sent, what the sink counted, the DUT read agentless' '
	python3 - "$RIG" <<-\PY
	import json, sys
	boot = open(sys.argv[1] + "/dut/boot_id").read().strip()
	trials = [json.loads(l) for l in open("r1/runs.jsonl")]
	assert len(trials) >= 6 and {t["size"] for t in trials} == {64, 256}, trials
	assert any(t["pass"] for t in trials), trials
	for t in trials:
	    assert t["sent"] == t["gen"]["packets"] > 0, t
	    assert abs(t["loss"] - (t["sent"] - t["received"]) / t["sent"]) < 1e-9, t
	    assert t["pass"] == (t["received"] > 0 and t["received"] == t["sent"]), t
	    # the DUT counters (its cat of /proc/net/dev over ssh) saw at least what reached the sink
	    assert t["dut"]["boot_id"] == boot and t["dut"]["out_packets"] >= t["received"], t
	    assert t["dut"]["in_packets"] >= t["received"], t
	h = json.load(open("r1/hosts.json"))
	assert h["dut"]["url"] == "ssh://dut" and h["dut"]["boot_id"] == boot, h
	assert h["dut"]["ntune_version"] == "none" and h["gen"]["ntune_version"] != "none", h
	PY
'
test_expect_success 'rfc2544 --dut --json, agentless, no profile: the throughput per size, nothing applied' '
	ls "$J" >before &&
	{ ctl $RFC --sizes 64 --json --quiet >r2.json 2>err2 || { echo "exit $?"; tail -20 err2; false; }; } &&
	python3 - <<-\PY &&
	import json
	d = json.load(open("r2.json"))
	rows = d["sizes"]
	assert d["complete"] and len(rows) == 1 and rows[0]["size"] == 64 and rows[0]["throughput_pps"] > 0, d
	PY
	ls "$J" | diff - before && test "$(knob net.core.somaxconn)" = "$SOMAX"
'
# The schema of two snapshot documents compared: the path of every key (a list's elements as
# one, []; the names under sysctls are the DUT's data, not schema) must be the same in both, and
# a value that neither has as null of the same kind. Prints what differs.
cat >"$TRASH/schema.py" <<-\PY
import json, sys
def walk(v, at, keys, kinds):
    if at.startswith(".sysctls."):
        at = ".sysctls.*"
    keys.add(at)
    if v is not None:
        kinds.setdefault(at, set()).add("number" if type(v) in (int, float) else type(v).__name__)
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, at + "." + k, keys, kinds)
    elif isinstance(v, list):
        for x in v:
            walk(x, at + "[]", keys, kinds)
docs = []
for path in sys.argv[1:3]:
    keys, kinds = set(), {}
    walk(json.load(open(path)), "", keys, kinds)
    docs.append((keys, kinds))
(ka, ta), (kb, tb) = docs
bad = ["only in %s: %s" % (sys.argv[1], k) for k in sorted(ka - kb)]
bad += ["only in %s: %s" % (sys.argv[2], k) for k in sorted(kb - ka)]
bad += ["%s: %s vs %s" % (k, ta[k], tb[k]) for k in sorted(set(ta) & set(tb)) if ta[k] != tb[k]]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
test_expect_success 'bench --dut, agentless: a snapshot of the DUT around each run, the document ntune snapshot makes there' '
	BENCH="timeout 300 $NTUNE bench --dut ssh://dut --gen ssh://gen --sink ssh://sink --ssh-config $RIG/ssh_config
		--dut-root $RIG/dut/root --runs 2 --max-runs 2 --duration 0.5 --warmup 0 --seed 1" &&
	cp -P "$RIG/gen/bin/ntune" "$RIG/dut/bin/ntune" &&
	on_dut ntune snapshot >by-hand.json &&
	ls "$J" >before &&
	{ ctl $BENCH -o with "$TRASH/p.conf" "$TRASH/p.conf" >out 2>err || { tail -20 err; false; }; } &&
	grep -q "^ntune bench: DUT ssh://dut: Linux .*; ntune [0-9.]* there, not used: agentless; boot " err &&
	test $(ls "$J" | grep -cvxF -f before) -ge 4 &&
	rm "$RIG/dut/bin/ntune" && ! on_dut command -v ntune &&
	{ ctl $BENCH -o without "$TRASH/p.conf" "$TRASH/p.conf" >out 2>err || { tail -20 err; false; }; } &&
	grep -q "^ntune bench: DUT ssh://dut: Linux .*; no ntune there: agentless; boot " err &&
	! grep -q "no snapshot of the DUT" err &&
	for d in with without; do
		for n in 1 2 3 4; do
			for w in before after; do
				python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"schema\"] == \"ntune-inspect\", d[\"schema\"]" \
					"$d/dut/run-$n-$w.json" || return 1
			done
		done
	done &&
	python3 "$TRASH/schema.py" by-hand.json without/dut/run-1-before.json &&
	python3 "$TRASH/schema.py" by-hand.json with/dut/run-4-after.json &&
	python3 - <<-\PY
	import json
	a = json.load(open("without/dut/run-1-before.json"))
	b = json.load(open("without/dut/run-4-after.json"))
	# read from the DUT: its knob as it was, its interfaces, its counters moved by the runs
	t = {x["name"]: x for x in a["tunables"]}
	assert t["net.core.somaxconn"]["value"] is not None, t["net.core.somaxconn"]
	names = {n["name"] for n in a["nics"]}
	assert {"dut0", "dut1"} <= names, names
	ca = {c["name"]: c for c in a["if_counters"]}
	cb = {c["name"]: c for c in b["if_counters"]}
	assert cb["dut0"]["ipackets"] > ca["dut0"]["ipackets"], (ca["dut0"], cb["dut0"])
	PY
'
test_done
