#!/bin/sh
# Classes of false statements found on held-out files (issue 36), fixed where they arise:
# knobs declared through wrapper macros (kern.vt.* via VT_SYSCTL_INT, sys/dev/vt/vt.h) are
# known; a sysctl declared only under a kernel option GENERIC lacks says so; a name under a
# node no base source creates (a module from ports) or under net.netfilter is "not known", a
# note, while a node one typo from one the source has is named (hw.vmm.admvi -> amdvi); an
# include of a profile TuneD ships is not "refused" because this machine lacks TuneD; "no
# kernel defines it" is never said of a name a catalogue tree declares.
. "$(dirname "$0")/lib.sh"

test_expect_success 'kern.vt knobs of VT_SYSCTL_INT are known, and SCTP knobs are not gone since 9.3' '
	printf "kern.vt.kbd_debug=0\nkern.vt.enable_bell=0\nnet.inet.sctp.blackhole=2\n" >vt.conf &&
	ntune check --os freebsd --target sysctl vt.conf >out 2>err &&
	! grep -q "unknown" out &&
	! grep -q "gone" out &&
	grep -q "0 unknown" err &&
	printf "kern.vt.fb.modes.VGA-1=\"1920x1080\"\n" >loader.conf &&
	ntune check --os freebsd loader.conf >out 2>err && grep -q "0 unknown" err &&
	printf "kern.vt.fb.modes.VGA-1=1920x1080\n" >l.conf &&
	{ ntune check --os linux l.conf >out 2>err || :; } &&
	grep -q "^l.conf:1: error: .kern.vt.fb.modes.VGA-1. is a freebsd loader tunable (sys/dev/drm2/drm_fb_helper.c:128" out
'
test_expect_success 'net.inet.ip.stealth needs options IPSTEALTH: a warning on FreeBSD, a note on OPNsense' '
	printf "net.inet.ip.stealth=1\n" >st.conf &&
	ntune check --os freebsd --target sysctl st.conf >out 2>err &&
	grep -q "^st.conf:1: warning: .net.inet.ip.stealth. exists only in a kernel built with options IPSTEALTH (declared under #ifdef IPSTEALTH, sys/netinet/ip_input.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07); FreeBSD.s GENERIC kernel leaves it out" out &&
	ntune check --os opnsense --target sysctl st.conf >out 2>err &&
	grep -q "^st.conf:1: note: .net.inet.ip.stealth. exists only in a kernel built with options IPSTEALTH.*a distribution.s own kernel may have it" out
'
test_expect_success 'a node of a module from ports is not known (a note); a typo of a node the source has is named' '
	printf "hw.nvidiadrm.modeset=1\nhw.vmm.admvi.enable=1\n" >loader.conf &&
	{ ntune check --os freebsd loader.conf >out 2>err || :; } &&
	grep -q "^loader.conf:1: note: .hw.nvidiadrm.modeset. is not known: no source tree the catalogue read declares a node hw.nvidiadrm" out &&
	grep -q "^loader.conf:2: error: unknown knob .hw.vmm.admvi.enable. (did you mean hw.vmm.amdvi.enable?)" out &&
	printf "net.netfilter.nf_conntrack_skip_filter=0\nkernel.exec-shield=1\n" >nf.conf &&
	ntune check --os linux --target sysctl nf.conf >out 2>err &&
	grep -q "^nf.conf:1: note: .net.netfilter.nf_conntrack_skip_filter. is under net.netfilter" out &&
	grep -q "^nf.conf:2: warning: unknown knob .kernel.exec-shield." out
'
test_expect_success 'an include of a profile TuneD ships is a note when this machine has no TuneD; an unknown one a warning' '
	mkdir -p p && printf "[main]\ninclude=network-latency\n\n[sysctl]\nnet.core.busy_poll=50\n" >p/tuned.conf &&
	mkdir -p q && printf "[main]\ninclude=my-own-base\n\n[sysctl]\nnet.core.busy_poll=50\n" >q/tuned.conf &&
	NTUNE_ROOT="$TRASH/empty" ntune check --os linux p/tuned.conf >out 2>err &&
	grep -q "^p/tuned.conf:2: note: tuned include .network-latency. is a profile TuneD ships" out &&
	{ NTUNE_ROOT="$TRASH/empty" ntune check --os linux q/tuned.conf >out 2>err || :; } &&
	grep -q "^q/tuned.conf:2: warning: tuned include .my-own-base. is not read" out
'
test_expect_success 'no "no kernel defines it" for a name a catalogue tree declares' '
	printf "hw.ixl.flow_control=\"0\"\nhw.ix.allow_unsupported_sfp=\"1\"\n" >loader.conf &&
	{ ntune check --os freebsd loader.conf >out 2>err || :; } &&
	! grep -q "^loader.conf:1: error" out &&
	grep -q "^loader.conf:2: error: .hw.ix.allow_unsupported_sfp. does nothing: no FreeBSD kernel defines it" out
'
test_expect_success 'a name only the OPNsense tree has is not "gone" for an OPNsense box (its patches were not read newer)' '
	printf "net.pf.share_forward=1\n" >sf.conf &&
	ntune check --os opnsense --target sysctl sf.conf >out 2>err &&
	grep -q "^sf.conf:1: note: .net.pf.share_forward. is not in the newer FreeBSD trees the catalogue read (FreeBSD 14.0-CURRENT of 2022-07); the OPNsense kernel tree it read declares it" out &&
	{ ntune check --os freebsd --target sysctl sf.conf >out 2>err || :; } &&
	grep -q "^sf.conf:1: warning: .net.pf.share_forward. is gone from FreeBSD" out
'
test_expect_success 'a name gone since OpenZFS names the one the newest tree has (a dot for an underscore)' '
	printf "vfs.zfs.prefetch_disable=\"1\"\n" >loader.conf &&
	ntune check --os freebsd loader.conf >out 2>err &&
	grep -q "^loader.conf:1: warning: .vfs.zfs.prefetch_disable. is gone from FreeBSD: .*; the newest tree has vfs.zfs.prefetch.disable (sys/contrib/openzfs/module/zfs/dmu_zfetch.c:[0-9]*, FreeBSD 14.0-CURRENT of 2022-07)$" out
'
test_expect_success 'a name the catalogue lacks in loader.conf says what it may be, a newer loader variable among them' '
	printf "loader_autoboot_show=\"NO\"\n" >loader.conf &&
	ntune check --os freebsd loader.conf >out 2>err &&
	grep -q "^loader.conf:1: warning: .loader_autoboot_show. is no loader variable, tunable or rc.conf variable the catalogue knows (FreeBSD 9.3 to 14.0 sources): a typo, a variable of a release those sources do not cover" out
'
test_expect_success 'a LinuxKPI driver parameter of base (iwlwifi) is a note that does not call it a port'"'"'s' '
	printf "compat.linuxkpi.iwlwifi_power_save=\"1\"\n" >kpi.conf &&
	ntune check --os freebsd --target loader kpi.conf >kpi.txt 2>&1 && cat kpi.txt &&
	grep -q "kpi.conf:1: note: .*base.s LinuxKPI drivers have them .*iwl-drv.c:8" kpi.txt &&
	! grep -q "base source does not declare" kpi.txt
'
test_expect_success 'a driver tunable built with snprintf is one knob with its sysctl (if_rl.c:655/659, amdtemp.c:497/501, mps.c)' '
	printf "dev.rl.0.twister_enable=\"1\"\ndev.amdtemp.0.sensor_offset=\"-10\"\ndev.mps.0.max_chains=\"4096\"\n" >drv-loader.conf &&
	ntune check --os freebsd --target loader drv-loader.conf >out 2>&1 &&
	! grep -q "fetches no tunable" out &&
	printf "dev.amdtemp.0.sensor_offset=-10\ndev.mps.0.debug_level=3\ndev.rl.0.twister_enable=1\n" >drv-sysctl.conf &&
	test_expect_code 1 ntune check --os freebsd --target sysctl drv-sysctl.conf >out 2>&1 &&
	! grep -q "drv-sysctl.conf:[12]:" out &&
	grep -q "^drv-sysctl.conf:3: error: .dev.rl.0.twister_enable. is a boot-time tunable (CTLFLAG_RD and a tunable fetch, sys/dev/rl/if_rl.c:655" out
'
test_expect_success 'legal.*.license_ack (read only by a module built with FIRMWARE_LICENSE, fw_stub.awk) and Linux user.* (ucount.c UCOUNT_ENTRY), kernel.keys.* and kernel.usermodehelper.* (.child tables of another file) are known, in the trees that have them' '
	printf "legal.realtek.license_ack=1\n" >lg.conf &&
	ntune check --os freebsd --target loader lg.conf >out 2>err &&
	grep -q "^lg.conf:1: note: .legal.realtek.license_ack. is read by FreeBSD 10.4.s rsufw and urtwnfw firmware modules (FIRMWARE_LICENSE= realtek, sys/modules/usb/urtwnfw/Makefile.inc:12, 10.4 tree); the 12.1 to 14.0 trees build rsufw and rtwnfw without it" out &&
	printf "legal.intel_iwn.license_ack=1\nlegal.intel_wpi.license_ack=1\nlegal.intel_iwi.license_ack=1\n" >lg2.conf &&
	ntune check --os freebsd --target loader lg2.conf >out 2>err && cat out &&
	grep -q "^lg2.conf:1: warning: .legal.intel_iwn.license_ack.: no base firmware module of the FreeBSD 9.3 to 14.0 sources reads it: a module fetches legal.NAME.license_ack only when built with FIRMWARE_LICENSE (sys/tools/fw_stub.awk:163.*iwnfw needs none.*the line does nothing$" out &&
	grep -q "^lg2.conf:2: warning: .legal.intel_wpi.license_ack.: no base firmware module" out &&
	! grep -q "^lg2.conf:3:" out &&
	printf "user.max_inotify_watches=65536\nuser.max_fanotify_marks=8192\nkernel.usermodehelper.bset=0 0\nkernel.keys.maxkeys=2000\n" >us.conf &&
	ntune check --os linux --target sysctl us.conf >out 2>err && cat out &&
	! grep -q "^us.conf:" out &&
	ntune check --os linux --os-version 5.10 --target sysctl us.conf >out 2>err && cat out &&
	grep -q "^us.conf:2: warning: .user.max_fanotify_marks. is not in the Linux 5.10 source the catalogue read" out &&
	! grep -q "^us.conf:[134]:" out &&
	printf "user.max_inotify_watchs=1\n" >ut.conf &&
	{ ntune check --os linux --target sysctl ut.conf >out 2>err || :; } &&
	grep -q "^ut.conf:1: error: unknown knob .user.max_inotify_watchs. (did you mean user.max_inotify_watches?)" out
'
test_expect_success 'net.ipv6.route.* (route.c ipv6_route_table_template, undocumented) are known: gc_thresh=1024 is the default, no unknown knob' '
	printf "net.ipv6.route.gc_thresh=1024\nnet.ipv6.route.gc_timeout=100\nnet.ipv6.route.gc_interval=5\nnet.ipv6.route.mtu_expires=600\nnet.ipv6.route.min_adv_mss=1220\nnet.ipv6.route.gc_elasticity=9\nnet.ipv6.route.gc_min_interval_ms=500\nnet.ipv6.route.skip_notify_on_dev_down=1\n" >r6.conf &&
	ntune check --os linux --target sysctl r6.conf >out 2>err && cat out &&
	! grep -q "unknown" out &&
	grep -q "^r6.conf:1: note: .net.ipv6.route.gc_thresh=1024. is the kernel.s default$" out &&
	grep -q "^r6.conf:4: note: .net.ipv6.route.mtu_expires=600. is the kernel.s default$" out
'
test_expect_success 'mfsBSD kenv variables in loader.conf are a note naming its rc script; another unknown dotted name may be a kenv variable (said among the readings); not in sysctl.conf' '
	printf "mfsbsd.autodhcp=\"YES\"\nmyscript.flag=\"YES\"\n" >mf.conf &&
	ntune check --os freebsd --target loader mf.conf >out 2>err && cat out &&
	grep -q "^mf.conf:1: note: .mfsbsd.autodhcp. is under mfsbsd, a kernel environment variable mfsBSD.s rc script reads with kenv(1) at boot (.*scripts/mfsbsd in mmatuska/mfsbsd)" out &&
	grep -q "^mf.conf:2: warning: unknown knob .myscript.flag.: .*a variable scripts read from the kernel environment the loader passes on (kenv(1): mfsBSD.s mfsbsd.\*), or one declared" out &&
	printf "mfsbsd.autodhcp=1\n" >ms.conf &&
	ntune check --os freebsd --target sysctl ms.conf >out 2>err &&
	! grep -q "kenv" out
'
test_expect_success 'an mfsbsd.* name the rc script does not read is not said to be read by it' '
	printf "mfsbsd.data.pool=\"zroot\"\nmfsbsd.ifconfig_em0=\"DHCP\"\nmfsbsd.route_net1=\"-net 198.18.0.0/15 198.18.0.1\"\n" >mp.conf &&
	ntune check --os freebsd --target loader mp.conf >out 2>err && cat out &&
	grep -q "^mp.conf:1: note: .mfsbsd.data.pool. is under mfsbsd, but mfsBSD.s rc script reads only mfsbsd.hostname, .*route_NAME with kenv(1) (scripts/mfsbsd in mmatuska/mfsbsd @382164e2); not a kernel tunable" out &&
	! grep -q "^mp.conf:1: .*a kernel environment variable mfsBSD.s rc script reads" out &&
	grep -q "^mp.conf:2: note: .mfsbsd.ifconfig_em0. is under mfsbsd, a kernel environment variable mfsBSD.s rc script reads" out &&
	grep -q "^mp.conf:3: note: .mfsbsd.route_net1. is under mfsbsd, a kernel environment variable mfsBSD.s rc script reads" out
'
test_expect_success 'loader variables the Lua and Forth loaders read (loader.getenv with either quote, s" NAME" getenv) are known' '
	printf "xen_kernel=\"/boot/xen\"\nxen_cmdline=\"dom0_mem=4g\"\nchain_disk=\"disk0\"\nloader_menu_title=\"router\"\n" >lv.conf &&
	ntune check --os freebsd --target loader lv.conf >out 2>err && cat out err &&
	! grep -q "^lv.conf:" out &&
	grep -q "^xen_kernel	loader	.*stand/forth/support.4th:[0-9]" "$SRCDIR/share/catalog/freebsd.tsv" &&
	grep -q "^chain_disk	loader	.*stand/lua/menu.lua:[0-9]" "$SRCDIR/share/catalog/freebsd.tsv"
'
test_expect_success 'a dot written for an underscore, or the other way round, is a typo of the known name' '
	printf "kern.vt.fb.default.mode=\"1024x768\"\n" >sep.conf &&
	test_expect_code 1 ntune check --os freebsd --target loader sep.conf >out 2>err && cat out &&
	grep -q "^sep.conf:1: error: unknown knob .kern.vt.fb.default.mode. (did you mean kern.vt.fb.default_mode?)$" out &&
	printf "hw.snd.default.unit=3\n" >sep2.conf &&
	test_expect_code 1 ntune check --os freebsd --target sysctl sep2.conf >out 2>err &&
	grep -q "^sep2.conf:1: error: unknown knob .hw.snd.default.unit. (did you mean hw.snd.default_unit?)$" out
'
test_expect_success 'hw.usb.quirk.N (usb_quirk.c builds the name at run time) is known, not an unknown knob' '
	printf "hw.usb.quirk.0=\"0x0781 0x5567 0 0xffff UQ_MSC_NO_SYNC_CACHE\"\n" >uq.conf &&
	ntune check --os freebsd --target loader uq.conf >out 2>err && cat out err &&
	! grep -q "^uq.conf:" out &&
	ntune explain hw.usb.quirk.0 >e.txt && grep -q "usb_quirk.c:66" e.txt
'
test_done
