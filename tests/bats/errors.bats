#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# Errors: under the shim with /proc hidden, a legacy call fails the way the same call fails
# natively with /proc mounted (the program's error handling was written against that), with
# nothing left on disk. Each case runs natively first, so the expectation is the running
# kernel's, not a table's.

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

# The users this machine can test: root, and 65534 when setpriv works.
users() {
	USERS=(root)
	[ -n "$FLS_SKIP_UNPRIV" ] || USERS+=(unpriv)
}

# same_error ERRNO KIND [legacy_link options]: for each user x {linkat, syscall} x {main, fork},
# natively with /proc, under the shim with /proc, and under the shim without /proc, the call
# fails with ERRNO and leaves nothing. Set by the caller: DEBUG_ERE, what the diagnostic says
# without /proc; MUST_REFUSE, the unprivileged fork child has no route at all: the kernel
# checks the credentials before it finds the error, so it is ENOENT, refused; PREFIX, put in
# front of every new name. Where the kernel refuses every unprivileged direct form (before
# 6.10), uid 65534 without /proc always gets ENOENT, refused.
same_error() {
	local errno=$1 kind=$2
	shift 2
	local user as entry where id dir failed=()

	dir=$(fls_workdir)
	for user in "${USERS[@]}"; do
		as=()
		[ "$user" = unpriv ] && as=(unpriv)
		batch_begin
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				batch_add "native-$id" legacy_link -k "$kind" -w "$where" -e "$entry" "$@" "$dir" "${PREFIX:-}native-$id"
				batch_add "shim-$id" shim legacy_link -k "$kind" -w "$where" -e "$entry" "$@" "$dir" "${PREFIX:-}shim-$id"
			done
		done
		batch_run "${as[@]}"
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				batch_add "noproc-$id" shim debug legacy_link -k "$kind" -w "$where" -e "$entry" "$@" "$dir" "${PREFIX:-}noproc-$id"
			done
		done
		batch_run noproc "${as[@]}"
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				batch_result "native-$id" &&
					expect_linkat "$errno" "$dir" "${PREFIX:-}native-$id" "" &&
					batch_result "shim-$id" &&
					expect_linkat "$errno" "$dir" "${PREFIX:-}shim-$id" "" &&
					batch_result "noproc-$id" || { failed+=("$id"); continue; }
				if [ "$user" = unpriv ] && [ "$FLS_KERNEL_FLINK" != yes ]; then
					expect_linkat ENOENT "$dir" "${PREFIX:-}noproc-$id" "" "$FLS_DBG_REFUSED" ||
						failed+=("$id")
				elif [ "$user/$where" = unpriv/fork ] && [ -n "${MUST_REFUSE:-}" ]; then
					expect_linkat ENOENT "$dir" "${PREFIX:-}noproc-$id" "" "$FLS_DBG_REFUSED" ||
						failed+=("$id")
				else
					expect_linkat "$errno" "$dir" "${PREFIX:-}noproc-$id" "" "${DEBUG_ERE:-.}" ||
						failed+=("$id")
				fi
			done
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "failed for ${failed[*]}"
}

@test "a closed fd: ENOENT, as /proc says (the direct form would say EBADF)" {
	fls_need_noproc
	users
	DEBUG_ERE='fd is not open, as /proc would say: ENOENT$' fls_fast same_error ENOENT closed
	# The direct form does say EBADF: the shim's ENOENT is a choice, not the kernel's.
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world legacy_link -k closed -e direct "$dir" direct
	expect_linkat EBADF "$dir" direct ""
}

@test "O_TMPFILE | O_EXCL: ENOENT, and the diagnostic says it is the kernel's own answer" {
	fls_need_noproc
	users
	# Where the direct form is allowed, the shim can tell the kernel's answer from a refusal.
	DEBUG_ERE="$FLS_DBG_GENUINE" MUST_REFUSE=1 fls_fast same_error ENOENT tmpfile-excl
}

@test "a file already unlinked: ENOENT, the kernel's own answer" {
	fls_need_noproc
	users
	DEBUG_ERE="$FLS_DBG_GENUINE" MUST_REFUSE=1 fls_fast same_error ENOENT unlinked
}

@test "a directory's fd: EPERM, as natively" {
	fls_need_noproc
	users
	DEBUG_ERE='direct AT_EMPTY_PATH: EPERM$' MUST_REFUSE=1 fls_fast same_error EPERM dir
}

@test "a pipe, a memfd: EXDEV (not a file of this filesystem), as natively" {
	fls_need_noproc
	users
	DEBUG_ERE='direct AT_EMPTY_PATH: EXDEV$' MUST_REFUSE=1 fls_fast same_error EXDEV pipe
	DEBUG_ERE='direct AT_EMPTY_PATH: EXDEV$' MUST_REFUSE=1 fls_fast same_error EXDEV memfd
}

@test "a bad newdirfd: EBADF, as natively (only a closed fd N becomes ENOENT)" {
	fls_need_noproc
	users
	DEBUG_ERE='direct AT_EMPTY_PATH: EBADF$' MUST_REFUSE=1 fls_fast same_error EBADF tmpfile --newdirfd=999
	# A closed fd N and a bad newdirfd: /proc finds no fd N first.
	DEBUG_ERE='fd is not open, as /proc would say: ENOENT$' PREFIX=c- fls_fast same_error ENOENT closed --newdirfd=999
}

@test "existing new name: EEXIST, the existing file untouched" {
	fls_need_noproc
	users
	local dir
	# Every name the helpers will use exists already, holding "old".
	dir=$(fls_workdir)
	fls_fast precreate_and_check "$dir"
}

# The existing-name case needs the names before the calls: its own loop.
precreate_and_check() {
	local dir=$1 user as entry where id name failed=()

	for user in "${USERS[@]}"; do
		as=()
		[ "$user" = unpriv ] && as=(unpriv)
		batch_begin
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				for name in "native-$id" "noproc-$id"; do
					printf 'old\n' >"$dir/$name"
				done
				batch_add "native-$id" legacy_link -w "$where" -e "$entry" "$dir" "${PREFIX:-}native-$id"
			done
		done
		batch_run "${as[@]}"
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				batch_add "noproc-$id" shim debug legacy_link -w "$where" -e "$entry" "$dir" "noproc-$id"
			done
		done
		batch_run noproc "${as[@]}"
		for entry in linkat syscall; do
			for where in main fork; do
				id=$user-$entry-$where
				batch_result "native-$id" && expect_linkat EEXIST "$dir" "native-$id" "" &&
					batch_result "noproc-$id" || { failed+=("$id"); continue; }
				if [ "$user/$where" = unpriv/fork ]; then
					# The kernel checks the credentials before it looks at the new name: for
					# an fd opened under other credentials, the direct form says ENOENT
					# where /proc would say EEXIST, and with /proc hidden no call can tell.
					FLS_NAME_EXISTS=1 expect_linkat ENOENT "$dir" "noproc-$id" "" \
						"$FLS_DBG_REFUSED" || failed+=("$id")
				elif [ "$user" = unpriv ] && [ "$FLS_KERNEL_FLINK" != yes ]; then
					FLS_NAME_EXISTS=1 expect_linkat ENOENT "$dir" "noproc-$id" "" \
						"$FLS_DBG_REFUSED" || failed+=("$id")
				else
					expect_linkat EEXIST "$dir" "noproc-$id" "" "direct AT_EMPTY_PATH: EEXIST$" ||
						failed+=("$id")
				fi
				expect_content "$dir" "native-$id" $'old\n' && expect_content "$dir" "noproc-$id" $'old\n' ||
					failed+=("$id")
			done
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "failed for ${failed[*]}"
}

@test "missing directory in the new name: ENOENT, as natively" {
	fls_need_noproc
	users
	PREFIX=nodir/ DEBUG_ERE="$FLS_DBG_GENUINE" MUST_REFUSE=1 fls_fast same_error ENOENT tmpfile
}

@test "new name on another filesystem: EXDEV, as natively" {
	fls_need_noproc
	users
	[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm to serve as another filesystem"
	[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$FLS_PUB")" ] ||
		skip "/dev/shm is on the same filesystem as $FLS_PUB"
	local user as name dir
	dir=$(fls_workdir)
	for user in "${USERS[@]}"; do
		as=()
		[ "$user" = unpriv ] && as=(unpriv)
		name=/dev/shm/flinkshim-bats-$$-$user
		rm -f "$name"
		run --separate-stderr in_world "${as[@]}" legacy_link "$dir" "$name"
		expect_eq "native, $user" "$output" "linkat=-1 errno=EXDEV"
		run --separate-stderr in_world noproc "${as[@]}" shim debug legacy_link "$dir" "$name"
		if [ "$user" = unpriv ] && [ "$FLS_KERNEL_FLINK" != yes ]; then
			expect_eq "shim without /proc, $user" "$output" "linkat=-1 errno=ENOENT"
		else
			expect_eq "shim without /proc, $user" "$output" "linkat=-1 errno=EXDEV"
			expect_one_debug_line "direct AT_EMPTY_PATH: EXDEV$"
		fi
		[ ! -e "$name" ] || fls_fail "$name was created"
	done
}
