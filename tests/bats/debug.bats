#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# FLINKSHIM_DEBUG: off unless set to something other than "" or "0"; then one line per rewrite,
# fallback or refusal, on stderr, starting "flinkshim: ". Off means not a byte, whatever
# happens: a preload must not change a program's output.

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

# quiet_everywhere [VAR=value]: every kind of event the shim can explain happens, with the
# diagnostic off (no variable, or the one given); not a byte on stderr, and the results are
# what they are with the diagnostic on.
quiet_everywhere() {
	local dir failed=()
	local env=("$@")

	dir=$(fls_workdir)
	batch_begin
	batch_add rewrite shim "${env[@]}" legacy_link -c $'r\n' "$dir" rewrite
	batch_add syscall shim "${env[@]}" legacy_link -e syscall -c $'s\n' "$dir" syscall
	batch_add closed shim "${env[@]}" legacy_link -k closed "$dir" closed
	batch_add excl shim "${env[@]}" legacy_link -k tmpfile-excl "$dir" excl
	batch_add nodir shim "${env[@]}" legacy_link "$dir" nodir/x
	batch_add foreign shim "${env[@]}" foreign_fd leader "$dir"
	batch_run noproc
	batch_result rewrite && expect_linkat ok "$dir" rewrite $'r\n' || failed+=(rewrite)
	batch_result syscall && expect_linkat ok "$dir" syscall $'s\n' || failed+=(syscall)
	batch_result closed && expect_linkat ENOENT "$dir" closed "" || failed+=(closed)
	batch_result excl && expect_linkat ENOENT "$dir" excl "" || failed+=(excl)
	batch_result nodir && expect_linkat ENOENT "$dir" nodir/x "" || failed+=(nodir)
	batch_result foreign && expect_linkat ENOENT "$dir" out "" || failed+=(foreign)
	if [ -z "$FLS_SKIP_UNPRIV" ]; then
		batch_add refused shim "${env[@]}" legacy_link -w fork "$dir" refused
		batch_run noproc unpriv
		batch_result refused && expect_linkat ENOENT "$dir" refused "" || failed+=(refused)
		if [ -z "$FLS_SKIP_OLDKERNEL" ]; then
			batch_add fallback oldkernel shim "${env[@]}" legacy_link -c $'f\n' "$dir" fallback
			batch_run unpriv
			batch_result fallback && expect_linkat ok "$dir" fallback $'f\n' || failed+=(fallback)
		fi
	fi
	[ "${#failed[@]}" -eq 0 ] || fls_fail "not quiet, or wrong, for: ${failed[*]}"
}

@test "FLINKSHIM_DEBUG unset: not a byte on stderr, whatever happens" {
	fls_fast quiet_everywhere
}

@test "FLINKSHIM_DEBUG=0: off" {
	fls_fast quiet_everywhere FLINKSHIM_DEBUG=0
}

@test "FLINKSHIM_DEBUG set but empty: off" {
	fls_fast quiet_everywhere FLINKSHIM_DEBUG=
}

@test "FLINKSHIM_DEBUG=1: one line per rewrite, on stderr; stdout is the program's alone" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc shim debug legacy_link --fd=7 "$dir" one two three
	expect_eq "status" "$status" 0
	expect_eq "stdout" "$output" $'linkat=0\nlinkat=0\nlinkat=0'
	expect_eq "stderr" "$stderr" "flinkshim: linkat /proc/self/fd/7 -> one: direct AT_EMPTY_PATH: ok
flinkshim: linkat /proc/self/fd/7 -> two: direct AT_EMPTY_PATH: ok
flinkshim: linkat /proc/self/fd/7 -> three: direct AT_EMPTY_PATH: ok"
	expect_linked "$dir" one $'legacy_link\n' 3
}

@test "FLINKSHIM_DEBUG=1 names the entry point: syscall(SYS_linkat)" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc shim debug legacy_link --fd=7 -e syscall "$dir" name
	expect_linkat ok "$dir" name $'legacy_link\n' \
		'^flinkshim: syscall\(SYS_linkat\) /proc/self/fd/7 -> name: direct AT_EMPTY_PATH: ok$'
}

@test "FLINKSHIM_DEBUG=yes (any other value): on" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc shim FLINKSHIM_DEBUG=yes legacy_link --fd=7 "$dir" name
	expect_linkat ok "$dir" name $'legacy_link\n' \
		'^flinkshim: linkat /proc/self/fd/7 -> name: direct AT_EMPTY_PATH: ok$'
}

@test "FLINKSHIM_DEBUG=1, calls that are not the idiom: nothing to say" {
	local dir
	dir=$(fls_workdir)
	# The direct form, and /proc paths the kernel itself refuses: passed through, silently.
	run --separate-stderr in_world noproc shim debug legacy_link -e direct -c $'d\n' "$dir" direct
	expect_linkat ok "$dir" direct $'d\n'
	run --separate-stderr in_world noproc shim debug legacy_link -p '/proc/self/fd/0%d' "$dir" zero
	expect_linkat ENOENT "$dir" zero ""
	run --separate-stderr in_world noproc shim debug legacy_link -p '/proc/self/fd/%d/' "$dir" slash
	expect_eq "trailing slash" "$output" "linkat=-1 errno=ENOENT"
	expect_quiet
}

@test "FLINKSHIM_DEBUG=1, a name longer than a diagnostic line: cut, marked, still one line" {
	local dir comp chain name
	dir=$(fls_workdir)
	printf -v comp '%0200d' 0
	chain=$comp/$comp/$comp/$comp/$comp
	mkdir -p "$dir/$chain"
	chown -R "$(stat -c %u:%g "$dir")" "$dir/$comp"
	name=$chain/x
	run --separate-stderr in_world noproc shim debug legacy_link --fd=7 -c $'long\n' "$dir" "$name"
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" "linkat=0"
	expect_linked "$dir" "$name" $'long\n' 1
	expect_one_debug_line "^flinkshim: linkat /proc/self/fd/7 -> $comp/"
	expect_match "the cut line" "${stderr_lines[0]}" '[^.]\.\.\.$'
	[ "${#stderr_lines[0]}" -le 1024 ] || fls_fail "a ${#stderr_lines[0]}-byte diagnostic line"
}
