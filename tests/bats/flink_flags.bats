#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# flinkat() flags on their error paths: whatever fails, no temporary name is left behind.
# (The contention test for FLINK_REPLACE is tests/unit/flink_replace_test.)

bats_require_minimum_version 1.5.0

setup() {
	: "${HELPERS:?run through make check}"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
}

teardown() {
	rm -rf "$tmp"
}

need_namespaces() {
	local why
	why=$("$FLS_PRIVATE_NS" true 2>&1) || skip "no private mount namespace here: ${why#private_ns: }"
}

# need_root WHY: for the cases a user namespace cannot stand in for.
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root: $1"
}

# Run "$@" without privilege: as 65534 when we are root, as ourselves otherwise.
unprivileged() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all "$@"
	else
		"$@"
	fi
}

@test "FLINK_REPLACE into a directory without write permission: EACCES, nothing left" {
	# The build tree may sit where the unprivileged user cannot reach: run copies.
	cp "$HELPERS/flink_tool" "$FLINKSHIM_LIB" "$tmp/"
	mkdir "$tmp/w" "$tmp/ro"
	chmod 1777 "$tmp/w"
	chmod 555 "$tmp/ro"
	run unprivileged env LD_LIBRARY_PATH="$tmp" "$tmp/flink_tool" --replace --tmpdir "$tmp/w" "$tmp/ro" t content
	[ "$status" -eq 1 ]
	[ "$output" = "flinkat=-1 errno=EACCES" ]
	[ -z "$(ls -A "$tmp/ro")" ]
	[ -z "$(ls -A "$tmp/w")" ]
}

@test "FLINK_REPLACE across filesystems: EXDEV, nothing left on either side" {
	need_namespaces
	mkdir "$tmp/other"
	run "$FLS_PRIVATE_NS" sh -c 'mount -t tmpfs none "$1/other" && "$2" --replace --tmpdir "$1" "$1/other" t content; echo "left: $(ls -A "$1/other")"' \
		sh "$tmp" "$HELPERS/flink_tool"
	[ "${lines[0]}" = "flinkat=-1 errno=EXDEV" ]
	[ "${lines[1]}" = "left: " ]
	[ -z "$(ls -A "$tmp/other")" ]
}

@test "FLINK_REPLACE into a read-only mount: the kernel's error, nothing left" {
	need_namespaces
	mkdir "$tmp/ro"
	run "$FLS_PRIVATE_NS" sh -c 'mount -t tmpfs -o ro none "$1/ro" && "$2" --replace --tmpdir "$1" "$1/ro" t content; echo "left: $(ls -A "$1/ro")"' \
		sh "$tmp" "$HELPERS/flink_tool"
	# The kernel asks the new name's mount for write access before it compares mounts.
	[ "${lines[0]}" = "flinkat=-1 errno=EROFS" ]
	[ "${lines[1]}" = "left: " ]
}

@test "FLINK_REPLACE over an existing file: replaced, one name, no temporary" {
	echo old >"$tmp/t"
	run "$HELPERS/flink_tool" --replace "$tmp" t new-content
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/t")" = new-content ]
	[ "$(ls -A "$tmp")" = t ]
}

@test "without FLINK_REPLACE an existing name stays: EEXIST" {
	echo old >"$tmp/t"
	run "$HELPERS/flink_tool" "$tmp" t new-content
	[ "$status" -eq 1 ]
	[ "$output" = "flinkat=-1 errno=EEXIST" ]
	[ "$(cat "$tmp/t")" = old ]
}

@test "FLINK_REPLACE over a directory: EISDIR, the directory untouched" {
	mkdir "$tmp/d"
	touch "$tmp/d/keep"
	run "$HELPERS/flink_tool" --replace "$tmp" d content
	[ "$status" -eq 1 ]
	[ "$output" = "flinkat=-1 errno=EISDIR" ]
	[ -f "$tmp/d/keep" ]
	[ "$(ls -A "$tmp")" = d ]
}

@test "FLINK_SYNC: the file is linked, and both fsyncs are really made" {
	command -v strace >/dev/null || skip "strace is not installed"
	run strace -f -e trace=fsync -o "$tmp/trace" "$HELPERS/flink_tool" --sync "$tmp" t synced
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/t")" = synced ]
	[ "$(grep -cE '^[0-9]+ +fsync\([0-9]+\) += 0$' "$tmp/trace")" -eq 2 ]
}

# A failed FLINK_REPLACE must never cost the caller its O_TMPFILE: the kernel links such a file
# only until it has had a name, so a temporary name made and removed again would leave it
# unlinkable for good (review C3). Each case ends with flink() of the same fd to "rescue".

# as_nobody CMD...: CMD as uid/gid 65534, without capabilities, with the copied library.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		env LD_LIBRARY_PATH="$tmp" "$@"
}

@test "FLINK_REPLACE over another user's file in a sticky directory: EPERM first, the file still linkable" {
	need_root "two users (root's file, nobody linking)"
	need_namespaces
	cp "$HELPERS/flink_tool" "$FLINKSHIM_LIB" "$tmp/"
	mkdir "$tmp/sticky"
	chmod 1777 "$tmp/sticky"
	echo root-owned >"$tmp/sticky/shared.txt"
	run as_nobody "$tmp/flink_tool" --replace --rescue rescue "$tmp/sticky" shared.txt content
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "flinkat=-1 errno=EPERM" ]
	[ "${lines[1]}" = "rescue=0" ]
	[ "$(cat "$tmp/sticky/shared.txt")" = root-owned ]
	[ "$(cat "$tmp/sticky/rescue")" = content ]
	[ "$(ls -A "$tmp/sticky" | tr '\n' ' ')" = "rescue shared.txt " ]
}

@test "FLINK_REPLACE over one's own file in someone else's sticky directory: replaced" {
	need_root "two users (root's directory, nobody's file)"
	need_namespaces
	cp "$HELPERS/flink_tool" "$FLINKSHIM_LIB" "$tmp/"
	mkdir "$tmp/sticky"
	chmod 1777 "$tmp/sticky"
	echo mine >"$tmp/sticky/mine.txt"
	chown 65534:65534 "$tmp/sticky/mine.txt"
	run as_nobody "$tmp/flink_tool" --replace "$tmp/sticky" mine.txt new-content
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/sticky/mine.txt")" = new-content ]
	[ "$(ls -A "$tmp/sticky")" = mine.txt ]
}

@test "FLINK_REPLACE over root's file in a sticky directory, as root: CAP_FOWNER allows it" {
	need_namespaces
	mkdir "$tmp/sticky"
	chmod 1777 "$tmp/sticky"
	echo theirs >"$tmp/sticky/theirs.txt"
	chown 65534:65534 "$tmp/sticky/theirs.txt"
	run "$HELPERS/flink_tool" --replace "$tmp/sticky" theirs.txt new-content
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/sticky/theirs.txt")" = new-content ]
	[ "$(ls -A "$tmp/sticky")" = theirs.txt ]
}

@test "FLINK_REPLACE to an empty name or a 256-byte one: refused, the file still linkable" {
	run "$HELPERS/flink_tool" --replace --rescue rescue "$tmp" "" content
	[ "${lines[0]}" = "flinkat=-1 errno=ENOENT" ]
	[ "${lines[1]}" = "rescue=0" ]
	rm "$tmp/rescue"
	run "$HELPERS/flink_tool" --replace --rescue rescue "$tmp" "$(printf 'a%.0s' $(seq 256))" content
	[ "${lines[0]}" = "flinkat=-1 errno=ENAMETOOLONG" ]
	[ "${lines[1]}" = "rescue=0" ]
	[ "$(cat "$tmp/rescue")" = content ]
	[ "$(ls -A "$tmp")" = rescue ]
}

@test "FLINK_REPLACE whose rename fails after the link (a mount point: EBUSY): the O_TMPFILE keeps its temporary name, still linkable" {
	need_namespaces
	echo old >"$tmp/t"
	echo other >"$tmp/other"
	run "$FLS_PRIVATE_NS" sh -c 'mount --bind "$1/other" "$1/t" && "$2" --replace --rescue rescue "$1" t new' \
		sh "$tmp" "$HELPERS/flink_tool"
	[ "${lines[0]}" = "flinkat=-1 errno=EBUSY" ]
	[ "${lines[1]}" = "rescue=0" ]
	[ "$(cat "$tmp/t")" = old ]
	[ "$(cat "$tmp/rescue")" = new ]
	# The documented leftover: the temporary name, the file's only name before the rescue.
	local left
	left=$(cd "$tmp" && ls -A | grep '^\.#flink\.')
	[ "$(printf '%s\n' "$left" | wc -l)" -eq 1 ]
	[ "$(cat "$tmp/$left")" = new ]
	[ "$(stat -c %i "$tmp/$left")" = "$(stat -c %i "$tmp/rescue")" ]
	[ "$(stat -c %h "$tmp/rescue")" -eq 2 ]
}

@test "FLINK_REPLACE of a file with another name whose rename fails: the temporary name is removed" {
	need_namespaces
	echo old >"$tmp/t"
	echo other >"$tmp/other"
	run "$FLS_PRIVATE_NS" sh -c 'mount --bind "$1/other" "$1/t" && "$2" --prelink first --replace "$1" t new' \
		sh "$tmp" "$HELPERS/flink_tool"
	[ "$output" = "flinkat=-1 errno=EBUSY" ]
	[ "$(cat "$tmp/first")" = new ]
	[ "$(stat -c %h "$tmp/first")" -eq 1 ]
	[ "$(ls -A "$tmp" | tr '\n' ' ')" = "first other t " ]
}

@test "FLINK_SYNC of an O_PATH fd: fsync cannot take it, so the filesystem is synced, then the directory" {
	command -v strace >/dev/null || skip "strace is not installed"
	run strace -f -e trace=fsync,syncfs -o "$tmp/trace" "$HELPERS/flink_tool" --sync --opath "$tmp" t synced
	[ "$status" -eq 0 ]
	[ "$output" = "flinkat=0" ]
	[ "$(cat "$tmp/t")" = synced ]
	[ "$(grep -cE '^[0-9]+ +syncfs\([0-9]+\) += 0$' "$tmp/trace")" -eq 1 ]
	[ "$(grep -cE '^[0-9]+ +fsync\([0-9]+\) += 0$' "$tmp/trace")" -eq 1 ]
}

# The API's /proc route is a path the library makes up: /proc/thread-self/fd/N, taken only
# into procfs. Linux 3.11 to 3.16 have O_TMPFILE but no /proc/thread-self: there the route is
# /proc/self/fd/N, where /proc/self is the caller's table (review S6). Such a kernel is
# imitated with a tmpfs over /proc that holds a procfs at /proc/.p and a link /proc/self ->
# .p/self, and the old-kernel filter (the direct form refused).
no_thread_self() {
	"$FLS_PRIVATE_NS" sh -c 'mount -t tmpfs none /proc && mkdir /proc/.p &&
		mount -t proc proc /proc/.p && ln -s .p/self /proc/self && exec "$@"' sh "$@"
}

@test "flinkat() without /proc/thread-self (Linux < 3.17), direct form refused: the /proc/self route" {
	need_root "mounting a procfs (a user namespace may not, for the pid namespace it does not own)"
	need_namespaces
	"$HELPERS/oldkernel" true 2>/dev/null || skip "cannot install the old-kernel seccomp filter"
	run no_thread_self "$HELPERS/oldkernel" "$HELPERS/flink_tool" "$tmp" t content
	[ "$output" = "flinkat=0" ]
	[ "$(cat "$tmp/t")" = content ]
	run no_thread_self "$HELPERS/oldkernel" "$HELPERS/flink_tool" --in-thread "$tmp" t2 content2
	[ "$output" = "flinkat=0" ]
	[ "$(cat "$tmp/t2")" = content2 ]
	# A thread with a table of its own: /proc/self/fd/N is the leader's table, not taken.
	run no_thread_self "$HELPERS/oldkernel" "$HELPERS/flink_tool" --in-thread --own-table "$tmp" t3 x
	[ "$output" = "flinkat=-1 errno=ENOENT" ]
	[ ! -e "$tmp/t3" ]
}

@test "flinkat() where /proc is a plain directory holding thread-self/fd/N: never that file" {
	need_namespaces
	"$HELPERS/oldkernel" true 2>/dev/null || skip "cannot install the old-kernel seccomp filter"
	run "$FLS_PRIVATE_NS" sh -c 'mount -t tmpfs none /proc && mkdir -p /proc/thread-self/fd /proc/self/fd &&
		for n in 3 4 5 6 7 8 9; do echo DECOY >/proc/thread-self/fd/$n; echo DECOY >/proc/self/fd/$n; done &&
		exec "$@"' sh "$HELPERS/oldkernel" "$HELPERS/flink_tool" "$tmp" t content
	[ "$output" = "flinkat=-1 errno=ENOENT" ]
	[ ! -e "$tmp/t" ]
}
