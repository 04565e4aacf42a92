#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the library shows the programs it is preloaded into (libfiu's lesson): every exported
# symbol can collide with a program's own, so exactly the public API, the two interposers and
# the calls the shim watches, and no library a program does not already have.

load common

setup() {
	fls_setup
	: "${FLINKSHIM_LIB:?run the suites through make check}"
}

# The C library the shim is built for, as a file: its loader's list of the library's needs.
our_libc_file() {
	ldd_of_our_libc "$FLINKSHIM_LIB" | awk '$1 ~ /^libc\.so/ { print ($3 ~ /^\// ? $3 : $1) }' |
		head -n 1
}

@test "exported text symbols: exactly the API, the two interposers and the watched calls" {
	command -v nm >/dev/null || skip "nm is not installed"
	local want libc
	# The watched calls (shim/interpose/watched_calls.c) pass through untouched; close_range
	# only where the C library has it (glibc >= 2.34; not musl), or nobody could call it.
	want="chroot "
	libc=$(our_libc_file)
	[ -r "$libc" ] || fls_fail "cannot find the C library file: '$libc'" || return 1
	if nm -D --defined-only "$libc" | awk '{print $3}' | sed 's/@.*//' | grep -qx close_range; then
		want+="close_range "
	fi
	want+="flink flinkat linkat mount setns syscall umount umount2 unshare "
	run --separate-stderr nm -D --defined-only "$FLINKSHIM_LIB"
	expect_eq "nm status" "$status" 0
	local text
	text=$(printf '%s\n' "${lines[@]}" | awk '$2 ~ /^[TtWwi]$/ {print $3}' | sort | tr '\n' ' ')
	expect_eq "text symbols" "$text" "$want"
	# Nor any data or other defined symbol a program could collide with.
	local other
	other=$(printf '%s\n' "${lines[@]}" | awk '$2 !~ /^[TtWwi]$/ {print $2, $3}')
	expect_eq "other defined symbols" "$other" ""
}

@test "the interposers are unversioned, so programs bound to linkat@GLIBC reach them" {
	command -v readelf >/dev/null || skip "readelf is not installed"
	run --separate-stderr readelf --dyn-syms -W "$FLINKSHIM_LIB"
	expect_eq "readelf status" "$status" 0
	local sym
	for sym in linkat syscall chroot mount setns umount umount2 unshare; do
		[[ $output =~ [[:space:]]$sym([[:space:]]|$) ]] ||
			fls_fail "$sym is missing, or versioned, in the dynamic symbol table: $output"
	done
}

@test "NEEDED: libc only" {
	command -v readelf >/dev/null || skip "readelf is not installed"
	run --separate-stderr readelf -d "$FLINKSHIM_LIB"
	expect_eq "readelf status" "$status" 0
	local needed
	needed=$(printf '%s\n' "${lines[@]}" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | tr '\n' ' ')
	expect_match "NEEDED entries" "$needed" '^libc\.so(\.[0-9]+)? $'
}

# ldd FILE, by the loader of the library's own C library. The system's ldd is glibc's on
# Debian, and glibc's loader cannot load a musl library (its NEEDED libc.so is musl's); musl's
# loader lists the dependencies when run as `ld-musl-ARCH.so.1 --list FILE`, which is all
# Alpine's ldd does. The helpers are built like the library: theirs is the loader to ask.
ldd_of_our_libc() {
	local loader

	if [ "${FLINKSHIM_LIBC:-}" = musl ]; then
		loader=$(readelf -l "$HELPERS/legacy_link" |
			sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
		[ -x "$loader" ] || {
			echo "no musl loader found (interpreter of the helpers: '$loader')" >&2
			return 2
		}
		"$loader" --list "$1"
	else
		ldd "$1"
	fi
}

@test "ldd: libc and the loader, nothing else" {
	if [ "${FLINKSHIM_LIBC:-}" = musl ]; then
		command -v readelf >/dev/null || skip "readelf is not installed (it names musl's loader)"
	else
		command -v ldd >/dev/null || skip "ldd is not installed"
	fi
	run --separate-stderr ldd_of_our_libc "$FLINKSHIM_LIB"
	expect_eq "ldd status" "$status" 0
	local line name
	for line in "${lines[@]}"; do
		name=${line#"${line%%[![:space:]]*}"}
		name=${name%% *}
		# musl's own soname is plain libc.so.
		case $name in
		linux-vdso.so.* | linux-gate.so.* | libc.so | libc.so.* | */ld-linux*.so.* | ld-linux*.so.* | */ld-musl-*.so.*) ;;
		*) fls_fail "unexpected dependency: $line" ;;
		esac
	done
	[[ $output == *libc.so* ]] || fls_fail "libc is not among the dependencies: $output"
}
