#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# debian/libflinkshim0.symbols lists exactly the symbols the library exports (TAP): a new
# interposer needs its line there (`make deb` fails otherwise, dpkg-gensymbols -c4), and this
# says so in every `make check` of a git checkout. The release tarball has no debian/.
set -u
lib=${FLINKSHIM_LIB:?run through make check}
file=${top_srcdir:?run through make check}/debian/libflinkshim0.symbols
[ -f "$file" ] || { echo "1..0 # SKIP no debian/ here (a release tarball)"; exit 0; }
command -v nm >/dev/null 2>&1 || { echo "1..0 # SKIP nm is not installed"; exit 0; }
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)
listed=$(sed -n 's/^ \([^ @]*\)@Base .*/\1/p' "$file" | sort -u)
echo "1..1"
if [ "$exported" = "$listed" ]; then
	echo "ok 1 - debian/libflinkshim0.symbols lists the $(echo "$exported" | wc -l) exported symbols"
else
	echo "not ok 1 - debian/libflinkshim0.symbols and the library's exports differ"
	echo "# add a line ' NAME@Base VERSION' for each symbol marked +, remove those marked -:"
	diff -u --label debian/libflinkshim0.symbols --label exported \
		/dev/fd/3 3<<LISTED /dev/fd/4 4<<EXPORTED | sed -n 's/^\([+-][^+-]\)/#   \1/p'
$listed
LISTED
$exported
EXPORTED
fi
