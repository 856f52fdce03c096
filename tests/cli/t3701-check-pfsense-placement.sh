#!/bin/sh
# pfSense's System Tunables (config.xml <sysctl>) are runtime sysctls (src/kb/kb.h
# KB_TARGET_PFSENSE; export puts boot-time ones in loader.conf.local), so a knob the catalogue
# knows as boot-time only (CTLFLAG_RDTUN: the kernel reads it once, from the loader's
# environment) does nothing there; OPNsense writes its tunables to the loader too. Knobs
# outside the knowledge base, from the catalogue alone (src/kb/check_catalog.c source_placement).
. "$(dirname "$0")/lib.sh"

# A config.xml whose System Tunables hold one knob NAME=1.
tunables() {
	printf '<?xml version="1.0"?>\n<%s>\n<sysctl>\n<item><tunable>%s</tunable><value>1</value><descr/></item>\n</sysctl>\n</%s>\n' "$1" "$2" "$1"
}

test_expect_success 'a boot-time tunable in pfSense System Tunables is an error naming its flags, source and loader.conf.local' '
	tunables pfsense net.inet.tcp.tcbhashsize >config.xml &&
	test_expect_code 1 ntune check --os pfsense config.xml >out 2>err &&
	grep -q "^config.xml:4: error: .net.inet.tcp.tcbhashsize. is a boot-time tunable (CTLFLAG_RDTUN, sys/netinet/tcp_subr.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07): in System Tunables it has no effect, put it in /boot/loader.conf.local$" out &&
	grep -q "1 error, 0 warnings" err
'
test_expect_success 'the same line in OPNsense tunables is a note: OPNsense writes it to the loader' '
	tunables opnsense net.inet.tcp.tcbhashsize >config.xml &&
	test_expect_code 0 ntune check --os opnsense config.xml >out 2>/dev/null &&
	grep -q "^config.xml:4: note: .net.inet.tcp.tcbhashsize. is a boot-time tunable .*OPNsense writes it to /boot/loader.conf, it takes effect after a reboot$" out
'
test_expect_success 'a runtime sysctl from the catalogue passes in pfSense System Tunables' '
	tunables pfsense kern.randompid >config.xml &&
	test_expect_code 0 ntune check --os pfsense config.xml >out 2>/dev/null &&
	! grep -q "placement\|boot-time\|runtime sysctl" out
'
test_expect_success 'the boot-time tunable in pfSense loader.conf.local passes' '
	mkdir -p boot &&
	printf "net.inet.tcp.tcbhashsize=1024\n" >boot/loader.conf.local &&
	ntune check --os pfsense boot/loader.conf.local >out 2>/dev/null &&
	! grep -q "placement\|boot-time" out
'
test_done
