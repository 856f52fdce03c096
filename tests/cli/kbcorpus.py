#!/usr/bin/env python3
"""Statements ntune check makes on the judged corpus (tests/fixtures/kbcorpus), and
their verdicts from its table JUDGED.tsv.

  kbcorpus.py list DIR...        one statement a line: file line rule knob severity message
  kbcorpus.py judge TABLE DIR... every statement looked up in TABLE; prints the counts,
                                 exits 1 on a false or unjudged statement

DIR holds one `ntune check --json` document per file (the file's name is in it). A
statement is a diagnostic (rule, knob) or a risk line (rule risk-CLASS) at a line of a
file; TABLE's key is file, line, rule, knob, and a row may add a regular expression the message must match
(column 8), so a statement once false and now said truly at the same line has both rows.
"""
import glob
import json
import os
import re
import sys


def statements(dirs):
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "*.json"))):
            doc = json.load(open(p))
            f = doc["file"].split("kbcorpus/", 1)[-1]
            for x in doc["diagnostics"]:
                yield (f, x["line"], x["rule"], x.get("knob") or "-", x["severity"],
                       " ".join(x["message"].split()))
            for x in doc.get("risks", []):
                yield (f, x["line"], "risk-" + x["class"], x["knob"], "risk",
                       " ".join(x["why"].split()))


def table(path):
    rows = {}
    for n, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        c = line.rstrip("\n").split("\t")
        if len(c) < 6 or c[4] not in ("true", "false"):
            sys.exit("%s:%d: want file line rule knob true|false settled-by [problem [match]]"
                     % (path, n))
        c += [""] * (8 - len(c))
        rows.setdefault((c[0], int(c[1]), c[2], c[3]), []).append((c[4], c[5], c[6], c[7]))
    return rows


def verdict(rows, s):
    """The row for statement s: the first whose match (if any) the message matches."""
    for v in sorted(rows.get(s[:4], []), key=lambda v: v[3] == ""):
        if v[3] == "" or re.search(v[3], s[5]):
            return v
    return None


def judge(path, dirs):
    rows = table(path)
    flags = false = problems = 0
    distinct, unjudged, wrong = set(), [], []
    for s in statements(dirs):
        flags += 1
        distinct.add((s[2], s[3], s[5]))
        v = verdict(rows, s)
        if v is None:
            unjudged.append(s)
            continue
        if v[0] == "false":
            false += 1
            wrong.append((s, v[1]))
        elif v[2] == "problem":
            problems += 1
    print("# judged corpus: %d flags, %d distinct statements, %d false, %d unjudged, "
          "%d flags on a real problem" % (flags, len(distinct), false, len(unjudged), problems))
    for s in unjudged:
        print("unjudged: %s:%d: %s %s: %s" % (s[0], s[1], s[2], s[3], s[5]))
    for s, why in wrong:
        print("false: %s:%d: %s %s: %s [%s]" % (s[0], s[1], s[2], s[3], s[5], why))
    return 1 if unjudged or wrong else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for s in statements(sys.argv[2:]):
            print("%s\t%d\t%s\t%s\t%s\t%s" % s)
    elif len(sys.argv) >= 4 and sys.argv[1] == "judge":
        sys.exit(judge(sys.argv[2], sys.argv[3:]))
    else:
        sys.exit(__doc__)
