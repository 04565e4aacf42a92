#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# A kernel before 6.10 refuses the direct form to every unprivileged caller. The oldkernel
# helper imitates that with a seccomp filter (linkat with AT_EMPTY_PATH -> ENOENT). There:
#   - with /proc mounted the shim still works, by replaying the /proc form, and says so;
#   - with /proc hidden no route exists: ENOENT, nothing on disk, and a diagnostic that says
#     why and what would fix it.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
	fls_need_oldkernel
}

@test "the simulation: AT_EMPTY_PATH refused with ENOENT, everything else untouched" {
	local dir
	dir=$(fls_workdir)
	# Without the filter the running kernel allows root the direct form...
	if [ "$EUID" = 0 ]; then
		run --separate-stderr in_world legacy_link -e direct -c $'d\n' "$dir" direct
		expect_linkat ok "$dir" direct $'d\n'
	fi
	# ...with it, no one.
	run --separate-stderr in_world oldkernel legacy_link -e direct "$dir" old-direct
	expect_linkat ENOENT "$dir" old-direct ""
	# The /proc form, linkat without AT_EMPTY_PATH, goes through.
	run --separate-stderr in_world oldkernel legacy_link -c $'p\n' "$dir" old-proc
	expect_linkat ok "$dir" old-proc $'p\n'
	# The filter binds what the command starts (exec and fork).
	run --separate-stderr in_world oldkernel sh -c '"$1" -w fork -e direct "$2" child-direct' sh \
		"$FLS_PUB/legacy_link" "$dir"
	expect_linkat ENOENT "$dir" child-direct ""
}

# old_matrix WORLD_SETUP OUTCOME DEBUG_ERE: uid 65534 under oldkernel, every place x entry.
old_matrix() {
	local outcome=$1 debug=$2
	shift 2
	local where entry dir id content failed=()

	dir=$(fls_workdir)
	batch_begin
	for where in main thread signal fork vfork; do
		for entry in linkat syscall; do
			id=$entry-$where
			batch_add "$id" oldkernel shim debug legacy_link -w "$where" -e "$entry" \
				-c "old kernel, $id"$'\n' "$dir" "$id"
		done
	done
	batch_run "$@"
	for where in main thread signal fork vfork; do
		for entry in linkat syscall; do
			id=$entry-$where
			content=
			[ "$outcome" = ok ] && content="old kernel, $id"$'\n'
			batch_result "$id" && expect_linkat "$outcome" "$dir" "$id" "$content" " -> $id: $debug" ||
				failed+=("$id")
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "failed for ${failed[*]}"
}

@test "uid 65534, old kernel, /proc mounted: the shim falls back to /proc, and says so" {
	fls_need_unpriv
	fls_fast old_matrix ok "$FLS_DBG_FALLBACK_OK" unpriv
}

@test "uid 65534, old kernel, /proc hidden: ENOENT, nothing on disk, and the diagnostic says why" {
	fls_need_noproc
	fls_need_unpriv
	fls_fast old_matrix ENOENT "$FLS_DBG_REFUSED.*CAP_DAC_READ_SEARCH.*mount /proc" noproc unpriv
}

@test "uid 65534, old kernel, /proc mounted: errors are the /proc form's" {
	fls_need_unpriv
	local dir
	dir=$(fls_workdir)
	printf 'old\n' >"$dir/exists"
	run --separate-stderr in_world unpriv oldkernel shim legacy_link -k closed "$dir" closed
	expect_linkat ENOENT "$dir" closed ""
	run --separate-stderr in_world unpriv oldkernel shim legacy_link -k tmpfile-excl "$dir" excl
	expect_linkat ENOENT "$dir" excl ""
	run --separate-stderr in_world unpriv oldkernel shim legacy_link "$dir" nodir/x
	expect_linkat ENOENT "$dir" nodir/x ""
	# The direct form is refused before the kernel looks at the name; the /proc replay then
	# finds it taken: EEXIST, as the program would get without the shim.
	run --separate-stderr in_world unpriv oldkernel shim legacy_link -w fork "$dir" exists
	expect_linkat EEXIST "$dir" exists ""
	expect_content "$dir" exists $'old\n'
}
