# SPDX-License-Identifier: LGPL-2.1-or-later
# Unit tests (TAP, one program per shim source) and the spelling probe, which measures the
# same case table as the classifier's unit test against the running kernel.

EXTRA_DIST += tests/unit/procfd_cases.h tests/unit/errno_name.h tests/unit/namespace_root.h

check_PROGRAMS += tests/unit/procfd_classify_test
TESTS += tests/unit/procfd_classify_test
tests_unit_procfd_classify_test_SOURCES = tests/unit/procfd_classify_test.c
tests_unit_procfd_classify_test_LDADD = libprocfd.la

# Built from the library's own source file: the writer has no entry point of its own.
check_PROGRAMS += tests/unit/debug_log_test
TESTS += tests/unit/debug_log_test
tests_unit_debug_log_test_SOURCES = tests/unit/debug_log_test.c shim/core/debug_log.c
# Per-target flags give the test its own object of shim/core/debug_log.c, apart from the
# library's libtool object.
tests_unit_debug_log_test_CFLAGS = $(AM_CFLAGS)

# The owner checks from the library's own sources, without the interposers (the test mounts
# over /proc in a private mount namespace and says so itself). Own objects, as above.
check_PROGRAMS += tests/unit/procfd_owner_test
TESTS += tests/unit/procfd_owner_test
tests_unit_procfd_owner_test_SOURCES = tests/unit/procfd_owner_test.c \
	shim/core/procfd_owner.c shim/core/proc_kind.c shim/core/real_syms.c \
	shim/core/debug_log.c
tests_unit_procfd_owner_test_CFLAGS = $(AM_CFLAGS)
tests_unit_procfd_owner_test_LDADD = libprocfd.la

# Linking the library also interposes linkat() in the test: the direct-form comparisons
# below pass through it untouched (AT_EMPTY_PATH is never rewritten).
check_PROGRAMS += tests/unit/flink_api_test
TESTS += tests/unit/flink_api_test
tests_unit_flink_api_test_SOURCES = tests/unit/flink_api_test.c
tests_unit_flink_api_test_LDADD = libflinkshim.la
# A real binary, not a libtool wrapper script: tests/valgrind.sh runs it under memcheck.
tests_unit_flink_api_test_LDFLAGS = -no-install

# No shim here: the kernel's own answers are what is measured.
check_PROGRAMS += tests/helpers/spelling_probe
TESTS += tests/helpers/spelling_probe
tests_helpers_spelling_probe_SOURCES = tests/helpers/spelling_probe.c $(TOKEN_ACTORS)
tests_helpers_spelling_probe_CFLAGS = $(AM_CFLAGS) -pthread
tests_helpers_spelling_probe_LDFLAGS = -pthread
tests_helpers_spelling_probe_LDADD = libprocfd.la
