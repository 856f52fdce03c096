#!/usr/bin/env python3
"""The README's code blocks, for tests/cli/t0003-readme.sh.

  readme-blocks.py list README        one line per fenced block: ID LINE run|skip FIRST-COMMAND
  readme-blocks.py run README ID DIR  runs block ID's commands in DIR (one sh, in order, `ntune`
                                      being $NTUNE) and checks what they print; exit 1 on a miss

A block is run unless the line before its opening fence is `<!-- not run by t0003: REASON -->`.
In a ```console block, `$ CMD` lines are commands and the lines under one are what it prints
(stdout and stderr, each in its order): every line, unless a `...` line says lines were left out
there. In any other block every line is a command (a trailing backslash continues it). Every
command must exit 0 or 1 (1: ntune's "findings"); 2 and above (usage, input error, a missing
file or command) fail the block.

  readme-blocks.py lint README        every `ntune CMD ...` of every block, run or not, names a
                                      command whose --help lists each option given; a block whose
                                      reason says "has not landed" is left out. Prints what is wrong.
"""
import os
import re
import subprocess
import sys

SKIP = re.compile(r'^<!-- not run by t0003: (.+) -->$')


def blocks(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    out, i = [], 0
    while i < len(lines):
        m = re.match(r'^```(\S*)', lines[i])
        if not m:
            i += 1
            continue
        start, lang = i + 1, m.group(1)
        skip = SKIP.match(lines[i - 1]) if i > 0 else None
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        if j == len(lines):
            sys.exit('%s:%d: a code block that is never closed' % (path, start))
        out.append({'id': len(out) + 1, 'line': start, 'lang': lang, 'body': lines[i + 1:j],
                    'skip': skip.group(1) if skip else None})
        i = j + 1
    return out


def join_continued(body):
    cmds, cur = [], None
    for ln in body:
        cur = ln if cur is None else cur + '\n' + ln
        if not ln.endswith('\\'):
            cmds.append(cur)
            cur = None
    if cur is not None:
        cmds.append(cur)
    return cmds


def commands(b):
    """[(command, [expected lines] or None)] of a block."""
    if b['lang'] != 'console':
        return [(c, None) for c in join_continued(b['body']) if c.strip()]
    res, cur, want = [], None, []
    for ln in b['body']:
        if ln.startswith('$ '):
            if cur is not None:
                res.append((cur, want))
            cur, want = ln[2:], []
        elif cur is not None and cur.endswith('\\') and not want:
            cur += '\n' + ln
        elif cur is None:
            sys.exit('README line %d: console block output before any `$ ` command' % b['line'])
        else:
            want.append(ln)
    if cur is not None:
        res.append((cur, want))
    return res


def matches(want, out, err):
    """None when the command's standard output and error show want (see the module doc), else
    what is missing. Each shown line is looked for in stdout, then in stderr, keeping the order
    within each: a terminal interleaves the two streams in an order a file does not keep."""
    out = [g.rstrip() for g in out]
    err = [g.rstrip() for g in err]
    w = [x.rstrip() for x in want]
    if '...' not in w:
        return None if sorted(w) == sorted(out + err) and all(
            x in w for x in out + err) else 'prints something else'
    pos = [0, 0]
    for x in w:
        if x == '...':
            continue
        for k, stream in enumerate((out, err)):
            p = pos[k]
            while p < len(stream) and stream[p] != x:
                p += 1
            if p < len(stream):
                pos[k] = p + 1
                break
        else:
            return 'no line (after the ones before it): ' + repr(x)
    # Without a leading/trailing `...` the first/last lines shown are the first/last printed.
    if w[0] != '...' and w[0] not in [s[0] for s in (out, err) if s]:
        return 'the first line printed is not ' + repr(w[0])
    if w[-1] != '...' and w[-1] not in [s[-1] for s in (out, err) if s]:
        return 'the last line printed is not ' + repr(w[-1])
    return None


def run(path, ident, workdir):
    b = [x for x in blocks(path) if x['id'] == ident][0]
    cmds = commands(b)
    script = ['ntune() { "$NTUNE" "$@"; }']
    for n, (c, _) in enumerate(cmds):
        script.append('{ %s\n} >%s/.out.%d 2>%s/.err.%d </dev/null; echo $? >%s/.rc.%d'
                      % (c, workdir, n, workdir, n, workdir, n))
    subprocess.run(['sh', '-c', '\n'.join(script)], cwd=workdir, check=False)
    bad = 0
    for n, (c, want) in enumerate(cmds):
        where = 'README line %d: %s' % (b['line'], c.splitlines()[0])
        out, err = [open('%s/.%s.%d' % (workdir, f, n), encoding='utf-8', errors='replace').read()
                    for f in ('out', 'err')]
        rc = int(open('%s/.rc.%d' % (workdir, n)).read().strip() or 255)
        miss = 'exited %d' % rc if rc > 1 else (
            matches(want, out.splitlines(), err.splitlines()) if want is not None else None)
        got = out + err
        if miss:
            bad += 1
            print('%s: %s' % (where, miss))
            print('  it printed:')
            for g in got.splitlines()[:30]:
                print('  | ' + g)
    return 1 if bad else 0


def lint(path):
    ntune = os.environ.get('NTUNE', 'ntune')
    bad, helps = 0, {}
    for b in blocks(path):
        if b['skip'] and 'has not landed' in b['skip']:
            continue
        for c, _ in commands(b):
            text = re.sub(r'\\\n', ' ', c)
            text = re.sub(r'\s#.*', '', text)
            for seg in re.split(r'&&|\|\||;|\||\$\(|`', text):
                words = seg.split()
                if words and words[0] == 'sudo':
                    words = words[1:]
                if len(words) < 2 or words[0] != 'ntune':
                    continue
                cmd = words[1]
                if cmd not in helps:
                    r = subprocess.run([ntune, cmd, '--help'], capture_output=True, text=True)
                    helps[cmd] = r.stdout if r.returncode == 0 else None
                where = 'README line %d: ntune %s' % (b['line'], cmd)
                if helps[cmd] is None:
                    print('%s: no such command' % where)
                    bad += 1
                    continue
                for w in words[2:]:
                    if w.startswith('>') or w.startswith('<'):
                        break
                    if not re.match(r'^--?[a-zA-Z]', w):
                        continue
                    listed = re.search(r'(^|[\s\[|])' + re.escape(w) + r'($|[\s\]|=])', helps[cmd])
                    if re.match(r'^-[a-zA-Z]$', w):    # also in a bundle such as [-Anps]
                        listed = listed or re.search(r'\[-[a-zA-Z]*' + w[1] + r'[a-zA-Z]*\]', helps[cmd])
                    if not listed:
                        print('%s: its --help lists no option %s' % (where, w))
                        bad += 1
    return 1 if bad else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'lint':
        return lint(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == 'list':
        for b in blocks(sys.argv[2]):
            first = (commands(b) or [('(empty)', None)])[0][0].splitlines()[0]
            print(b['id'], b['line'], 'skip' if b['skip'] else 'run', first)
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == 'run':
        return run(sys.argv[2], int(sys.argv[3]), os.path.abspath(sys.argv[4]))
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
