#!/bin/sh
# A device hint whose leaf no driver reads, one letter from a leaf a driver does read, is a
# typo the loader passes on silently (issue 36: hint.ahcich.7.om_level for pm_level, read at
# sys/dev/ahci/ahci.c:825). share/knobs/drivers/freebsd.hints lists the leaves the 14.0 tree's
# drivers read (scripts/gen-hints-freebsd.py); leaves a driver builds at run time are not in
# it, so a leaf absent from it and near none is not questioned.
. "$(dirname "$0")/lib.sh"

test_expect_success 'om_level is questioned with the leaf ahci reads and where' '
	printf "hint.ahcich.0.pm_level=5\nhint.ahcich.7.om_level=5\nhint.e6000sw.0.port9cpu=1\n" >l.conf &&
	ntune check --os freebsd l.conf >out 2>err && cat out &&
	grep -q "l.conf:2: warning: .hint.ahcich.7.om_level.: no driver in the source read reads a hint .om_level. (did you mean pm_level? sys/dev/ahci/ahci.c:825 reads that" out &&
	! grep -q "l.conf:1:" out && ! grep -q "l.conf:3:" out
'
test_expect_success 'no other hint line of the fixtures is questioned' '
	grep -rhE "^hint\.[A-Za-z0-9_]+\.[0-9]+\.[A-Za-z0-9_.-]+=" "$FIXTURES" "$SRCDIR/share/profiles" |
		grep -v om_level | sort -u >hints.conf &&
	test "$(wc -l <hints.conf)" -ge 20 &&
	{ ntune check --os freebsd --json hints.conf >h.json 2>/dev/null; test $? -le 1; } &&
	python3 -c "
import json
d = json.load(open(\"h.json\"))
bad = [x for x in d[\"diagnostics\"] if x[\"rule\"] == \"hint\"]
assert not bad, bad
"
'
test_expect_success 'without the list, nothing is questioned (the list is the only witness)' '
	cp -R "$SRCDIR/share" share && rm share/knobs/drivers/freebsd.hints &&
	NTUNE_SHARE="$PWD/share" ntune check --os freebsd l.conf >out 2>&1 &&
	! grep -q "om_level.: no driver" out
'
test_done
