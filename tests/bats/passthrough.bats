#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# When there is nothing to rewrite the shim is invisible (cwrap's pass-through test): the
# passthrough helper makes ordinary linkat(), link() and syscall() calls that are not the
# legacy idiom (plain names, symlinks, the direct form, bad flags, bad fds, /proc paths without
# AT_SYMLINK_FOLLOW or spelled the way the kernel refuses, paths relative to a procfs dirfd,
# other syscall numbers), with /proc mounted. Results, errno, files on disk and the system
# calls themselves must be the same with and without the shim.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
}

# What the helper must print natively as root on any kernel since 3.11 (a sanity check on the
# helper itself, so that "the same with and without the shim" cannot mean "broken alike").
NATIVE_LINES=(
	'name-flags0              ret=0 errno=unchanged'
	'name-exists              ret=-1 errno=EEXIST'
	'name-missing-source      ret=-1 errno=ENOENT'
	'symlink-follow-target    same-inode'
	'bad-flags                ret=-1 errno=EINVAL'
	'bad-olddirfd             ret=-1 errno=EBADF'
	'proc-flags0              ret=-1 errno=EXDEV'
	'proc-leading-zero        ret=-1 errno=ENOENT'
	'proc-trailing-slash      ret=-1 errno=ENOTDIR'
	'proc-relative            ret=0 errno=unchanged'
	'link()-proc              ret=-1 errno=EXDEV'
	'syscall-getpid           matches'
	'syscall-bad-number       ret=-1 errno=ENOSYS'
	'syscall-linkat-name      ret=0 errno=unchanged'
	'syscall-linkat-exists    ret=-1 errno=EEXIST'
	'syscall-linkat-badflags  ret=-1 errno=EINVAL'
)

# A directory listing that does not depend on the directory: name, type, links, size.
listing() {
	(cd "$1" && stat -c '%n %F %h %s' -- * | sort)
}

check_same_as_native() {
	local as=("$@") native_dir shim_dir native native_files line

	native_dir=$(fls_workdir)
	shim_dir=$(fls_workdir)
	run --separate-stderr in_world "${as[@]}" passthrough "$native_dir"
	expect_eq "native status" "$status" 0
	expect_quiet
	native=$output
	native_files=$(listing "$native_dir")
	run --separate-stderr in_world "${as[@]}" shim debug passthrough "$shim_dir"
	expect_eq "status under the shim" "$status" 0
	# Nothing was rewritten, so nothing to say, even with FLINKSHIM_DEBUG=1.
	expect_quiet
	expect_eq "output under the shim" "$output" "$native"
	expect_eq "files under the shim" "$(listing "$shim_dir")" "$native_files"
	if [ "${#as[@]}" -eq 0 ]; then
		for line in "${NATIVE_LINES[@]}"; do
			[[ $'\n'$native$'\n' == *$'\n'"$line"$'\n'* ]] ||
				fls_fail "native output lacks '$line': $native"
		done
	fi
}

@test "as the caller (root in CI): the same results, errno and files with and without the shim" {
	check_same_as_native
}

@test "as uid 65534: the same results, errno and files with and without the shim" {
	fls_need_unpriv
	check_same_as_native unpriv
}

# The linkat and link calls of an strace -f log, addresses and pids taken out.
syscalls() {
	sed -e 's/^[0-9]* *//' -e 's/0x[0-9a-f]\{6,\}/ADDR/g' "$1" | grep -E '^(linkat|link)\('
}

@test "strace: the same linkat and link system calls with and without the shim" {
	fls_need_strace
	local native_dir shim_dir logs native
	native_dir=$(fls_workdir)
	shim_dir=$(fls_workdir)
	logs=$(fls_workdir)
	run --separate-stderr strace -f -qq -e trace=linkat,link -e signal=none -o "$logs/native" \
		"$FLS_PUB/passthrough" "$native_dir"
	expect_eq "native status" "$status" 0
	native=$(syscalls "$logs/native")
	# The trace must have caught the calls, or "the same" means nothing.
	expect_eq "linkat and link calls traced" "$(grep -c . <<<"$native")" 24
	run --separate-stderr strace -f -qq -e trace=linkat,link -e signal=none -o "$logs/shim" \
		env "LD_PRELOAD=$FLS_LIB" "$FLS_PUB/passthrough" "$shim_dir"
	expect_eq "status under the shim" "$status" 0
	expect_eq "system calls under the shim" "$(syscalls "$logs/shim")" "$native"
}
