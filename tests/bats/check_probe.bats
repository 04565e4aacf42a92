#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# flinkshim --check links real O_TMPFILEs in the directory it is given, often a shared one
# (/tmp). Names left or planted there must not change its verdict (review S9): the probe
# names are not predictable, and a name that is taken is retried.

bats_require_minimum_version 1.5.0

setup() {
	: "${FLINKSHIM_BIN:?run through make check}"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
}

teardown() {
	rm -rf "$tmp"
}

# check_as_pid_1 DIR [NAME...]: create the NAMEs in DIR, then run --check DIR as pid 1 of a new
# pid namespace, where its pid, the one part of the old names that varied, is known in advance.
check_as_pid_1() {
	# In a namespace of private_ns.sh's, which works in chroots and for unprivileged users
	# (there /proc may be mounted again, and a pid namespace made).
	"$FLS_PRIVATE_NS" unshare -p -f --mount-proc --propagation unchanged sh -c 'd=$1 bin=$2; shift 2; for n; do touch "$d/$n"; done;
		exec "$bin" --check "$d"' sh "$1" "$FLINKSHIM_BIN" "${@:2}"
}

@test "--check in a directory holding the names it would have probed with: the same verdict as in an empty one" {
	local why
	why=$("$FLS_PRIVATE_NS" unshare -p -f --mount-proc --propagation unchanged true 2>&1) ||
		skip "no pid namespace with its own /proc here: ${why#private_ns: }"
	mkdir "$tmp/clean" "$tmp/planted"
	run check_as_pid_1 "$tmp/clean"
	local clean=$output clean_status=$status
	[[ $clean == *verdict:* ]]
	run check_as_pid_1 "$tmp/planted" .flinkshim-check.1.0 .flinkshim-check.1.1 .flinkshim-check.1.2
	[ "$status" = "$clean_status" ]
	[ "$(printf '%s\n' "$output" | grep -v 'report for')" = "$(printf '%s\n' "$clean" | grep -v 'report for')" ]
	# The planted names are untouched, and the probe left nothing of its own.
	[ "$(ls -A "$tmp/planted" | tr '\n' ' ')" = ".flinkshim-check.1.0 .flinkshim-check.1.1 .flinkshim-check.1.2 " ]
	[ -z "$(ls -A "$tmp/clean")" ]
}
