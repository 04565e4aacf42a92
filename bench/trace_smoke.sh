#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The `make check` side of `make bench-trace`: both loops run for a moment under --trace (and
# proot, if installed), so that they keep building and running; their speed is measured only
# by `make bench-trace`. TAP on stdout.
exec /bin/sh "$(dirname "$0")/trace_bench.sh" --smoke "${top_builddir:-.}"
