#!/bin/sh
# ntune check on a corpus judged at source (issue 36 item 8): real tuning files copied as
# published from public repositories no other test uses (tests/fixtures/kbcorpus, each
# file's repository, path and commit in SOURCES), FreeBSD, pfSense-derived and Linux, TuneD
# profiles among them. Every statement check makes on them (a diagnostic or a risk line)
# has a verdict in JUDGED.tsv, true or false with the kernel source that settles it; the
# false count stays 0 and no statement goes unjudged. The counts go to the log.
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

test_expect_success 'every true verdict is of a statement check still makes (no stale verdict)' '
	python3 "$SRCDIR/tests/cli/kbcorpus.py" list docs | cut -f1-4 | sort >said &&
	grep -v "^#" "$C/JUDGED.tsv" | awk -F"\t" "NF && \$5 == \"true\"" | cut -f1-4 | sort >judged &&
	diff -u judged said
'
test_done
