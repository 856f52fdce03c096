#!/bin/sh
# Function length: scripts/func-lengths.sh finds functions over a limit (120 by default), and
# no function of src/ is over 100 lines (issue 35). Names that say their room: no file name
# repeats across src/'s folders, and every file of src/cmd/ is a command.
. "$(dirname "$0")/lib.sh"

# A KNF function whose body is N lines long.
make_func() {
	printf 'static int\n%s(void)\n{\n' "$1"
	i=0
	while [ $i -lt "$2" ]; do
		echo '	x++;'
		i=$((i + 1))
	done
	printf '}\n\n'
}

test_expect_success 'the length check names a function of 121 lines and passes one of 120' '
	mkdir -p src &&
	{ make_func short 120 && make_func long 121; } >src/f.c &&
	test_expect_code 1 "$SRCDIR/scripts/func-lengths.sh" src >out &&
	grep -q "^src/f.c:[0-9]* long 121$" out &&
	! grep -q " short " out &&
	make_func short 120 >src/f.c &&
	"$SRCDIR/scripts/func-lengths.sh" src >out &&
	test ! -s out
'
test_expect_success 'no function of src/ is over 100 lines' '
	"$SRCDIR/scripts/func-lengths.sh" -n 100 "$SRCDIR/src"
'
test_expect_success 'no file name repeats across the folders of src/' '
	(cd "$SRCDIR/src" && find . -name "*.[ch]" | sed "s|.*/||" | sort | uniq -d) >dups &&
	{ test ! -s dups || { echo "repeated: $(cat dups)"; false; }; }
'
test_expect_success 'every C file of src/cmd/ defines a command' '
	for f in "$SRCDIR"/src/cmd/*.c; do
		grep -q "^const struct ntune_cmd cmd_" "$f" || { echo "not a command: $f"; exit 1; }
	done
'
test_done
