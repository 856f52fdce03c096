#!/usr/bin/env python3
"""Mutation runner (`make mutate`): does a small, realistic change to the code turn a test red?

Reads scripts/mutants.txt (its header says the format). For each mutant, in a scratch copy of the
tree (build-mutate/tree, its own build dir build-mutate/build; the source tree is never written):
replace the pattern (which must occur exactly once in the file), build only what the mutant's
tests need, run those tests, record killed / survived (a build failure counts as killed, reported
apart), put the file back. Prints every result, the score, every survivor with its reason.

  scripts/mutate.py                 run every mutant
  scripts/mutate.py --check         only check that every pattern occurs exactly once (no build)
  scripts/mutate.py ID...           run the named mutants only
  scripts/mutate.py --list          print the mutants' ids and files
Options: --dir DIR (scratch, default build-mutate), --min-score N (exit 1 below N percent),
--no-baseline (skip the first run of every named test on the unmutated copy).
Exit: 0 done (score at least --min-score), 1 below it, 2 the list or the baseline is broken.
"""
import json
import os
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ("id", "file", "find", "repl", "tests", "why", "equivalent")


def die(msg, code=2):
    print("mutate: " + msg, file=sys.stderr)
    sys.exit(code)


def parse(path):
    """Stanzas of 'key: value' lines separated by blank lines; '#' lines are comments.
    A value starts at its first non-blank; in find/repl \\n, \\t and \\\\ stand for a
    newline, a tab and a backslash (so a leading tab is \\t); repl may be empty."""
    mutants, cur, lineno = [], {}, 0

    def flush():
        if not cur:
            return
        for k in ("id", "file", "find", "repl", "why"):
            if k not in cur:
                die("%s:%d: mutant '%s' has no '%s:'" % (path, cur["_line"], cur.get("id", "?"), k))
        if "tests" not in cur and "equivalent" not in cur:
            die("%s:%d: mutant '%s' names no tests" % (path, cur["_line"], cur["id"]))
        mutants.append(dict(cur))
        cur.clear()

    with open(path, encoding="utf-8") as f:
        for line in f:
            lineno += 1
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if line.strip() == "":
                flush()
                continue
            key, sep, val = line.partition(":")
            if not sep or key not in FIELDS:
                die("%s:%d: not 'key: value' with a key of %s" % (path, lineno, ", ".join(FIELDS)))
            val = val.lstrip(" \t")
            if key in ("find", "repl"):
                val = unescape(val)
            if key in cur:
                die("%s:%d: '%s:' twice in one mutant" % (path, lineno, key))
            if not cur:
                cur["_line"] = lineno
            cur[key] = val
    flush()
    seen = set()
    for m in mutants:
        if m["id"] in seen:
            die("%s: mutant id '%s' twice" % (path, m["id"]))
        seen.add(m["id"])
        m["tests"] = m.get("tests", "").split()
    return mutants


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[s[i + 1]])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def check_patterns(mutants, root, listfile):
    bad = 0
    for m in mutants:
        p = os.path.join(root, m["file"])
        try:
            with open(p, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print("%s:%d: %s: cannot read %s: %s" % (listfile, m["_line"], m["id"], m["file"], e.strerror))
            bad += 1
            continue
        n = text.count(m["find"])
        if n != 1:
            print("%s:%d: %s: pattern occurs %d times in %s (must be once): %r"
                  % (listfile, m["_line"], m["id"], n, m["file"], m["find"]))
            bad += 1
        elif m["find"] == m["repl"]:
            print("%s:%d: %s: the replacement is the pattern" % (listfile, m["_line"], m["id"]))
            bad += 1
    return bad


def sync_tree(scratch):
    """Copies the tracked and untracked-not-ignored files into scratch/tree (only what changed)."""
    tree = os.path.join(scratch, "tree")
    out = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "-co", "--exclude-standard"],
                         check=True, stdout=subprocess.PIPE).stdout.decode()
    files = set(f for f in out.split("\0") if f and os.path.lexists(os.path.join(TOP, f)))
    for f in sorted(files):
        src, dst = os.path.join(TOP, f), os.path.join(tree, f)
        if os.path.islink(src):     # the fixtures' /sys trees are made of them
            if not os.path.islink(dst) or os.readlink(dst) != os.readlink(src):
                if os.path.lexists(dst):
                    os.unlink(dst)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                os.symlink(os.readlink(src), dst)
            continue
        # By content: a copy gets the time of now, newer than any object built from a
        # mutant (copying the source's older time would leave that object in the build).
        with open(src, "rb") as fh:
            data = fh.read()
        try:
            with open(dst, "rb") as fh:
                if fh.read() == data:
                    continue
        except FileNotFoundError:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(dst):
            os.unlink(dst)
        shutil.copyfile(src, dst)
        shutil.copymode(src, dst)
    for dirpath, dirnames, filenames in os.walk(tree):
        rel = os.path.relpath(dirpath, tree)
        for fn in filenames:
            r = os.path.normpath(os.path.join(rel, fn))
            if r not in files:
                os.unlink(os.path.join(dirpath, fn))
    # tests/cli/lib.sh finds the shared fixtures beside the checkout ($SRCDIR/../shared)
    shared = os.path.join(os.path.dirname(TOP), "shared")
    link = os.path.join(scratch, "shared")
    if os.path.isdir(shared) and not os.path.lexists(link):
        os.symlink(shared, link)
    return tree


def run(cmd, timeout=None, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, **kw)


def test_targets(build):
    """meson test name -> the ninja targets it needs (its executable and its depends)."""
    tests = json.loads(run(["meson", "introspect", "--tests", build]).stdout)
    targets = json.loads(run(["meson", "introspect", "--targets", build]).stdout)
    by_id = {}
    for t in targets:
        by_id[t["id"]] = [os.path.relpath(f, build) for f in t["filename"]]
    need = {}
    for t in tests:
        n = []
        exe = t["cmd"][0]
        if os.path.abspath(exe).startswith(os.path.abspath(build) + os.sep):
            n.append(os.path.relpath(exe, build))
        for d in t.get("depends", []):
            n.extend(by_id.get(d, []))
        need[t["name"]] = n
    return need


def run_tests(build, names, need, logbase):
    """(build ok, failed test names, output) for names, building only their targets."""
    tg = sorted(set(x for n in names for x in need[n]))
    r = run(["ninja", "-C", build] + tg)
    if r.returncode != 0:
        return False, [], r.stdout.decode(errors="replace")
    # What a test a mutant breaks leaves in TMPDIR goes with the scratch, not into /tmp.
    tmp = os.path.join(os.path.dirname(build), "tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        r = run(["meson", "test", "-C", build, "--no-rebuild", "--num-processes", "2",
                 "--logbase", logbase] + names, timeout=1200, env=dict(os.environ, TMPDIR=tmp))
    except subprocess.TimeoutExpired:
        return True, ["(timeout)"], ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out = r.stdout.decode(errors="replace")
    failed = []
    for line in out.splitlines():
        w = line.split()
        # " 3/5 ntune:unit+check / test_x   FAIL   0.21s  exit status 1"
        for st in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
            if st in w and "/" in w:
                failed.append(w[w.index("/") + 1] if w.index("/") + 1 < len(w) else line)
    if r.returncode != 0 and not failed:
        failed.append("(meson test exit %d)" % r.returncode)
    return True, failed, out


def main(argv):
    args, only, scratch, min_score, baseline, mode = argv[1:], [], os.path.join(TOP, "build-mutate"), 0.0, True, "run"
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--check":
            mode = "check"
        elif a == "--list":
            mode = "list"
        elif a == "--no-baseline":
            baseline = False
        elif a in ("--dir", "--min-score") and i + 1 < len(args):
            i += 1
            if a == "--dir":
                scratch = os.path.abspath(args[i])
            else:
                min_score = float(args[i])
        elif a.startswith("-"):
            die("unknown option '%s' (see the top of %s)" % (a, argv[0]))
        else:
            only.append(a)
        i += 1
    listfile = os.path.join(TOP, "scripts", "mutants.txt")
    mutants = parse(listfile)
    rel_list = os.path.relpath(listfile, os.getcwd())
    if check_patterns(mutants, TOP, rel_list) > 0:
        die("the list is out of step with the code (fix the patterns above)")
    if mode == "list":
        for m in mutants:
            print("%-32s %s%s" % (m["id"], m["file"], "  (equivalent)" if "equivalent" in m else ""))
        return 0
    if mode == "check":
        print("mutate: %d mutants, every pattern occurs exactly once" % len(mutants))
        return 0
    if only:
        unknown = [o for o in only if o not in set(m["id"] for m in mutants)]
        if unknown:
            die("no mutant named %s" % ", ".join(unknown))
        mutants = [m for m in mutants if m["id"] in only]

    t0 = time.time()
    os.makedirs(scratch, exist_ok=True)
    tree = sync_tree(scratch)
    build = os.path.join(scratch, "build")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        r = run(["meson", "setup", build, tree])
        if r.returncode != 0:
            sys.stdout.write(r.stdout.decode(errors="replace"))
            die("meson setup failed")
    else:
        run(["meson", "setup", "--reconfigure", build, tree])
    need = test_targets(build)
    for m in mutants:
        for t in m["tests"]:
            if t not in need:
                die("%s:%d: %s: no test named '%s' (meson test -C build --list)" % (rel_list, m["_line"], m["id"], t))

    runnable = [m for m in mutants if "equivalent" not in m]
    if baseline:
        names = sorted(set(t for m in runnable for t in m["tests"]))
        print("mutate: baseline: %d tests on the unmutated copy ..." % len(names), flush=True)
        ok, failed, out = run_tests(build, names, need, "mutate-baseline")
        if not ok or failed:
            sys.stdout.write(out[-4000:])
            die("the baseline is red (%s): fix that first" % (", ".join(failed) or "build failed"))
        print("mutate: baseline green (%.0f s)" % (time.time() - t0), flush=True)

    results = []
    try:
        for n, m in enumerate(runnable, 1):
            path = os.path.join(tree, m["file"])
            with open(path, "rb") as f:
                orig = f.read()
            ts = time.time()
            try:
                with open(path, "wb") as f:
                    f.write(orig.decode("utf-8").replace(m["find"], m["repl"], 1).encode("utf-8"))
                ok, failed, out = run_tests(build, m["tests"], need, "mutate")
            finally:
                with open(path, "wb") as f:
                    f.write(orig)
            st = "killed" if ok and failed else "survived" if ok else "build"
            results.append((m, st, failed))
            print("[%2d/%d] %-8s %-30s %4.0f s  %s" % (n, len(runnable), st, m["id"], time.time() - ts,
                  ("by " + ", ".join(failed)) if failed else ("build fails" if st == "build" else "")),
                  flush=True)
    except KeyboardInterrupt:
        print("\nmutate: interrupted; %s put back, the source tree was never touched" % m["file"])
        return 130

    killed = [r for r in results if r[1] == "killed"]
    built = [r for r in results if r[1] == "build"]
    surv = [r for r in results if r[1] == "survived"]
    equiv = [m for m in mutants if "equivalent" in m]
    total = len(results)
    score = 100.0 * (len(killed) + len(built)) / total if total else 100.0
    print("\nmutate: %d mutants run, %d killed by a test, %d killed by the build, %d survived; "
          "%d equivalent (not counted)" % (total, len(killed), len(built), len(surv), len(equiv)))
    print("mutate: score %.1f%% in %.0f min %.0f s" % (score, (time.time() - t0) // 60, (time.time() - t0) % 60))
    for m, _, _ in built:
        print("  build fails: %s (%s)" % (m["id"], m["file"]))
    for m in equiv:
        print("  equivalent: %s: %s" % (m["id"], m["equivalent"]))
    for m, _, _ in surv:
        print("  SURVIVED: %s (%s, tests %s): %s" % (m["id"], m["file"], " ".join(m["tests"]), m["why"]))
    return 1 if score < min_score else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
