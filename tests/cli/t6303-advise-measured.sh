#!/bin/sh
# advise --measured DIR: a line a bench or tune in the lab decided worse says so; alone it is
# left out (commented), in a profile decided worse as a whole it is marked, never silently advised.
. "$(dirname "$0")/lib.sh"

SNAP="$SRCDIR/tests/fixtures/os/snapshot-linux-vm.json"
advise() { ntune advise --from "$SNAP" --goal forwarding --role router "$@"; }
# A bench directory: profile b (one line) decided worse than a, profile c (two lines) too;
# a tune directory with a step decided worse and one undecided.
fixtures() {
mkdir -p bench/profiles tune &&
printf 'net.core.netdev_budget=600\n' >bench/profiles/b.conf &&
printf 'if.eth0.rps_cpus=3\nnet.ipv4.conf.all.send_redirects=0\n' >bench/profiles/c.conf &&
cat >bench/verdict.json <<'EOF2'
{"confidence": 95, "comparisons": [
 {"a": "a", "b": "b", "metric": "pps", "decided": true, "direction": -1, "text": "b forwards 4.7% fewer packets than a"},
 {"a": "a", "b": "c", "metric": "pps", "decided": true, "direction": -1, "text": "c forwards 9.9% fewer packets than a"}]}
EOF2
cat >tune/summary.json <<'EOF2'
{"metric": "pps", "steps": [
 {"change": "if.eth0.coalesce.adaptive-rx=on", "kept": false, "stopped": "decided", "pct": -12.5,
  "verdict": "s01-try forwards 12.5% fewer", "changes": [{"name": "if.eth0.coalesce.adaptive-rx", "value": "on", "was": "off"}]},
 {"change": "net.ipv4.ip_forward=1", "kept": false, "stopped": "max-runs", "pct": -3,
  "verdict": "no difference proven", "changes": [{"name": "net.ipv4.ip_forward", "value": "1", "was": "0"}]}]}
EOF2
}

test_expect_success 'setup: results directories' 'fixtures'
test_expect_success 'without --measured every advised line is a setting' '
	advise >plain &&
	grep -q "^net.core.netdev_budget=600$" plain && ! grep -q "PROVEN WORSE" plain
'
test_expect_success 'a one-line profile decided worse in a bench: the line is left out, with the verdict' '
	advise --measured bench >out &&
	grep -q "^# PROVEN WORSE in bench: b forwards 4.7% fewer packets than a$" out &&
	grep -q "^# net.core.netdev_budget=600$" out && ! grep -q "^net.core.netdev_budget=" out
'
test_expect_success 'lines of a profile decided worse as a whole are marked but stay' '
	grep -q "^# PROVEN WORSE in bench (as part of a profile): c forwards 9.9% fewer" out &&
	grep -q "^if.eth0.rps_cpus=3$" out
'
test_expect_success 'a tune step decided worse marks its line; an undecided one does not' '
	advise --measured tune --json >j &&
	python3 -c "
import json
a = {x[\"name\"]: x for x in json.load(open(\"j\"))[\"advice\"]}
m = a[\"if.eth0.coalesce.adaptive-rx\"][\"measured\"]
assert m[\"verdict\"] == \"worse\" and m[\"alone\"] and \"12.5% fewer\" in m[\"text\"], m
assert \"measured\" not in a[\"net.ipv4.ip_forward\"]
"
'
test_expect_success 'a directory that is no results directory is refused' '
	mkdir empty && test_expect_code 2 advise --measured empty 2>err &&
	grep -q "neither summary.json (tune) nor verdict.json (bench)" err
'
test_done
