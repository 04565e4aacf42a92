# SPDX-License-Identifier: LGPL-2.1-or-later
# The integration suites: one file per user-visible behaviour, each driving the helper
# programs of tests/helpers against the built library, in real /proc-less and unprivileged
# worlds (see common.bash). They need root for those worlds and skip, saying why, without it.

BATS_SUITES = \
	tests/bats/legacy_spellings.bats \
	tests/bats/errors.bats \
	tests/bats/old_kernel.bats \
	tests/bats/credentials.bats \
	tests/bats/syscall_level.bats \
	tests/bats/composition.bats \
	tests/bats/early_constructor.bats \
	tests/bats/passthrough.bats \
	tests/bats/foreign_fd.bats \
	tests/bats/changed_root.bats \
	tests/bats/check_probe.bats \
	tests/bats/debug.bats \
	tests/bats/symbols.bats

EXTRA_DIST += $(BATS_SUITES) tests/bats/common.bash

if HAVE_BATS
TESTS += $(BATS_SUITES)
endif
