#!/usr/bin/env python3
"""Generate share/catalog/freebsd.tsv from FreeBSD source trees.

usage: gen-catalog-freebsd.py TREE... > share/catalog/freebsd.tsv

Each TREE is ID=PATH,VERSION,REPO,COMMIT,DATE,NOTE (NOTE may hold commas; it is
the rest).  PATH is a checked-out or extracted tree holding sys/ (and, when it
can, stand/, share/man/man5/ and etc/defaults/rc.conf or libexec/rc/rc.conf).
List the trees oldest first: an entry's source is its newest tree.

Only facts are written: names, macro, CTLFLAG/CTLTYPE flags, types, placement
derived from the flags, and file:line.  No description string is ever copied.

Placement: RDTUN (RD + TUN) -> loader; RWTUN, or RW and a TUNABLE_*_FETCH /
getenv_* / TUNABLE_* of the same name -> both; RW -> runtime; RD -> read-only;
a tunable fetched with no sysctl of that name -> loader.

A function-like macro whose body declares a knob (VT_SYSCTL_INT) is expanded at
each call; a declaration under #ifdef OPTION, a kernel option amd64 GENERIC lacks,
gets " option:OPTION" after its source.
"""
import os
import re
import sys

MACRO_RE = re.compile(
    r'\b(SYSCTL_[A-Z0-9_]+|ZFS_MODULE_(?:VIRTUAL_)?PARAM(?:_CALL)?|TUNABLE_[A-Z0-9_]+|getenv_(?:int|uint|long|ulong|quad|uquad|'
    r'string|bool|is_true|is_false)|kern_getenv|testenv)\s*\(')
STR_RE = re.compile(r'^"((?:[^"\\]|\\.)*)"$')

# Static macros: (parent arg, name arg, access arg, type) ; type None = from CTLTYPE.
STATIC = {
    'SYSCTL_NODE': (0, 2, 3, 'node'),
    'SYSCTL_NODE_WITH_LABEL': (0, 2, 3, 'node'),
    'SYSCTL_ROOT_NODE': (None, 1, 2, 'node'),
    'SYSCTL_INT': (0, 2, 3, 'int'), 'SYSCTL_INT_WITH_LABEL': (0, 2, 3, 'int'),
    'SYSCTL_UINT': (0, 2, 3, 'uint'), 'SYSCTL_LONG': (0, 2, 3, 'long'),
    'SYSCTL_ULONG': (0, 2, 3, 'ulong'), 'SYSCTL_QUAD': (0, 2, 3, 's64'),
    'SYSCTL_UQUAD': (0, 2, 3, 'u64'), 'SYSCTL_S8': (0, 2, 3, 's8'),
    'SYSCTL_U8': (0, 2, 3, 'u8'), 'SYSCTL_S16': (0, 2, 3, 's16'),
    'SYSCTL_U16': (0, 2, 3, 'u16'), 'SYSCTL_S32': (0, 2, 3, 's32'),
    'SYSCTL_U32': (0, 2, 3, 'u32'), 'SYSCTL_S64': (0, 2, 3, 's64'),
    'SYSCTL_U64': (0, 2, 3, 'u64'), 'SYSCTL_STRING': (0, 2, 3, 'string'),
    'SYSCTL_BOOL': (0, 2, 3, 'bool'),
    'SYSCTL_CONST_STRING': (0, 2, 3, 'string'), 'SYSCTL_OPAQUE': (0, 2, 3, 'opaque'),
    'SYSCTL_STRUCT': (0, 2, 3, 'opaque'), 'SYSCTL_PROC': (0, 2, 3, None),
    'SYSCTL_OID': (0, 2, 3, None), 'SYSCTL_OID_WITH_LABEL': (0, 2, 3, None),
    'SYSCTL_COUNTER_U64': (0, 2, 3, 'counter'),
    'SYSCTL_COUNTER_U64_ARRAY': (0, 2, 3, 'opaque'),
    'SYSCTL_TIMEVAL_SEC': (0, 2, 3, 'int'), 'SYSCTL_UMA_MAX': (0, 2, 3, 'int'),
    'SYSCTL_UMA_CUR': (0, 2, 3, 'int'), 'SYSCTL_SBINTIME_USEC': (0, 2, 3, 's64'),
    'SYSCTL_SBINTIME_MSEC': (0, 2, 3, 's64'),
    'SYSCTL_VNET_PCPUSTAT': (0, 2, None, 'opaque'),
    'VNET_PCPUSTAT_SYSINIT': None,
}
# FreeBSD 10 and older: SYSCTL_VNET_INT(...) and friends take SYSCTL_INT's arguments
# (sys/sys/sysctl.h of 10.x); 11.0 folded them into CTLFLAG_VNET.
for _m in ('INT', 'UINT', 'LONG', 'ULONG', 'STRING', 'STRUCT', 'OPAQUE', 'PROC', 'QUAD', 'UQUAD'):
    STATIC['SYSCTL_VNET_' + _m] = STATIC['SYSCTL_' + _m]
# SYSCTL_ADD_*: (ctx, parent, nbr, name, access, ...); ROOT_NODE: (ctx, nbr, name, access).
ADD_TYPES = {
    'NODE': 'node', 'NODE_WITH_LABEL': 'node', 'INT': 'int', 'UINT': 'uint',
    'LONG': 'long', 'ULONG': 'ulong', 'QUAD': 's64', 'UQUAD': 'u64', 'S8': 's8',
    'U8': 'u8', 'S16': 's16', 'U16': 'u16', 'S32': 's32', 'U32': 'u32', 'S64': 's64',
    'U64': 'u64', 'BOOL': 'bool', 'STRING': 'string', 'CONST_STRING': 'string', 'OPAQUE': 'opaque',
    'STRUCT': 'opaque', 'PROC': None, 'OID': None, 'COUNTER_U64': 'counter',
    'COUNTER_U64_ARRAY': 'opaque', 'TIMEVAL_SEC': 'int', 'UMA_MAX': 'int',
    'UMA_CUR': 'int', 'SBINTIME_USEC': 's64', 'SBINTIME_MSEC': 's64',
    'INT_WITH_LABEL': 'int', 'LONG_WITH_LABEL': 'long', 'U64_WITH_LABEL': 'u64',
}
CTLTYPES = {
    'INT': 'int', 'UINT': 'uint', 'LONG': 'long', 'ULONG': 'ulong', 'S64': 's64',
    'U64': 'u64', 'QUAD': 's64', 'UQUAD': 'u64', 'STRING': 'string', 'OPAQUE': 'opaque',
    'STRUCT': 'opaque', 'NODE': 'node', 'S8': 's8', 'U8': 'u8', 'S16': 's16',
    'U16': 'u16', 'S32': 's32', 'U32': 'u32',
}
FMT_TYPES = {'"I"': 'int', '"IU"': 'uint', '"L"': 'long', '"LU"': 'ulong',
             '"Q"': 's64', '"QU"': 'u64', '"A"': 'string', '"CU"': 'u8', '"C"': 's8',
             '"SU"': 'u16', '"S"': 's16'}
TUNABLE_TYPES = {'INT': 'int', 'UINT': 'uint', 'LONG': 'long', 'ULONG': 'ulong',
                 'QUAD': 's64', 'UQUAD': 'u64', 'STR': 'string', 'BOOL': 'bool',
                 'UINT64': 'u64', 'INT64': 's64'}
GETENV_TYPES = {'int': 'int', 'uint': 'uint', 'long': 'long', 'ulong': 'ulong',
                'quad': 's64', 'uquad': 'u64', 'string': 'string', 'bool': 'bool',
                'is_true': 'bool', 'is_false': 'bool'}

# loader.conf(5) name patterns: suffix as loader.conf(5) writes it, our pattern.
LOADER_PATTERNS = [('_load', '%s_load'), ('_name', '%s_name'), ('_type', '%s_type'),
                   ('_flags', '%s_flags'), ('_before', '%s_before'), ('_after', '%s_after'),
                   ('_error', '%s_error')]


# Per-device sysctls of a driver file are named after the devices the file
# attaches (device_get_sysctl_tree of an ix device is dev.ix.N); files not listed
# here give the generic dev.%s.%d.  Longest prefix wins.
DRIVERS = [
    ('sys/dev/ixgbe/if_ix.c', ['ix']), ('sys/dev/ixgbe/if_ixv.c', ['ixv']),
    ('sys/dev/e1000/', ['em', 'igb']), ('sys/dev/ixl/if_ixl.c', ['ixl']),
    ('sys/dev/ixl/ixl_pf', ['ixl']), ('sys/dev/ixl/if_iavf.c', ['iavf']),
    ('sys/dev/ixl/iavf_', ['iavf']), ('sys/dev/iavf/', ['iavf']), ('sys/dev/ice/', ['ice']),
    ('sys/dev/axgbe/', ['ax']), ('sys/dev/mlx5/mlx5_en/', ['mce']),
    ('sys/dev/virtio/network/', ['vtnet']), ('sys/dev/vmware/vmxnet3/', ['vmx']),
    ('sys/dev/bnxt/', ['bnxt']), ('sys/dev/igc/', ['igc']), ('sys/dev/re/', ['re']),
    ('sys/dev/bge/', ['bge']), ('sys/dev/netmap/', ['netmap']),
]


def drivers_of(rel):
    best = None
    for prefix, names in DRIVERS:
        if rel.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, names)
    return best[1] if best else None


DRIVER_RE = re.compile(r'\b(?:EARLY_)?DRIVER_MODULE(?:_ORDERED)?\s*\(\s*(\w+)\s*,')


def file_drivers(text):
    """The drivers a file declares (DRIVER_MODULE(acpi, nexus, ...)): the names
    device_get_name() gives for its devices."""
    return set(DRIVER_RE.findall(text))


def name_arg(arg, drivers):
    """A name argument of SYSCTL_ADD_*: a literal; device_get_name(dev) of a file
    that declares one driver is that driver's name (acpi.c: hw.acpi), and
    device_get_nameunit(dev) that name and a unit (twe%d); else None."""
    lit = literal(arg)
    if lit is not None or len(drivers) != 1:
        return lit
    drv = next(iter(drivers))
    if re.match(r'^device_get_name\s*\(', arg.strip()):
        return drv
    if re.match(r'^device_get_nameunit\s*\(', arg.strip()):
        return drv + '%d'
    return None


OBJECT_RE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Z_][A-Z0-9_]*)[ \t]+(\S.*?)[ \t]*$', re.M)
DEFINE_RE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)', re.M)


def handled(name):
    """Macros the scan reads itself, never expanded as wrappers."""
    return name in STATIC or name.startswith(('SYSCTL_ADD_', 'ZFS_MODULE_', 'TUNABLE_', 'getenv_')) \
        or name in ('kern_getenv', 'testenv', 'G_LABEL_INIT')


def expand(params, body, args):
    """A function-like macro's body with args for its params: #p made a string, a ## b pasted."""
    amap = dict(zip(params, args))
    if params and params[-1] == '...':
        amap['__VA_ARGS__'] = ', '.join(args[len(params) - 1:])
    body = re.sub(r'(?<!#)#\s*(\w+)', lambda m: '"%s"' % amap[m.group(1)]
                  if m.group(1) in amap else m.group(0), body)
    body = re.sub(r'"(?:[^"\\]|\\.)*"|\b\w+\b', lambda m: amap.get(m.group(0), m.group(0)), body)
    return re.sub(r'\s*##\s*', '', body)


def option_guards(text):
    """For each line (1-based list index), the names of the #ifdef NAME / #if defined(NAME)
    blocks it is in (#else turns one off; other #if expressions say nothing)."""
    stack, out = [], [()]
    for l in text.split('\n'):
        m = re.match(r'^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)$', l)
        if m:
            d, arg = m.group(1), m.group(2).strip()
            if d in ('ifdef', 'ifndef'):
                stack.append((arg.split()[0] if arg else '', d == 'ifdef'))
            elif d == 'if':
                c = re.match(r'^defined\s*\(?\s*(\w+)\s*\)?$', arg)
                stack.append((c.group(1), True) if c else None)
            elif d == 'elif' and stack:
                stack[-1] = None
            elif d == 'else' and stack and stack[-1] is not None:
                stack[-1] = (stack[-1][0], not stack[-1][1])
            elif d == 'endif' and stack:
                stack.pop()
        out.append(tuple(c[0] for c in stack if c is not None and c[1]))
    return out


class Wrappers:
    """Function-like macros whose body declares a knob: sys/dev/vt/vt.h VT_SYSCTL_INT(name,
    ...) is SYSCTL_INT(_kern_vt, OID_AUTO, name, CTLFLAG_RWTUN, ...), sys/kern/vfs_cache.c
    STATNODE_ULONG, sys/netinet/sctp_sysctl.c SCTP_UINT_SYSCTL. Each call is expanded where
    it is made (the names are the call's, at the call's line); a header's macro serves every
    file, a .c file's its own. The templates themselves declare nothing."""

    def __init__(self, texts):
        self.local, self.shared, self.spans, self.objects = {}, {}, {}, {}
        for rel, text in texts:
            for m in DEFINE_RE.finditer(text):
                self.spans.setdefault(rel, []).append((m.start(3), m.end(3)))
                name = m.group(1)
                if handled(name):
                    continue
                params = [a.strip() for a in m.group(2).split(',') if a.strip()]
                body = m.group(3).replace('\\\n', ' ')
                if rel.endswith('.h'):
                    self.shared.setdefault(name, {}).setdefault((tuple(params), body), rel)
                else:
                    # the first only: a second one is another #if branch (posix4_mib.c)
                    self.local.setdefault(rel, {}).setdefault(name, [(params, body)])
            self.add_objects(text)
        # keep the macros that declare a knob, or call one that does
        known = set()
        for _ in range(4):
            call = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(known))) if known else None
            for name, defs in list(self.shared.items()) + \
                    [i for d in self.local.values() for i in d.items()]:
                bodies = defs.keys() if isinstance(defs, dict) else [(0, b) for _, b in defs]
                if any(MACRO_RE.search(b) or (call and call.search(b)) for _, b in bodies):
                    known.add(name)
        self.known = known
        self.call_re = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(known))) if known else None

    def defs(self, rel, name):
        """The definitions of name a file sees: its own, else the one headers agree on (or
        those of headers in its directory)."""
        if name not in self.known:
            return []
        own = self.local.get(rel, {}).get(name)
        if own:
            return own
        hs = self.shared.get(name, {})
        if len(hs) > 1:
            here = os.path.dirname(rel) + '/'
            hs = {k: r for k, r in hs.items() if r.startswith(here)}
        return [(list(p), b) for (p, b) in hs]

    def add_objects(self, text):
        for m in OBJECT_RE.finditer(text):
            self.objects.setdefault(m.group(1), set()).add(m.group(2))

    def resolve_objects(self, out):
        """Object-like macros in an expansion: one whose every definition is the same
        name is replaced by it (sys/dev/hptmv/global.h PROC_DIR_NAME is hptmv); the
        others are left, and a knob named or placed by one is not read (nothing said)."""
        def one(m):
            vals = self.objects.get(m.group(0))
            v = next(iter(vals)) if vals and len(vals) == 1 else ''
            return v if re.match(r'^[A-Za-z_]\w*$', v) else m.group(0)
        return re.sub(r'"(?:[^"\\]|\\.)*"|\b[A-Z_][A-Z0-9_]*\b', lambda m: m.group(0)
                      if m.group(0).startswith('"') else one(m), out)

    def string_macros(self, expr):
        """expr with its object macros of one definition replaced, four levels deep (a
        name made of a macro and string literals)."""
        for _ in range(4):
            new = re.sub(r'"(?:[^"\\]|\\.)*"|\b[A-Z_][A-Z0-9_]*\b', lambda m: m.group(0)
                         if m.group(0).startswith('"') or len(self.objects.get(m.group(0), ())) != 1
                         else next(iter(self.objects[m.group(0)])), expr)
            if new == expr:
                break
            expr = new
        return expr

    def unresolved(self, args):
        return any(a.strip() in self.objects and not a.strip().startswith(('CTL', 'OID_'))
                   for a in args[:4])

    def in_template(self, rel, off):
        return any(a <= off < b for a, b in self.spans.get(rel, ()))


def strip_comments(text):
    """Blank out comments (keeping newlines) so line numbers stay right."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
        elif c == '/' and i + 1 < n and text[i + 1] == '/':
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def split_args(text, start):
    """Arguments of the call whose '(' is at start; returns (args, end) or None."""
    depth, i, n, cur, args = 0, start, len(text), [], []
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in '([{':
            depth += 1
            if depth > 1:
                cur.append(c)
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                args.append(''.join(cur).strip())
                return args, i
            cur.append(c)
        elif c == ',' and depth == 1:
            args.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    return None


def literal(arg):
    """The value of a string literal argument (adjacent literals joined), or None."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    if not parts or re.sub(r'"(?:[^"\\]|\\.)*"', '', arg).strip():
        return None
    return ''.join(parts)


def flags_of(access):
    toks = set(re.findall(r'CTLFLAG_([A-Z0-9_]+)', access or ''))
    ctype = re.findall(r'CTLTYPE_([A-Z0-9_]+)', access or '')
    rd = bool(toks & {'RD', 'RDTUN', 'RW', 'RWTUN'})
    wr = bool(toks & {'WR', 'RW', 'RWTUN'})
    tun = bool(toks & {'TUN', 'RDTUN', 'RWTUN'})
    return toks, (ctype[0] if ctype else None), rd, wr, tun


def text_entry(kind, macro, src):
    """A name a text file gives (loader.conf, rc.conf, a manual page, the loader's C): a string
    with no sysctl flags; a loader variable is a tunable, an rc.conf one is not."""
    return {'kind': kind, 'type': 'string', 'rd': False, 'wr': False, 'tun': kind == 'loader',
            'flags': [], 'macro': macro, 'src': src, 'fetch': None}


class Tree:
    def __init__(self, spec):
        tid, rest = spec.split('=', 1)
        parts = rest.split(',', 5)
        if len(parts) < 6:
            sys.exit('gen-catalog-freebsd: tree needs ID=PATH,VERSION,REPO,COMMIT,DATE,NOTE')
        self.id = tid
        self.path, self.version, self.repo, self.commit, self.date, self.note = parts
        self.nodes = {}		# symbol -> (parent symbol or None, name)
        self.raw = []		# (kind, macro, parent, name, access, type, fmt, file, line)
        self.entries = {}	# name -> dict
        self.fields = {}	# struct field holding a node (sc->acpi_sysctl_tree) -> parents
        self.values = {}	# name -> (list of values, file:line)

    def files(self):
        top = os.path.join(self.path, 'sys')
        for root, dirs, files in os.walk(top):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(('.c', '.h')):
                    yield os.path.join(root, f)

    def rel(self, path):
        return os.path.relpath(path, self.path)

    def kernel_options(self):
        """Kernel options (sys/conf/options, options.amd64) that amd64 GENERIC (and DEFAULTS)
        leaves out and no module's Makefile defines."""
        opts, generic = set(), set()
        conf = os.path.join(self.path, 'sys/conf')
        for f in sorted(os.listdir(conf)) if os.path.isdir(conf) else []:
            if f in ('options', 'options.amd64'):	# the GENERIC read is amd64's
                for l in open(os.path.join(conf, f), encoding='latin-1'):
                    m = re.match(r'^([A-Z_][A-Z0-9_]*)\b', l)
                    if m:
                        opts.add(m.group(1))
        for f in ('GENERIC', 'DEFAULTS'):
            path = os.path.join(self.path, 'sys/amd64/conf', f)
            if os.path.exists(path):
                for l in open(path, encoding='latin-1'):
                    m = re.match(r'^\s*options\s+([A-Z_][A-Z0-9_]*)', l)
                    if m:
                        generic.add(m.group(1))
                    m = re.match(r'^\s*device\s+(\w+)', l)
                    if m:	# config(8) defines DEV_NAME for a device (DEV_NETMAP)
                        generic.add('DEV_' + m.group(1).upper())
        # a module's Makefile that defines the option builds the module with it
        mods = os.path.join(self.path, 'sys/modules')
        for root, dirs, files in os.walk(mods):
            if 'Makefile' in files:
                text = open(os.path.join(root, 'Makefile'), encoding='latin-1').read()
                generic.update(re.findall(r'(?:-D|#define\s+)([A-Z_][A-Z0-9_]*)', text))
        return opts - generic

    def scan(self):
        texts, rest = [], []
        self.options, self.opts = self.kernel_options(), {}
        for path in self.files():
            rel = self.rel(path)
            if rel in ('sys/sys/sysctl.h', 'sys/sys/kernel.h', 'sys/sys/systm.h'):
                continue
            try:
                text = open(path, encoding='latin-1').read()
            except OSError:
                continue
            if 'SYSCTL_' not in text and 'TUNABLE_' not in text and 'getenv' not in text and 'ZFS_MODULE' not in text and 'G_LABEL_INIT' not in text \
                    and 'testenv' not in text:
                rest.append((rel, path))
                continue
            texts.append((rel, strip_comments(text)))
        self.wrappers = Wrappers(texts)
        for rel, path in rest:
            # a file that declares its knobs only through another file's wrapper macros
            text = open(path, encoding='latin-1').read()
            self.wrappers.add_objects(text)
            if self.wrappers.call_re and self.wrappers.call_re.search(text):
                texts.append((rel, strip_comments(text)))
        for rel, text in texts:
            self.scan_file(rel, text)
        self.scan_values()

    def scan_file(self, rel, text):
        first = len(self.raw)
        self.scan_decls(rel, text)
        if len(self.raw) > first and self.options:
            guards = option_guards(text)
            for r in self.raw[first:]:
                o = set(guards[r[8]] if r[8] < len(guards) else ()) & self.options
                if o:
                    self.opts[(rel, r[8])] = o

    def scan_decls(self, rel, text):
        assigns = []	# (offset, var, expr)
        self.drivers = file_drivers(text)
        # "c0 = children = SYSCTL_CHILDREN(oid)": both variables hold the node.
        for m in re.finditer(r'([A-Za-z_][\w]*(?:(?:->|\.)[A-Za-z_]\w*)*)\s*=\s*'
                             r'(?:([A-Za-z_][\w]*(?:(?:->|\.)[A-Za-z_]\w*)*)\s*=\s*)?'
                             r'(SYSCTL_ADD_NODE(?:_WITH_LABEL)?\s*\(|SYSCTL_CHILDREN\s*\(|'
                             r'SYSCTL_STATIC_CHILDREN\s*\(|device_get_sysctl_tree\s*\(|'
                             r'&?\s*SYSCTL_NODE_CHILDREN\s*\()', text):
            paren = text.index('(', m.start(3))
            r = split_args(text, paren)
            if r is None:
                continue
            head = m.group(3).split('(')[0].strip().lstrip('&').strip()
            for var in (m.group(1), m.group(2)):
                if var is not None:
                    assigns.append((m.start(), var, head, r[0]))
        for off, var, head, args in assigns:
            # A node kept in a struct field is used by other files (acpi_video.c adds
            # under acpi.c's sc->acpi_sysctl_tree): remember it by the field's name.
            if not re.search(r'(->|\.)\w+$', var):
                continue
            if head.startswith('SYSCTL_ADD_NODE') and len(args) >= 4:
                val = self.dyn_parent(args[1], off, assigns, text, 1) + '.' + \
                    (name_arg(args[3], self.drivers) or '*')
            elif head == 'device_get_sysctl_tree':
                val = 'dev.%s.%d'
            else:
                continue
            if not val.startswith('^'):
                self.fields.setdefault(re.split(r'->|\.', var)[-1], set()).add(val)
        for m in MACRO_RE.finditer(text):
            macro = m.group(1)
            ls = text.rfind('\n', 0, m.start()) + 1
            if text[ls:m.start()].lstrip().startswith('#') or \
                    self.wrappers.in_template(rel, m.start()):
                continue	# a #define of the macro itself, or a wrapper's template
            r = split_args(text, m.end() - 1)
            if r is None:
                continue
            args = r[0]
            line = text.count('\n', 0, m.start()) + 1
            self.one(rel, line, macro, args, m.start(), assigns, text)
        if self.wrappers.call_re:
            for m in self.wrappers.call_re.finditer(text):
                ls = text.rfind('\n', 0, m.start()) + 1
                if text[ls:m.start()].lstrip().startswith('#') or \
                        self.wrappers.in_template(rel, m.start()):
                    continue
                line = text.count('\n', 0, m.start()) + 1
                self.expand_call(rel, line, text, m.group(1), m.end() - 1, m.start(),
                                 assigns, text, 0)
        self.special(rel, text)

    def expand_call(self, rel, line, src, name, paren, off, assigns, text, depth):
        """A wrapper's call at src[paren]: its expansion scanned as if written at line."""
        r = split_args(src, paren)
        if r is None or depth > 4:
            return
        for params, body in self.wrappers.defs(rel, name):
            variadic = params and params[-1] == '...'
            if len(r[0]) != len(params) and not (variadic and len(r[0]) >= len(params) - 1) \
                    and not (not params and r[0] == ['']):
                continue
            out = self.wrappers.resolve_objects(expand(params, body, r[0]))
            for m in MACRO_RE.finditer(out):
                a = split_args(out, m.end() - 1)
                if a is not None and not self.wrappers.unresolved(a[0]):
                    self.one(rel, line, m.group(1), a[0], off, assigns, text)
            if self.wrappers.call_re:
                for m in self.wrappers.call_re.finditer(out):
                    self.expand_call(rel, line, out, m.group(1), m.end() - 1, off, assigns,
                                     text, depth + 1)

    def special(self, rel, text):
        """Names the macros above cannot see: made by other macros or by snprintf."""
        # sys/geom/label/g_label.h: G_LABEL_INIT(kind, ...) declares
        # SYSCTL_INT(_kern_geom_label_##kind, OID_AUTO, enable, CTLFLAG_RWTUN, ...).
        for m in re.finditer(r'\bG_LABEL_INIT\s*\(\s*(\w+)\s*,', text):
            if text[text.rfind('\n', 0, m.start()) + 1:m.start()].lstrip().startswith('#'):
                continue
            line = text.count('\n', 0, m.start()) + 1
            self.raw.append(('sysctl', 'G_LABEL_INIT', 'kern.geom.label.' + m.group(1), 'enable',
                             'CTLFLAG_RWTUN', 'int', None, rel, line))
        # Names in an array of literals handed to a kernel environment fetch
        # (sys/amd64/vmm/vmm.c: names[] = { "pptdevs", ... }; kern_getenv(names[i])).
        for m in re.finditer(r'\bchar\s*\*\s*(?:const\s+)?(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{([^}]*)\}',
                             text):
            if not re.search(r'\b(?:kern_getenv|getenv_\w+|testenv)\s*\(\s*' + m.group(1) +
                             r'\s*\[', text):
                continue
            for lm in re.finditer(r'"([A-Za-z_][\w.]*)"', m.group(2)):
                line = text.count('\n', 0, m.start(2) + lm.start()) + 1
                self.raw.append(('tunable', 'kern_getenv', '', lm.group(1), '', 'string', None,
                                 rel, line))
        # A tunable name built with snprintf ("kern.vt.color.%d.rgb") in a file that
        # fetches tunables: a pattern of the loader. A %s alone names one thing the code
        # passes (kern.vt.fb.modes.%s, a connector: sys/dev/drm2/drm_fb_helper.c) two
        # levels down at least.
        if 'TUNABLE_' in text or 'getenv' in text:
            for m in re.finditer(r'"((?:hw|kern|dev|net|vm|vfs|debug|machdep|security|compat)'
                                 r'\.[\w.%]*%[dus][\w.%]*)"', text):
                name = m.group(1).replace('%u', '%d')
                if '%d' not in name and name[:name.index('%s')].count('.') < 2:
                    continue
                if re.match(r'^[\w.%]+$', name) and '%%' not in name:
                    line = text.count('\n', 0, m.start()) + 1
                    self.raw.append(('tunable', 'snprintf', '', name, '', 'string', None, rel,
                                     line))

    def one(self, rel, line, macro, args, off, assigns, text):
        if macro.startswith('ZFS_MODULE_'):
            # OpenZFS: SYSCTL_<type>(_vfs_<scope>, OID_AUTO, name, perm, ...), see
            # include/os/freebsd/spl/sys/mod_os.h; ZMOD_RW is RWTUN, ZMOD_RD is RDTUN.
            call = macro.endswith('_CALL')
            if len(args) < (7 if call else 6):
                return
            perm = args[5]
            access = {'ZMOD_RW': 'CTLFLAG_RWTUN', 'ZMOD_RD': 'CTLFLAG_RDTUN'}.get(perm, perm)
            typ = '?' if call else ADD_TYPES.get(args[3].strip(), '?')
            self.raw.append(('sysctl', macro, '@_vfs_' + args[0].strip(), args[2].strip(),
                             access, typ, None, rel, line))
            return
        if macro.startswith('SYSCTL_ADD_'):
            t = macro[len('SYSCTL_ADD_'):]
            if t == 'ROOT_NODE':
                if len(args) < 4:
                    return
                name = literal(args[2])
                if name:
                    self.raw.append(('sysctl', macro, '', name, args[3], 'node', None, rel, line))
                return
            if t not in ADD_TYPES or len(args) < 5:
                return
            name = name_arg(args[3], self.drivers)
            parent = self.dyn_parent(args[1], off, assigns, text, 0)
            fmt = args[8] if t in ('PROC', 'OID') and len(args) > 8 else None
            self.raw.append(('sysctl', macro, parent, name if name else '*', args[4],
                             ADD_TYPES[t], fmt, rel, line))
            return
        if macro in STATIC:
            spec = STATIC[macro]
            if spec is None:
                return
            pa, na, aa, typ = spec
            if len(args) <= max(x for x in (pa, na, aa) if x is not None):
                return
            parent = args[pa] if pa is not None else ''
            if rel.endswith('imgact_elf.c') and ('__ELF_WORD_SIZE' in parent or
                                                 parent in ('ASLR_NODE_OID', 'ELF_NODE_OID')):
                # sys/kern/imgact_elf.c is built twice, for kern.elf32 and kern.elf64.
                sub = '.aslr' if parent == 'ASLR_NODE_OID' or 'aslr' in parent else ''
                for bits in ('32', '64'):
                    self.raw.append(('sysctl', macro, 'kern.elf' + bits + sub, args[na],
                                     args[aa], typ, None, rel, line))
                return
            name = args[na]
            if not re.match(r'^[A-Za-z_]\w*$', name):
                return
            access = args[aa] if aa is not None else 'CTLFLAG_VNET|CTLFLAG_RW'
            fmt = args[7] if macro in ('SYSCTL_PROC', 'SYSCTL_OID') and len(args) > 7 else None
            if typ == 'node':
                self.nodes.setdefault(('_' if not parent else parent + '_') + name,
                                      (parent or None, name))
                if not parent:
                    self.nodes['_' + name] = (None, name)
            self.raw.append(('sysctl', macro, ('@' + parent) if parent else '', name, access,
                             typ, fmt, rel, line))
            return
        name = literal(args[0]) if args else None
        if name is None and args:
            # "kern.hwpmc.nbuffers" is PMC_SYSCTL_NAME_PREFIX "nbuffers" (sys/sys/pmc.h)
            name = literal(self.wrappers.string_macros(args[0]))
        if not name or not re.match(r'^[A-Za-z_][\w.%-]*$', name):
            return
        if macro.startswith('TUNABLE_'):
            t = macro[len('TUNABLE_'):].replace('_FETCH', '')
            typ = TUNABLE_TYPES.get(t, 'string')
        elif macro.startswith('getenv_'):
            typ = GETENV_TYPES.get(macro[len('getenv_'):], 'string')
        else:
            typ = 'string'
        self.raw.append(('tunable', macro, '', name, '', typ, None, rel, line))

    def dyn_parent(self, expr, off, assigns, text, depth):
        """A parent expression of SYSCTL_ADD_* as a dotted prefix ('?' when unknown)."""
        expr = expr.strip().lstrip('&').strip()
        if depth > 8:
            return '?'
        m = re.match(r'^SYSCTL_STATIC_CHILDREN\s*\(\s*(\w+)\s*\)$', expr)
        if m:
            return '@' + m.group(1)
        m = re.match(r'^SYSCTL_NODE_CHILDREN\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)$', expr)
        if m:
            return '@' + m.group(1) + '_' + m.group(2)
        m = re.match(r'^SYSCTL_CHILDREN\s*\((.*)\)$', expr, re.S)
        if m:
            return self.dyn_node(m.group(1), off, assigns, text, depth + 1)
        return self.dyn_var(expr, off, assigns, text, depth, children=True)

    def dyn_node(self, expr, off, assigns, text, depth):
        expr = expr.strip()
        if re.match(r'^device_get_sysctl_tree\s*\(', expr):
            return 'dev.%s.%d'
        return self.dyn_var(expr, off, assigns, text, depth, children=False)

    def dyn_var(self, var, off, assigns, text, depth, children):
        best = None
        for a in assigns:
            if a[0] < off and a[1] == var:
                best = a
        if best is None:
            # A node kept in a global that module load sets, used by functions
            # written above that code (rack.c: rack_sysctl_root): its one assignment.
            later = [a for a in assigns if a[1] == var]
            if len(later) == 1 and re.match(r'^\w+$', var) and re.search(
                    r'^(?:static\s+)?struct\s+sysctl_oid(?:_list)?\s*\*\s*' + var + r'\s*[;=]',
                    text, re.M):
                best = later[0]
        if best is None:
            m = re.search(r'(?:->|\.)(\w+)$', var)
            return '^' + m.group(1) if m else '?'
        aoff, _, head, args = best
        if head == 'device_get_sysctl_tree':
            return 'dev.%s.%d'
        if head in ('SYSCTL_CHILDREN',):
            return self.dyn_node(args[0] if args else '', aoff, assigns, text, depth + 1)
        if head == 'SYSCTL_STATIC_CHILDREN':
            return '@' + args[0].strip() if args else '?'
        if head == 'SYSCTL_NODE_CHILDREN' and len(args) == 2:
            return '@' + args[0].strip() + '_' + args[1].strip()
        if head.startswith('SYSCTL_ADD_NODE') and len(args) >= 4:
            parent = self.dyn_parent(args[1], aoff, assigns, text, depth + 1)
            name = name_arg(args[3], self.drivers)
            return parent + '.' + (name if name else '*')
        return '?'

    def dotted(self, sym, seen=None):
        seen = seen or set()
        if sym in seen:
            return None
        seen.add(sym)
        if sym in self.nodes:
            parent, name = self.nodes[sym]
            if parent is None:
                return name
            p = self.dotted(parent, seen)
            return None if p is None else p + '.' + name
        return None

    def resolve(self, parent, depth=0):
        """'@_net_inet' -> 'net.inet'; 'dev.%s.%d.@x' forms are resolved piecewise;
        '^field.rest': the node another file keeps in that struct field."""
        if parent == '':
            return ''
        if parent.startswith('^'):
            field, _, rest = parent[1:].partition('.')
            vals = self.fields.get(field, set())
            if len(vals) != 1 or depth > 4:
                return '?'	# unknown, or set to different nodes: not a fact
            base = self.resolve(next(iter(vals)), depth + 1)
            return base + ('.' + rest if rest else '')
        if parent.startswith('@'):
            rest = ''
            sym = parent[1:]
            if '.' in sym:
                sym, rest = sym.split('.', 1)
                rest = '.' + rest
            d = self.dotted(sym)
            return (d if d is not None else '?') + rest
        return parent

    def build(self):
        tunables = {}
        for kind, macro, parent, name, access, typ, fmt, rel, line in self.raw:
            if kind == 'tunable':
                tunables.setdefault(name, (macro, typ, rel, line))
                continue
            prefix = self.resolve(parent)
            if prefix.startswith('?') or '?' in prefix.split('.'):
                continue	# parent not resolvable from the source text alone
            fulls = [(prefix + '.' + name) if prefix else name]
            drv = drivers_of(rel)
            if drv and prefix.startswith('dev.%s.%d'):
                fulls = ['dev.%s.%%d%s.%s' % (d, prefix[len('dev.%s.%d'):], name) for d in drv]
            for full in fulls:
                if re.match(r'^[\w.%*-]+$', full):	# not "SGE holes"
                    self.add(full, macro, access, typ, fmt, rel, line)
                    self.entries[full].setdefault('opts', self.opts.get((rel, line), set()))

        patterns = [(re.compile(pattern_re(n)), e) for n, e in self.entries.items()
                    if e['kind'] == 'sysctl' and re.search(r'[*%]', n)]
        for name, (macro, typ, rel, line) in tunables.items():
            e = self.entries.get(name)
            if e is None and '%' not in name:
                # A kenv read of a name a sysctl pattern covers (hw.acpi.verbose under a
                # node named at run time): that sysctl, also a loader tunable.
                hits = [p for rx, p in patterns if rx.match(name)]
                if len(hits) == 1:
                    e = self.entries[name] = dict(hits[0])
            elif e is None and '%s' in name:
                # hw.acpi.video.%s.economy read for the sysctl hw.acpi.video.*.economy: the
                # sysctl pattern is also a loader tunable, not a loader-only name beside it
                hits = [p for rx, p in patterns if rx.match(name.replace('%s', 'x').replace(
                    '%d', '0'))]
                if len(hits) == 1:
                    e = hits[0]
            if e is not None and e['kind'] == 'sysctl':
                e['fetch'] = '%s:%d' % (rel, line)
                e['tun'] = True
                continue
            if e is not None:
                continue
            self.entries[name] = {
                'kind': 'tunable', 'type': typ, 'rd': False, 'wr': False, 'tun': True,
                'flags': [], 'macro': macro, 'src': '%s:%d' % (rel, line), 'fetch': None,
            }
        self.loader_vars()
        self.stand_vars()
        self.rc_vars()
        for e in self.entries.values():
            e['placement'] = placement(e)

    def add(self, full, macro, access, typ, fmt, rel, line):
        toks, ctype, rd, wr, tun = flags_of(access)
        if typ is None:
            typ = CTLTYPES.get(ctype or '', None) or FMT_TYPES.get((fmt or '').strip(), '?')
        e = self.entries.get(full)
        if e is not None and e['kind'] == 'sysctl' and typ == 'node':
            return	# a leaf of one driver and a node of another: keep the leaf
        if e is not None and e['kind'] != 'tunable' and not (e['kind'] == 'node' and
                                                             typ != 'node'):
            # Declared twice (per-arch copies, #ifdef variants): any TUN wins, and
            # it needs a kernel option only when every declaration does.
            e['tun'] |= tun
            e['wr'] |= wr
            e['opts'] = e.get('opts', set()) & self.opts.get((rel, line), set())
            return
        self.entries[full] = {
            'kind': 'node' if typ == 'node' else 'sysctl', 'type': typ, 'rd': rd,
            'wr': wr, 'tun': tun, 'flags': sorted(toks), 'macro': macro,
            'src': '%s:%d' % (rel, line), 'fetch': None,
        }

    def first_file(self, *rels):
        """The first of rels (paths in the tree) that the tree holds, or None."""
        for rel in rels:
            if os.path.exists(os.path.join(self.path, rel)):
                return rel
        return None

    def text_vars(self, rel, pattern, kind, macro):
        """Each name pattern's first group finds on a line of rel, unless known: a text entry."""
        for i, l in enumerate(open(os.path.join(self.path, rel), encoding='latin-1'), 1):
            m = re.match(pattern, l)
            if m and m.group(1) not in self.entries:
                self.entries[m.group(1)] = text_entry(kind, macro, '%s:%d' % (rel, i))

    def loader_vars(self):
        rel = self.first_file('stand/defaults/loader.conf', 'sys/boot/forth/loader.conf')
        if rel is not None:
            self.text_vars(rel, r'^#?\s*([A-Za-z_][\w.]*)\s*=', 'loader', 'loader.conf')
        rel = self.first_file('stand/defaults/loader.conf.5', 'share/man/man5/loader.conf.5',
                              'sys/boot/forth/loader.conf.5')
        if rel is None:
            return
        self.text_vars(rel, r'^\.It Va ([A-Za-z_][\w.]*)\s*$', 'loader', 'loader.conf(5)')
        lines = open(os.path.join(self.path, rel), encoding='latin-1').read().split('\n')
        for suffix, pat in LOADER_PATTERNS:
            for i, l in enumerate(lines, 1):
                if re.search(r'Ar module Ns Li %s\b|\b%s\b' % (suffix, suffix), l) and \
                        l.startswith('.It'):
                    self.entries[pat] = text_entry('loader', 'loader.conf(5)', '%s:%d' % (rel, i))
                    break
        hints = os.path.join(self.path, 'share/man/man5/device.hints.5')
        if os.path.exists(hints):
            for i, l in enumerate(open(hints, encoding='latin-1'), 1):
                if 'hint.' in l:
                    self.entries['hint.%s.%d.*'] = text_entry(
                        'loader', 'device.hints(5)', 'share/man/man5/device.hints.5:%d' % i)
                    break

    def stand_vars(self):
        """Variables the loader itself reads or sets (stand/: getenv, setenv, env_setenv in C
        and Lua, with either quote in Lua: loader.getenv('xen_kernel'); s" NAME" getenv in
        the Forth loader's .4th files)."""
        top = os.path.join(self.path, 'stand')
        if not os.path.isdir(top):
            top = os.path.join(self.path, 'sys/boot')	# FreeBSD <= 11
        for root, dirs, files in os.walk(top):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(('.c', '.lua', '.4th')):
                    continue
                path = os.path.join(root, f)
                text = open(path, encoding='latin-1').read()
                if f.endswith('.c'):
                    text = strip_comments(text)
                    pat = r'\b(?:getenv|setenv|env_setenv|unsetenv)\s*\(\s*"([A-Za-z_][\w.]*)"'
                elif f.endswith('.lua'):
                    pat = r'\b(?:getenv|setenv|unsetenv)\s*\(\s*["\']([A-Za-z_][\w.]*)["\']'
                else:
                    pat = r'(?<!\S)s" ([A-Za-z_][\w.]*)" getenv\??(?!\S)'
                for m in re.finditer(pat, text):
                    name = m.group(1)
                    if name in self.entries:
                        continue
                    self.entries[name] = text_entry('loader', 'stand', '%s:%d' % (
                        self.rel(path), text.count('\n', 0, m.start()) + 1))

    def rc_vars(self):
        rel = self.first_file('libexec/rc/rc.conf', 'etc/defaults/rc.conf')
        if rel is not None:
            self.text_vars(rel, r'^#?([A-Za-z_][A-Za-z0-9_]*)=', 'rcconf', 'rc.conf')

    def scan_values(self):
        """Names a string sysctl accepts, when the source lists them as data."""
        cc = os.path.join(self.path, 'sys/netinet/cc')
        algos, first = [], None
        if os.path.isdir(cc):
            for f in sorted(os.listdir(cc)):
                if not (f.startswith('cc_') and f.endswith('.c')):
                    continue
                text = open(os.path.join(cc, f), encoding='latin-1').read()
                for m in re.finditer(r'\.name\s*=\s*"(\w+)"', text):
                    algos.append(m.group(1))
                    if first is None:
                        first = 'sys/netinet/cc/%s:%d' % (f, text.count('\n', 0, m.start()) + 1)
        if algos:
            self.values['net.inet.tcp.cc.algorithm'] = (sorted(set(algos)), first)
        stacks, first = [], None
        subr = os.path.join(self.path, 'sys/netinet/tcp_subr.c')
        if os.path.exists(subr):
            text = open(subr, encoding='latin-1').read()
            m = re.search(r'\.tfb_tcp_block_name\s*=\s*"(\w+)"', text)
            if m:
                stacks.append(m.group(1))
                first = 'sys/netinet/tcp_subr.c:%d' % (text.count('\n', 0, m.start()) + 1)
        sd = os.path.join(self.path, 'sys/netinet/tcp_stacks')
        if os.path.isdir(sd):
            for f in sorted(os.listdir(sd)):
                if f.endswith('.c') and 'tfb_tcp_block_name' in \
                        open(os.path.join(sd, f), encoding='latin-1').read():
                    stacks.append(f[:-2])	# STACKNAME is the module's name
        if stacks:
            self.values['net.inet.tcp.functions_default'] = (sorted(set(stacks)), first)


def pattern_re(name):
    """A catalogue pattern as ntune matches it (src/kb/catalog.c kb_catalog_match):
    %d digits, %s a name (dots allowed), * one level."""
    out = ''
    for tok in re.split(r'(%d|%s|\*)', name):
        out += {'%d': r'[0-9]+', '%s': r'[\w.:/-]+', '*': r'[\w:/-]+'}.get(tok, re.escape(tok))
    return '^' + out + '$'


def placement(e):
    if e['kind'] == 'node':
        return 'node'
    if e['kind'] == 'rcconf':
        return 'rcconf'
    if e['kind'] in ('tunable', 'loader'):
        return 'loader'
    if e['wr'] and e['tun']:
        return 'both'
    if e['wr']:
        return 'runtime'
    if e['tun']:
        return 'loader'
    if e['rd']:
        return 'read-only'
    return '?'


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        sys.stderr.write(__doc__)
        return 2
    trees = [Tree(a) for a in argv[1:]]
    for t in trees:
        t.scan()
        t.build()
    out = sys.stdout
    out.write('# ntune FreeBSD sysctl/tunable catalogue. Generated by scripts/gen-catalog-freebsd.py;\n'
              '# do not edit. Facts only: names, declaring macro, flags, types, file:line.\n'
              '# columns: name kind type placement flags seen source [values]\n'
              '# kind: sysctl node tunable loader rcconf; placement: loader both runtime read-only\n'
              '# node rcconf ?; seen: tree ids; source: tree:file:line (newest tree holding it),\n'
              '# then fetch:FILE:LINE (a tunable read) and option:NAME (declared only under\n'
              '# #ifdef NAME, a kernel option amd64 GENERIC leaves out).\n')
    for t in trees:
        out.write('#tree\t%s\t%s\t%s\t%s\t%s\t%s\n' % (t.id, t.version, t.repo, t.commit, t.date,
                                                     t.note))
    names = sorted(set().union(*[t.entries.keys() for t in trees]))
    for name in names:
        seen = [t for t in trees if name in t.entries]
        newest = seen[-1]
        e = newest.entries[name]
        hist = []
        for t in seen[:-1]:
            o = t.entries[name]
            if o['placement'] != e['placement'] or o['type'] != e['type']:
                hist.append('%s=%s/%s' % (t.id, o['placement'], o['type']))
        flags = '|'.join(f for f in e['flags'] if f not in ('MPSAFE', 'NEEDGIANT')) or '-'
        src = '%s:%s' % (newest.id, e['src'])
        if e['fetch']:
            src += ' fetch:%s' % e['fetch']
        if e.get('opts'):
            src += ' option:%s' % ','.join(sorted(e['opts']))
        vals = ''
        if name in newest.values:
            v, where = newest.values[name]
            vals = '%s@%s:%s' % (','.join(v), newest.id, where)
        out.write('\t'.join([name, e['kind'], e['type'], e['placement'], flags,
                             ','.join(t.id for t in seen), src, vals,
                             ' '.join(hist)]).rstrip('\t') + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
