# SPDX-License-Identifier: LGPL-2.1-or-later
# `make bench`: the performance figures of the shim, each printed beside its goal (README,
# Performance). `make check` builds the same programs and runs each for a moment (bench/smoke.sh)
# so that they never rot; it never judges their speed, since the test machines are shared.

BENCH_UTIL = bench/bench_util.c bench/bench_util.h

# Per-call times: pass-through, rewrite, and the direct form by hand, in one process.
check_PROGRAMS += bench/bench_calls
bench_bench_calls_SOURCES = bench/bench_calls.c $(BENCH_UTIL)

# fork + exec + wait of bench/tiny, preloading the shim or bench/libempty.so.
check_PROGRAMS += bench/bench_startup bench/tiny
bench_bench_startup_SOURCES = bench/bench_startup.c $(BENCH_UTIL)
bench_tiny_SOURCES = bench/tiny.c

# The empty preload: shared (-rpath makes libtool build it so), never installed.
check_LTLIBRARIES += bench/libempty.la
bench_libempty_la_SOURCES = bench/empty.c
bench_libempty_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined

# Instructions per call, counted by callgrind through client requests.
check_PROGRAMS += bench/bench_insn
bench_bench_insn_SOURCES = bench/bench_insn.c $(BENCH_UTIL)

BENCH_BUILT = bench/bench_calls bench/bench_startup bench/tiny bench/bench_insn \
	bench/libempty.la libflinkshim.la

EXTRA_DIST += bench/run.sh bench/smoke.sh
# A sanitizer build's library cannot be preloaded into a program (the ASan runtime must come
# first in the initial library list), as for the bats suites and the parity matrix.
if !SANITIZERS
TESTS += bench/smoke.sh
endif

.PHONY: bench
# The --trace figures (bench/trace.mk) come first, then the preload's.
bench: bench-trace $(BENCH_BUILT)
	@$(SHELL) $(top_srcdir)/bench/run.sh '$(abs_top_builddir)' \
		'$(abs_top_builddir)/.libs/$(FLINKSHIM_SONAME)'
