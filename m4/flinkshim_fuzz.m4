# SPDX-License-Identifier: LGPL-2.1-or-later
# FLINKSHIM_CHECK_FUZZER: find a C compiler that builds and runs libFuzzer harnesses with
# AddressSanitizer and UndefinedBehaviorSanitizer (clang with its compiler-rt: on Debian the
# clang and libclang-rt-NN-dev packages). It need not be $CC: the harness is built by explicit
# rules in tests/fuzz/local.mk, so a gcc build of the library can still fuzz.
#
# Sets FUZZ_CC and FUZZ_CFLAGS (both precious: FUZZ_CC=clang-17 ./configure picks another) and
# the conditional HAVE_FUZZER. --disable-fuzzer skips the search; without a usable compiler
# the fuzzer is left out with a notice, and `make fuzz` says why.
AC_DEFUN([FLINKSHIM_CHECK_FUZZER], [
  AC_ARG_ENABLE([fuzzer],
    [AS_HELP_STRING([--disable-fuzzer],
      [do not build the libFuzzer harness (default: build it if clang can)])],
    [], [enable_fuzzer=auto])
  AC_ARG_VAR([FUZZ_CC], [C compiler for the libFuzzer harness (default: clang)])
  AC_ARG_VAR([FUZZ_CFLAGS],
    [flags for FUZZ_CC (default: -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)])
  AS_IF([test -z "$FUZZ_CFLAGS"],
    [FUZZ_CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"])

  flinkshim_have_fuzzer=no
  flinkshim_fuzzer_why="disabled by --disable-fuzzer"
  AS_IF([test "x$enable_fuzzer" != xno], [
    AS_IF([test -z "$FUZZ_CC"],
      [AC_CHECK_PROGS([FUZZ_CC],
        [clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14], [])])
    flinkshim_fuzzer_why="no clang found (set FUZZ_CC)"
    AS_IF([test -n "$FUZZ_CC"], [
      AC_MSG_CHECKING([whether $FUZZ_CC builds and runs a libFuzzer harness])
      # Link a harness as tests/fuzz/local.mk will, then run it once: a compiler without
      # compiler-rt's libFuzzer fails to link, and a sanitizer runtime that cannot start here
      # (no ASLR control, odd kernels) fails to run; both must mean "no fuzzer", not a
      # failing `make check`.
      flinkshim_save_CC=$CC
      flinkshim_save_CFLAGS=$CFLAGS
      flinkshim_save_LDFLAGS=$LDFLAGS
      flinkshim_save_LIBS=$LIBS
      CC=$FUZZ_CC
      CFLAGS=$FUZZ_CFLAGS
      LDFLAGS=
      LIBS=
      flinkshim_fuzzer_why="$FUZZ_CC cannot link -fsanitize=fuzzer,address,undefined (clang needs its compiler-rt; Debian: libclang-rt-NN-dev)"
      AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return size > 0 && data[0] == 0x7f ? 1 : 0;
}
]])], [
        flinkshim_fuzzer_why="a harness built by $FUZZ_CC does not run here (see config.log)"
        AS_IF([test "$cross_compiling" = yes],
          [flinkshim_fuzzer_why="cross-compiling: the harness cannot run on the build machine"],
          [./conftest$ac_exeext -runs=1 >&AS_MESSAGE_LOG_FD 2>&1 &&
             flinkshim_have_fuzzer=yes])])
      CC=$flinkshim_save_CC
      CFLAGS=$flinkshim_save_CFLAGS
      LDFLAGS=$flinkshim_save_LDFLAGS
      LIBS=$flinkshim_save_LIBS
      AC_MSG_RESULT([$flinkshim_have_fuzzer])
    ])
  ])
  AS_IF([test "x$flinkshim_have_fuzzer" = xno], [
    AS_IF([test "x$enable_fuzzer" = xyes],
      [AC_MSG_ERROR([--enable-fuzzer given, but $flinkshim_fuzzer_why])])
    AC_MSG_NOTICE([libFuzzer harness disabled: $flinkshim_fuzzer_why; `make check` runs the plain model-vs-classifier test only])
  ])
  AC_SUBST([FUZZ_CC])
  AC_SUBST([FUZZ_CFLAGS])
  AM_CONDITIONAL([HAVE_FUZZER], [test "x$flinkshim_have_fuzzer" = xyes])
])
