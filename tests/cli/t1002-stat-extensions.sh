#!/bin/sh
# What ntune stat adds to ministat: --summary, any -c level, --welch,
# --mann-whitney, -p, --json, and clear errors for input ministat would accept.
. "$(dirname "$0")/lib.sh"

fx="$FIXTURES/stat"
tab=$(printf '\t'); q="'"

# The seed 001 page (rx/tx_process_limit on a 10GbE router) from its three published summaries.
test_expect_success 'seed 001: --summary reproduces the published Difference block and verdicts' '
	ntune stat --summary 5:1704710.4:48677.407 --summary 5:1681153.8:17459.489 \
		--summary 5:1963257:44988.621 >out &&
	cat >want <<-EOF &&
	x 5:1704710.4:48677.407
	+ 5:1681153.8:17459.489
	* 5:1963257:44988.621
	    N           Min           Max        Median           Avg        Stddev
	x   5             -             -             -     1704710.4     48677.407
	+   5             -             -             -     1681153.8     17459.489
	No difference proven at 95.0% confidence
	*   5             -             -             -       1963257     44988.621
	Difference at 95.0% confidence
	${tab}258547 +/- 68356.2
	${tab}15.1666% +/- 4.00984%
	${tab}(Student${q}s t, pooled s = 46869.3)
	EOF
	diff -u want out
'

test_expect_success 'seed 001: the harvest table gives No difference proven' '
	ntune stat --summary 5:1963257:44988.621 --summary 5:1967850.8:51378.188 >out &&
	tail -n 1 out >last &&
	echo "No difference proven at 95.0% confidence" >want &&
	diff -u want last
'

test_expect_success '--summary takes a name and mixes with files in command-line order' '
	ntune stat -w 40 "$fx/base.txt" --summary "12:106.695:3.1811304:published faster" >out &&
	head -n 2 out >names &&
	printf "x %s\n+ published faster\n" "$fx/base.txt" >want &&
	diff -u want names &&
	grep -q "^+  12             -             -             -       106.695     3.1811304\$" out &&
	grep -q "^|.*x.*|\$" out && ! grep -q "^|.*+.*|\$" out
'

test_expect_success 'a summary and its data set give the same comparison' '
	(cd "$fx" && ntune stat -A base.txt faster.txt) | tail -n 4 >files &&
	ntune stat -A --summary 12:99.378333333333333:3.5961060590420 \
		--summary 12:106.695:3.1811304451560 | tail -n 4 >sums &&
	diff -u files sums
'

test_expect_success 'a malformed --summary is a usage error naming it' '
	test_expect_code 2 ntune stat --summary 5:abc:1 2>err && grep -q "summary .5:abc:1." err
'
test_expect_success '--summary with N below 2 is refused' 'test_expect_code 2 ntune stat --summary 1:5:1'
test_expect_success '--summary with a negative stddev is refused' 'test_expect_code 2 ntune stat --summary 5:5:-1'

test_expect_success '-c takes any level in (0,100) with exact quantiles' '
	(cd "$fx" && ntune stat -A -c 96 base.txt faster.txt) >out &&
	grep -q "^Difference at 96.0% confidence\$" out &&
	(cd "$fx" && ntune stat -A -c 99.95 base.txt same.txt) >out &&
	grep -q "^No difference proven at 99.95% confidence\$" out
'

test_expect_success '-c 96 lies between the 95 and 98 intervals' '
	(cd "$fx" && for c in 95 96 98; do ntune stat -A -c $c base.txt faster.txt; done) |
		sed -n "s/^$tab[0-9.]* +\/- \([0-9.]*\)\$/\1/p" >hw &&
	test $(wc -l <hw) = 3 &&
	awk "NR == 1 { a = \$1 } NR == 2 { b = \$1 } NR == 3 { c = \$1 } END { exit !(a < b && b < c) }" hw
'

test_expect_success '-c 100 is refused as ministat does' 'test_expect_code 2 ntune stat -c 100 "$fx/base.txt"'

test_expect_success '--welch prints Welch-Satterthwaite df and its interval' '
	(cd "$fx" && ntune stat -A --welch base.txt faster.txt) >out &&
	grep -q "^$tab(Welch${q}s t, df = 21.6773, s = 1.38599)\$" out &&
	grep -q "^${tab}7.31667 +/- 2.87685\$" out
'

test_expect_success '--mann-whitney is exact for small samples, gives the shift and its interval, p with -p' '
	(cd "$fx" && ntune stat -A -p --mann-whitney base.txt faster.txt same.txt) >out &&
	grep -q "^$tab(Mann-Whitney U = 140, exact; Hodges-Lehmann shift)\$" out &&
	grep -q "^${tab}7.755 in \[3.67, 10.08\]\$" out &&
	grep -q "^${tab}p = 8.87523e-06\$" out &&
	grep -q "^${tab}p = 0.178182\$" out
'

test_expect_success '--mann-whitney uses the normal approximation for large samples' '
	(cd "$fx" && ntune stat -A --mann-whitney heap.txt heap2.txt) >out &&
	grep -q "Mann-Whitney U = [0-9.]*, z = [0-9.]*; Hodges-Lehmann shift" out &&
	grep -q "^${tab}1 in \[0, 1\]\$" out
'

test_expect_success '--mann-whitney refuses a set given by its summary' '
	test_expect_code 2 ntune stat --mann-whitney "$fx/base.txt" --summary 5:1:1 2>err && grep -q "summary" err
'
test_expect_success '--welch and --mann-whitney exclude each other' \
	'test_expect_code 2 ntune stat --welch --mann-whitney "$fx/base.txt"'

test_expect_success '-p adds the p-value and changes nothing else' '
	(cd "$fx" && ntune stat base.txt faster.txt same.txt) >plain &&
	(cd "$fx" && ntune stat -p base.txt faster.txt same.txt) >withp &&
	grep -v "^${tab}p = " withp >stripped &&
	diff -u plain stripped &&
	test $(grep -c "^${tab}p = " withp) = 2
'

test_expect_success '--json carries every figure and the verdicts' '
	(cd "$fx" && ntune stat --json -c 90 base.txt faster.txt same.txt) >out &&
	grep -q "\"confidence\": 90.0" out &&
	grep -q "\"name\": \"base.txt\"" out &&
	grep -q "\"median\": 99.87" out &&
	grep -q "\"stddev\": 3.5961060590420466,*$" out &&
	grep -q "\"verdict\": \"difference\"" out &&
	grep -q "\"verdict\": \"no difference proven\"" out &&
	grep -q "\"difference_hw\": " out &&
	grep -q "\"p\": 2.6878768150639212e-5,*$" out &&
	test $(grep -c "\"test\": \"student\"" out) = 3
'

test_expect_success '--json gives null for what a summary cannot know' '
	ntune stat --json --summary 5:1:1 --summary 5:2:1 >out &&
	grep -q "\"min\": null" out && grep -q "\"given\": true" out
'

# Input ministat would take silently; ntune names the file and line.
test_expect_success 'NaN in the data is an error naming file and line' '
	printf "1\n2\nnan\n4\n" >d && test_expect_code 2 ntune stat d 2>err >out && grep -q "^ntune stat: d:3: not a finite number .nan.\$" err && test ! -s out
'
test_expect_success 'infinity in the data is an error' '
	printf "1\n2\n3\n-Infinity\n" >d && test_expect_code 2 ntune stat d 2>err && grep -q "d:4: not a finite" err
'
test_expect_success 'an overflowing number is an error' '
	printf "1\n2\n3\n1e400\n" >d && test_expect_code 2 ntune stat d 2>err && grep -q "d:4: number out of range .1e400." err
'
test_expect_success 'binary data is an error naming the line' '
	printf "1\n2\n3\n\000\001\002\n" >d && test_expect_code 2 ntune stat d 2>err && grep -q "d:4: binary data" err
'
test_expect_success 'a line over 1 MiB is an error' '
	{ printf "1\n2\n3\n"; awk "BEGIN { for (i = 0; i < 300000; i++) printf \"5 6 \"; print \"\" }"; } >d &&
	test_expect_code 2 ntune stat d 2>err && grep -q "d:4: line longer than 1 MiB" err
'
test_expect_success 'garbage bytes get ministat'"'"'s message with file and line' '
	printf "1\n2\n\377\376\n" >d && test_expect_code 2 ntune stat d 2>err && grep -q "Invalid data on line 3 in d" err
'
test_expect_success 'a plot 1 column wide is refused instead of crashing, with nothing on stdout' '
	test_expect_code 2 ntune stat -w 1 "$fx/base.txt" >out 2>err && test ! -s out && grep -q "1 column" err
'
test_expect_success 'a 1-column plot of constant data is ministat'"'"'s "no plot" line' '
	ntune stat -w 1 "$fx/const.txt" >out && grep -q "^\[no plot, span is zero width\]\$" out
'
test_expect_success 'an unknown long option is a usage error' 'test_expect_code 2 ntune stat --frobnicate "$fx/base.txt"'

# Like ministat: on a terminal the plot is $COLUMNS wide, else the window width - 2.
test_expect_success SCRIPT 'on a terminal the plot width follows COLUMNS' '
	COLUMNS=90 script -qc "\"\$NTUNE\" stat $fx/base.txt" /dev/null >out &&
	grep -q "^+-\{90\}+" out
'
test_expect_success SCRIPT 'on a terminal without COLUMNS the plot is the window width - 2' '
	(unset COLUMNS; script -qc "stty cols 70; \"\$NTUNE\" stat $fx/base.txt" /dev/null) >out &&
	grep -q "^+-\{68\}+" out
'

test_expect_success '--help describes the options' '
	ntune stat --help >out && grep -q -- "--mann-whitney" out && grep -q -- "--summary" out
'

test_done
