# Thin wrapper around Meson; the real build is meson.build.
PREFIX ?= /usr/local
BUILD ?= build
# One sanitizer build: clang, ASan + UBSan, with the libFuzzer targets (-Dfuzz=true).
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 60
# Each fuzz target's run in `make check` (a test of the sanitizer build, fuzz/meson.build).
FUZZ_CHECK_SECONDS ?= 5
TEST_JOBS ?= 2
MESON_OPTS ?=
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	FUZZ_CHECK_SECONDS=$(FUZZ_CHECK_SECONDS)
TEST = meson test --print-errorlogs --num-processes $(TEST_JOBS)

.PHONY: all deps check check-plain check-asan check-fuzz check-full check-full-plain check-full-asan \
	install lab fuzz clean freebsd-check deb deb-check port-plist port-distinfo

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Installs every build and test dependency on Debian 12 (needs root).
deps:
	scripts/deps.sh install

$(BUILD)/build.ninja:
	@scripts/deps.sh check || scripts/deps.sh install
	meson setup $(BUILD) $(MESON_OPTS)

$(ASAN_BUILD)/build.ninja:
	@scripts/deps.sh check || scripts/deps.sh install
	CC=clang meson setup $(ASAN_BUILD) -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false $(MESON_OPTS)

# The test sets (tests/README.md): `make check` is the set 'check' (unit tests, the CLI tests, the
# root-namespace tests that prove each promise once), then 'asan-check' under ASan/UBSan (the unit
# tests, the parsers' CLI tests, each fuzz target for FUZZ_CHECK_SECONDS); at most 10 minutes on
# 2 cores. `make check-full` is everything: `make check`, then the set 'full' (long lab, tune and
# remote tests) once, then under ASan the parsers' CLI tests 'asan-check' left out (set 'asan-full'). Tests are found by name
# (tests/unit/test_*.c, tests/cli/t*.sh): reconfigure so new ones register.
check: check-plain check-asan
	@scripts/test-summary.sh $(BUILD)/meson-logs/check.json $(ASAN_BUILD)/meson-logs/check.json

check-plain: $(BUILD)/build.ninja
	@scripts/deps.sh check || scripts/deps.sh install
	meson setup --reconfigure $(BUILD) >/dev/null
	$(TEST) -C $(BUILD) --suite check --logbase check

check-asan: $(ASAN_BUILD)/build.ninja
	meson setup --reconfigure $(ASAN_BUILD) >/dev/null
	$(SAN_ENV) $(TEST) -C $(ASAN_BUILD) --suite asan-check --logbase check --timeout-multiplier 3

check-full: check check-full-plain check-full-asan
	@scripts/test-summary.sh $(BUILD)/meson-logs/check.json $(ASAN_BUILD)/meson-logs/check.json \
		$(BUILD)/meson-logs/full.json $(ASAN_BUILD)/meson-logs/full.json

check-full-plain: $(BUILD)/build.ninja
	meson setup --reconfigure $(BUILD) >/dev/null
	$(TEST) -C $(BUILD) --no-suite check --logbase full

# Under ASan in check-full: only the parsers' CLI tests too slow for `make check` (set asan-full).
# The lab, rig and reboot tests (bound by sleeps, windows and reboots) ran once, above.
check-full-asan: $(ASAN_BUILD)/build.ninja
	meson setup --reconfigure $(ASAN_BUILD) >/dev/null
	$(SAN_ENV) $(TEST) -C $(ASAN_BUILD) --suite asan-full --logbase full --timeout-multiplier 3

install: $(BUILD)/build.ninja
	meson configure $(BUILD) -Dprefix=$(PREFIX) >/dev/null
	ninja -C $(BUILD)
	meson install -C $(BUILD) --no-rebuild $(if $(DESTDIR),--destdir $(DESTDIR))

# Cross-builds for FreeBSD 13.5 amd64 (werror=true) against the root FREEBSD_SYSROOT names
# (../shared/tools/freebsd-sysroot makes one; nothing runs on FreeBSD), then runs the CLI
# test that checks the binary. Not part of `make check`.
FREEBSD_CROSS_BUILD ?= ../shared/tools/freebsd-cross-build
freebsd-check: $(BUILD)/build.ninja
	@test -n "$(FREEBSD_SYSROOT)" || { echo "make freebsd-check: set FREEBSD_SYSROOT to a FreeBSD cross root (../shared/tools/freebsd-sysroot makes one)" >&2; exit 2; }
	FREEBSD_SYSROOT="$(FREEBSD_SYSROOT)" $(FREEBSD_CROSS_BUILD) --werror .
	meson setup --reconfigure $(BUILD) >/dev/null
	FREEBSD_SYSROOT="$(FREEBSD_SYSROOT)" meson test -C $(BUILD) --print-errorlogs t0101-freebsd-cross

# The Debian package (../ntune_VERSION_ARCH.deb; its build runs the unprivileged tests),
# and its test alone (t0103, part of `make check-full`: build, lintian, dpkg --root install, run).
deb:
	dpkg-buildpackage -us -uc -b
deb-check: $(BUILD)/build.ninja
	meson setup --reconfigure $(BUILD) >/dev/null
	meson test -C $(BUILD) --print-errorlogs t0103-deb-package

# The FreeBSD port: pkg-plist from what `meson install` installs (t0102 checks it), and a
# distfile (git archive of HEAD) with the port's distinfo, until releases are published.
PORT = packaging/freebsd/net-mgmt/ntune
port-plist: all
	scripts/port-plist.sh $(BUILD) > $(PORT)/pkg-plist
port-distinfo:
	scripts/port-distinfo.sh $(PORT)

# The main job; see README.md.
lab: all
	scripts/make-lab.sh

# Each libFuzzer target runs for FUZZ_SECONDS. check-fuzz: each for FUZZ_CHECK_SECONDS (part of check-asan).
check-fuzz: $(ASAN_BUILD)/build.ninja
	meson setup --reconfigure $(ASAN_BUILD) >/dev/null
	$(SAN_ENV) $(TEST) -C $(ASAN_BUILD) --suite fuzz --logbase fuzz

fuzz: $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	scripts/run-fuzz.sh $(ASAN_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

# Mutation testing (issue 37): each mutant of scripts/mutants.txt applied in a copy of the tree
# (build-mutate/), its tests run; prints the score and every survivor. Not part of check.
# One or some: make mutate MUTANTS='readback-undo capture-nul'; the patterns only: scripts/mutate.py --check.
.PHONY: mutate
mutate:
	scripts/mutate.py --min-score 90 $(MUTANTS)
