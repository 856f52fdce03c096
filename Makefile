# Thin wrapper around Meson; the real build is meson.build.
PREFIX ?= /usr/local
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
MESON_OPTS ?=

.PHONY: all deps check check-plain check-asan check-fuzz install lab fuzz clean freebsd-check deb deb-check port-plist port-distinfo

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
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false $(MESON_OPTS)

# Tests are found by name (tests/unit/test_*.c, tests/cli/t*.sh): reconfigure so new ones register.
check: check-plain check-asan check-fuzz

check-plain: $(BUILD)/build.ninja
	@scripts/deps.sh check || scripts/deps.sh install
	meson setup --reconfigure $(BUILD) >/dev/null
	meson test -C $(BUILD) --print-errorlogs --num-processes 2

check-asan: $(ASAN_BUILD)/build.ninja
	meson setup --reconfigure $(ASAN_BUILD) >/dev/null
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2 --timeout-multiplier 3

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
# and its test alone (t0103, part of `make check`: build, lintian, dpkg --root install, run).
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

# Each libFuzzer target runs for FUZZ_SECONDS.
# check-fuzz (part of check): the clang libFuzzer build compiles, and each target
# survives a short run from its corpus (FUZZ_CHECK_SECONDS each).
FUZZ_CHECK_SECONDS ?= 5
check-fuzz:
	@scripts/deps.sh check || scripts/deps.sh install
	test -f $(FUZZ_BUILD)/build.ninja || CC=clang meson setup $(FUZZ_BUILD) -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
	ninja -C $(FUZZ_BUILD)
	scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_CHECK_SECONDS) 1

fuzz:
	@scripts/deps.sh check || scripts/deps.sh install
	test -f $(FUZZ_BUILD)/build.ninja || CC=clang meson setup $(FUZZ_BUILD) -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
	ninja -C $(FUZZ_BUILD)
	scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
