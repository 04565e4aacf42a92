# SPDX-License-Identifier: LGPL-2.1-or-later
# The differential parity matrix: every case runs natively with /proc mounted (the reference)
# and under the shim with /proc hidden (the candidate), in four worlds (root or unprivileged,
# old-kernel simulation off or on), and the answers and the disk must agree.

# No libflinkshim here: the runner preloads it into the candidate runs only, and the
# reference must be libc's own linkat().
check_PROGRAMS += tests/parity/parity_driver
tests_parity_parity_driver_SOURCES = tests/parity/parity_driver.c $(OLDKERNEL_FILTER) \
	$(TOKEN_ACTORS)
tests_parity_parity_driver_CFLAGS = $(AM_CFLAGS) -pthread
tests_parity_parity_driver_LDFLAGS = -pthread

EXTRA_DIST += tests/parity/parity.sh
# A sanitizer build's library cannot be preloaded into a program (the ASan runtime must come
# first in the initial library list), as for the bats suites.
if !SANITIZERS
TESTS += tests/parity/parity.sh
endif
# The runner copies both before it starts: build them first, also in a parallel make.
tests/parity/parity.sh: tests/parity/parity_driver libflinkshim.la
