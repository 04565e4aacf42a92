#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make demo: a legacy O_TMPFILE program in a world without /proc, first alone, then under
# flinkshim. In a private mount namespace (the host's /proc is untouched).
# usage: demo.sh BUILDDIR
set -u
builddir=$1
prog=$builddir/tests/helpers/legacy_tmpfile
wrapper=$builddir/flinkshim

# tests/private_ns.sh: as root, in a chroot too; not root, in a user namespace.
private_ns=$(dirname "$0")/private_ns.sh
if ! why=$("$private_ns" true 2>&1); then
	echo "demo: cannot create a private mount namespace here: ${why#private_ns: }" >&2
	echo "demo: run 'make demo' as root on a machine or container that allows it" >&2
	exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/flinkshim-demo.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

echo "== In a private mount namespace with an empty tmpfs over /proc:"
"$private_ns" --noproc sh -c '
	echo "   ls /proc: [$(ls -A /proc)]"
	echo "== 1. without flinkshim:"
	"$1" "$3" without
	echo "   exit status $?"
	echo "== 2. with flinkshim:"
	"$2" --debug "$1" "$3" with 2>&1
	echo "   exit status $?"
' sh "$prog" "$wrapper" "$dir"

echo "== Result:"
status=0
if [ -e "$dir/without" ]; then
	echo "   unexpected: the legacy program succeeded without the shim" ; status=1
else
	echo "   without flinkshim: no file (the program failed with ENOENT, as in any /proc-less container)"
fi
if [ -f "$dir/with" ]; then
	echo "   with flinkshim:    $dir/with holds: $(cat "$dir/with")"
else
	echo "   with flinkshim:    no file: the shim did not work here; see 'flinkshim --check'" ; status=1
fi
exit $status
