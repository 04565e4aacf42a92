#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the kernel actually sees (libeatmydata's lesson: check the syscall made, not only the
# return value). strace -f follows threads, fork and vfork children; the shim is preloaded into
# the traced program only, never into strace.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
	fls_need_strace
}

# The linkat lines of an strace -f log, without the pid column.
linkat_lines() {
	sed -n 's/^[0-9]* *\(linkat(.*\)$/\1/p' "$1"
}

# strace, then the log file: linkat only, signals and exit lines left out.
STRACE=(strace -f -qq -e trace=linkat -e signal=none -o)

@test "root, /proc hidden, under the shim: linkat(N, \"\", dirfd, name, AT_EMPTY_PATH), never /proc" {
	fls_need_noproc
	fls_fast root_direct
}

root_direct() {
	local dir logs where entry id calls failed=()

	dir=$(fls_workdir)
	logs=$(fls_workdir)
	batch_begin
	for where in main thread signal fork vfork; do
		for entry in linkat syscall; do
			id=$entry-$where
			batch_add "$id" "${STRACE[@]}" "$logs/$id.strace" \
				env "LD_PRELOAD=$FLS_LIB" "$FLS_PUB/legacy_link" --fd=7 -w "$where" \
				-e "$entry" -c "$id"$'\n' "$dir" "$id"
		done
	done
	batch_run noproc
	for where in main thread signal fork vfork; do
		for entry in linkat syscall; do
			id=$entry-$where
			calls=$(linkat_lines "$logs/$id.strace")
			batch_result "$id" && expect_linkat ok "$dir" "$id" "$id"$'\n' &&
				expect_match "$id: the kernel's linkat calls" "$calls" \
					"^linkat\\(7, \"\", [0-9]+, \"$id\", AT_EMPTY_PATH\\) = 0\$" ||
				failed+=("$id")
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "failed for ${failed[*]}"
}

@test "without the shim, strace sees the program's own /proc call (the trace is not blind)" {
	fls_need_noproc
	local dir logs
	dir=$(fls_workdir)
	logs=$(fls_workdir)
	run --separate-stderr in_world noproc "${STRACE[@]}" "$logs/log" "$FLS_PUB/legacy_link" --fd=7 "$dir" name
	expect_linkat ENOENT "$dir" name ""
	expect_match "linkat calls" "$(linkat_lines "$logs/log")" \
		'^linkat\(AT_FDCWD, "/proc/self/fd/7", [0-9]+, "name", AT_SYMLINK_FOLLOW\) = -1 ENOENT \(No such file or directory\)$'
}

@test "uid 65534, old kernel, /proc mounted: the direct attempt, then the /proc form" {
	fls_need_unpriv
	fls_need_oldkernel
	local dir logs
	dir=$(fls_workdir)
	logs=$(fls_workdir)
	run --separate-stderr in_world unpriv "${STRACE[@]}" "$logs/log" "$FLS_PUB/oldkernel" \
		env "LD_PRELOAD=$FLS_LIB" "$FLS_PUB/legacy_link" --fd=7 -c $'x\n' "$dir" name
	expect_linkat ok "$dir" name $'x\n'
	expect_match "linkat calls" "$(linkat_lines "$logs/log")" \
		'^linkat\(7, "", [0-9]+, "name", AT_EMPTY_PATH\) = -1 ENOENT \(No such file or directory\)
linkat\(AT_FDCWD, "/proc/self/fd/7", [0-9]+, "name", AT_SYMLINK_FOLLOW\) = 0$'
}

@test "uid 65534 fork child, /proc hidden, no debug: the direct attempt, the /proc replay, nothing else" {
	fls_need_noproc
	fls_need_unpriv
	local dir logs
	dir=$(fls_workdir)
	logs=$(fls_workdir)
	run --separate-stderr in_world noproc unpriv "${STRACE[@]}" "$logs/log" \
		env "LD_PRELOAD=$FLS_LIB" "$FLS_PUB/legacy_link" --fd=7 -w fork "$dir" name
	expect_linkat ENOENT "$dir" name ""
	expect_match "linkat calls" "$(linkat_lines "$logs/log")" \
		'^linkat\(7, "", [0-9]+, "name", AT_EMPTY_PATH\) = -1 ENOENT \(No such file or directory\)
linkat\(AT_FDCWD, "/proc/self/fd/7", [0-9]+, "name", AT_SYMLINK_FOLLOW\) = -1 ENOENT \(No such file or directory\)$'
}
