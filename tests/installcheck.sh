#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make installcheck: the installed copy works as a user would use it.
# usage: installcheck.sh BINDIR LIBDIR PKGCONFIGDIR CC SRCDIR
set -eu
bindir=$1 libdir=$2 pkgconfigdir=$3 cc=$4 srcdir=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export PKG_CONFIG_PATH="$pkgconfigdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "installcheck: pkg-config --cflags --libs flinkshim: $(pkg-config --cflags --libs flinkshim)"
# shellcheck disable=SC2046
$cc -o "$tmp/prog" "$srcdir/tests/installcheck.c" $(pkg-config --cflags --libs flinkshim)
mkdir "$tmp/d"
LD_LIBRARY_PATH="$libdir" "$tmp/prog" "$tmp/d"

preload=$(pkg-config --variable=preload flinkshim)
case $preload in
/*) ;;
*) echo "installcheck: preload variable is not absolute: $preload" >&2; exit 1 ;;
esac
test -f "$preload" || { echo "installcheck: preload variable names no file: $preload" >&2; exit 1; }
LD_PRELOAD="$preload" true
echo "installcheck: preload=$preload: loads"

"$bindir/flinkshim" --version
out=$(env -u LD_PRELOAD "$bindir/flinkshim" sh -c 'printf %s "$LD_PRELOAD"')
# Installed in PREFIX/lib/TRIPLET, flinkshim names the library through ld.so's $LIB, which
# glibc expands to lib/TRIPLET for programs of this architecture.
case $out in
*'$LIB'*) expanded=$(printf '%s\n' "$out" | sed "s|\\\$LIB|lib/$($cc -print-multiarch)|") ;;
*) expanded=$out ;;
esac
test "$expanded" = "$preload" || { echo "installcheck: installed flinkshim preloads '$out', not '$preload'" >&2; exit 1; }
echo "installcheck: installed flinkshim preloads the installed library"
status=0
"$bindir/flinkshim" --check "$tmp/d" || status=$?
test "$status" -le 1 || { echo "installcheck: flinkshim --check could not probe (status $status)" >&2; exit 1; }
echo "installcheck: ok"
