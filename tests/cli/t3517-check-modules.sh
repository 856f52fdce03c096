#!/bin/sh
# NAME_load="YES" in loader.conf loads a module the loader finds by its .ko file or by a module
# name a .ko declares (kldxref's linker.hints). share/knobs/drivers/freebsd.modules lists the
# names of the five catalogue trees (scripts/gen-modules-freebsd.py: KMOD of sys/modules, and
# MODULE_VERSION names; cuse.ko declares cuse4bsd). Held-out set 6 missed a `coretmp_load`
# typo and `atapicam_load` (a 9.3 module); drivers register as pci/NAME (DRIVER_MODULE), so
# em_load finds nothing: the module is if_em. A port's module is said as a note, not a fault.
# A module with a row of its own (/boot/defaults/loader.conf's if_wi_load) is checked too; a
# file load the defaults declare (bitmap_name, screensave_name) is not a module. A .ko a
# Makefile's SYMLINKS installs beside its module (if_igb.ko for if_em.ko, 12.0 on) is one too.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a typo one letter from a base module is questioned with the module and where' '
	printf "coretmp_load=\"YES\"\ncoretemp_load=\"YES\"\natapicam_load=\"YES\"\ncuse4bsd_load=\"YES\"\ntcp_bbr_load=\"YES\"\n" >l.conf &&
	ntune check --os freebsd --target loader l.conf >out 2>err && cat out &&
	grep -q "^l.conf:1: warning: .coretmp_load.: no module .coretmp. in the FreeBSD base source the catalogue read (FreeBSD 9.3 to 14.0 sources; .ko files of sys/modules and the module names they declare); did you mean coretemp (sys/modules/coretemp/Makefile:5, FreeBSD 14.0" out &&
	test $(grep -c "^l.conf:" out) = 2 &&
	grep -q "^l.conf:3: note: .atapicam_load.: the module atapicam is not in the newest FreeBSD tree the catalogue read (14.0-CURRENT of 2022-07); last at sys/modules/ata/atapicam/Makefile:5, FreeBSD 9.3 (seen in 9.3): on a release without it, the line loads nothing unless a port installs a module of that name$" out &&
	printf "if_wi_load=\"YES\"\nbitmap_load=\"YES\"\nscreensave_load=\"YES\"\nif_em_load=\"YES\"\n" >w.conf &&
	ntune check --os freebsd --target loader w.conf >out 2>err && cat out &&
	grep -q "^w.conf:1: note: .if_wi_load.: the module if_wi is not in the newest FreeBSD tree the catalogue read (14.0-CURRENT of 2022-07); last at sys/modules/wi/Makefile:5, FreeBSD 13.0" out &&
	test $(grep -c "^w.conf:" out) = 1 &&
	printf "if_igb_load=\"YES\"\nif_ixlv_load=\"YES\"\n" >sl.conf &&
	ntune check --os freebsd --target loader sl.conf >out 2>err && cat out &&
	! grep -q "^sl.conf:" out &&
	grep -q "^if_igb	sys/modules/em/Makefile:25, FreeBSD 14.0" "$SRCDIR/share/knobs/drivers/freebsd.modules"
'
test_expect_success 'a module gone from the newest tree is no note for a release that has it (a 9.3 tag, --os-version 13.0)' '
	printf "# \$FreeBSD: releng/9.3/sys/boot/forth/loader.conf 1 \$\natapicam_load=\"YES\"\n" >t93.conf &&
	ntune check --os freebsd --target loader t93.conf >out 2>err && ! grep -q "^t93.conf:" out &&
	printf "i915kms_load=\"YES\"\n" >i.conf &&
	ntune check --os freebsd --os-version 13.0 --target loader i.conf >out 2>err && ! grep -q "^i.conf:" out &&
	ntune check --os freebsd --target loader i.conf >out 2>err && grep -q "^i.conf:1: note: .i915kms_load.: the module i915kms is not in the newest" out
'
test_expect_success 'a driver name without if_ is questioned with the module it has, and where' '
	printf "em_load=\"YES\"\nixgbe_load=\"YES\"\nif_em_load=\"YES\"\n" >d.conf &&
	ntune check --os freebsd --target loader d.conf >out 2>err && cat out &&
	grep -q "^d.conf:1: warning: .em_load.: no module .em. .*the driver.s module is if_em (sys/modules/em/Makefile:[0-9]*, FreeBSD 14.0 (the 2022 14.0-CURRENT tree; seen in 9.3 10.4 12.1 13.0 14.0)): write if_em_load=\"YES\"$" out &&
	grep -q "^d.conf:2: warning: .ixgbe_load.: .*the driver.s module is if_ixgbe (sys/modules/ixgbe/Makefile:[0-9]*, FreeBSD 10.4 (seen in 9.3 10.4))" out &&
	! grep -q "^d.conf:3:" out && ! grep -q cxgbe out
'
test_expect_success 'a port module is a note; a file load (NAME_type) and NO are not modules to question' '
	printf "nvidia-modeset_load=\"YES\"\ncpu_microcode_load=\"YES\"\ncpu_microcode_name=\"/boot/firmware/intel-ucode.bin\"\nmykey_load=\"YES\"\nmykey_type=\"geli_keyfile\"\ncoretmp_load=\"NO\"\n" >p.conf &&
	ntune check --os freebsd --target loader p.conf >out 2>err && cat out &&
	grep -q "^p.conf:1: note: .nvidia-modeset_load.: .nvidia-modeset. is no module of the FreeBSD base source the catalogue read .*a port.s (installed in /boot/modules)" out &&
	test $(grep -c "^p.conf:" out) = 1
'
test_expect_success 'every NAME_load of the fixtures that is not a port module is known' '
	grep -rhE "^[A-Za-z0-9_-]+_load=\"?[Yy][Ee][Ss]" "$FIXTURES" "$SHARED_FIXTURES" "$SRCDIR/share/profiles" 2>/dev/null |
		sort -u >all.conf &&
	test "$(wc -l <all.conf)" -ge 30 &&
	{ ntune check --os freebsd --target loader all.conf >out 2>&1; test $? -le 1; } &&
	! grep -q ": warning: .*no module" out &&
	grep ": note: .*is no module" out | sed "s/.*: note: .\([^ ]*\)_load.: .*/\1/" | sort >ports &&
	printf "nvidia\nnvidia-modeset\nsecadm\nsysctlbyname_improved\nsysctlinfo\nvboxdrv\n" >want &&
	diff -u want ports
'
test_expect_success 'without the list, nothing is questioned' '
	cp -R "$SRCDIR/share" share && rm share/knobs/drivers/freebsd.modules &&
	NTUNE_SHARE="$PWD/share" ntune check --os freebsd --target loader l.conf >out 2>&1 &&
	! grep -q "no module" out
'
test_expect_success 'NAME_type and NAME_name beside NAME_load are the loader.s options of that load (mfsBSD: mfs_type="mfs_root"), not rc.conf variables of the same name' '
	printf "mfs_load=\"YES\"\nmfs_type=\"mfs_root\"\nmfs_name=\"/mfsroot\"\n" >mfs.conf &&
	ntune check --os freebsd --target loader mfs.conf >out 2>err && cat out &&
	! grep -q "^mfs.conf:" out &&
	printf "mfs_type=\"auto\"\n" >rc.conf &&
	ntune check --os freebsd --target loader rc.conf >out 2>err &&
	grep -q "^rc.conf:1: warning: .mfs_type. is an rc.conf variable" out
'
test_done
