# SPDX-License-Identifier: LGPL-2.1-or-later
# FLINKSHIM_CHECK_FUZZER: find a compiler that can build libFuzzer harnesses.
AC_DEFUN([FLINKSHIM_CHECK_FUZZER], [
  AM_CONDITIONAL([HAVE_FUZZER], [false])
])
