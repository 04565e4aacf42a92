# SPDX-License-Identifier: LGPL-2.1-or-later
# `flinkshim --trace`: the programs no preload reaches (a static legacy program, raw syscall
# instructions), driven by tests/bats/trace.bats under the supervisor, in /proc-less and
# unprivileged worlds.

# Statically linked on purpose (-all-static: libtool passes -static to the linker), and so
# without $(SANITIZER_FLAGS): ASan cannot link a static program.
check_PROGRAMS += tests/helpers/static_legacy
tests_helpers_static_legacy_SOURCES = tests/helpers/static_legacy.c $(HELPER_ERRNO)
tests_helpers_static_legacy_CFLAGS = $(WARN_CFLAGS) -pthread
tests_helpers_static_legacy_LDFLAGS = -all-static -pthread

# The whole legacy_link matrix (every fd kind, context and entry point), statically linked:
# compared call by call with the same program run natively with /proc.
check_PROGRAMS += tests/helpers/static_legacy_link
tests_helpers_static_legacy_link_SOURCES = tests/helpers/legacy_link.c $(HELPER_ERRNO) \
	$(TOKEN_ACTORS)
tests_helpers_static_legacy_link_CFLAGS = $(WARN_CFLAGS) -pthread
tests_helpers_static_legacy_link_LDFLAGS = -all-static -pthread

# The supervisor's edges: registers after a rewritten call, a lost clone event, signals, a
# seccomp filter of the program's own, a non-dumpable program. Static, like static_legacy.
check_PROGRAMS += tests/helpers/trace_cases
tests_helpers_trace_cases_SOURCES = tests/helpers/trace_cases.c $(HELPER_ERRNO)
tests_helpers_trace_cases_CFLAGS = $(WARN_CFLAGS) -pthread
tests_helpers_trace_cases_LDFLAGS = -all-static -pthread

# static_legacy for i386, whose calls reach a 64-bit kernel by its 32-bit ABI. Built where
# the compiler can (gcc -m32 -static: Debian's gcc-multilib); elsewhere (musl-gcc, no 32-bit
# libc) a script that says why and exits 77, so that the test skips with the reason.
# Without $(CFLAGS): a variant's sanitizer or musl flags are for 64-bit programs.
check_SCRIPTS += tests/helpers/static_legacy_i386
STATIC_LEGACY_32_SRC = $(top_srcdir)/tests/helpers/static_legacy.c $(top_srcdir)/tests/helpers/errno_name.c
tests/helpers/static_legacy_i386: $(STATIC_LEGACY_32_SRC) tests/helpers/errno_name.h config.h
	$(AM_V_GEN)$(MKDIR_P) tests/helpers && \
	if $(CC) -m32 -static -pthread -O2 $(WARN_CFLAGS) -I$(top_builddir) \
		-I$(top_srcdir)/tests/helpers -I$(top_srcdir)/shim/core $(STATIC_LEGACY_32_SRC) \
		-o $@ 2>$@.log; then \
		rm -f $@.log; \
	else \
		{ echo '#!/bin/sh'; \
		  echo "echo 'static_legacy_i386: $(CC) -m32 -static cannot build an i386 program here (gcc needs a 32-bit C library: Debian gcc-multilib; musl-gcc has none)' >&2"; \
		  echo 'exit 77'; } >$@ && chmod +x $@; \
	fi
CLEANFILES += tests/helpers/static_legacy_i386 tests/helpers/static_legacy_i386.log

# The idiom through an inline syscall instruction, in a dynamic program.
check_PROGRAMS += tests/helpers/raw_legacy
tests_helpers_raw_legacy_SOURCES = tests/helpers/raw_legacy.c $(HELPER_ERRNO)

# A container's seccomp profile that forbids ptrace or seccomp.
check_PROGRAMS += tests/helpers/trace_deny
tests_helpers_trace_deny_SOURCES = tests/helpers/trace_deny.c

EXTRA_DIST += tests/bats/trace.bats tests/bats/trace_lifecycle.bats tests/bats/trace_common.bash
if HAVE_BATS
TESTS += tests/bats/trace.bats tests/bats/trace_lifecycle.bats
endif
