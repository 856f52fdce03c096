#!/bin/sh
# call-graph.sh [LIBRARY]
#
# Checks that the files of ntune call each other without a cycle: in the static
# library (default: build/libntune.a next to this script), a file's object
# depends on the object that defines a function or table it uses (`nm`). A
# cycle, a.c -> b.c -> ... -> a.c, is a file calling back into a file that
# calls it: neither can be read or changed without the other. Shared helpers
# belong in a file below both (os/os_util.c, kb/stanza.c); doc/interfaces.md.
# Units are the objects without their extension: src_os_os.c.o is os/os.
#
# Prints each cycle found as `cycle: a -> b -> a`, then a summary line
# `call graph: N units, M edges, K cycles`.
# Exit status: 0 no cycle, 1 at least one cycle, 2 usage error.
set -u

lib=${1:-$(dirname "$0")/../build/libntune.a}
if [ ! -f "$lib" ]; then
	echo "call-graph.sh: '$lib' is not a file (build first)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/call-graph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# "unit symbol-type symbol" for every defined and every used global symbol.
nm -A "$lib" 2>/dev/null | awk '
	{
		split($1, p, ":")
		unit = p[2]
		sub(/.*\//, "", unit)		# a thin archive names its members by path
		sub(/\.o$/, "", unit); sub(/\.c$/, "", unit); sub(/^src_/, "", unit)
		sub(/_/, "/", unit)
		type = $(NF - 1); sym = $NF
		if (type ~ /^[TDRBC]$/)
			def[sym] = unit
		else if (type == "U")
			use[unit, sym] = 1
		units[unit] = 1
	}
	END {
		for (k in use) {
			split(k, q, SUBSEP)
			if ((q[2] in def) && def[q[2]] != q[1])
				print q[1], def[q[2]]
		}
		for (u in units)
			print u, u
	}' | sort -u >"$tmp/edges"
if [ ! -s "$tmp/edges" ]; then
	echo "call-graph.sh: no objects in '$lib'" >&2
	exit 2
fi
tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"
awk '
	/input contains a loop/ { if (c != "") print c " -> " first; c = ""; first = ""; next }
	/^tsort: / { u = $2; c = c == "" ? "cycle: " u : c " -> " u; if (first == "") first = u }
	END { if (c != "") print c " -> " first }' "$tmp/loops" >"$tmp/cycles"
cat "$tmp/cycles"
nunits=$(awk '$1 == $2' "$tmp/edges" | wc -l)
nedges=$(awk '$1 != $2' "$tmp/edges" | wc -l)
ncycles=$(wc -l <"$tmp/cycles")
echo "call graph: $((nunits)) units, $((nedges)) edges, $((ncycles)) cycles"
[ "$ncycles" -eq 0 ]
