#!/bin/sh
# ntune check on a corpus judged at source (issue 36 item 8): real tuning files copied as
# published from public repositories no other test uses (tests/fixtures/kbcorpus, each
# file's repository, path and commit in SOURCES), FreeBSD, pfSense-derived and Linux, TuneD
# profiles among them. Every statement check makes on them (a diagnostic or a risk line)
# has a verdict in JUDGED.tsv, true or false with the kernel source that settles it; the
# false count stays 0 and no statement goes unjudged. The counts go to the log.
# test-asan: full
. "$(dirname "$0")/lib.sh"
C="$FIXTURES/kbcorpus"

test_expect_success 'every file is published: repository, path and a commit; 20 files, 12 repositories' '
	python3 - "$C" <<-\EOF
	import os, re, sys
	c = sys.argv[1]
	rows = [l.rstrip("\n").split("\t") for l in open(c + "/SOURCES") if l.strip()]
	files = set()
	for r in rows:
	    assert len(r) == 4 and re.match(r"github\.com/[^/]+/[^/]+$", r[1]) and re.match(r"[0-9a-f]{40}$", r[3]), r
	    assert os.path.isfile(os.path.join(c, r[0])), r
	    files.add(r[0])
	on_disk = set()
	for d, _, fs in os.walk(c):
	    for f in fs:
	        p = os.path.relpath(os.path.join(d, f), c)
	        if "/" in p:
	            on_disk.add(p)
	assert on_disk == files, on_disk ^ files
	assert len(files) >= 20 and len({r[1] for r in rows}) >= 12, (len(files), len({r[1] for r in rows}))
	assert any(f.startswith("freebsd/") for f in files) and any(f.startswith("linux/") for f in files)
	EOF
'

test_expect_success 'check reads every file (exit 0 or 1, or 2 for a line it cannot read, said)' '
	mkdir docs && i=0 &&
	for f in $(cut -f1 "$C/SOURCES"); do
		i=$((i + 1)) &&
		case $f in freebsd/*) os=freebsd ;; *) os=linux ;; esac &&
		{ ntune check --os $os --json "$C/$f" >docs/$(printf %03d $i).json 2>err; rc=$?; } &&
		{ [ $rc -le 1 ] || grep -q "error" docs/$(printf %03d $i).json || { cat err; return 1; }; }
	done
'

test_expect_success 'every statement is judged and none is false' '
	{ python3 "$SRCDIR/tests/cli/kbcorpus.py" judge "$C/JUDGED.tsv" docs >figures; rc=$?; } &&
	cat figures &&
	test $rc = 0
'
[ -f "$TRASH/figures" ] && sed -n 1p "$TRASH/figures"

ORACLE_PY="$TUNED_PROFILES/python"
test_prereq_TUNED_ORACLE() { [ -f "$ORACLE_PY/tuned/profiles/loader.py" ]; }
test_expect_success TUNED_ORACLE,TUNED_PROFILES 'its TuneD profiles are read as TuneD 2.20 reads them (includes from the package)' '
	for d in "$C"/linux/tuned/*/; do
		mkdir -p "tuned/$(basename "$d")" && cp "$d/tuned.conf" "tuned/$(basename "$d")/" || return 1
	done &&
	ln -s "$TUNED_PROFILES/throughput-performance" tuned/throughput-performance &&
	for f in tuned/*/tuned.conf; do
		case $f in tuned/throughput-performance/*) continue ;; esac
		PYTHONPATH="$ORACLE_PY" python3 "$SRCDIR/tests/cli/tuned-oracle.py" "$f" >o.json &&
		ntune check --os linux --json "$f" >n.json 2>/dev/null
		python3 - "$f" <<-\EOF || return 1
		import json, sys
		o = json.load(open("o.json")); d = json.load(open("n.json"))
		assert "refused" not in o, (sys.argv[1], o)
		n = {e["name"]: ("" if e["op"] == "=" else e["op"][1]) + e["value"] for e in d["entries"]}
		o = {k: " ".join(str(v).split()) for k, v in o.items()}
		assert n == o, (sys.argv[1], {k: (o.get(k), n.get(k)) for k in set(o) | set(n) if o.get(k) != n.get(k)})
		EOF
	done
'

test_expect_success 'every true verdict is of a statement check still makes (no stale verdict)' '
	python3 "$SRCDIR/tests/cli/kbcorpus.py" list docs | cut -f1-4 | sort >said &&
	grep -v "^#" "$C/JUDGED.tsv" | awk -F"\t" "NF && \$5 == \"true\"" | cut -f1-4 | sort >judged &&
	diff -u judged said
'
test_done
