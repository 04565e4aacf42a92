# SPDX-License-Identifier: LGPL-2.1-or-later
# The classifier against an independent reference model (tests/fuzz/procfd_model.c), two ways:
#   - tests/fuzz/procfd_model_test, built with $(CC), runs in every `make check`: the model
#     against hand-written answers, then the classifier against the model on the seed corpus
#     and on 200 000 generated paths;
#   - tests/fuzz/procfd_fuzz, the libFuzzer harness, built with $(FUZZ_CC) when configure
#     found a clang that can (m4/flinkshim_fuzz.m4): `make check` fuzzes for
#     FUZZ_CHECK_SECONDS (default 30), `make fuzz` for FUZZ_SECONDS (default 600).
# Any disagreement with the model fails, like a crash.

FUZZ_MODEL_SOURCES = \
	tests/fuzz/procfd_model.c tests/fuzz/procfd_model.h \
	tests/fuzz/procfd_compare.c tests/fuzz/procfd_compare.h

check_PROGRAMS += tests/fuzz/procfd_model_test
TESTS += tests/fuzz/procfd_model_test
tests_fuzz_procfd_model_test_SOURCES = tests/fuzz/procfd_model_test.c $(FUZZ_MODEL_SOURCES)
tests_fuzz_procfd_model_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_fuzz_procfd_model_test_LDADD = libprocfd.la

# The seed corpus is a directory: dist copies it whole. Each file is one fuzzer input, byte 0
# picking the caller's ids (tests/fuzz/procfd_compare.c), the rest the path.
EXTRA_DIST += tests/fuzz/procfd_fuzz.c tests/fuzz/procfd.dict tests/fuzz/corpus \
	tests/fuzz/fuzz-short.sh tests/fuzz/fuzz-long.sh

# The ELF header reader of the flinkshim command (shim/command/elf_static.c), which reads the first
# bytes of any file a user asks it to run: tests/fuzz/elf_header_fuzz.c checks its invariants
# (no access outside the bytes given, a loader name only if the file holds it). Seeds: the
# heads of real programs (glibc PIE and static, musl PIE), a hand-made 32-bit big-endian
# header, a script; each behind the harness's first byte, the output buffer's size ('@', 64).
# A check of the check: without its bounds test, copy_interp() was caught reading past the
# buffer (ASan) within the first minute of fuzzing.
EXTRA_DIST += tests/fuzz/elf_header_fuzz.c tests/fuzz/elf_seeds tests/fuzz/elf-fuzz-short.sh

FUZZ_SECONDS = 600
# Flags of every long run, whatever the harness.
FUZZ_COMMON_FLAGS = -timeout=10 -print_final_stats=1
# The classifier's: -max_len reaches past PATH_MAX (4096) so that the ENAMETOOLONG edge is
# explored; value profiles help the fuzzer match the pid and tid comparisons.
FUZZ_RUN_FLAGS = -dict=$(top_srcdir)/tests/fuzz/procfd.dict -max_len=4200 \
	-use_value_profile=1 $(FUZZ_COMMON_FLAGS)
# The ELF reader's: the wrapper reads 4096 bytes of a file.
ELF_FUZZ_RUN_FLAGS = -max_len=4096 $(FUZZ_COMMON_FLAGS)

.PHONY: fuzz fuzz-elf clean-local-fuzz
if HAVE_FUZZER
# Built by an explicit rule: FUZZ_CC need not be $(CC), and automake programs know only $(CC).
# The classifier is compiled from source here, instrumented, rather than taken from
# libprocfd.la.
FUZZ_HARNESS_DEPS = \
	$(top_srcdir)/tests/fuzz/procfd_fuzz.c \
	$(top_srcdir)/tests/fuzz/procfd_model.c $(top_srcdir)/tests/fuzz/procfd_model.h \
	$(top_srcdir)/tests/fuzz/procfd_compare.c $(top_srcdir)/tests/fuzz/procfd_compare.h \
	$(top_srcdir)/shim/core/procfd_classify.c $(top_srcdir)/shim/core/procfd_classify.h
AM_V_FUZZCC = $(am__v_FUZZCC_@AM_V@)
am__v_FUZZCC_ = $(am__v_FUZZCC_@AM_DEFAULT_V@)
am__v_FUZZCC_0 = @echo "  FUZZCC  " $@;
am__v_FUZZCC_1 =
tests/fuzz/procfd_fuzz$(EXEEXT): $(FUZZ_HARNESS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(WARN_CFLAGS) \
		$(SHIM_INCLUDES) -I$(top_srcdir)/tests/fuzz -o $@ \
		$(top_srcdir)/tests/fuzz/procfd_fuzz.c $(top_srcdir)/tests/fuzz/procfd_model.c \
		$(top_srcdir)/tests/fuzz/procfd_compare.c $(top_srcdir)/shim/core/procfd_classify.c
CLEANFILES += tests/fuzz/procfd_fuzz$(EXEEXT)

tests/fuzz/elf_header_fuzz$(EXEEXT): $(top_srcdir)/tests/fuzz/elf_header_fuzz.c \
		$(top_srcdir)/shim/command/elf_static.c $(top_srcdir)/shim/command/elf_static.h config.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(WARN_CFLAGS) -I$(top_builddir) \
		$(SHIM_INCLUDES) -o $@ \
		$(top_srcdir)/tests/fuzz/elf_header_fuzz.c $(top_srcdir)/shim/command/elf_static.c
CLEANFILES += tests/fuzz/elf_header_fuzz$(EXEEXT)

# The short run: a TAP test, from a copy of the corpus in a temporary directory. The harness
# is a check "script" only so that `make check` builds it before running the tests (an extra
# prerequisite on the test's .log would replace automake's rule for it).
check_SCRIPTS += tests/fuzz/procfd_fuzz$(EXEEXT) tests/fuzz/elf_header_fuzz$(EXEEXT)
TESTS += tests/fuzz/fuzz-short.sh tests/fuzz/elf-fuzz-short.sh

# The long run keeps its corpus in the build tree, so the next run starts where this one
# stopped; crashes and disagreements land in tests/fuzz/findings/.
fuzz: tests/fuzz/procfd_fuzz$(EXEEXT)
	@$(SHELL) $(top_srcdir)/tests/fuzz/fuzz-long.sh tests/fuzz/procfd_fuzz$(EXEEXT) \
		$(top_srcdir)/tests/fuzz/corpus tests/fuzz '$(FUZZ_SECONDS)' $(FUZZ_RUN_FLAGS)

# The ELF reader's long run: `make fuzz-elf FUZZ_SECONDS=N`.
fuzz-elf: tests/fuzz/elf_header_fuzz$(EXEEXT)
	@$(SHELL) $(top_srcdir)/tests/fuzz/fuzz-long.sh tests/fuzz/elf_header_fuzz$(EXEEXT) \
		$(top_srcdir)/tests/fuzz/elf_seeds tests/fuzz/elf '$(FUZZ_SECONDS)' \
		$(ELF_FUZZ_RUN_FLAGS)
else
fuzz fuzz-elf:
	@echo "make fuzz: configure found no compiler that builds libFuzzer harnesses;" \
		"install clang and its compiler-rt (Debian: clang libclang-rt-14-dev) and" \
		"re-run configure, or set FUZZ_CC" >&2; exit 1
endif

clean-local: clean-local-fuzz
clean-local-fuzz:
	-rm -rf tests/fuzz/corpus-work tests/fuzz/findings tests/fuzz/fuzz.log tests/fuzz/elf
