#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# Hostile arguments get the kernel's answer, never a crash; and the shim holds up under many
# threads, fork children and a signal handler all linking at once.

bats_require_minimum_version 1.5.0

setup() {
	: "${HELPERS:?run through make check}"
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

need_namespaces() {
	local why
	why=$("$FLS_PRIVATE_NS" --noproc true 2>&1) || skip "no /proc-less world here: ${why#private_ns: }"
}

noproc() {
	"$FLS_PRIVATE_NS" --noproc "$@"
}

@test "hostile arguments: the shim without /proc answers exactly as the kernel with /proc" {
	need_namespaces
	mkdir "$tmp/native" "$tmp/shim" "$tmp/shim-proc"
	run "$HELPERS/hostile" "$tmp/native"
	[ "$status" -eq 0 ]
	native=$output
	# the cases really are hostile: the kernel refused nearly all of them
	[ "$(grep -c 'errno=EFAULT' <<<"$native")" -ge 10 ]
	[ "$(grep -c 'errno=ENAMETOOLONG' <<<"$native")" -eq 3 ]
	run noproc env LD_PRELOAD="$FLINKSHIM_LIB" "$HELPERS/hostile" "$tmp/shim"
	[ "$status" -eq 0 ]
	[ "$output" = "$native" ]
	run env LD_PRELOAD="$FLINKSHIM_LIB" "$HELPERS/hostile" "$tmp/shim-proc"
	[ "$status" -eq 0 ]
	[ "$output" = "$native" ]
	# the one valid call linked, the same in both worlds
	[ "$(ls "$tmp/native")" = "$(ls "$tmp/shim")" ]
}

@test "stress: 8 threads x 10000 links, forks and a linking signal handler, /proc hidden" {
	need_namespaces
	run noproc env LD_PRELOAD="$FLINKSHIM_LIB" "$HELPERS/stress" "$tmp" 8 10000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "links=80000 "*" failures=0 errno_clobbered=0 "* ]]
	[[ "$output" =~ fds_before=([0-9]+)\ fds_after=([0-9]+) ]]
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
	[ -z "$(ls -A "$tmp")" ]
}

@test "stress: the same program fails without the shim (the world is really /proc-less)" {
	need_namespaces
	run noproc "$HELPERS/stress" "$tmp" 2 10
	[ "$status" -eq 1 ]
	[[ "$output" == "links=0 "* ]]
}
