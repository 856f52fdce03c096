#!/bin/sh
# ntune check on a corpus of real files from public repositories (tests/fixtures/corpus,
# each with its repository, path and commit in its header): at least 30 FreeBSD and 20
# Linux files. Under 2% of the settings of each OS may be unknown (the figures go to the
# log); the names check does not know and every error are reviewed in goldens: typos,
# loader variables newer than the trees read, a Red Hat-only knob. Knobs gone from the
# kernel (FreeBSD 10's hw.igb.*, Linux's tcp_tw_recycle) are known from the older trees
# the catalogue read. A new unknown or a new error turns this red.
# test-asan: full
. "$(dirname "$0")/lib.sh"
C="$FIXTURES/corpus"

check_all() { # OS DIR: one `ntune check --json` document per line into $1.jsonl
	mkdir -p "$1.d" && i=0 || return 1
	for f in $(find "$C/$2" -type f | sort); do
		i=$((i + 1))
		ntune check --os "$1" --json "$f" >"$1.d/$(printf %04d $i).json" 2>/dev/null
		rc=$?
		[ $rc -le 1 ] || { echo "$f: exit $rc"; return 1; }
	done
	# one python for all the documents, in the order of the files (not one per file: 2 s each under load)
	python3 -c "
import glob, json, sys
for p in sorted(glob.glob(sys.argv[1] + \"/*.json\")):
    print(json.dumps(json.load(open(p))))
" "$1.d" >>"$1.jsonl"
}

# diagnostics: every diagnostic of both corpora (after check_all), one JSON object a line,
# with "file", the corpus file it is about (relative to the corpus).
diagnostics() {
	python3 -c "
import json, sys
base = sys.argv[1] + \"/\"
for o in (\"freebsd\", \"linux\"):
    for l in open(o + \".jsonl\"):
        d = json.loads(l)
        for x in d[\"diagnostics\"]:
            x[\"file\"] = d[\"file\"].replace(base, \"\")
            print(json.dumps(x))
" "$C"
}

test_expect_success 'every corpus file names its source repository, path and commit' '
	bad=0 &&
	for f in $(find "$C" -type f); do
		sed -n 1,3p "$f" | grep -q "source: github.com/[^ ]* [^ ]* @ [0-9a-f]\{40\}" ||
		    { echo "$f: no source header"; bad=1; }
	done &&
	test $bad = 0 &&
	test "$(find "$C/freebsd" -type f | wc -l)" -ge 30 &&
	test "$(find "$C/linux" -type f | wc -l)" -ge 20
'
test_expect_success 'the whole corpus is read: no crash, no unreadable line' '
	check_all freebsd freebsd && check_all linux linux &&
	python3 -c "
import json
for os in (\"freebsd\", \"linux\"):
    for l in open(os + \".jsonl\"):
        d = json.loads(l)
        assert d[\"unreadable_lines\"] == 0, d[\"file\"]
"
'
test_expect_success 'under 2% of the settings are unknown on each OS, and each one is reviewed' '
	python3 -c "
import json
over = []
for os in (\"freebsd\", \"linux\"):
    docs = [json.loads(l) for l in open(os + \".jsonl\")]
    n = sum(d[\"settings\"] for d in docs)
    u = sum(d[\"unknown\"] for d in docs)
    print(\"%s: %d files, %d settings, %d unknown (%.2f%%)\" % (os, len(docs), n, u, 100.0 * u / n))
    if u * 100 >= 2 * n:
        over.append(os)
assert not over, over
" >figures &&
	diagnostics >all.jsonl &&
	python3 -c "
import json, sys
for x in map(json.loads, sys.stdin):
    if x[\"rule\"] == \"unknown-knob\":
        print(\"%s:%d: %s\" % (x[\"file\"], x[\"line\"], x[\"knob\"]))
" <all.jsonl | sort >unknown.txt &&
	test_cmp_golden t3011-corpus-unknown.txt unknown.txt
'
# The figures, passed or failed, as TAP comments in the log.
[ -f "$TRASH/figures" ] && sed 's/^/# /' "$TRASH/figures"
test_expect_success 'no unknown knob is an error except a typo within distance 2; errors are reviewed' '
	diagnostics >all.jsonl &&
	python3 -c "
import json, sys
for x in map(json.loads, sys.stdin):
    if x[\"severity\"] != \"error\":
        continue
    assert x[\"rule\"] != \"unknown-knob\" or \"did you mean\" in x[\"message\"], x
    if x[\"rule\"] == \"read-only\" and \"on this kernel\" in x[\"message\"]:
        continue	# mode bits of the machine running the test
    print(\"%s:%d: %s: %s\" % (x[\"file\"], x[\"line\"], x[\"rule\"], x[\"knob\"]))
" <all.jsonl | sort >errors.txt &&
	test_cmp_golden t3011-corpus-errors.txt errors.txt
'
test_expect_success 'every placement, obsolete and read-only statement names its source line' '
	diagnostics >all.jsonl &&
	python3 -c "
import json, re, sys
for x in map(json.loads, sys.stdin):
    if x[\"rule\"] in (\"placement\", \"rc-conf\", \"node\", \"version\", \"obsolete\",
                     \"read-only\", \"absent\"):
        assert re.search(r\"[a-z0-9_/.-]+\\.(c|h|conf|5|lua|knob|rst):[0-9]+\", x[\"message\"]), x
" <all.jsonl
'
test_expect_success 'a public OPNsense config.xml: its one non-default tunable is known and no error' '
	f="$C/opnsense/config.xml.evilbit-labs-opndossier-sample1" &&
	ntune check --json "$f" >x.json 2>/dev/null &&
	python3 -c "
import json
d = json.load(open(\"x.json\"))
assert d[\"settings\"] == 1 and d[\"unknown\"] == 0, d
assert not [x for x in d[\"diagnostics\"] if x[\"severity\"] == \"error\"], d
"
'
test_done
