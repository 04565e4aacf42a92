#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The short fuzzing run of the ELF header reader (tests/fuzz/elf_header_fuzz.c) in `make
# check`, for ELF_FUZZ_CHECK_SECONDS seconds (default 10): fuzz-short.sh's steps.
FUZZ_HARNESS=elf_header_fuzz FUZZ_SEEDS=elf_seeds FUZZ_FLAGS="-max_len=4096" \
	FUZZ_CHECK_SECONDS=${ELF_FUZZ_CHECK_SECONDS:-10} \
	exec /bin/sh "$(dirname "$0")/fuzz-short.sh"
