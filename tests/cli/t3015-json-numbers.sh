#!/bin/sh
# Every --json (and every JSON file ntune writes) prints a real number as the shortest
# text that reads back to the same double: 87.8, not jansson's 17-digit 87.799999999999997.
. "$(dirname "$0")/lib.sh"
OS="$FIXTURES/os"

# shortest FILE...: every real number of each JSON document is the shortest text of its
# double (the digits of Python's repr), and the document still reads back.
shortest() {
	python3 -c "
import json, re, sys
bad = 0
for f in sys.argv[1:]:
    text = open(f).read()
    json.loads(text)
    # numbers outside strings: drop the strings first
    bare = re.sub(r'\"(?:[^\"\\\\\\\\]|\\\\\\\\.)*\"', '\"\"', text)
    for tok in re.findall(r'-?[0-9][0-9.eE+-]*', bare):
        if not re.search(r'[.eE]', tok):
            continue
        def digits(s):
            m = re.sub(r'[eE].*', '', s.lstrip('-')).replace('.', '')
            return m.strip('0') or '0'
        if digits(tok) != digits(repr(float(tok))):
            print('%s: %s is not the shortest text of %r' % (f, tok, float(tok)))
            bad += 1
sys.exit(bad > 0)
" "$@"
}

test_expect_success SEED_FIXTURES 'inspect --json of seed 000 top -P: 87.8% interrupt reads 87.8' '
	test_expect_code 0 ntune inspect --json --from "$OS/seed000-dec750/top-P.txt" >i.json 2>/dev/null &&
	grep -q "\"interrupt\": 87.8,$" i.json &&
	grep -q "\"interrupt\": 43.9,$" i.json &&
	! grep -q "99999\|00000[1-9]" i.json &&
	shortest i.json
'
test_expect_success SEED_FIXTURES 'snapshot -o writes the same short numbers' '
	ntune snapshot --from "$OS/seed000-dec750/top-P.txt" -o s.json 2>/dev/null &&
	grep -q "87.8" s.json &&
	shortest s.json
'
test_expect_success 'stat --json: a mean is written whole (1/3 with all its digits), each real shortest' '
	printf "0.1\n0.2\n0.7\n" >a.txt && printf "1.1\n2.3\n0.3\n" >b.txt &&
	ntune stat --json a.txt b.txt >st.json &&
	shortest st.json &&
	grep -q "\"mean\": 0.3333333333333333,$" st.json &&
	grep -q "\"min\": 0.1,$" st.json
'
test_expect_success 'diagnose --json of a real capture: every real is the shortest text' '
	test_expect_code 1 ntune diagnose --json --from "$FIXTURES/diagnose/opnsense-before.txt" \
	    --from "$FIXTURES/diagnose/opnsense-after.txt" >d.json 2>/dev/null &&
	grep -q "\"value\": 5120.0$" d.json &&
	shortest d.json
'
test_expect_success 'the checker itself sees a 17-digit number' '
	printf "{\"x\": 87.799999999999997}\n" >long.json &&
	! shortest long.json >/dev/null
'
test_done
