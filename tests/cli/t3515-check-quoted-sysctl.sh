#!/bin/sh
# A quoted value in a Linux sysctl file keeps its quotes: neither sysctl -p/--system (procps
# 4.0.2 src/sysctl.c:677-680) nor systemd-sysctl (systemd 252 src/sysctl/sysctl.c:271-273)
# strips them, so the kernel gets "1024" and refuses a number in quotes, or keeps them in a
# string (held-out set 5 missed kernel.core_pattern = "/dev/null"). In a shell script the
# shell removes them, TuneD too (tuned 2.20 plugins/plugin_sysctl.py:75, utils/commands.py:34
# unquote); FreeBSD's files are not concerned here.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a quoted number is an error (the setting fails), nothing else said of it; a quoted string a warning' '
	printf "kernel.core_pattern = \"/dev/null\"\nnet.core.somaxconn = \"1024\"\nnet.ipv4.ip_local_port_range = '"'"'1024 65000'"'"'\nvm.swappiness = 10\n" >99-q.conf &&
	test_expect_code 1 ntune check --os linux 99-q.conf >out 2>err &&
	grep -q "^99-q.conf:1: warning: kernel.core_pattern = \"/dev/null\": the quotes are part of the value: .*procps 4.0.2 src/sysctl.c.*systemd 252.*the kernel keeps them" out &&
	grep -q "^99-q.conf:2: error: net.core.somaxconn = \"1024\": .*the kernel refuses a number in quotes" out &&
	grep -q "^99-q.conf:3: error: net.ipv4.ip_local_port_range = .1024 65000.: " out &&
	! grep -q "lowers the limit" out &&
	! grep -q "^99-q.conf:4:" out
'
test_expect_success 'no quote warning for a shell script, a TuneD profile or a FreeBSD sysctl.conf' '
	printf "#!/bin/sh\nsysctl -w net.core.somaxconn=\"8192\"\n" >s.sh &&
	ntune check --os linux s.sh >out 2>&1 && ! grep -q "quotes" out &&
	printf "[sysctl]\nnet.core.somaxconn = \"8192\"\n" >tuned.conf &&
	ntune check --os linux tuned.conf >out 2>&1 && ! grep -q "quotes" out &&
	printf "kern.ipc.soacceptqueue=\"8192\"\n" >sysctl.conf &&
	ntune check --os freebsd --target sysctl sysctl.conf >out 2>&1 && ! grep -q "quotes" out
'
test_done
