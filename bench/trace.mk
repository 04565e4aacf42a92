# SPDX-License-Identifier: LGPL-2.1-or-later
# `make bench-trace`: what `flinkshim --trace` costs. Three figures, each measured side by side
# in one run: the untrapped floor (getppid() under the seccomp filter, against native), the
# start-up of processes (a shell loop of short programs, against native) and a trapped legacy
# link (against proot, when installed). bench/trace_bench.sh says how.
# `make check` runs both loops for a moment (bench/trace_smoke.sh), never judging speed.

check_PROGRAMS += bench/trace_bench
bench_trace_bench_SOURCES = bench/trace_bench.c

EXTRA_DIST += bench/trace_bench.sh bench/trace_smoke.sh
# Not in a sanitizer build: the loops run under ptrace, where LeakSanitizer cannot work
# (it stops the traced program with a fatal error).
if !SANITIZERS
TESTS += bench/trace_smoke.sh
endif

.PHONY: bench-trace
bench-trace: flinkshim bench/trace_bench
	@$(SHELL) $(top_srcdir)/bench/trace_bench.sh '$(abs_top_builddir)'
