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

# The idiom through an inline syscall instruction, in a dynamic program.
check_PROGRAMS += tests/helpers/raw_legacy
tests_helpers_raw_legacy_SOURCES = tests/helpers/raw_legacy.c $(HELPER_ERRNO)

# A container's seccomp profile that forbids ptrace or seccomp.
check_PROGRAMS += tests/helpers/trace_deny
tests_helpers_trace_deny_SOURCES = tests/helpers/trace_deny.c

EXTRA_DIST += tests/bats/trace.bats
if HAVE_BATS
TESTS += tests/bats/trace.bats
endif
