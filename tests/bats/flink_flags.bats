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

need_root_namespaces() {
	[ "$(id -u)" = 0 ] || skip "needs root for mount namespaces"
	unshare -m true 2>/dev/null || skip "unshare -m is not permitted here"
}

@test "FLINK_REPLACE into a directory without write permission: EACCES, nothing left" {
	need_root_namespaces
	# The build tree may sit where the unprivileged user cannot reach: run copies.
	cp "$HELPERS/flink_tool" "$FLINKSHIM_LIB" "$tmp/"
	mkdir "$tmp/w" "$tmp/ro"
	chmod 1777 "$tmp/w"
	chmod 555 "$tmp/ro"
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
		env LD_LIBRARY_PATH="$tmp" "$tmp/flink_tool" --replace --tmpdir "$tmp/w" "$tmp/ro" t content
	[ "$status" -eq 1 ]
	[ "$output" = "flinkat=-1 errno=EACCES" ]
	[ -z "$(ls -A "$tmp/ro")" ]
	[ -z "$(ls -A "$tmp/w")" ]
}

@test "FLINK_REPLACE across filesystems: EXDEV, nothing left on either side" {
	need_root_namespaces
	mkdir "$tmp/other"
	run unshare -m sh -c 'mount -t tmpfs none "$1/other" && "$2" --replace --tmpdir "$1" "$1/other" t content; echo "left: $(ls -A "$1/other")"' \
		sh "$tmp" "$HELPERS/flink_tool"
	[ "${lines[0]}" = "flinkat=-1 errno=EXDEV" ]
	[ "${lines[1]}" = "left: " ]
	[ -z "$(ls -A "$tmp/other")" ]
}

@test "FLINK_REPLACE into a read-only mount: the kernel's error, nothing left" {
	need_root_namespaces
	mkdir "$tmp/ro"
	run unshare -m sh -c 'mount -t tmpfs -o ro none "$1/ro" && "$2" --replace --tmpdir "$1" "$1/ro" t content; echo "left: $(ls -A "$1/ro")"' \
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
