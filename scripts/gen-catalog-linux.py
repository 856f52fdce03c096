#!/usr/bin/env python3
"""Generate share/catalog/linux.tsv from a Linux source tree's documentation.

usage: gen-catalog-linux.py TREE... > share/catalog/linux.tsv

Each TREE is ID=PATH,VERSION,REPO,COMMIT,DATE,NOTE, oldest first.  The
documentation of every tree that has it in .rst form (5.10 on) and the ctl_table
entries of every tree are read: a name only older trees hold is written with
those trees in its 'seen' column (a knob the kernel removed, such as
net.ipv4.tcp_tw_recycle, gone in 4.12). A tree older than the first one a name
was read in counts as holding it when its source declares the name's last
component as a procname, so that a table read in no other way is never said
to be missing there. A .child table another file defines is
followed; a mode set twice under #ifdef, or changed by code at boot, is no mode.

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


def doc_files(root, folder, table):
    """(file, prefix, path in the tree, its lines) for each (file, prefix) of table that
    root's folder holds."""
    for f, prefix in table:
        rel = folder + f
        path = os.path.join(root, rel)
        if os.path.exists(path):
            yield f, prefix, rel, open(path, encoding='utf-8', errors='replace').read().split('\n')


def net_docs(root, out):
    for f, prefix, rel, lines in doc_files(root, 'Documentation/networking/', NET_DOCS):
        for i, l in enumerate(lines):
            m = re.match(r'^([a-z0-9_]+(?:/[a-z0-9_]+)*)\s+-\s+(.*)$', l)
            if m:
                out.setdefault(prefix + m.group(1).replace('/', '.'),
                               (type_of(m.group(2)), '%s:%d' % (rel, i + 1)))


def admin(root, out):
    for f, prefix, rel, lines in doc_files(root, 'Documentation/admin-guide/sysctl/', ADMIN):
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


# Directories of the tree that hold no kernel ctl_table.
SKIP_DIRS = ('Documentation', 'tools', 'samples', 'scripts', 'usr', 'include')
# Tables registered by a macro or a path array: (file, table) -> prefix.
TABLE_NAMED = {('kernel/sysctl.c', 'kern_table'): 'kernel.', ('kernel/sysctl.c', 'vm_table'): 'vm.',
               ('kernel/sysctl.c', 'debug_table'): 'debug.', ('kernel/sysctl.c', 'dev_table'): 'dev.',
               ('security/yama/yama_lsm.c', 'yama_sysctl_table'): 'kernel.yama.'}
# Tables registered under a path built at run time: (file, table, prefix).
TABLE_FIXED = [('net/ipv4/devinet.c', None, 'net.ipv4.conf.%s.'),
               ('net/ipv6/addrconf.c', 'addrconf_sysctl', 'net.ipv6.conf.%s.'),
               # kmemdup'ed by ipv6_route_sysctl_init, registered as net/ipv6/route by
               # ipv6_sysctl_net_init: only "flush" (WRITE_MODES) was in the catalogue
               ('net/ipv6/route.c', 'ipv6_route_table_template', 'net.ipv6.route.'),
               ('net/core/neighbour.c', None, 'net.ipv4.neigh.%s.'),
               ('net/core/neighbour.c', None, 'net.ipv6.neigh.%s.')]
# net/core/neighbour.c: the gc_* entries of neigh_sysctl_template exist only in the
# "default" directory (neigh_sysctl_register names it dev_name_source = "default").
NEIGH_DEFAULT = ['net.ipv4.neigh.default.', 'net.ipv6.neigh.default.']
# Linux <= 4.x netfilter: a protocol's .ctl_compat_table is registered under
# nf_net_ipv4_netfilter_sysctl_path (net/netfilter/nf_conntrack_proto.c).
COMPAT_PREFIX = 'net.ipv4.netfilter.'
REG_PATH_RE = re.compile(r'\b_*register_\w*sysctl\w*\s*\((?:[^,()"]+,\s*)?"([a-z0-9_/-]+)"\s*,\s*'
                         r'(\w+)')
REG_CTLPATH_RE = re.compile(r'\b_*register_(?:sysctl_paths|net_sysctl_table|net_sysctl_rotable)\s*\('
                            r'(?:[^,()]+,\s*)?(\w+)\s*,\s*(\w+)')


def c_files(root):
    for base, dirs, files in os.walk(root):
        rel = os.path.relpath(base, root)
        if rel.split(os.sep)[0] in SKIP_DIRS:
            dirs[:] = []
            continue
        dirs.sort()
        for f in sorted(files):
            if f.endswith('.c'):
                yield os.path.join(base, f)


def table_blocks(text):
    """struct ctl_table NAME[] = { ... }: name -> (offset of the block, block text)."""
    out = {}
    for m in re.finditer(r'\b(?:struct\s+)?ctl_table\s+(\w+)\s*\[\s*\w*\s*\]\s*(?:__\w+\s*)?=\s*\{',
                         text):	# Linux <= 3.x: the ctl_table typedef
        end = text.find('\n};', m.end())
        out[m.group(1)] = (m.end(), text[m.end():end if end > 0 else len(text)])
    return out


def entries_of(block, consts):
    """(name, mode or None, child table or None, offset) of each .procname of a block."""
    marks = list(re.finditer(r'\.procname\s*=\s*(?:"([a-z0-9_-]+)"|(\w+))', block))
    for i, m in enumerate(marks):
        seg = block[m.start():marks[i + 1].start() if i + 1 < len(marks) else len(block)]
        name = m.group(1) or consts.get(m.group(2) or '')
        if not name:
            continue
        # two modes under #ifdef (lib/alloc_tag.c mem_profiling: 0444 or 0644): not one mode
        modes = set(re.findall(r'\.mode\s*=\s*(0[0-7]+)', seg))
        mode = modes.pop() if len(modes) == 1 else None
        child = re.search(r'\.child\s*=\s*(\w+)', seg)
        yield name, mode, child.group(1) if child else None, m.start()


def NF_PROTO_PATH(texts):
    """Whether nf_conntrack_proto.c registers the protocols' tables under net/netfilter."""
    text = texts.get('net/netfilter/nf_conntrack_proto.c', '')
    return 'nf_net_netfilter_sysctl_path' in text or \
        re.search(r'register\w*sysctl\w*\s*\([^;]*"net/netfilter"[^;]*ctl_table', text) is not None


def ctl_tables(root, out):
    """procname/mode of every ctl_table whose registration path the source states."""
    texts = {}
    for path in c_files(root):
        text = open(path, encoding='utf-8', errors='replace').read()
        if 'ctl_table' in text or 'ctl_path' in text:
            texts[os.path.relpath(path, root)] = text
    # struct ctl_path arrays (Linux <= 4.x) are shared between files.
    paths = {}
    for text in texts.values():
        for m in re.finditer(r'struct ctl_path\s+(\w+)\s*\[\s*\]\s*(?:__\w+\s*)?=\s*\{', text):
            block = text[m.end():text.find('\n};', m.end())]
            names = re.findall(r'\.procname\s*=\s*"([a-z0-9_-]+)"', block)
            if names:
                paths[m.group(1)] = '.'.join(names) + '.'
    res = {}
    # A .child table another file defines (kernel/sysctl.c's key_sysctls, usermodehelper_table
    # up to 6.1; security/keys/sysctl.c and kernel/umh.c hold them): one definition in the tree.
    extern = {}
    for rel, text in sorted(texts.items()):
        for name, (off, block) in table_blocks(text).items():
            extern.setdefault(name, []).append((rel, text, off, block))
    for rel, text in sorted(texts.items()):
        consts = dict(re.findall(r'static const char (\w+)\[\]\s*=\s*"([a-z0-9_-]+)"', text))
        tables = table_blocks(text)
        alias = {}	# a local copy of a table: t = kmemdup(nf_ct_sysctl_table, ...)
        for m in re.finditer(r'\b(\w+)\s*=\s*(?:kmemdup\s*\(\s*&?\s*)?(\w+)\s*[,;)]', text):
            if m.group(2) in tables and m.group(1) not in tables:
                alias[m.group(1)] = m.group(2)
        regs = {}
        for m in REG_PATH_RE.finditer(text):
            regs[alias.get(m.group(2), m.group(2))] = m.group(1).replace('/', '.') + '.'
        for m in REG_CTLPATH_RE.finditer(text):
            if m.group(1) in paths:
                regs[alias.get(m.group(2), m.group(2))] = paths[m.group(1)]
        for m in re.finditer(r'\.ctl_table_path\s*=\s*(\w+)', text):
            t = re.search(r'\.ctl_table\s*=\s*(\w+)', text[max(0, m.start() - 400):m.end() + 400])
            if t and m.group(1) in paths:
                regs.setdefault(t.group(1), paths[m.group(1)])
        for m in re.finditer(r'\.ctl_compat_table\s*=\s*(\w+)', text):
            regs.setdefault(m.group(1), COMPAT_PREFIX)
        for m in re.finditer(r'\bregister_sysctl_table\s*\(\s*(\w+)\s*\)', text):
            regs.setdefault(alias.get(m.group(1), m.group(1)), '')	# a root table
        for (frel, table), prefix in TABLE_NAMED.items():
            if frel == rel:
                regs[table] = prefix
        # A conntrack protocol's table (3.0: the l4proto's .ctl_table; 4.x: pn->ctl_table =
        # kmemdup(...)) is registered by nf_conntrack_proto.c under net/netfilter
        # (nf_net_netfilter_sysctl_path, "net/netfilter"), not in its own file.
        if re.search(r'netfilter/nf_conntrack_proto_\w+\.c$', rel) and NF_PROTO_PATH(texts):
            for m in re.finditer(r'(?:\.ctl_table\s*=\s*|->ctl_table\s*=\s*kmemdup\s*\(\s*)(\w+)',
                                 text):
                regs.setdefault(m.group(1), 'net.netfilter.')

        def walk(table, prefix, depth, where):
            frel, ftext, ftables = where
            if depth > 6:
                return
            if table not in ftables:
                # only a .child: a registered root table is the registering file's own
                if depth == 0 or len(extern.get(table, [])) != 1:
                    return
                xrel, xtext, xoff, xblock = extern[table][0]
                frel, ftext, ftables = xrel, xtext, {table: (xoff, xblock)}
            off, block = ftables[table]
            # a mode the code sets at boot (watchdog_hardlockup_sysctl[0].mode = 0644 where the
            # hardware has the detector, kernel/watchdog.c in 6.12): the table's modes are not known
            runtime = re.search(r'\b' + table + r'\s*\[[^]]*\]\s*\.mode\s*=', ftext) is not None
            for name, mode, child, eoff in entries_of(block, consts):
                if runtime:
                    mode = None
                if child:
                    walk(child, prefix + name + '.', depth + 1, (frel, ftext, ftables))
                elif prefix:
                    line = ftext.count('\n', 0, off + eoff) + 1
                    res.setdefault(prefix + name, (mode or '-', '%s:%d' % (frel, line)))
        for table, prefix in sorted(regs.items()):
            walk(table, prefix, 0, (rel, text, tables))
    for rel, table, prefix in TABLE_FIXED:
        text = texts.get(rel)
        if text is None:
            continue
        for m in re.finditer(r'(DEVINET_SYSCTL_\w+_ENTRY|NEIGH_SYSCTL_\w+_ENTRY)\s*\(\s*\w+\s*,\s*'
                             r'(?:\w+\s*,\s*)?"([a-z0-9_-]+)"', text):
            line = text.count('\n', 0, m.start()) + 1
            ro = m.group(1).startswith('DEVINET_SYSCTL_RO_')
            res.setdefault(prefix + m.group(2), ('0444' if ro else '-', '%s:%d' % (rel, line)))
        if table:
            m = re.search(r'struct ctl_table\s+' + table + r'\s*\[\s*\]\s*=\s*\{', text)
            if m:
                block = text[m.end():text.find('\n};', m.end())]
                for name, mode, child, eoff in entries_of(block, {}):
                    line = text.count('\n', 0, m.end() + eoff) + 1
                    res.setdefault(prefix + name, (mode or '-', '%s:%d' % (rel, line)))
    # kernel/ucount.c's user_table declares its entries with UCOUNT_ENTRY("name") (4.9 on)
    text = texts.get('kernel/ucount.c', '')
    for m in re.finditer(r'^\s*UCOUNT_ENTRY\s*\(\s*"([a-z0-9_]+)"\s*\)', text, re.M):
        res.setdefault('user.' + m.group(1), ('-', 'kernel/ucount.c:%d' % (text.count('\n', 0, m.start()) + 1)))
    text = texts.get('net/core/neighbour.c', '')
    for m in re.finditer(r'\[NEIGH_VAR_GC_\w+\]\s*=\s*\{\s*\.procname\s*=\s*"([a-z0-9_]+)"', text):
        line = text.count('\n', 0, m.start()) + 1
        mode = re.search(r'\.mode\s*=\s*(0[0-7]+)', text[m.end():m.end() + 300])
        for prefix in NEIGH_DEFAULT:
            res.setdefault(prefix + m.group(1), (mode.group(1) if mode else '-',
                                                  'net/core/neighbour.c:%d' % line))
    return res


# Values a string knob takes, as data of the source: (knob, directory, struct, field).
VALUES = [('net.ipv4.tcp_congestion_control', 'net/ipv4', 'tcp_congestion_ops', 'name'),
          ('net.core.default_qdisc', 'net/sched', 'Qdisc_ops', 'id')]


def values(root):
    """knob -> (sorted names, file:line of the first) from the ops structures of the tree."""
    res = {}
    for knob, d, struct, field in VALUES:
        names, first = [], None
        top = os.path.join(root, d)
        if not os.path.isdir(top):
            continue
        for f in sorted(os.listdir(top)):
            if not f.endswith('.c'):
                continue
            text = open(os.path.join(top, f), encoding='utf-8', errors='replace').read()
            for m in re.finditer(r'struct ' + struct + r'\s+\w+\s*(?:__\w+\s*)?=\s*\{', text):
                end = text.find('\n};', m.end())
                v = re.search(r'\.' + field + r'\s*=\s*"([a-z0-9_]+)"', text[m.end():end])
                if v:
                    names.append(v.group(1))
                    if first is None:
                        first = '%s/%s:%d' % (d, f, text.count('\n', 0, m.end() + v.start()) + 1)
        if names:
            res[knob] = (sorted(set(names)), first)
    return res


def tree_facts(spec):
    tid, rest = spec.split('=', 1)
    parts = rest.split(',', 5)
    if len(parts) < 6:
        sys.exit('gen-catalog-linux: a tree is ID=PATH,VERSION,REPO,COMMIT,DATE,NOTE')
    return tid, parts


def procnames(root):
    """Every string a .c file of the tree declares as a procname (or in an *_ENTRY macro)."""
    res = set()
    for path in c_files(root):
        text = open(path, encoding='utf-8', errors='replace').read()
        if 'procname' not in text and '_ENTRY' not in text:
            continue
        res.update(re.findall(r'(?:\.procname\s*=\s*|_ENTRY\s*\([^"()]*)"([A-Za-z0-9_-]+)"', text))
    return res


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        sys.stderr.write(__doc__)
        return 2
    trees = [tree_facts(a) for a in argv[1:]]
    rows = {}	# name -> [kind, type, mode, seen ids, source, values]
    for n, (tid, (path, version, repo, commit, date, note)) in enumerate(trees):
        newest = n == len(trees) - 1
        out = {}
        # the documentation (names, types, sections) of every tree that has it in .rst form
        # (5.10 on): a name only documented, such as net.mptcp.enabled, is seen in each
        if os.path.exists(os.path.join(path, 'Documentation/networking/ip-sysctl.rst')):
            ip_sysctl(path, out)
            net_docs(path, out)
            admin(path, out)
        mode = modes(path, out)
        tables = ctl_tables(path, out)
        vals = values(path)
        names = set(out) | set(tables) | set(k for k in mode if mode[k][0] in ('0200', '0444', '0400'))
        for name in names:
            m, msrc = mode.get(name) or tables.get(name) or ('-', None)
            if name in out:
                typ, src = out[name]
                kind = 'doc'
                if msrc:
                    src += ' mode:%s' % msrc
            else:
                typ, src, kind = '?', msrc, 'sysctl'
            row = rows.setdefault(name, [kind, typ, m, [], None, ''])
            row[0], row[1], row[2], row[4] = kind, typ, m, '%s:%s' % (tid, src)
            row[3].append(tid)
            if name in vals:
                row[5] = '%s@%s:%s' % (','.join(vals[name][0]), tid, vals[name][1])
    # A tree older than the first one a name was read in, whose source still declares its
    # last component as a procname (a table registered in a way the reading above misses, as
    # conntrack's per-protocol tables were in 3.0 and 4.9): the name is not said to be missing
    # there. Only the trees before the first: a name gone since keeps its last tree.
    ids = [tid for tid, _ in trees]
    procs = {tid: procnames(path) for tid, (path, *_rest) in trees}
    for name, row in rows.items():
        first = min(ids.index(s) for s in row[3])
        leaf = name.rsplit('.', 1)[-1]
        for i in range(first):
            if leaf in procs[ids[i]]:
                row[3].append(ids[i])
        row[3].sort(key=ids.index)
    w = sys.stdout
    w.write('# ntune Linux sysctl catalogue. Generated by scripts/gen-catalog-linux.py; do not\n'
            '# edit. Facts only: names, documented type, ctl_table mode, file:line.\n'
            '# columns: name kind type placement mode seen source [values]\n'
            '# kind: doc (documented in the newest tree that has it) or sysctl (a ctl_table entry only);\n'
            '# mode: 0200 write-only / 0444 read-only from the ctl_table entry, else -;\n'
            '# seen: the trees holding the name; source: the newest of them.\n')
    for tid, (path, version, repo, commit, date, note) in trees:
        w.write('#tree\t%s\t%s\t%s\t%s\t%s\t%s\n' % (tid, version, repo, commit, date, note))
    for name in sorted(rows):
        kind, typ, m, seen, src, v = rows[name]
        w.write('\t'.join([name, kind, typ, 'runtime', m, ','.join(seen), src] +
                           ([v] if v else [])) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
