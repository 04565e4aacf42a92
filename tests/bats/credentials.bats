#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# An fd opened under other credentials. Linux >= 6.10 allows an unprivileged direct form only
# when the file was opened under the caller's very credentials object; a fork or vfork child,
# a program that received the fd across execve, and a process that called setuid(getuid())
# since it opened the file all have another one. For uid 65534 there:
#   - with /proc mounted the shim replays the /proc form, which works, and says so;
#   - with /proc hidden there is no route: ENOENT, nothing on disk, and the diagnostic says why.
# Root has CAP_DAC_READ_SEARCH: the direct form works everywhere, /proc or not.

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

# Each case: an id and the legacy_link options that make it.
CASES=(
	"fork:-w fork"
	"vfork:-w vfork"
	"exec:--exec"
	"setuid:--setuid-self"
)

# other_creds USER: every case x {linkat, syscall}, three worlds, checked.
other_creds() {
	local user=$1 as=() dir c id opts entry content failed=()
	[ "$user" = unpriv ] && as=(unpriv)

	dir=$(fls_workdir)
	batch_begin
	for c in "${CASES[@]}"; do
		for entry in linkat syscall; do
			id=${c%%:*}-$entry
			read -r -a opts <<<"${c#*:}"
			batch_add "native-$id" legacy_link "${opts[@]}" -e "$entry" -c "$id"$'\n' "$dir" "native-$id"
			batch_add "proc-$id" shim debug legacy_link "${opts[@]}" -e "$entry" -c "$id"$'\n' "$dir" "proc-$id"
		done
	done
	batch_run "${as[@]}"
	for c in "${CASES[@]}"; do
		for entry in linkat syscall; do
			id=${c%%:*}-$entry
			read -r -a opts <<<"${c#*:}"
			batch_add "noproc-$id" shim debug legacy_link "${opts[@]}" -e "$entry" -c "$id"$'\n' "$dir" "noproc-$id"
		done
	done
	batch_run noproc "${as[@]}"
	for c in "${CASES[@]}"; do
		for entry in linkat syscall; do
			id=${c%%:*}-$entry
			content=$id$'\n'
			batch_result "native-$id" && expect_linkat ok "$dir" "native-$id" "$content" &&
				batch_result "proc-$id" && batch_result_noproc_ok_or_refused "$user" "$dir" "$id" "$content" ||
				failed+=("$id")
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "$user: failed for ${failed[*]}"
}

# The shim's two results for one case: with /proc (already loaded by batch_result), then
# without.
batch_result_noproc_ok_or_refused() {
	local user=$1 dir=$2 id=$3 content=$4

	if [ "$user" = root ]; then
		expect_linkat ok "$dir" "proc-$id" "$content" " -> proc-$id: $FLS_DBG_DIRECT_OK" &&
			batch_result "noproc-$id" &&
			expect_linkat ok "$dir" "noproc-$id" "$content" " -> noproc-$id: $FLS_DBG_DIRECT_OK"
	else
		expect_linkat ok "$dir" "proc-$id" "$content" " -> proc-$id: $FLS_DBG_FALLBACK_OK" &&
			batch_result "noproc-$id" &&
			expect_linkat ENOENT "$dir" "noproc-$id" "" " -> noproc-$id: $FLS_DBG_REFUSED"
	fi
}

@test "uid 65534, fd from a fork/vfork parent, across execve, or before setuid(getuid()): /proc replayed; without /proc, ENOENT and why" {
	fls_need_unpriv
	fls_fast other_creds unpriv
}

@test "root, the same cases: CAP_DAC_READ_SEARCH, the direct form works with or without /proc" {
	fls_fast other_creds root
}
