#!/bin/sh
# What export writes, read by strict parsers (python3's xml.etree, PyYAML): the OPNsense and
# pfSense files are well-formed XML whose <descr> reads back as the comment it came from,
# whatever & < > " ' it holds; ansible's values read back as written. And ntune's own
# config.xml reader (diff, check) refuses what is not well-formed, naming file and line.
. "$(dirname "$0")/lib.sh"

python3 -c 'import yaml' 2>/dev/null && test_set_prereq PYYAML

# The file's items as "tunable|value|descr" lines, by python3's strict XML parser.
items() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
for it in ET.parse(sys.argv[1]).getroot().iter("item"):
    print("%s|%s|%s" % (it.findtext("tunable"), it.findtext("value"), it.findtext("descr")))
' "$1"
}

test_expect_success 'opnsense and pfsense exports parse as XML, & < > " and apostrophes kept' '
	printf "%s\n" "net.inet.ip.redirect=0 # A & B <c> \"d\" '"'"'e'"'"' && f;" "kern.ipc.maxsockbuf=16777216" >p.conf &&
	ntune export p.conf --format opnsense >opn.xml &&
	items opn.xml >opn.items &&
	grep -qxF "net.inet.ip.redirect|0|A & B <c> \"d\" '"'"'e'"'"' && f;" opn.items &&
	grep -q "^kern.ipc.maxsockbuf|16777216|" opn.items &&
	ntune export p.conf --format pfsense --os pfsense >pf.xml &&
	items pf.xml >pf.items &&
	diff -u opn.items pf.items
'
test_expect_success 'the exported config.xml reads back the same in ntune diff' '
	ntune diff p.conf opn.xml
'
test_expect_success PYYAML 'ansible values that YAML would misread unquoted read back as written' '
	printf "%s\n" "kernel.core_pattern=/var/c/%e: x=1,@y" >y.conf &&
	ntune export y.conf --format ansible --os linux --force >y.yml 2>/dev/null &&
	python3 -c "
import sys, yaml
t = yaml.safe_load(open(sys.argv[1]))[0][\"tasks\"][0][\"ansible.posix.sysctl\"]
print(t[\"value\"])" y.yml >got &&
	printf "%s\n" "/var/c/%e: x=1,@y" >want &&
	diff -u want got
'
test_expect_success 'ansible export refuses quotes and backslashes (outside the agentless set), --force or not' '
	printf "%s\n" "kernel.core_pattern=/var/c\\\\%e \"x\"" >q.conf &&
	test_expect_code 1 ntune export q.conf --format ansible --os linux --force >q.yml 2>err &&
	grep -q "q.conf:1" err
'
test_expect_success 'diff and check refuse a config.xml that is not well-formed, naming file and line' '
	printf "<?xml version=\"1.0\"?>\n<opnsense>\n<sysctl>\n<item><tunable>net.inet.ip.redirect</tunable>\n<value>0</value><descr>A & B</descr></item>\n</sysctl>\n</opnsense>\n" >amp.xml &&
	test_expect_code 2 ntune diff p.conf amp.xml 2>err &&
	grep -q "^ntune diff: amp.xml:5: .&. that starts no reference (write &amp;): not well-formed XML" err &&
	test_expect_code 2 ntune check --os opnsense amp.xml 2>err &&
	grep -q "amp.xml:5: .&. that starts no reference" err
'
test_expect_success 'an element left open, a stray <, a second root, a swapped end tag, a cut file: each refused with its line' '
	printf "<?xml version=\"1.0\"?>\n<opnsense>\n<sysctl>\n<item><tunable>a.b</tunable><value>1</value>\n</sysctl>\n</opnsense>\n" >open.xml &&
	test_expect_code 2 ntune check --os opnsense open.xml 2>err &&
	grep -q "open.xml:4: <item> without </item>" err &&
	printf "<sysctl>\n<item><tunable>a.b</tunable><value>1 < 2</value></item>\n</sysctl>\n" >lt.xml &&
	test_expect_code 2 ntune diff p.conf lt.xml 2>err &&
	grep -q "lt.xml:2: .<. that starts no tag (write &lt;)" err &&
	printf "<?xml version=\"1.0\"?>\n<opnsense/>\n<pfsense/>\n" >two.xml &&
	test_expect_code 2 ntune check --os opnsense two.xml 2>err &&
	grep -q "two.xml:3: a second root element <pfsense>" err &&
	printf "<sysctl>\n<item><tunable>a.b</tunable><value>1</descr></item>\n</sysctl>\n" >swap.xml &&
	test_expect_code 2 ntune check --os opnsense swap.xml 2>err &&
	grep -q "swap.xml:2: <value> without </value>" err &&
	printf "<?xml version=\"1.0\"?>\n<opnsense>\n<sysctl>\n<item><tunable>a.b</tunable><value>1</value></item>\n" >cut.xml &&
	test_expect_code 2 ntune diff p.conf cut.xml 2>err &&
	grep -q "cut.xml:3: <sysctl> without </sysctl>" err
'
test_expect_success 'pasted <item>s without a root and comments are still read' '
	printf "<!-- from the GUI -->\n<item><tunable>net.inet.ip.redirect</tunable><value>0</value></item>\n<item><tunable>kern.ipc.maxsockbuf</tunable><value>16777216</value><descr/></item>\n" >paste.xml &&
	ntune diff p.conf paste.xml
'
test_done
