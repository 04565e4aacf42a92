#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# The shim among other preloads (fakechroot's lesson). libcountlink wraps linkat() too and
# logs every call it sees, then calls through:
#   LD_PRELOAD=shim:count  the shim rewrites and hands the direct form to the next linkat in
#                          the chain: count must see AT_EMPTY_PATH (flags=0x1000), not libc
#                          being called behind its back;
#   LD_PRELOAD=count:shim  count sees the program's own legacy call (flags=0x400), and the
#                          shim, next in the chain, still rewrites it.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
	fls_need_noproc
}

@test "count alone is a faithful pass-through: legacy call seen, ENOENT without /proc" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world preload="$FLS_COUNT" legacy_link --fd=7 -c $'c\n' "$dir" with-proc
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" "linkat=0"
	expect_linked "$dir" with-proc $'c\n' 1
	expect_eq "count's line" "$stderr" 'countlink: olddirfd=-100 oldpath="/proc/self/fd/7" flags=0x400'
	run --separate-stderr in_world noproc preload="$FLS_COUNT" legacy_link --fd=7 "$dir" without-proc
	expect_eq "status" "$status" 1
	expect_eq "output" "$output" "linkat=-1 errno=ENOENT"
	expect_absent "$dir" without-proc
}

@test "LD_PRELOAD=shim:count, /proc hidden: count sees the rewritten direct form" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc preload="$FLS_LIB:$FLS_COUNT" legacy_link --fd=7 -c $'sc\n' "$dir" name
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" "linkat=0"
	expect_linked "$dir" name $'sc\n' 1
	expect_eq "count's lines" "$stderr" 'countlink: olddirfd=7 oldpath="" flags=0x1000'
}

@test "LD_PRELOAD=count:shim, /proc hidden: count sees the legacy call, the shim still rewrites" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc preload="$FLS_COUNT:$FLS_LIB" legacy_link --fd=7 -c $'cs\n' "$dir" name
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" "linkat=0"
	expect_linked "$dir" name $'cs\n' 1
	expect_eq "count's lines" "$stderr" 'countlink: olddirfd=-100 oldpath="/proc/self/fd/7" flags=0x400'
}

@test "both orders, with the shim's diagnostic on: each line in its place, nothing lost" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc debug preload="$FLS_LIB:$FLS_COUNT" legacy_link --fd=7 "$dir" a
	expect_eq "status, shim:count" "$status" 0
	expect_eq "shim:count stderr" "$stderr" 'countlink: olddirfd=7 oldpath="" flags=0x1000
flinkshim: linkat /proc/self/fd/7 -> a: direct AT_EMPTY_PATH: ok'
	run --separate-stderr in_world noproc debug preload="$FLS_COUNT:$FLS_LIB" legacy_link --fd=7 "$dir" b
	expect_eq "status, count:shim" "$status" 0
	expect_eq "count:shim stderr" "$stderr" 'countlink: olddirfd=-100 oldpath="/proc/self/fd/7" flags=0x400
flinkshim: linkat /proc/self/fd/7 -> b: direct AT_EMPTY_PATH: ok'
}

@test "uid 65534, old kernel, shim:count, /proc mounted: count sees the direct attempt and the /proc replay" {
	fls_need_unpriv
	fls_need_oldkernel
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world unpriv oldkernel preload="$FLS_LIB:$FLS_COUNT" legacy_link --fd=7 -c $'o\n' "$dir" name
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" "linkat=0"
	expect_linked "$dir" name $'o\n' 1
	expect_eq "count's lines" "$stderr" 'countlink: olddirfd=7 oldpath="" flags=0x1000
countlink: olddirfd=-100 oldpath="/proc/self/fd/7" flags=0x400'
}
