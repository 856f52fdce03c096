#!/usr/bin/env python3
"""Generate share/catalog/linux.tsv from a Linux source tree's documentation.

usage: gen-catalog-linux.py ID=PATH,VERSION,REPO,COMMIT,DATE,NOTE > share/catalog/linux.tsv

PATH holds Documentation/networking/ip-sysctl.rst and
Documentation/admin-guide/sysctl/{kernel,vm,fs,net}.rst.  Written: each
documented name (per-interface names as net.ipv4.conf.%s.NAME), the type the
documentation gives (BOOLEAN -> bool, INTEGER -> int, ...; '?' when it gives
none), and file:line.  Never the documentation's sentences.  A write-only or
read-only mode is taken from the ctl_table entry (.procname/.mode) of the
source files named in WRITE_MODES when the tree holds them.
"""
import os
import re
import sys

TYPES = [('BOOLEAN', 'bool'), ('BOOL', 'bool'), ('INTEGERS', 'int-list'),
         ('vector', 'int-list'), ('INTEGER', 'int'), ('LONG', 'int'), ('STRING', 'string'),
         ('UNSIGNED', 'int'), ('INT', 'int')]

# Section headings of ip-sysctl.rst (a prefix of the heading) -> sysctl prefix.
IP_SECTIONS = [('/proc/sys/net/ipv4/', 'net.ipv4.'), ('/proc/sys/net/ipv6/', 'net.ipv6.'),
               ('``icmp/*``', 'net.ipv6.icmp.'), ('/proc/sys/net/bridge/', 'net.bridge.'),
               ('``proc/sys/net/sctp/', 'net.sctp.'), ('``/proc/sys/net/core/', 'net.core.'),
               ('``/proc/sys/net/unix/', 'net.unix.'), ('INET peer storage', 'net.ipv4.'),
               ('TCP variables', 'net.ipv4.'), ('UDP variables', 'net.ipv4.'),
               ('RAW variables', 'net.ipv4.'), ('CIPSOv4 Variables', 'net.ipv4.'),
               ('IP Variables', 'net.ipv4.')]
ADMIN = [('kernel.rst', 'kernel.'), ('vm.rst', 'vm.'), ('fs.rst', 'fs.'), ('net.rst', 'net.'),
         ('user.rst', 'user.'), ('abi.rst', 'abi.'), ('sunrpc.rst', 'sunrpc.')]
NET_SECTIONS = [('/proc/sys/net/core', 'net.core.'), ('/proc/sys/net/unix', 'net.unix.'),
                ('/proc/sys/net/ipv4', 'net.ipv4.'), ('/proc/sys/net/netfilter', 'net.netfilter.'),
                ('/proc/sys/net/appletalk', 'net.appletalk.'), ('/proc/sys/net/ipx', 'net.ipx.'),
                ('/proc/sys/net/x25', 'net.x25.'), ('/proc/sys/net/tipc', 'net.tipc.'),
                ('/proc/sys/net/token-ring', 'net.token-ring.')]


def type_of(text):
    for word, t in TYPES:
        if word in text:
            return t
    return '?'


def ip_sysctl(root, out):
    rel = 'Documentation/networking/ip-sysctl.rst'
    path = os.path.join(root, rel)
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    prefix, sub = 'net.ipv4.', ''
    for i, l in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        if re.match(r'^[=]{4,}$', nxt):
            for head, p in IP_SECTIONS:
                if l.startswith(head):
                    prefix, sub = p, ''
        m = re.match(r'^``conf/(interface|all|default)/\*``:?\s*$', l)
        if m:
            sub = 'conf.%s.'
            continue
        m = re.match(r'^([a-z0-9_]+(?:/[a-z0-9_{},]+)*)\s+-\s+(.*)$', l)
        if not m:
            continue
        name = m.group(1)
        full = prefix + (sub if '/' not in name else '') + name.replace('/', '.')
        full = re.sub(r'\.(all|default|interface)\.', lambda x: '.%s.' if x.group(1) ==
                      'interface' else '.' + x.group(1) + '.', full)
        out.setdefault(full, (type_of(m.group(2)), '%s:%d' % (rel, i + 1)))


# Other networking/*-sysctl.rst files: "name - TYPE" entries under one prefix.
NET_DOCS = [('ipvs-sysctl.rst', 'net.ipv4.vs.'), ('mpls-sysctl.rst', 'net.mpls.'),
            ('mptcp-sysctl.rst', 'net.mptcp.'), ('netfilter-sysctl.rst', 'net.netfilter.'),
            ('nf_conntrack-sysctl.rst', 'net.netfilter.'), ('smc-sysctl.rst', 'net.smc.')]


def net_docs(root, out):
    for f, prefix in NET_DOCS:
        rel = 'Documentation/networking/' + f
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        for i, l in enumerate(open(path, encoding='utf-8', errors='replace').read().split('\n')):
            m = re.match(r'^([a-z0-9_]+(?:/[a-z0-9_]+)*)\s+-\s+(.*)$', l)
            if m:
                out.setdefault(prefix + m.group(1).replace('/', '.'),
                               (type_of(m.group(2)), '%s:%d' % (rel, i + 1)))


def admin(root, out):
    for f, prefix in ADMIN:
        rel = 'Documentation/admin-guide/sysctl/' + f
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
        cur = prefix
        for i, l in enumerate(lines):
            nxt = lines[i + 1] if i + 1 < len(lines) else ''
            if not re.match(r'^[=\-~^]{3,}$', nxt) or len(nxt) < len(l.rstrip()) - 1:
                continue
            if f == 'net.rst':
                for head, p in NET_SECTIONS:
                    if head in l:
                        cur = p
            text = l.strip().strip('`')
            if not re.match(r'^[a-z][a-z0-9_-]*(?:(?:[ ,/]+|\s&\s)[a-z][a-z0-9_-]*)*$', text):
                continue
            if f == 'net.rst' and cur == 'net.':
                continue
            for n in re.split(r'[ ,/&]+', text):
                out.setdefault(cur + n, ('?', '%s:%d' % (rel, i + 1)))


# ctl_table files whose entries are read for write-only / read-only modes:
# (source file, sysctl prefix of its table).
WRITE_MODES = [('net/ipv4/route.c', 'net.ipv4.route.'), ('net/ipv6/route.c', 'net.ipv6.route.'),
               ('net/ipv4/devinet.c', 'net.ipv4.conf.%s.'), ('net/ipv6/addrconf.c',
                                                            'net.ipv6.conf.%s.')]


def modes(root, out):
    res = {}
    for rel, prefix in WRITE_MODES:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        text = open(path, encoding='utf-8', errors='replace').read()
        consts = dict(re.findall(r'static const char (\w+)\[\]\s*=\s*"([a-z0-9_]+)"', text))
        text2 = re.sub(r'(\.procname\s*=\s*)(\w+)',
                       lambda x: x.group(1) + ('"%s"' % consts[x.group(2)] if x.group(2) in consts
                                               else x.group(2)), text)
        text = text2
        for m in re.finditer(r'\.procname\s*=\s*"([a-z0-9_]+)"(.{0,400}?)\.mode\s*=\s*(0[0-7]+)',
                             text, re.S):
            if '.procname' in m.group(2):
                continue
            line = text.count('\n', 0, m.start()) + 1
            res[prefix + m.group(1)] = (m.group(3), '%s:%d' % (rel, line))
        for m in re.finditer(r'DEVINET_SYSCTL_RO_ENTRY\(\s*([A-Z_0-9]+)\s*,\s*"([a-z0-9_]+)"', text):
            line = text.count('\n', 0, m.start()) + 1
            res[prefix + m.group(2)] = ('0444', '%s:%d' % (rel, line))
    return res


# Source directories whose ctl_table entries are read (names the documentation lacks).
TABLE_DIRS = ['kernel', 'mm', 'fs', 'net', 'security/yama', 'drivers/tty', 'drivers/char']
# Tables registered by a macro or a path array: (file, table) -> prefix.
TABLE_NAMED = {('kernel/sysctl.c', 'kern_table'): 'kernel.', ('kernel/sysctl.c', 'vm_table'): 'vm.',
               ('kernel/sysctl.c', 'debug_table'): 'debug.', ('kernel/sysctl.c', 'dev_table'): 'dev.',
               ('security/yama/yama_lsm.c', 'yama_sysctl_table'): 'kernel.yama.'}
# Tables registered under a path built at run time: (file, table, prefix).
TABLE_FIXED = [('net/ipv4/devinet.c', None, 'net.ipv4.conf.%s.'),
               ('net/ipv6/addrconf.c', 'addrconf_sysctl', 'net.ipv6.conf.%s.'),
               ('net/core/neighbour.c', None, 'net.ipv4.neigh.%s.'),
               ('net/core/neighbour.c', None, 'net.ipv6.neigh.%s.')]


def ctl_tables(root, out):
    """procname/mode of every ctl_table registered with a literal path."""
    res = {}
    for d in TABLE_DIRS:
        for base, dirs, files in os.walk(os.path.join(root, d)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith('.c'):
                    continue
                path = os.path.join(base, f)
                rel = os.path.relpath(path, root)
                text = open(path, encoding='utf-8', errors='replace').read()
                if 'ctl_table' not in text:
                    continue
                consts = dict(re.findall(r'static const char (\w+)\[\]\s*=\s*"([a-z0-9_-]+)"', text))
                regs = {}
                for m in re.finditer(r'register_(?:sysctl_init|sysctl|net_sysctl)\s*\((?:[^,()]+,\s*)?'
                                     r'"([a-z0-9_/-]+)"\s*,\s*(\w+)', text):
                    regs[m.group(2)] = m.group(1).replace('/', '.') + '.'
                for (frel, table), prefix in TABLE_NAMED.items():
                    if frel == rel:
                        regs[table] = prefix
                for table, prefix in regs.items():
                    m = re.search(r'struct ctl_table\s+' + table + r'\s*\[\s*\]\s*=\s*\{', text)
                    if not m:
                        continue
                    end = text.find('\n};', m.end())
                    block = text[m.end():end if end > 0 else len(text)]
                    for e in re.finditer(r'\.procname\s*=\s*(?:"([a-z0-9_-]+)"|(\w+))(.{0,500}?)'
                                         r'(?:\.mode\s*=\s*(0[0-7]+)|\})', block, re.S):
                        name = e.group(1) or consts.get(e.group(2) or '')
                        if not name or '.procname' in e.group(3):
                            continue
                        line = text.count('\n', 0, m.end() + e.start()) + 1
                        res.setdefault(prefix + name, (e.group(4) or '-', '%s:%d' % (rel, line)))
    for rel, table, prefix in TABLE_FIXED:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        text = open(path, encoding='utf-8', errors='replace').read()
        for m in re.finditer(r'(DEVINET_SYSCTL_\w+_ENTRY|NEIGH_SYSCTL_\w+_ENTRY)\s*\(\s*\w+\s*,\s*'
                             r'(?:\w+\s*,\s*)?"([a-z0-9_-]+)"', text):
            line = text.count('\n', 0, m.start()) + 1
            ro = m.group(1).startswith('DEVINET_SYSCTL_RO_')
            res.setdefault(prefix + m.group(2), ('0444' if ro else '-', '%s:%d' % (rel, line)))
        if table:
            m = re.search(r'struct ctl_table\s+' + table + r'\s*\[\s*\]\s*=\s*\{', text)
            if m:
                block = text[m.end():text.find('\n};', m.end())]
                for e in re.finditer(r'\.procname\s*=\s*"([a-z0-9_-]+)"(.{0,500}?)\.mode\s*=\s*(0[0-7]+)',
                                     block, re.S):
                    if '.procname' in e.group(2):
                        continue
                    line = text.count('\n', 0, m.end() + e.start()) + 1
                    res.setdefault(prefix + e.group(1), (e.group(3), '%s:%d' % (rel, line)))
    return res


def main(argv):
    if len(argv) != 2 or argv[1] in ('-h', '--help'):
        sys.stderr.write(__doc__)
        return 2
    tid, rest = argv[1].split('=', 1)
    path, version, repo, commit, date, note = rest.split(',', 5)
    out = {}
    ip_sysctl(path, out)
    net_docs(path, out)
    admin(path, out)
    mode = modes(path, out)
    tables = ctl_tables(path, out)
    w = sys.stdout
    w.write('# ntune Linux sysctl catalogue: documented names. Generated by\n'
            '# scripts/gen-catalog-linux.py; do not edit. Facts only: names, documented type,\n'
            '# file:line. columns: name kind type placement mode seen source\n'
            '# mode: 0200 write-only / 0444 read-only from the ctl_table entry, else -\n')
    w.write('#tree\t%s\t%s\t%s\t%s\t%s\t%s\n' % (tid, version, repo, commit, date, note))
    for name in sorted(out):
        typ, src = out[name]
        m, msrc = mode.get(name) or tables.get(name) or ('-', None)
        if msrc:
            src += ' mode:%s' % msrc
        w.write('\t'.join([name, 'doc', typ, 'runtime', m, tid, '%s:%s' % (tid, src)]) + '\n')
    for name in sorted(set(tables) | set(n for n in mode if mode[n][0] in ('0200', '0444', '0400'))):
        if name in out:
            continue
        m, msrc = mode.get(name) or tables[name]
        w.write('\t'.join([name, 'sysctl', '?', 'runtime', m, tid, '%s:%s' % (tid, msrc)]) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
