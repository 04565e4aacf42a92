#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# A call that arrives before the shim's own constructor has run (libfaketime's lesson):
# early_main links against libearly, whose constructor uses the legacy idiom at load time.
# glibc's loader runs a library's constructor before those of preloaded libraries that do not
# depend on it, so libearly's call reaches the shim's linkat() before the shim has
# initialised. musl's runs the preloaded libraries' constructors first, in LD_PRELOAD order,
# and the program's libraries' after: there the early call comes from a library preloaded
# ahead of the shim, and libearly is preloaded so (see early_words). early_main then makes the
# same call from main(), when everything is initialised.
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
	# The world words that preload the shim so that libearly's constructor runs first.
	if [ "${FLINKSHIM_LIBC:-}" = musl ]; then
		early_words=("preload=$HELPERS/.libs/libearly.so:$FLS_LIB")
	else
		early_words=(shim)
	fi
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
	run --separate-stderr in_world noproc "${early_words[@]}" "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" $'early: linkat=0\nmain: linkat=0'
	expect_quiet
	expect_linked "$dir" early $'early\n' 1
	expect_linked "$dir" main $'main\n' 1
}

@test "the order is real: libearly's constructor runs before the shim's (glibc LD_DEBUG)" {
	local dir inits early_at shim_at i
	[ "${FLINKSHIM_LIBC:-}" != musl ] ||
		skip "musl's loader has no LD_DEBUG to report the constructor order (the next test checks it through the shim's diagnostics)"
	dir=$(fls_workdir)
	run --separate-stderr in_world "${early_words[@]}" LD_DEBUG=files "EARLY_DIR=$dir" "$EARLY_MAIN"
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

# The shim's diagnostics are switched on by its constructor (shim/core/library_init.c): a call made
# before it runs leaves no line. So the early call, had it come after the constructor, would
# show. With the shim alone preloaded on musl, its constructor runs first, and both calls
# show: that arrangement is the control that the witness can tell the two orders apart.
@test "the order is real: no diagnostic for the early call, one for main's" {
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc "${early_words[@]}" debug "EARLY_DIR=$dir" "$EARLY_MAIN"
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" $'early: linkat=0\nmain: linkat=0'
	expect_one_debug_line " -> $dir/main: $FLS_DBG_DIRECT_OK"
	if [ "${FLINKSHIM_LIBC:-}" = musl ]; then
		dir=$(fls_workdir)
		run --separate-stderr in_world noproc shim debug "EARLY_DIR=$dir" "$EARLY_MAIN"
		expect_eq "status" "$status" 0
		expect_eq "diagnostics" "${#stderr_lines[@]}" 2
		expect_match "first diagnostic" "${stderr_lines[0]}" " -> $dir/early: $FLS_DBG_DIRECT_OK"
	fi
}
