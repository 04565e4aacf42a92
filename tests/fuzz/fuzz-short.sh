#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The short fuzzing run of `make check`: the classifier against the reference model for
# FUZZ_CHECK_SECONDS seconds (default 30). The fuzzer works on a copy of the seed corpus in a
# temporary directory: the source tree may be read-only (distcheck), and a check must not
# change it. One TAP test point; a finding is kept in the build tree for replay.
# Another harness runs through the same steps when FUZZ_HARNESS names it (tests/fuzz/NAME),
# with its seeds in FUZZ_SEEDS (tests/fuzz/DIR) and its own libFuzzer flags in FUZZ_FLAGS
# (elf-fuzz-short.sh).
set -u

harness=${FUZZ_HARNESS:-procfd_fuzz}
fuzzer=${top_builddir:?}/tests/fuzz/$harness
seeds=${top_srcdir:?}/tests/fuzz/${FUZZ_SEEDS:-corpus}
seconds=${FUZZ_CHECK_SECONDS:-30}
flags=${FUZZ_FLAGS:--dict=$top_srcdir/tests/fuzz/procfd.dict -max_len=4200 -use_value_profile=1}

echo "1..1"
if [ ! -x "$fuzzer" ]; then
	echo "not ok 1 - $fuzzer is not built"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flinkshim-fuzz.XXXXXX") || {
	echo "not ok 1 - cannot make a temporary directory"
	exit 1
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$tmp/corpus" "$tmp/findings"
cp "$seeds"/* "$tmp/corpus/" && chmod -R u+w "$tmp/corpus" || {
	echo "not ok 1 - cannot copy the seed corpus from $seeds"
	exit 1
}

# $flags unquoted on purpose: several options in one variable.
# shellcheck disable=SC2086
"$fuzzer" $flags -timeout=10 -print_final_stats=1 -max_total_time="$seconds" \
	-artifact_prefix="$tmp/findings/" "$tmp/corpus" >"$tmp/log" 2>&1
rc=$?

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$tmp/log")
found=$(ls "$tmp/findings")
if [ "$rc" -eq 0 ] && [ -z "$found" ] && [ -n "$execs" ]; then
	echo "ok 1 - $execs executions in ${seconds} s ($rate exec/s), no finding"
	exit 0
fi
echo "not ok 1 - the fuzzer stopped with status $rc after ${execs:-?} executions"
grep -e "^$harness:" -e 'ERROR' -e '^SUMMARY' -e '^0x' "$tmp/log" | head -n 20 | sed 's/^/# /'
if [ -n "$found" ]; then
	keep=$top_builddir/tests/fuzz/findings
	mkdir -p "$keep" && cp "$tmp"/findings/* "$keep/"
	for f in $found; do
		echo "# replay: $fuzzer $keep/$f"
	done
fi
echo "# last lines of the fuzzer's log:"
tail -n 15 "$tmp/log" | sed 's/^/#   /'
exit 1
