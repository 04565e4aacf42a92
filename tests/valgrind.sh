#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The unit tests again, under valgrind's memcheck: any invalid read or write, use of an
# uninitialised value, or definite leak fails (TAP). Skipped in sanitizer builds, where ASan
# already watches the same code and the two tools cannot share a process.
set -u
: "${top_builddir:?run through make check}"
if [ "${FLINKSHIM_SANITIZERS:-no}" = yes ]; then
	echo "1..0 # SKIP a sanitizer build: ASan and valgrind cannot run together"
	exit 0
fi
command -v valgrind >/dev/null 2>&1 || { echo "1..0 # SKIP valgrind is not installed"; exit 0; }

progs="tests/unit/procfd_classify_test tests/unit/debug_log_test tests/unit/flink_api_test
tests/unit/flink_replace_test tests/unit/preload_env_test tests/unit/elf_static_test"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# valgrind may have no support for this build's programs here: 32-bit x86 programs on an
# amd64 system need the i386 C library's symbols (libc6-dbg:i386), or it stops at startup.
valgrind -q --log-file="$log" "$top_builddir/tests/unit/preload_env_test" >/dev/null 2>&1
if grep -q 'Fatal error at startup' "$log"; then
	echo "1..0 # SKIP valgrind cannot start this build's programs here: $(grep -m1 -A3 'Fatal error at startup' "$log" | tr -s ' \n' ' ')"
	exit 0
fi
n=0
echo "1..$(echo $progs | wc -w)"
for p in $progs; do
	n=$((n + 1))
	if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--suppressions="${top_srcdir:-.}/tests/valgrind.supp" \
		--log-file="$log" "$top_builddir/$p" >/dev/null 2>&1 && [ ! -s "$log" ]; then
		echo "ok $n - $p under memcheck"
	else
		echo "not ok $n - $p under memcheck"
		sed 's/^/#   /' "$log" | head -n 40
	fi
done
