#!/bin/sh
# Lists the C functions longer than a limit: FILE:LINE NAME LENGTH, longest first.
# KNF makes this a text job: a definition's name starts a line, its body opens with
# "{" alone on a line and closes with "}" alone on a line. Exit 1 when one is over.
# usage: scripts/func-lengths.sh [-n LIMIT] [FILE|DIR]...   (default: 120, src)
limit=120
if [ "$1" = "-n" ]; then
	limit=$2
	shift 2
fi
[ $# -gt 0 ] || set -- "$(dirname "$0")/../src"
find "$@" -name '*.c' | sort | xargs awk -v limit="$limit" '
	FNR == 1 { name = ""; start = 0 }
	/^[A-Za-z_][A-Za-z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name); at = FNR }
	/^\{$/ && name != "" { start = FNR; next }
	/^\}/ && start > 0 {
		len = FNR - start - 1
		if (len > limit)
			printf "%s:%d %s %d\n", FILENAME, at, name, len
		start = 0
		name = ""
	}
' | sort -k3 -rn | awk '{ print } END { exit NR > 0 }'
