#!/bin/sh
# The corpus of real pastes (tests/fixtures/pastes/CASE/: the files as published, SOURCE, EXPECT):
# each read as pasted by diagnose --os OS --from and by doctor --from; the first finding
# compared with EXPECT's (first: KIND CERTAINTY, or none: no finding of certainty likely or
# certain). Prints the score; fails when a case is not read, or the score drops below the
# one the README states.
. "$(dirname "$0")/lib.sh"

P="$FIXTURES/pastes"
# the README's score (Seed 000 section): right first findings of the corpus
WANT_RIGHT=45

test_expect_success 'every case is read as pasted, and the first findings score' '
	python3 - "$P" "$WANT_RIGHT" "$NTUNE" <<-\PY
	import json, os, subprocess, sys
	root, want, ntune = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	cases = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
	read = doc = right = 0
	for c in cases:
	    d = os.path.join(root, c)
	    exp = dict(l.split(": ", 1) for l in open(os.path.join(d, "EXPECT")).read().splitlines() if ": " in l)
	    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f not in ("SOURCE", "EXPECT"))
	    p = subprocess.run([ntune, "diagnose", "--os", exp["os"], "--from"] + files + ["--json"],
	        capture_output=True, text=True)
	    q = subprocess.run([ntune, "doctor", "--from"] + files, capture_output=True, text=True)
	    ok_read = p.returncode != 2
	    read += ok_read
	    doc += q.returncode != 2
	    got = "none"
	    if ok_read:
	        f = json.loads(p.stdout)["findings"]
	        strong = [x for x in f if x["certainty"] in ("certain", "likely")]
	        if f:
	            got = f[0]["kind"] + " " + f[0]["certainty"]
	        if exp["first"] == "none":
	            ok = not strong
	        else:
	            ok = bool(f) and f[0]["kind"] == exp["first"].split()[0]
	    else:
	        ok = False
	    right += ok
	    print("%-40s %-5s %-5s want %-28s got %s" % (c, "read" if ok_read else "NOT", "ok" if ok else "MISS",
	        exp["first"], got if ok_read else p.stderr.strip()[:80]))
	n = len(cases)
	score = "score: %d/%d read by diagnose, %d/%d by doctor, %d/%d right first finding" % (read, n, doc, n, right, n)
	print(score)
	open("score", "w").write(score + "\n")
	sys.exit(0 if read == n and doc == n and right >= want else 1)
	PY
'
# the score, shown whether the case passes or not (TAP comment)
test -f "$TRASH/score" && sed "s/^/# /" "$TRASH/score"
test_done
