#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# flink(3)'s example compiles as printed and does what its comment says (TAP). The program is
# taken from the rendered page, as a reader would copy it, compiled with warnings as errors
# against the built header and library, and run in a fresh directory.
set -u
: "${top_builddir:?run through make check}" "${top_srcdir:?run through make check}"
: "${FLS_CC:?run through make check}"
command -v groff >/dev/null 2>&1 || { echo "1..0 # SKIP groff is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"

# -Tascii: plain hyphens and quotes, as typed; -P-cbou: no overstrike, no escape sequences.
groff -man -Tascii -P-cbou "$top_builddir/man/flink.3" 2>/dev/null |
	sed -n '/^EXAMPLES$/,/^SEE ALSO$/{/^EXAMPLES$/d;/^SEE ALSO$/d;s/^       //;p;}' >"$tmp/example.c"
if grep -q 'main(void)' "$tmp/example.c"; then
	echo "ok 1 - the EXAMPLES section holds a program"
else
	echo "not ok 1 - no program found in flink(3)'s EXAMPLES section"
	sed 's/^/#   /' "$tmp/example.c"
fi

# shellcheck disable=SC2086
if out=$($FLS_CC -Wall -Wextra -Werror -I"$top_srcdir/include" -o "$tmp/example" \
	"$tmp/example.c" -L"$top_builddir/.libs" -lflinkshim 2>&1); then
	echo "ok 2 - it compiles as printed ($FLS_CC -Wall -Wextra -Werror)"
else
	echo "not ok 2 - it does not compile as printed ($FLS_CC -Wall -Wextra -Werror)"
	printf '%s\n' "$out" | sed 's/^/#   /'
fi

mkdir "$tmp/run"
if [ -x "$tmp/example" ] &&
	(cd "$tmp/run" && LD_LIBRARY_PATH="$top_builddir/.libs" "$tmp/example") &&
	[ "$(cat "$tmp/run/result" 2>/dev/null)" = complete ]; then
	echo "ok 3 - it runs: result holds \"complete\""
else
	echo "not ok 3 - it did not leave a file result holding \"complete\""
fi
