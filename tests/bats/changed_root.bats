#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# What /proc and /dev are can change under a running program: chroot(2) into a tree whose
# /dev/fd or /proc is a plain directory holding a real file at the idiom's path. There the
# kernel links that file, and so must the program under the shim: whatever the shim learned
# about /proc and /dev before the chroot must not outlive it (review C5, C13, appendix A5).
# tests/helpers/chroot_link links PATH, optionally once before the chroot (--first), then
# chroots into ROOT and links PATH to /out/second.

load common

setup_file() {
	fls_setup_file
}

teardown_file() {
	fls_teardown_file
}

setup() {
	fls_setup
	# Not root, every world here is root of a user namespace (common.bash), which may chroot.
	[ "$FLS_EUID" = 0 ] || [ -z "$FLS_SKIP_NOPROC" ] ||
		skip "needs root, or a user namespace, for chroot(2): $FLS_SKIP_NOPROC"
	root=$(fls_workdir)/root
	mkdir -p "$root/out"
}

# chrooted WORLD... -- ARGS: chroot_link ARGS in that world (words as in_world).
chrooted() {
	local world=()
	while [ "$1" != -- ]; do
		world+=("$1")
		shift
	done
	shift
	in_world "${world[@]}" "$HELPERS/chroot_link" "$@"
}

decoy() {
	mkdir -p "$(dirname "$root/$1")"
	echo DECOY >"$root/$1"
}

@test "/dev/fd/N after chroot() into a root whose /dev/fd is a directory: its real file, as natively" {
	[ "$(readlink /dev/fd)" = /proc/self/fd ] || skip "/dev/fd is not the usual link to /proc/self/fd here"
	decoy dev/fd/3
	local world
	for world in "" shim; do
		rm -f "$root/out/first" "$root/out/second"
		run chrooted $world -- --first /dev/fd/3 "$root"
		expect_eq "${world:-native}: output" "$output" $'first=0\nsecond=0\ncontent=DECOY'
	done
	fls_need_noproc
	rm -f "$root/out/first" "$root/out/second"
	run chrooted noproc shim -- --first /dev/fd/3 "$root"
	expect_eq "/proc hidden: output" "$output" $'first=0\nsecond=0\ncontent=DECOY'
}

@test "/proc/self/fd/N after chroot() into a root whose /proc is a directory with that file: the file, as natively" {
	decoy proc/self/fd/3
	local world first
	for world in "" shim; do
		for first in "" --first; do
			rm -f "$root/out/first" "$root/out/second"
			run chrooted $world -- $first /proc/self/fd/3 "$root"
			expect_eq "${world:-native} ${first:-cold}: output" "${lines[-2]} ${lines[-1]}" \
				"second=0 content=DECOY"
		done
	done
	fls_need_noproc
	for first in "" --first; do
		rm -f "$root/out/first" "$root/out/second"
		run chrooted noproc shim -- $first /proc/self/fd/3 "$root"
		expect_eq "/proc hidden, ${first:-cold}: output" "${lines[-2]} ${lines[-1]}" \
			"second=0 content=DECOY"
	done
}

@test "/proc/self/fd/N after chroot() into a root whose /proc has other entries: rewritten, native has nothing there" {
	decoy proc/cpuinfo
	mkdir -p "$root/proc/1/fd"
	run chrooted -- /proc/self/fd/3 "$root"
	expect_eq "natively" "$output" $'second=-1 errno=ENOENT\ncontent='
	run --separate-stderr chrooted shim debug -- --first /proc/self/fd/3 "$root"
	expect_eq "under the shim" "$output" $'first=0\nsecond=0\ncontent=tmpfile'
	expect_match "diagnostic" "${stderr_lines[1]}" "linkat /proc/self/fd/3 -> /out/second: $FLS_DBG_DIRECT_OK"
}

@test "/proc/self/fd/N after chroot() into a root with an empty /proc: rewritten" {
	mkdir "$root/proc"
	local first
	for first in "" --first; do
		rm -f "$root/out/first" "$root/out/second"
		run chrooted shim -- $first /proc/self/fd/3 "$root"
		expect_eq "${first:-cold}: output" "${lines[-2]} ${lines[-1]}" "second=0 content=tmpfile"
	done
	rm -f "$root/out/second"
	run chrooted -- /proc/self/fd/3 "$root"
	expect_eq "natively" "$output" $'second=-1 errno=ENOENT\ncontent='
}

@test "the diagnostic says why a path in a /proc that is not procfs is not rewritten" {
	decoy proc/self/fd/3
	run --separate-stderr chrooted shim debug -- /proc/self/fd/3 "$root"
	expect_eq "output" "$output" $'second=0\ncontent=DECOY'
	expect_one_debug_line "linkat /proc/self/fd/3: not rewritten: /proc is not procfs here, and the path names something in it"
}
