#!/bin/sh
# test-summary.sh LOG.json...: the ten slowest tests of the meson test logs given (meson test
# --logbase NAME writes meson-logs/NAME.json, one JSON object a test), with their build and
# result, the tests' total time, and the wall time from the first test's start to the last one's
# end; missing logs are left out. `make check` and `make check-full` print it last.
exec python3 - "$@" <<'PY'
import json, os, sys
rows = []
span = []
for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue
    build = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    for line in open(path):
        if line.strip():
            t = json.loads(line)
            rows.append((t["duration"], build, t["name"], t["result"]))
            if "starttime" in t:
                span.append((t["starttime"], t["starttime"] + t["duration"]))
if not rows:
    sys.exit(0)
rows.sort(reverse=True)
print("slowest ten of %d tests (%.0f s of test time in all):" % (len(rows), sum(r[0] for r in rows)))
for d, build, name, result in rows[:10]:
    print("  %7.1f s  %-10s %-45s %s" % (d, build, name, result))
if span:
    print("wall time of these test runs: %.0f s (first start to last end, builds and the lock's waits included)"
          % (max(e for _, e in span) - min(s for s, _ in span)))
PY
