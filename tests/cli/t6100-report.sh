#!/bin/sh
# ntune report: a self-contained HTML page of a results directory.
# test-asan: full
. "$(dirname "$0")/lib.sh"

AB="$FIXTURES/bench/synthetic-ab"

chrome_shot() { # HTML PNG: renders in headless Chromium, console messages in chrome.log
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$TRASH/chrome.XXXXXX")" --screenshot="$2" --window-size=1200,2000 \
		--enable-logging=stderr --v=0 "file://$1" 2>chrome.log
}

test_expect_success 'report writes DIR/report.html and prints its path' '
	cp -r "$AB" ab &&
	ntune report ab >out &&
	test "$(cat out)" = ab/report.html &&
	grep -q "<svg" ab/report.html
'
test_expect_success 'the page is self-contained: no script, no external resource' '
	ntune report "$AB" -o - >page.html &&
	! grep -qi "<script" page.html &&
	! grep -Eqi "(src|href)=\"(https?:)?//" page.html &&
	! grep -qi "@import\|url(http" page.html
'
test_expect_success 'the page states the verdict in words and shows the exact profiles' '
	ntune report "$AB" -o - >page.html &&
	grep -q "rps forwards 43.1% ± 3.2% more packets than defaults, 95% confidence" page.html &&
	grep -q "if.dut0.rps_cpus=3" page.html &&
	grep -q "box plots of forwarded packets" page.html &&
	grep -q "per-CPU load" page.html &&
	grep -q "warm-up, discarded" page.html
'
test_expect_success 'one box per profile with its run count' '
	ntune report "$AB" -o - >page.html &&
	grep -q ">defaults (5)<" page.html && grep -q ">rps (5)<" page.html
'
test_expect_success 'partial results are marked incomplete' '
	cp -r "$AB" part &&
	sed "s/\"complete\": true/\"complete\": false/; s/\"stopped\": \"decided\"/\"stopped\": \"interrupted\"/" \
		"$AB/meta.json" >part/meta.json &&
	ntune report part -o - | grep -q "Incomplete: partial results; stopped: <b>interrupted"
'
test_expect_success 'text from the results is escaped' '
	cp -r "$AB" esc &&
	printf "# <script>alert(1)</script>\n" >esc/profiles/evil.conf &&
	ntune report esc -o - >page.html &&
	! grep -q "<script>alert" page.html && grep -q "&lt;script&gt;alert" page.html
'
test_expect_success 'a real three-profile bench from the lab: a box per profile, every verdict' '
	ntune report "$FIXTURES/bench/lab-rps-sendmmsg" -o - >page.html &&
	grep -q ">base (4)<" page.html && grep -q ">rps2 (4)<" page.html && grep -q ">rps3 (4)<" page.html &&
	test $(grep -c "<li class=" page.html) = 2 &&
	grep -q "Interrupt rates" page.html
'
test_expect_success 'a decided loss read from a real verdict.json is marked worse, an undecided one not' '
	ntune report "$FIXTURES/bench/lab-rps-sendmmsg" -o - >page.html &&
	grep -q "<li class=\"decided worse\">rps2 forwards 40.9%" page.html &&
	grep -q "<li class=\"undecided\">no difference" page.html &&
	ntune report "$FIXTURES/bench/lab-tune-kept" -o - >page.html &&
	grep -q "<li class=\"decided better\">best forwards 62.0%" page.html
'
test_expect_success 'a verdict.json comparison without its text is named with file and key' '
	cp -r "$AB" vbad && sed "s/\"text\":/\"words\":/" "$AB/verdict.json" >vbad/verdict.json &&
	test_expect_code 2 ntune report vbad -o - >out 2>err &&
	grep -q "vbad/verdict.json: comparisons\[1\]: key .text.: missing" err && ! test -s out
'
test_expect_success 'a real tune from the lab: the path of rejected changes and the reasons' '
	ntune report "$FIXTURES/bench/lab-tune" -o - >page.html &&
	grep -q "The tuner.s path" page.html &&
	test $(grep -c "<tr class=\"rejected\">" page.html) = 7 &&
	grep -q "maximum is 1" page.html &&
	grep -q "No change was kept" page.html
'
test_expect_success 'a real tune that kept a change: kept, rejected and skipped steps, the gain' '
	ntune report "$FIXTURES/bench/lab-tune-kept" -o - >page.html &&
	test $(grep -c "<tr class=\"kept\">" page.html) = 1 &&
	test $(grep -c "<tr class=\"rejected\">" page.html) = 3 &&
	test $(grep -c "<tr class=\"skipped\">" page.html) = 2 &&
	grep -q "rx-gro-list=on + if.dut0.napi_threaded=1" page.html &&
	grep -q "<b>+62.0%</b>" page.html
'
test_expect_success 'a missing directory is an input error' 'test_expect_code 2 ntune report nosuchdir 2>err'
test_expect_success 'a malformed runs.jsonl is named with its line' '
	cp -r "$AB" bad && printf "{\"label\":\"x\"}\n" >>bad/runs.jsonl &&
	test_expect_code 2 ntune report bad -o - >/dev/null 2>err &&
	grep -q "bad/runs.jsonl:13: key .pps.: missing" err
'
test_expect_success 'a meta.json key renamed or of the wrong type is named with its file' '
	cp -r "$AB" meta && sed "s/\"stopped\":/\"stop\":/" "$AB/meta.json" >meta/meta.json &&
	test_expect_code 2 ntune report meta -o - >out 2>err &&
	grep -q "meta/meta.json: key .stopped.: missing" err && ! test -s out &&
	sed "s/\"complete\": true/\"complete\": \"yes\"/" "$AB/meta.json" >meta/meta.json &&
	test_expect_code 2 ntune report meta -o - 2>err &&
	grep -q "meta/meta.json: key .complete.: is not true or false" err
'
test_expect_success 'bench --dut: the hosts and the DUT boots from hosts.json; a renamed key is named' '
	cp -r "$AB" hosts && cat >hosts/hosts.json <<-\EOF &&
	{"schema": 1,
	 "dut": {"url": "ssh://root@dut", "os": "FreeBSD", "platform": "OPNsense", "uname": "FreeBSD dut 14.1",
	  "ntune_version": "none", "boot_id": "b-1"},
	 "boots": [{"boot_id": "b-0", "why": "found", "before_run": 1},
	  {"boot_id": "b-1", "why": "boot-time profile", "before_run": 3, "recovery_s": 41.25, "came_back": true}],
	 "path": {"dut_in": "vtnet1", "dut_out": "vtnet2", "gen_if": "eth1", "sink_if": "eth1", "dst": "198.18.1.2"}}
	EOF
	ntune report hosts -o - >page.html &&
	grep -q "<tr><td>dut</td><td>ssh://root@dut</td><td>FreeBSD dut 14.1</td><td>none</td><td>b-1</td></tr>" page.html &&
	grep -q "<tr><td>1</td><td>found</td><td>b-0</td><td></td><td>(found)</td></tr>" page.html &&
	grep -q "<tr><td>3</td><td>boot-time profile</td><td>b-1</td><td>41.2 s</td><td>yes</td></tr>" page.html &&
	sed "s/\"before_run\": 3/\"run\": 3/" hosts/hosts.json >hosts/h && mv hosts/h hosts/hosts.json &&
	test_expect_code 2 ntune report hosts -o - >out 2>err &&
	grep -q "hosts/hosts.json: boots\[2\]: key .before_run.: missing" err && ! test -s out
'
test_expect_success 'a tune with drop checks: the dropped step and each check read from summary.json' '
	cp -r "$FIXTURES/bench/lab-tune-kept" drop && python3 - drop/summary.json <<-\PY &&
	import json, sys
	s = json.load(open(sys.argv[1]))
	st = s["steps"]
	st[0]["dropped_at"], st[0]["kept"] = 3, False
	st.insert(2, dict(st[1], change="drop check of step 1", drop_of=1, removed=True, kept=False))
	st.insert(3, dict(st[1], change="drop check of step 2", drop_of=2, removed=False, kept=False))
	json.dump(s, open(sys.argv[1], "w"), indent=2)
	PY
	ntune report drop -o - >page.html &&
	test $(grep -c "<tr class=\"dropped\">" page.html) = 2 &&
	test $(grep -c "<tr class=\"needed\">" page.html) = 1 &&
	sed "0,/\"kept\": false/s//\"keep\": false/" drop/summary.json >drop/s && mv drop/s drop/summary.json &&
	test_expect_code 2 ntune report drop -o - >out 2>err &&
	grep -q "drop/summary.json: steps\[[0-9]*\]: key .kept.: missing" err && ! test -s out
'
test_expect_success 'no directory is a usage error' 'test_expect_code 2 ntune report 2>/dev/null'

test_expect_success CHROMIUM 'the detector sees console errors and blank pages (control)' '
	printf "<html><body><script>nosuchfn();</script></body></html>" >"$TRASH/bad.html" &&
	chrome_shot "$TRASH/bad.html" bad.png &&
	grep -q "CONSOLE" chrome.log &&
	test "$(python3 "$FIXTURES/bench/pngcolors.py" bad.png)" -lt 5
'
test_expect_success CHROMIUM 'headless Chromium renders the report without errors and not blank' '
	ntune report "$AB" -o "$TRASH/page.html" >/dev/null &&
	chrome_shot "$TRASH/page.html" page.png &&
	{ test -s page.png || { grep -v dbus chrome.log; false; }; } &&
	! grep "CONSOLE" chrome.log &&
	n=$(python3 "$FIXTURES/bench/pngcolors.py" page.png) &&
	echo "$n colours" && test "$n" -gt 100
'
test_expect_success CHROMIUM 'headless Chromium renders a real tune report without errors' '
	ntune report "$FIXTURES/bench/lab-tune" -o "$TRASH/tune.html" >/dev/null &&
	chrome_shot "$TRASH/tune.html" tune.png &&
	! grep "CONSOLE" chrome.log &&
	test "$(python3 "$FIXTURES/bench/pngcolors.py" tune.png)" -gt 100
'
test_expect_success CHROMIUM 'scripts/report-screenshot.sh DIR: the picture of DIR'"'"'s report, in colour, where OUT says' '
	OUT="$TRASH/shot.png" NTUNE="$NTUNE" sh "$SRCDIR/scripts/report-screenshot.sh" "$FIXTURES/bench/lab-tune" >out 2>err &&
	test "$(tail -1 out)" = "$TRASH/shot.png" &&
	test "$(python3 "$FIXTURES/bench/pngcolors.py" shot.png)" -gt 100 &&
	test ! -e "$FIXTURES/bench/lab-tune/report.html"
'
test_expect_success 'scripts/report-screenshot.sh refuses a directory without results, writing nothing' '
	mkdir empty &&
	test_expect_code 1 env OUT="$TRASH/none.png" NTUNE="$NTUNE" sh "$SRCDIR/scripts/report-screenshot.sh" empty 2>err &&
	grep -q "empty: not a results directory" err &&
	test ! -e none.png
'
test_done
