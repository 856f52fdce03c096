#!/bin/sh
# include-graph.sh [SRC_DIR]
#
# Checks that the `#include "..."` graph of the C files under SRC_DIR (default:
# src/ next to this script) has no cycle. A file's unit is its path without the
# extension: src/os/collect.c and src/os/collect.h are the unit os/collect.
# A module's private header X_impl.h (its internals, shared by its files) is
# part of unit X. Unit A depends on unit B when a file of A includes a header
# of B ("os/snapshot.h", or "snapshot.h" next to the includer). A cycle of units, A -> B -> ... -> A,
# means none of them can be read, built or tested without the others.
#
# Prints each cycle found as `cycle: a -> b -> a` (each edge once), then a
# summary line `include graph: N units, M edges, K cycles`.
# Exit status: 0 no cycle, 1 at least one cycle, 2 usage error.
set -u

src=${1:-$(dirname "$0")/../src}
if [ ! -d "$src" ]; then
	echo "include-graph.sh: '$src' is not a directory" >&2
	exit 2
fi

# Edges "from to", one a line, with units relative to $src. One awk reads every file's
# includes ("FILE INCLUDE" lines); the shell resolves each without a process of its own.
edges=$(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort | xargs -r awk '
	/^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
		s = $0; sub(/^[^"]*"/, "", s); i = index(s, "\""); if (i > 1) print FILENAME, substr(s, 1, i - 1)
	}' | while read -r f inc; do
	case $f in */*) dir=${f%/*} ;; *) dir=. ;; esac
	from=${f%.*}
	from=${from%_impl}
	if [ -f "$dir/$inc" ]; then
		to="$dir/${inc%.*}"
	elif [ -f "$inc" ]; then
		to=${inc%.*}
	else
		continue
	fi
	# no ./ in front, no /./ inside, no _impl
	to=${to#./}
	while :; do case $to in */./*) to=${to%%/./*}/${to#*/./} ;; *) break ;; esac; done
	to=${to%_impl}
	[ "$to" = "$from" ] || echo "$from $to"
done | sort -u)

# A depth-first search that reports each back edge as the cycle it closes.
printf '%s\n' "$edges" | awk '
NF == 2 {
	if (!(($1, $2) in seen)) {
		seen[$1, $2] = 1
		out[$1] = out[$1] " " $2
		nedges++
	}
	unit[$1] = 1; unit[$2] = 1
}
function visit(u,    n, i, w, list, k, path) {
	state[u] = 1
	stack[++depth] = u
	n = split(out[u], list, " ")
	for (i = 1; i <= n; i++) {
		w = list[i]
		if (state[w] == 1) {
			path = ""
			for (k = depth; k >= 1 && stack[k] != w; k--)
				;
			for (; k <= depth; k++)
				path = path stack[k] " -> "
			print "cycle: " path w
			ncycles++
		} else if (state[w] == 0)
			visit(w)
	}
	depth--
	state[u] = 2
}
END {
	nunits = 0
	for (u in unit)
		nunits++
	# Visit in sorted order so the report is stable.
	m = 0
	for (u in unit)
		order[++m] = u
	for (i = 2; i <= m; i++) {
		v = order[i]
		for (j = i - 1; j >= 1 && order[j] > v; j--)
			order[j + 1] = order[j]
		order[j + 1] = v
	}
	for (i = 1; i <= m; i++)
		if (state[order[i]] == 0)
			visit(order[i])
	printf "include graph: %d units, %d edges, %d cycles\n", nunits, nedges, ncycles
	exit ncycles > 0 ? 1 : 0
}'
