#!/bin/sh
# Regenerates tests/cli/golden/stat/ from the installed ministat (Debian 20150715)
# and shows what changed. Usage: scripts/stat-golden.sh [--check]
#   --check  compare only: exit 1 if ministat's output differs from the golden files
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
golden=$root/tests/cli/golden/stat
fixtures=$root/tests/fixtures/stat
check=0
[ "${1:-}" = --check ] && check=1
command -v ministat >/dev/null || { echo "stat-golden: ministat is not installed (apt-get install ministat)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
changed=0
while IFS='	' read -r name args; do
	case $name in ''|'#'*) continue ;; esac
	rc=0
	(cd "$fixtures" && eval "ministat $args") >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	{ echo "$rc"; head -n 1 "$tmp/err" | sed 's/^ministat: //'; } >"$tmp/rc"
	for ext in out rc; do
		if ! cmp -s "$tmp/$ext" "$golden/$name.$ext" 2>/dev/null; then
			changed=1
			echo "stat-golden: $name.$ext differs"
			diff -u "$golden/$name.$ext" "$tmp/$ext" 2>/dev/null | head -20 || true
			[ $check = 1 ] || cp "$tmp/$ext" "$golden/$name.$ext"
		fi
	done
done <"$golden/cases"
if [ $check = 1 ] && [ $changed = 1 ]; then exit 1; fi
echo "stat-golden: $(grep -c '^[^#]' "$golden/cases") cases $( [ $changed = 1 ] && echo updated || echo unchanged)"
