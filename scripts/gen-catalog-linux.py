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
    w = sys.stdout
    w.write('# ntune Linux sysctl catalogue: documented names. Generated by\n'
            '# scripts/gen-catalog-linux.py; do not edit. Facts only: names, documented type,\n'
            '# file:line. columns: name kind type placement mode seen source\n'
            '# mode: 0200 write-only / 0444 read-only from the ctl_table entry, else -\n')
    w.write('#tree\t%s\t%s\t%s\t%s\t%s\t%s\n' % (tid, version, repo, commit, date, note))
    for name in sorted(out):
        typ, src = out[name]
        m, msrc = mode.get(name, ('-', None))
        if msrc:
            src += ' mode:%s' % msrc
        w.write('\t'.join([name, 'doc', typ, 'runtime', m, tid, '%s:%s' % (tid, src)]) + '\n')
    extra = sorted(n for n in mode if n not in out and mode[n][0] in ('0200', '0444', '0400'))
    for name in extra:
        m, msrc = mode[name]
        w.write('\t'.join([name, 'sysctl', '?', 'runtime', m, tid, '%s:%s' % (tid, msrc)]) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
