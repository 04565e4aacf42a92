#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# A call that arrives before the shim's own constructor has run (libfaketime's lesson):
# early_main links against libearly, whose constructor uses the legacy idiom at load time. The
# loader runs a library's constructor before those of preloaded libraries that do not depend
# on it, so libearly's call reaches the shim's linkat() before the shim has initialised.
# early_main then makes the same call from main(), when everything is initialised.
#
# early_main runs from the build tree (its RUNPATH names the build tree's libearly), so these
# tests run as root only; they need no unprivileged user.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
	EARLY_MAIN=$HELPERS/early_main
}

@test "control: with /proc mounted and no shim, both calls work" {
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" $'early: linkat=0\nmain: linkat=0'
	expect_linked "$dir" early $'early\n' 1
	expect_linked "$dir" main $'main\n' 1
}

@test "/proc hidden, no shim: both calls fail with ENOENT (the world is real)" {
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 1
	expect_eq "output" "$output" $'early: linkat=-1 errno=ENOENT\nmain: linkat=-1 errno=ENOENT'
	expect_absent "$dir" early
	expect_absent "$dir" main
}

@test "/proc hidden, under the shim: the constructor's call works too" {
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc shim "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" $'early: linkat=0\nmain: linkat=0'
	expect_quiet
	expect_linked "$dir" early $'early\n' 1
	expect_linked "$dir" main $'main\n' 1
}

@test "the order is real: libearly's constructor runs before the shim's (glibc LD_DEBUG)" {
	local dir inits early_at shim_at i
	dir=$(fls_workdir)
	run --separate-stderr in_world shim LD_DEBUG=files "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 0
	mapfile -t inits < <(printf '%s\n' "${stderr_lines[@]}" | sed -n 's/.*calling init: //p')
	[ "${#inits[@]}" -gt 0 ] || skip "the loader does not report constructor order (LD_DEBUG=files)"
	for i in "${!inits[@]}"; do
		case ${inits[i]} in
		*/libearly.so) early_at=$i ;;
		"$FLS_LIB") shim_at=$i ;;
		esac
	done
	[ -n "${early_at:-}" ] && [ -n "${shim_at:-}" ] ||
		fls_fail "constructors seen: ${inits[*]}"
	[ "$early_at" -lt "$shim_at" ] ||
		fls_fail "libearly's constructor ran after the shim's: ${inits[*]}"
}
