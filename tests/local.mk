# SPDX-License-Identifier: LGPL-2.1-or-later
# Test harness: every test speaks TAP, through automake's TAP driver.

TAP_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_DRIVER = $(TAP_DRIVER)
TEST_EXTENSIONS = .bats
BATS_LOG_DRIVER = $(TAP_DRIVER)
BATS_LOG_COMPILER = $(BATS) --tap

# What every test may rely on (absolute paths, so tests can cd and drop privileges).
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	FLINKSHIM_LIB='$(abs_top_builddir)/.libs/$(FLINKSHIM_SONAME)'; export FLINKSHIM_LIB; \
	FLINKSHIM_BIN='$(abs_top_builddir)/flinkshim'; export FLINKSHIM_BIN; \
	HELPERS='$(abs_top_builddir)/tests/helpers'; export HELPERS; \
	BATS_LIB='$(abs_top_srcdir)/tests/bats'; export BATS_LIB; \
	FLINKSHIM_SANITIZERS='$(FLINKSHIM_SANITIZERS)'; export FLINKSHIM_SANITIZERS; \
	FLINKSHIM_LIBC='$(FLINKSHIM_LIBC_NAME)'; export FLINKSHIM_LIBC; \
	FLS_CC='$(CC) $(SANITIZER_FLAGS)'; export FLS_CC; \
	FLS_PRIVATE_NS='$(abs_top_srcdir)/tests/private_ns.sh'; export FLS_PRIVATE_NS; \
	FLS_HOST_CPU='$(host_cpu)'; export FLS_HOST_CPU;

EXTRA_DIST += tests/tap.h build-aux/tap-driver.sh tests/private_ns.sh

# The /proc-less worlds in a chroot laid out as package builders make them.
TESTS += tests/private_ns_test.sh
EXTRA_DIST += tests/private_ns_test.sh

include tests/unit/local.mk
include tests/helpers/local.mk
include tests/bats/local.mk

# The legacy program of the demo (built by `make`, so `make demo` works right after it).
noinst_PROGRAMS = tests/helpers/legacy_tmpfile
tests_helpers_legacy_tmpfile_SOURCES = tests/helpers/legacy_tmpfile.c

EXTRA_DIST += tests/demo.sh
.PHONY: demo
demo: flinkshim libflinkshim.la tests/helpers/legacy_tmpfile
	@$(SHELL) $(top_srcdir)/tests/demo.sh '$(abs_top_builddir)'

# Unit tests of the wrapper's pure parts.
check_PROGRAMS += tests/unit/preload_env_test tests/unit/elf_static_test
TESTS += tests/unit/preload_env_test tests/unit/elf_static_test
tests_unit_preload_env_test_SOURCES = tests/unit/preload_env_test.c shim/command/preload_env.c
tests_unit_preload_env_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_unit_elf_static_test_SOURCES = tests/unit/elf_static_test.c shim/command/elf_static.c
tests_unit_elf_static_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

# The wrapper's own suite.
check_PROGRAMS += tests/helpers/static_true
tests_helpers_static_true_SOURCES = tests/helpers/static_true.c
# Without $(SANITIZER_FLAGS): ASan cannot link a static program, and this one must be static.
tests_helpers_static_true_CFLAGS = $(WARN_CFLAGS)
tests_helpers_static_true_LDFLAGS = -all-static
EXTRA_DIST += tests/bats/wrapper.bats
if HAVE_BATS
TESTS += tests/bats/wrapper.bats
endif

# flinkat() flags.
check_PROGRAMS += tests/unit/flink_replace_test tests/helpers/flink_tool
TESTS += tests/unit/flink_replace_test
tests_unit_flink_replace_test_SOURCES = tests/unit/flink_replace_test.c
tests_unit_flink_replace_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_unit_flink_replace_test_CFLAGS = $(AM_CFLAGS) -pthread
tests_unit_flink_replace_test_LDADD = libflinkshim.la -lpthread
tests_unit_flink_replace_test_LDFLAGS = -no-install
tests_helpers_flink_tool_SOURCES = tests/helpers/flink_tool.c
tests_helpers_flink_tool_CFLAGS = $(AM_CFLAGS) -pthread
tests_helpers_flink_tool_LDADD = libflinkshim.la -lpthread
# -no-install: a real binary with a run path, not a libtool wrapper script, so it can be
# copied, traced and run by another user.
tests_helpers_flink_tool_LDFLAGS = -no-install
EXTRA_DIST += tests/bats/flink_flags.bats
if HAVE_BATS
TESTS += tests/bats/flink_flags.bats
endif

# Man pages render cleanly.
TESTS += tests/man.sh
EXTRA_DIST += tests/man.sh
tests/man.sh: $(man_MANS) man/flinkshim-longpath.1
# flink(3)'s example compiles as printed, and works.
TESTS += tests/man_example.sh
EXTRA_DIST += tests/man_example.sh
tests/man_example.sh: man/flink.3 libflinkshim.la

EXTRA_DIST += tests/installcheck.sh tests/installcheck.c
installcheck-local:
	$(SHELL) $(top_srcdir)/tests/installcheck.sh '$(DESTDIR)$(bindir)' '$(DESTDIR)$(libdir)' \
		'$(DESTDIR)$(pkgconfigdir)' '$(CC)' '$(top_srcdir)'

# What the library may call (async-signal-safe functions only), and the unit tests under
# valgrind. They run after the unit tests themselves (make's order of TESTS).
TESTS += tests/undefined_symbols.sh tests/valgrind.sh tests/debian_symbols.sh
EXTRA_DIST += tests/debian_symbols.sh
EXTRA_DIST += tests/undefined_symbols.sh tests/valgrind.sh tests/valgrind.supp

# The same suite in another build variant:
#     make check-variant VARIANT=NAME VARIANT_FLAGS='configure arguments'
# from a copy of the release tree (make distdir), configured and built apart in
# _variant-NAME/build. Not a VPATH build of this source directory: configure refuses one when
# the source directory is configured itself (the Quick start configures in place), and the
# copy also proves that the release tarball builds the variant. _variant-NAME is removed when
# the suite passes and kept for a look when it fails. The fuzzer is left out: FUZZ_CC builds
# it whatever the variant's compiler, so this tree's own `make check` already runs it.
VARIANT =
VARIANT_FLAGS =
.PHONY: check-variant check-sanitizers check-musl check-hardened check-i386
check-variant:
	@case '$(VARIANT)' in '' | */* | *' '*) \
		echo "check-variant: say VARIANT=NAME (a plain word)" >&2; exit 1;; esac
	rm -rf _variant-$(VARIANT)
	$(MKDIR_P) _variant-$(VARIANT)/build
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=_variant-$(VARIANT)/src
	cd _variant-$(VARIANT)/build && ../src/configure $(VARIANT_FLAGS) --disable-fuzzer \
		--disable-silent-rules >configure.out || { cat configure.out; exit 1; }
	@sed -n '/^configure: *$$/,$$p' _variant-$(VARIANT)/build/configure.out
	cd _variant-$(VARIANT)/build && $(MAKE) $(AM_MAKEFLAGS) check
	rm -rf _variant-$(VARIANT)

# ASan + UBSan.
check-sanitizers:
	@$(MAKE) $(AM_MAKEFLAGS) check-variant VARIANT=sanitizers \
		VARIANT_FLAGS="--enable-sanitizers CC='$(CC)'"

# musl: the library, the command and every test program built with musl-gcc (MUSL_CC), so the
# musl shim is preloaded into musl programs. Needs musl-tools on Debian.
MUSL_CC = musl-gcc
check-musl:
	@command -v $(MUSL_CC) >/dev/null 2>&1 || { \
		echo "check-musl: $(MUSL_CC) not found (Debian: apt-get install musl-tools)" >&2; \
		exit 1; }
	@$(MAKE) $(AM_MAKEFLAGS) check-variant VARIANT=musl VARIANT_FLAGS="CC='$(MUSL_CC)'"

# The hardening flags distributions build with: Debian's dpkg-buildflags with hardening=+all
# (-D_FORTIFY_SOURCE=2 -O2, the stack protector, PIE, relro and now; `make deb` builds with
# those as they are), and on top of them what Fedora adds: -D_FORTIFY_SOURCE=3,
# -fstack-clash-protection and, on x86, -fcf-protection. The library must build, pass the
# suite and import no fortified function (tests/undefined_symbols.sh). Needs dpkg-dev.
HARDENED_EXTRA_CFLAGS = -fstack-clash-protection
check-hardened:
	@command -v dpkg-buildflags >/dev/null 2>&1 || { \
		echo "check-hardened: dpkg-buildflags not found (Debian: apt-get install dpkg-dev)" >&2; \
		exit 1; }
	@cf=; case '$(host_cpu)' in i?86 | x86_64) cf=-fcf-protection;; esac; \
	flags=$$(DEB_BUILD_MAINT_OPTIONS=hardening=+all \
		DEB_CPPFLAGS_MAINT_APPEND='-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3' \
		DEB_CFLAGS_MAINT_APPEND="$(HARDENED_EXTRA_CFLAGS) $$cf" \
		dpkg-buildflags --export=configure) && \
	$(MAKE) $(AM_MAKEFLAGS) check-variant VARIANT=hardened VARIANT_FLAGS="CC='$(CC)' $$flags"

# i386 (any 32-bit target shows the same things): the library, the command and every test
# program built with $(CC) -m32, on an x86-64 machine (Debian: gcc-multilib). --trace is
# x86_64-only: its tests skip, saying so.
check-i386:
	@case '$(host_cpu)' in x86_64) ;; *) \
		echo "check-i386: builds with $(CC) -m32 on an x86_64 host; this one is $(host_cpu)" >&2; \
		exit 1;; esac
	@$(MAKE) $(AM_MAKEFLAGS) check-variant VARIANT=i386 \
		VARIANT_FLAGS="--host=i686-linux-gnu CC='$(CC) -m32'"

# configure links the kernel's headers into the build tree when the compiler has none
# (musl-gcc on Debian: configure.ac, kernel-headers).
distclean-local:
	-rm -rf kernel-headers

# Hostile arguments and concurrency.
check_PROGRAMS += tests/helpers/hostile tests/helpers/stress
tests_helpers_hostile_SOURCES = tests/helpers/hostile.c $(HELPER_ERRNO)
tests_helpers_stress_SOURCES = tests/helpers/stress.c
tests_helpers_stress_CFLAGS = $(AM_CFLAGS) -pthread
tests_helpers_stress_LDFLAGS = -pthread
EXTRA_DIST += tests/bats/hostile_stress.bats
if HAVE_BATS
TESTS += tests/bats/hostile_stress.bats
endif
