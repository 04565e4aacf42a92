#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The man pages render with no warning from groff or man (TAP). flinkat.3 is a .so link to
# flink.3: it is rendered from a tree laid out as installed, so the link must resolve.
# flinkshim-longpath.1 is flinkshim.1 for a library installed under a path wider than the
# page (make distcheck from a deep build directory).
set -u
command -v groff >/dev/null 2>&1 || { echo "1..0 # SKIP groff is not installed"; exit 0; }
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/man1" "$tree/man3"
cp "$top_builddir/man/flinkshim.1" "$top_builddir/man/flinkshim-longpath.1" "$tree/man1/" &&
cp "$top_builddir/man/flink.3" "$top_srcdir/man/flinkat.3" "$tree/man3/" || exit 1
cd "$tree" || exit 1

n=0
report() { # description, warnings
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
}
echo "1..8"
for page in man1/flinkshim.1 man1/flinkshim-longpath.1 man3/flink.3 man3/flinkat.3; do
	report "groff -ww renders $page cleanly" "$(groff -ww -man -z -s "$page" 2>&1 >/dev/null)"
	if command -v man >/dev/null 2>&1; then
		report "man --warnings renders $page cleanly" \
			"$(LC_ALL=C.UTF-8 man --warnings=w -l "$page" 2>&1 >/dev/null)"
	else
		n=$((n + 1)); echo "ok $n # SKIP man is not installed"
	fi
done
