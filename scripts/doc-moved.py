#!/usr/bin/env python3
"""Nothing true dropped: every sentence, table row and code line of an old README is still
somewhere in the documentation (README.md and doc/*.md), word for word up to white space.

Usage: scripts/doc-moved.py OLD_README [FILE...]
  OLD_README: e.g. <(git show 0dcaf8f:README.md); FILE...: where to look (default README.md
  doc/*.md). Prints each piece that is nowhere, with its line in OLD_README; exit 1 if any.
  A piece on purpose rewritten rather than moved is listed in doc/moved-rewritten.txt
  (one per line, as printed here), with where its content went: those do not count.
"""
import glob
import re
import sys


def norm(s):
    s = re.sub(r'\s+', ' ', s).strip()
    return s.replace('**', '')


def pieces(text):
    """(line, piece): sentences of prose, rows of tables, lines of code blocks."""
    out, para, para_line, in_code = [], [], 0, False
    lines = text.split('\n')

    def flush():
        if para:
            joined = norm(' '.join(para))
            # A sentence ends with . : or ) followed by a space and a capital, backtick or star.
            for sent in re.split(r'(?<=[.;:)])\s+(?=[A-Z`*(])', joined):
                if len(sent) > 3:
                    out.append((para_line, sent))
        para.clear()

    for n, ln in enumerate(lines, 1):
        if ln.startswith('```'):
            flush()
            in_code = not in_code
            continue
        if in_code or ln.startswith('|'):
            if ln.strip() and not re.match(r'^\|[-| ]+\|$', ln):
                out.append((n, norm(ln)))
            continue
        if not ln.strip() or ln.startswith('#') or ln.startswith('<!--'):
            flush()
            continue
        if not para:
            para_line = n
        para.append(ln)
    flush()
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    old = open(sys.argv[1], encoding='utf-8').read()
    files = sys.argv[2:] or ['README.md'] + sorted(glob.glob('doc/*.md'))
    hay = norm(' '.join(open(f, encoding='utf-8').read().replace('\n', ' ') for f in files))
    try:
        allowed = set(norm(l.split('\t', 1)[0]) for l in open('doc/moved-rewritten.txt', encoding='utf-8')
                      if l.strip() and not l.startswith('#'))
    except FileNotFoundError:
        allowed = set()
    missing = [(n, p) for n, p in pieces(old) if p not in hay and p not in allowed]
    for n, p in missing:
        print('%d\t%s' % (n, p))
    total = len(pieces(old))
    print('%d of %d pieces of %s found in %s' % (total - len(missing), total, sys.argv[1], ' '.join(files)),
          file=sys.stderr)
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
