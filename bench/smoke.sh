#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The `make check` side of the benchmarks: every bench program runs for a moment, so that they
# keep building and running; their speed is measured only by `make bench`. TAP on stdout.
exec /bin/sh "$(dirname "$0")/run.sh" --smoke "${top_builddir:-.}" "${FLINKSHIM_LIB:-}"
