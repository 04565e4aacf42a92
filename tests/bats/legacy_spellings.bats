#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# The legacy idiom, in every spelling the kernel resolves to the caller's own fd, from every
# place a program makes the call (main thread, another thread, a signal handler, a fork child,
# a vfork child), through linkat() and syscall(SYS_linkat), as root and as uid 65534:
#   (a) with /proc mounted and no shim it works: the helper is a correct legacy program;
#   (b) with /proc hidden and no shim it fails with ENOENT: the test world is real;
#   (c) with /proc hidden under the shim it works exactly as (a): same output, the right
#       content, the open file itself (the helper compares inodes) with one link. Except where
#       no route exists: an unprivileged fork or vfork child linking its parent's fd is refused
#       the direct form by the kernel even on 6.10+, so (c) is ENOENT, nothing on disk, and a
#       diagnostic that says why.

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

# Must (c) succeed for USER linking from WHERE? If not, it must be refused.
expected_c_ok() {
	case $1/$2 in
	root/*) return 0 ;;
	unpriv/fork | unpriv/vfork | unpriv/thread-fork) return 1 ;;
	# Linux >= 6.10 allows it (fd opened under the caller's credentials); before, no.
	unpriv/*) [ "$FLS_KERNEL_FLINK" = yes ] ;;
	esac
}

# check_case USER WHERE ENTRY DIR TEMPLATE: the three results of one case, from the batches.
check_case() {
	local user=$1 where=$2 entry=$3 dir=$4 template=$5
	local base=$entry-$where
	local content="$template as $user, $entry from $where"$'\n'

	# (a) /proc mounted, no shim.
	batch_result "a-$base" && expect_linkat ok "$dir" "a-$base" "$content" || return 1
	# (b) /proc hidden, no shim.
	batch_result "b-$base" && expect_linkat ENOENT "$dir" "b-$base" "" || return 1
	# (c) /proc hidden, under the shim: as (a), or refused with the reason.
	batch_result "c-$base" || return 1
	if expected_c_ok "$user" "$where"; then
		expect_linkat ok "$dir" "c-$base" "$content" " -> c-$base: $FLS_DBG_DIRECT_OK"
	else
		expect_linkat ENOENT "$dir" "c-$base" "" " -> c-$base: $FLS_DBG_REFUSED"
	fi
}

# matrix USER TEMPLATE [legacy_link options...]: every place x entry point, in two batches
# (one per world); then every case is checked, and the failed ones are named.
matrix() {
	local user=$1 template=$2
	shift 2
	local where entry dir phase as=() failed=()
	local wheres entries=(linkat syscall)
	# WHERES, if set, replaces the five places (a space-separated list).
	read -r -a wheres <<<"${WHERES:-main thread signal fork vfork}"

	[ "$user" = unpriv ] && as=(unpriv)
	dir=$(fls_workdir)
	batch_begin
	for phase in a b c; do
		local with=()
		[ $phase = c ] && with=(shim debug)
		for where in "${wheres[@]}"; do
			for entry in "${entries[@]}"; do
				batch_add "$phase-$entry-$where" "${with[@]}" \
					legacy_link -p "$template" -w "$where" -e "$entry" \
					-c "$template as $user, $entry from $where"$'\n' "$@" \
					"$dir" "$phase-$entry-$where"
			done
		done
		# (b) and (c) share one /proc-less world.
		case $phase in
		a) batch_run "${as[@]}" ;;
		c) batch_run noproc "${as[@]}" ;;
		esac
	done
	fls_link_counts "$dir"
	for where in "${wheres[@]}"; do
		for entry in "${entries[@]}"; do
			check_case "$user" "$where" "$entry" "$dir" "$template" ||
				failed+=("$entry-$where")
		done
	done
	[ "${#failed[@]}" -eq 0 ] || fls_fail "$template as $user: failed for ${failed[*]}"
}

# spell USER TEMPLATE [legacy_link options...]
spell() {
	fls_need_noproc
	[ "$1" = root ] || fls_need_unpriv
	fls_fast matrix "$@"
}

need_dev_link() {
	[ "$(readlink "$1")" = "$2" ] || skip "$1 is not a symlink to $2 on this system"
}

@test "/proc/self/fd/N, as root" {
	spell root '/proc/self/fd/%d'
}

@test "/proc/self/fd/N, as uid 65534" {
	spell unpriv '/proc/self/fd/%d'
}

@test "/proc/thread-self/fd/N, as root" {
	spell root '/proc/thread-self/fd/%d'
}

@test "/proc/thread-self/fd/N, as uid 65534" {
	spell unpriv '/proc/thread-self/fd/%d'
}

@test "/proc/PID/fd/N, as root" {
	spell root '/proc/%p/fd/%d'
}

@test "/proc/PID/fd/N, as uid 65534" {
	spell unpriv '/proc/%p/fd/%d'
}

@test "/proc/TID/fd/N (the caller's own tid), as root" {
	spell root '/proc/%t/fd/%d'
}

@test "/proc/TID/fd/N (the caller's own tid), as uid 65534" {
	spell unpriv '/proc/%t/fd/%d'
}

@test "/proc/PID/task/TID/fd/N, as root" {
	spell root '/proc/%p/task/%t/fd/%d'
}

@test "/proc/PID/task/TID/fd/N, as uid 65534" {
	spell unpriv '/proc/%p/task/%t/fd/%d'
}

@test "/proc/self/task/TID/fd/N, as root" {
	spell root '/proc/self/task/%t/fd/%d'
}

@test "/proc/self/task/TID/fd/N, as uid 65534" {
	spell unpriv '/proc/self/task/%t/fd/%d'
}

# Another thread of ours that shares the table, by its tid: the shim asks the kernel
# (tgkill, kcmp) what the pure classifier cannot know. From the main thread, a second thread
# and a signal handler: a fork or vfork child is another process, where that tid is not its
# own thread (with /proc: ENOENT; the parity matrix checks those).
@test "/proc/self/task/SIBLING/fd/N (a thread of ours sharing the table), as root" {
	WHERES="main thread signal" spell root '/proc/self/task/%s/fd/%d'
}

@test "/proc/self/task/SIBLING/fd/N (a thread of ours sharing the table), as uid 65534" {
	WHERES="main thread signal" spell unpriv '/proc/self/task/%s/fd/%d'
}

@test "/proc/SIBLING/fd/N and /proc/SIBLING/task/PID/fd/N, as root" {
	WHERES="main thread signal" spell root '/proc/%s/fd/%d'
	WHERES="main thread signal" spell root '/proc/%s/task/%p/fd/%d'
}

@test "/dev/fd/N, as root" {
	need_dev_link /dev/fd /proc/self/fd
	spell root '/dev/fd/%d'
}

@test "/dev/fd/N, as uid 65534" {
	need_dev_link /dev/fd /proc/self/fd
	spell unpriv '/dev/fd/%d'
}

@test "/dev/stdin, the file at fd 0, as root" {
	need_dev_link /dev/stdin /proc/self/fd/0
	spell root '/dev/stdin' --fd=0
}

@test "/dev/stdin, the file at fd 0, as uid 65534" {
	need_dev_link /dev/stdin /proc/self/fd/0
	spell unpriv '/dev/stdin' --fd=0
}

@test "//proc/./self/fd/../fd/N (slashes, dot, dot-dot), as root" {
	spell root '//proc/./self/fd/../fd/%d'
}

@test "//proc/./self/fd/../fd/N (slashes, dot, dot-dot), as uid 65534" {
	spell unpriv '//proc/./self/fd/../fd/%d'
}

@test "/proc/self/../self/fd/N, as root" {
	spell root '/proc/self/../self/fd/%d'
}

@test "/proc/self/../self/fd/N, as uid 65534" {
	spell unpriv '/proc/self/../self/fd/%d'
}

@test "/proc/thread-self/../TID/fd/N, as root" {
	spell root '/proc/thread-self/../%t/fd/%d'
}

@test "/proc/thread-self/../TID/fd/N, as uid 65534" {
	spell unpriv '/proc/thread-self/../%t/fd/%d'
}

@test "/proc/self/fd/N, a four-digit fd, as root" {
	spell root '/proc/self/fd/%d' --fd=1000
}

@test "/proc/self/fd/N, a four-digit fd, as uid 65534" {
	spell unpriv '/proc/self/fd/%d' --fd=1000
}

@test "a fork child of a second thread (its only thread is not the original leader), as root and as uid 65534" {
	local spelling
	for spelling in '/proc/self/fd/%d' '/proc/%p/fd/%d' '/proc/thread-self/fd/%d'; do
		WHERES=thread-fork spell root "$spelling"
		[ -n "$FLS_SKIP_UNPRIV" ] || WHERES=thread-fork spell unpriv "$spelling"
	done
}

@test "several names for one O_TMPFILE: each call links the same inode" {
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	run --separate-stderr in_world noproc shim legacy_link -c $'three\n' "$dir" one two three
	expect_eq "status" "$status" 0
	expect_eq "output" "$output" $'linkat=0\nlinkat=0\nlinkat=0'
	expect_linked "$dir" one $'three\n' 3
	expect_eq "inode" "$(stat -c %i "$dir/one")" "$(stat -c %i "$dir/three")"
}

@test "O_PATH descriptors (of a file, of a symlink), and an olddirfd that is not open" {
	fls_need_noproc
	local dir user as users=(root)
	# An unprivileged direct form needs Linux >= 6.10 (old kernels: old_kernel.bats).
	[ -z "$FLS_SKIP_UNPRIV" ] && [ "$FLS_KERNEL_FLINK" = yes ] && users+=(unpriv)
	dir=$(fls_workdir)
	for user in "${users[@]}"; do
		as=()
		[ "$user" = unpriv ] && as=(unpriv)
		run --separate-stderr in_world "${as[@]}" legacy_link -k opath -c $'p\n' "$dir" "a-opath-$user"
		expect_eq "native O_PATH, $user" "$output" "linkat=0"
		run --separate-stderr in_world noproc "${as[@]}" shim legacy_link -k opath -c $'p\n' "$dir" "c-opath-$user"
		expect_eq "shim O_PATH, $user: output" "$output" "linkat=0"
		expect_linked "$dir" "c-opath-$user" $'p\n' 2
		# An O_PATH | O_NOFOLLOW fd of a symlink: the kernel links the symlink itself, by
		# either route.
		run --separate-stderr in_world "${as[@]}" legacy_link -k symlink "$dir" "a-symlink-$user"
		expect_eq "native symlink, $user" "$output" "linkat=0"
		run --separate-stderr in_world noproc "${as[@]}" shim legacy_link -k symlink "$dir" "c-symlink-$user"
		expect_eq "shim symlink, $user: output" "$output" "linkat=0"
		[ -L "$dir/c-symlink-$user" ] || fls_fail "c-symlink-$user is not a symlink"
		# stat, not [ -ef ]: the links' own inodes, not their targets'.
		expect_eq "c-symlink-$user inode" "$(stat -c %i "$dir/c-symlink-$user")" \
			"$(stat -c %i "$dir/c-symlink-$user.orig")"
		# An olddirfd that is not open: the kernel ignores it for an absolute oldpath.
		run --separate-stderr in_world "${as[@]}" legacy_link --olddirfd=999 -c $'o\n' "$dir" "a-olddirfd-$user"
		expect_eq "native bad olddirfd, $user" "$output" "linkat=0"
		run --separate-stderr in_world noproc "${as[@]}" shim legacy_link --olddirfd=999 -c $'o\n' "$dir" "c-olddirfd-$user"
		expect_eq "shim bad olddirfd, $user: output" "$output" "linkat=0"
		expect_linked "$dir" "c-olddirfd-$user" $'o\n' 1
	done
}

@test "a named file's descriptor: a second link to the same inode, as root and as uid 65534" {
	fls_need_noproc
	local dir user as users=(root)
	# An unprivileged direct form needs Linux >= 6.10 (old kernels: old_kernel.bats).
	[ -z "$FLS_SKIP_UNPRIV" ] && [ "$FLS_KERNEL_FLINK" = yes ] && users+=(unpriv)
	dir=$(fls_workdir)
	for user in "${users[@]}"; do
		as=()
		[ "$user" = unpriv ] && as=(unpriv)
		run --separate-stderr in_world noproc "${as[@]}" legacy_link -k named -c $'named\n' "$dir" "b-$user"
		expect_eq "no shim, $user: output" "$output" "linkat=-1 errno=ENOENT"
		expect_absent "$dir" "b-$user"
		run --separate-stderr in_world noproc "${as[@]}" shim legacy_link -k named -c $'named\n' "$dir" "c-$user"
		expect_eq "shim, $user: status" "$status" 0
		expect_eq "shim, $user: output" "$output" "linkat=0"
		expect_linked "$dir" "c-$user" $'named\n' 2
		expect_eq "inode" "$(stat -c %i "$dir/c-$user")" "$(stat -c %i "$dir/c-$user.orig")"
	done
}

# odd_dev_fd TARGET CMD...: /proc hidden, and /dev a tmpfs whose fd link points at TARGET.
odd_dev_fd() {
	local target=$1
	shift
	"$FLS_PRIVATE_NS" --noproc sh -c 'mount -t tmpfs none /dev &&
		ln -s "$1" /dev/fd && shift && exec "$@"' sh "$target" "$@"
}

@test "/dev/fd that is not the usual link to /proc/self/fd: what it points to, never our fd" {
	fls_need_noproc
	local dir
	dir=$(fls_workdir)
	mkdir "$dir/fake"
	printf 'fake\n' >"$dir/fake/7"
	# Natively the kernel links the file the link leads to: not the open file, as the helper
	# notices (inode-mismatch), and the same under the shim.
	run --separate-stderr odd_dev_fd "$dir/fake" "$FLS_PUB/legacy_link" -p /dev/fd/%d --fd=7 "$dir" native
	expect_eq "native" "$output" "linkat=0 inode-mismatch"
	expect_linked "$dir" native $'fake\n' 2
	run --separate-stderr odd_dev_fd "$dir/fake" env "LD_PRELOAD=$FLS_LIB" FLINKSHIM_DEBUG=1 \
		"$FLS_PUB/legacy_link" -p /dev/fd/%d --fd=7 "$dir" shim
	expect_eq "under the shim" "$output" "linkat=0 inode-mismatch"
	expect_one_debug_line "not rewritten: the /dev link does not point to /proc/self/fd"
	expect_linked "$dir" shim $'fake\n' 3
	# A /dev/fd that leads nowhere: ENOENT, as natively.
	run --separate-stderr odd_dev_fd /nowhere env "LD_PRELOAD=$FLS_LIB" \
		"$FLS_PUB/legacy_link" -p /dev/fd/%d --fd=7 "$dir" nowhere
	expect_linkat ENOENT "$dir" nowhere ""
}
