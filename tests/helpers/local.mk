# SPDX-License-Identifier: LGPL-2.1-or-later
# Helper programs and libraries that the bats suites (tests/bats) drive. They act like real
# legacy programs, so the suites test the shim the way users meet it: preloaded, from outside.
# Built by `make check` only.

# errno by name in the output, so that the suites compare names, not numbers.
HELPER_ERRNO = tests/helpers/errno_name.c tests/helpers/errno_name.h
OLDKERNEL_FILTER = tests/helpers/oldkernel_filter.c tests/helpers/oldkernel_filter.h
# The other actors of the spelling table's tokens ({S}, {X}, {O}).
TOKEN_ACTORS = tests/helpers/token_actors.c tests/helpers/token_actors.h

check_PROGRAMS += tests/helpers/legacy_link
tests_helpers_legacy_link_SOURCES = tests/helpers/legacy_link.c $(HELPER_ERRNO) $(TOKEN_ACTORS)
tests_helpers_legacy_link_CFLAGS = $(AM_CFLAGS) -pthread
tests_helpers_legacy_link_LDFLAGS = -pthread

check_PROGRAMS += tests/helpers/oldkernel
tests_helpers_oldkernel_SOURCES = tests/helpers/oldkernel.c $(OLDKERNEL_FILTER)

# The idiom before and after chroot(): what the shim remembers about /proc and /dev.
check_PROGRAMS += tests/helpers/chroot_link
tests_helpers_chroot_link_SOURCES = tests/helpers/chroot_link.c $(HELPER_ERRNO)

# A process with the same pid in a new pid namespace and in the parent's (review S5).
check_PROGRAMS += tests/helpers/pidns_twin
tests_helpers_pidns_twin_SOURCES = tests/helpers/pidns_twin.c

# kcmp(2) denied, as under Docker's default seccomp profile.
check_PROGRAMS += tests/helpers/nokcmp
tests_helpers_nokcmp_SOURCES = tests/helpers/nokcmp.c

check_PROGRAMS += tests/helpers/passthrough
tests_helpers_passthrough_SOURCES = tests/helpers/passthrough.c $(HELPER_ERRNO)

check_PROGRAMS += tests/helpers/foreign_fd
tests_helpers_foreign_fd_SOURCES = tests/helpers/foreign_fd.c $(HELPER_ERRNO)
tests_helpers_foreign_fd_CFLAGS = $(AM_CFLAGS) -pthread
tests_helpers_foreign_fd_LDFLAGS = -pthread

# A second linkat() preload, to test composition in both LD_PRELOAD orders.
check_LTLIBRARIES += tests/helpers/libcountlink.la
tests_helpers_libcountlink_la_SOURCES = tests/helpers/libcountlink.c
tests_helpers_libcountlink_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined

# A library that uses the idiom from its constructor, and a program linked against it.
# -rpath makes libtool build it shared (its constructor must run from the loader, before the
# preloaded shim's); -no-install links early_main straight to the uninstalled library, with
# no libtool wrapper script in between.
check_LTLIBRARIES += tests/helpers/libearly.la
tests_helpers_libearly_la_SOURCES = tests/helpers/libearly.c tests/helpers/libearly.h
tests_helpers_libearly_la_LDFLAGS = -avoid-version -rpath /nowhere -no-undefined

check_PROGRAMS += tests/helpers/early_main
tests_helpers_early_main_SOURCES = tests/helpers/early_main.c $(HELPER_ERRNO)
tests_helpers_early_main_LDADD = tests/helpers/libearly.la
tests_helpers_early_main_LDFLAGS = -no-install

# What the wrapper's tests asked of sh (print a variable, exit N, die by a signal), built with
# the library's compiler: the musl build of the shim cannot be preloaded into a glibc sh.
check_PROGRAMS += tests/helpers/env_tool
tests_helpers_env_tool_SOURCES = tests/helpers/env_tool.c
