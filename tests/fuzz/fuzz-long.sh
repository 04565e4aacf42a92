#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make fuzz`: a long campaign of the classifier against the reference model.
#   fuzz-long.sh FUZZER SEEDS WORKDIR SECONDS [libFuzzer flags...]
# The working corpus (WORKDIR/corpus-work) persists between runs, topped up with the seeds;
# findings go to WORKDIR/findings/, the full log to WORKDIR/fuzz.log. Prints the number of
# executions (the issue asks for 10 million with zero findings) and fails on any finding.
set -u

fuzzer=$1 seeds=$2 work=$3 seconds=$4
shift 4

mkdir -p "$work/corpus-work" "$work/findings" || exit 1
cp -f "$seeds"/* "$work/corpus-work/" && chmod -R u+w "$work/corpus-work" || exit 1
before=$(ls "$work/findings" | wc -l)

echo "make fuzz: $seconds s, corpus $work/corpus-work, log $work/fuzz.log"
# The fuzzer's progress lines go to the terminal as they come, and to the log.
{ "$fuzzer" "$@" -max_total_time="$seconds" -artifact_prefix="$work/findings/" \
	"$work/corpus-work" 2>&1; echo "exit status $?" >"$work/fuzz.status"; } | tee "$work/fuzz.log"
status=$(sed -n 's/^exit status //p' "$work/fuzz.status")
rm -f "$work/fuzz.status"

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log")
after=$(ls "$work/findings" | wc -l)
if [ "${status:-1}" -eq 0 ] && [ "$after" -eq "$before" ]; then
	echo "make fuzz: ${execs:-?} executions in $seconds s (${rate:-?} exec/s), no finding"
	exit 0
fi
echo "make fuzz: FAILED after ${execs:-?} executions (status ${status:-?});" \
	"$((after - before)) new finding(s) in $work/findings:" >&2
ls -t "$work/findings" | head -n "$((after - before + 0))" | sed "s|^|  $work/findings/|" >&2
echo "replay one with: $fuzzer FILE" >&2
exit 1
