#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# The flinkshim command: options, exit statuses, LD_PRELOAD composition, loud failures,
# --check, and the end-to-end demo case.

bats_require_minimum_version 1.5.0

setup() {
	: "${FLINKSHIM_BIN:?run through make check}"
	tmp=$(mktemp -d)
	# The commands run under the wrapper get the shim preloaded, so they must be built for its
	# C library: env_tool is (the system's sh is a glibc program, which a musl shim stops).
	env_tool=$HELPERS/env_tool
}

teardown() {
	rm -rf "$tmp"
}

# Run "$@" in a private mount namespace with an empty tmpfs over /proc.
noproc() {
	"$FLS_PRIVATE_NS" --noproc "$@"
}

need_namespaces() {
	local why
	why=$("$FLS_PRIVATE_NS" --noproc true 2>&1) || skip "no /proc-less world here: ${why#private_ns: }"
}

@test "--version names the version and the libc" {
	run "$FLINKSHIM_BIN" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^flinkshim\ [0-9]+\.[0-9]+\.[0-9]+\ \((glibc|musl|other)\)$ ]]
}

@test "--help prints usage on stdout and exits 0" {
	run --separate-stderr "$FLINKSHIM_BIN" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: flinkshim [--debug] [--] COMMAND"* ]]
	[[ "$output" == *"--check"* ]]
	[ -z "$stderr" ]
}

@test "no command: usage on stderr, status 125" {
	run --separate-stderr "$FLINKSHIM_BIN"
	[ "$status" -eq 125 ]
	[ -z "$output" ]
	[[ "$stderr" == *"Usage: flinkshim"* ]]
}

@test "unknown option: says which, status 125" {
	run --separate-stderr "$FLINKSHIM_BIN" --frobnicate true
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"unknown option '--frobnicate'"* ]]
}

@test "command not found: status 127 and its name" {
	run -127 --separate-stderr "$FLINKSHIM_BIN" no-such-command-flinkshim
	[ "$status" -eq 127 ]
	[[ "$stderr" == "flinkshim: no-such-command-flinkshim: No such file or directory" ]]
}

@test "command not executable: status 126" {
	printf '#!/bin/sh\n' >"$tmp/noexec"
	chmod 644 "$tmp/noexec"
	run --separate-stderr "$FLINKSHIM_BIN" "$tmp/noexec"
	[ "$status" -eq 126 ]
	[[ "$stderr" == *"Permission denied"* ]]
}

@test "the command's exit status is flinkshim's" {
	run "$FLINKSHIM_BIN" "$env_tool" exit 42
	[ "$status" -eq 42 ]
	run "$FLINKSHIM_BIN" -- "$env_tool" exit 3
	[ "$status" -eq 3 ]
}

@test "death by a signal is seen as such: the command replaces flinkshim" {
	run "$FLINKSHIM_BIN" "$env_tool" term
	[ "$status" -eq 143 ]
}

@test "-- ends the options: what follows is the command" {
	run -127 --separate-stderr "$FLINKSHIM_BIN" -- --version
	[ "$status" -eq 127 ]
	[[ "$stderr" == *"--version: No such file or directory"* ]]
}

@test "LD_PRELOAD: the shim first, as an absolute path that exists" {
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" "$env_tool" print LD_PRELOAD
	[ "$status" -eq 0 ]
	[[ "$output" == /* ]]
	[[ "$output" != *:* ]]
	[[ "$(basename "$output")" == libflinkshim.so.* ]]
	[ -f "$output" ]
}

@test "LD_PRELOAD: existing entries are kept, after the shim" {
	cp "$FLINKSHIM_LIB" "$tmp/libother.so"
	run --separate-stderr env LD_PRELOAD="$tmp/libother.so" \
		"$FLINKSHIM_BIN" "$env_tool" print LD_PRELOAD
	[ "$status" -eq 0 ]
	[[ "$output" == */libflinkshim.so.*:"$tmp/libother.so" ]]
}

@test "LD_PRELOAD: nesting the wrapper adds no second copy" {
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" \
		"$FLINKSHIM_BIN" "$FLINKSHIM_BIN" "$env_tool" print LD_PRELOAD
	[ "$status" -eq 0 ]
	[[ "$output" != *:* ]]
	[[ "$output" == */libflinkshim.so.* ]]
}

@test "a missing library is a loud error before the command runs" {
	run --separate-stderr env FLINKSHIM_LIBRARY="$tmp/missing/libflinkshim.so.0" \
		"$FLINKSHIM_BIN" sh -c 'echo ran'
	[ "$status" -eq 125 ]
	[ -z "$output" ]
	[[ "$stderr" == *"cannot load the shim library $tmp/missing/libflinkshim.so.0"* ]]
}

@test "a library path with a space or a colon, which LD_PRELOAD would split: refused with 125, the command never runs" {
	local dir sep
	for dir in "my lib" "my:lib"; do
		mkdir "$tmp/$dir"
		cp "$FLINKSHIM_LIB" "$tmp/$dir/libflinkshim.so.0"
		run --separate-stderr env FLINKSHIM_LIBRARY="$tmp/$dir/libflinkshim.so.0" \
			"$FLINKSHIM_BIN" "$env_tool" print LD_PRELOAD
		[ "$status" -eq 125 ]
		[ -z "$output" ]
		case $dir in *:*) sep="a colon" ;; *) sep="a space" ;; esac
		[[ "$stderr" == "flinkshim: cannot preload the shim library $tmp/$dir/libflinkshim.so.0: its path holds $sep, where "*" splits LD_PRELOAD (which has no escaping)"* ]]
	done
	# A tab is part of a path for glibc's loader (not for musl's): preloaded as it is.
	if [ "${FLINKSHIM_LIBC:-}" = glibc ]; then
		mkdir "$tmp/tab"$'\t'"dir"
		cp "$FLINKSHIM_LIB" "$tmp/tab"$'\t'"dir/libflinkshim.so.0"
		run --separate-stderr env -u LD_PRELOAD FLINKSHIM_LIBRARY="$tmp/tab"$'\t'"dir/libflinkshim.so.0" \
			"$FLINKSHIM_BIN" "$env_tool" print LD_PRELOAD
		[ "$status" -eq 0 ]
		[ "$output" = "$tmp/tab"$'\t'"dir/libflinkshim.so.0" ]
		[ -z "$stderr" ]
	fi
}

@test "a file that is not a library is a loud error too" {
	echo 'not an ELF file' >"$tmp/libbroken.so"
	run --separate-stderr env FLINKSHIM_LIBRARY="$tmp/libbroken.so" \
		"$FLINKSHIM_BIN" sh -c 'echo ran'
	[ "$status" -eq 125 ]
	[ -z "$output" ]
	[[ "$stderr" == *"cannot load the shim library"* ]]
}

@test "--debug turns on FLINKSHIM_DEBUG in the command" {
	run --separate-stderr env -u FLINKSHIM_DEBUG "$FLINKSHIM_BIN" --debug "$env_tool" print FLINKSHIM_DEBUG
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
	run --separate-stderr env -u FLINKSHIM_DEBUG "$FLINKSHIM_BIN" "$env_tool" print FLINKSHIM_DEBUG unset
	[ "$output" = unset ]
}

@test "a statically linked command: a warning that the preload cannot reach it, and it still runs" {
	run --separate-stderr "$FLINKSHIM_BIN" "$HELPERS/static_true"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"static_true is statically linked"*": LD_PRELOAD cannot reach it"* ]]
	run --separate-stderr "$FLINKSHIM_BIN" "$env_tool" exit 0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

# A program built for the other C library than the shim's, printing LD_PRELOAD (or "unset"):
# built here with the other compiler (gcc for a musl build, musl-gcc for a glibc one).
build_other_libc_program() {
	local cc
	if [ "${FLINKSHIM_LIBC:-}" = musl ]; then
		cc=cc other_libc=glibc
	elif [ "${FLINKSHIM_LIBC:-}" = glibc ]; then
		cc=musl-gcc other_libc=musl
	else
		skip "the shim's C library (${FLINKSHIM_LIBC:-unknown}) has no known other"
	fi
	command -v "$cc" >/dev/null || skip "$cc is not installed: no $other_libc program to run"
	printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' \
		'int main(void) { const char *v = getenv("LD_PRELOAD"); fputs(v ? v : "unset", stdout); return 0; }' \
		>"$tmp/other.c"
	"$cc" -o "$tmp/other" "$tmp/other.c" || skip "$cc cannot build a program here"
	printf '#!%s\n' "$tmp/other" >"$tmp/other-script"
	chmod 755 "$tmp/other-script"
}

@test "a program of the other C library: refused (glibc's loader) or warned (musl's), and --auto traces it" {
	build_other_libc_program
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" "$tmp/other"
	if [ "$other_libc" = glibc ]; then
		# glibc's loader cannot load a musl library: the program would not start at all.
		[ "$status" -eq 125 ]
		[ -z "$output" ]
		[[ "$stderr" == *"$tmp/other runs under glibc's loader ("*"), and this flinkshim is built for musl: glibc cannot load its library"*"flinkshim --trace"* ]]
	else
		# musl's loader takes the glibc build when every symbol it needs exists in musl.
		[ "$status" -eq 0 ]
		[[ "$output" == */libflinkshim.so.* ]]
		[[ "$stderr" == *"$tmp/other runs under musl's loader ("*"), and this flinkshim is built for glibc: the loader may refuse its library"* ]]
	fi
	# A script for such a program: the loader that counts is its interpreter's.
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" "$tmp/other-script"
	[[ "$stderr" == *"$tmp/other-script (a script for $tmp/other) runs under $other_libc's loader"* ]]
	# --auto: no preload at all (LD_PRELOAD stays unset), the trace mode, no warning. Only
	# x86_64 builds have a tracer (and only for programs of their own architecture).
	[ "${FLS_HOST_CPU:-$(uname -m)}" = x86_64 ] ||
		skip "--auto: --trace supports x86_64 only so far (this build is for $FLS_HOST_CPU)"
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" --auto "$tmp/other"
	[ "$status" -eq 0 ]
	[ "$output" = unset ]
	[ -z "$stderr" ]
	# And a program of our own C library is still preloaded by --auto.
	run --separate-stderr env -u LD_PRELOAD "$FLINKSHIM_BIN" --auto "$env_tool" print LD_PRELOAD
	[ "$status" -eq 0 ]
	[[ "$output" == */libflinkshim.so.* ]]
}

@test "end to end: a legacy program fails without /proc, and works under flinkshim" {
	need_namespaces
	run noproc "$HELPERS/legacy_tmpfile" "$tmp" without "content-1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"No such file or directory (errno 2)"* ]]
	[ ! -e "$tmp/without" ]
	run --separate-stderr noproc "$FLINKSHIM_BIN" --debug "$HELPERS/legacy_tmpfile" "$tmp" with "content-2"
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/with")" = content-2 ]
	[[ "$stderr" == *"flinkshim: linkat /proc/self/fd/"*" -> $tmp/with: direct AT_EMPTY_PATH: ok"* ]]
}

@test "--check as root without /proc: the probe says YES and exits 0" {
	need_namespaces
	run noproc "$FLINKSHIM_BIN" --check "$tmp"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/proc:"*"NOT mounted"* ]]
	[[ "$output" == *"CAP_DAC_READ_SEARCH:"*"yes"* ]]
	[[ "$output" =~ "inherited by a child:"\ +ok ]]
	[[ "$(tail -n 1 <<<"$output")" == "verdict: YES:"* ]]
	[ -z "$(ls -A "$tmp")" ]
}

@test "--check unprivileged without /proc: PARTLY, the inherited-fd case refused, exit 1" {
	need_namespaces
	# The build tree may sit under a directory the unprivileged user cannot enter.
	cp "$FLINKSHIM_BIN" "$tmp/flinkshim"
	mkdir "$tmp/.libs" "$tmp/probe"
	cp "$FLINKSHIM_LIB" "$tmp/.libs/"
	touch "$tmp/libflinkshim.la"
	chmod -R a+rX "$tmp"
	chmod 1777 "$tmp/probe"
	if [ "$(id -u)" = 0 ]; then
		run noproc setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			--bounding-set=-all "$tmp/flinkshim" --check "$tmp/probe"
	else
		run "$FLS_PRIVATE_NS" --noproc --unpriv "$tmp/flinkshim" --check "$tmp/probe"
	fi
	[ "$status" -eq 1 ]
	[[ "$output" == *"CAP_DAC_READ_SEARCH:"*"no"* ]]
	[[ "$output" =~ "inherited by a child:"\ +ENOENT ]]
	[[ "$(tail -n 1 <<<"$output")" == "verdict: PARTLY:"* ]]
	[ -z "$(ls -A "$tmp/probe")" ]
}

@test "--check with /proc mounted: the /proc form is probed too" {
	run "$FLINKSHIM_BIN" --check "$tmp"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/proc:"*"mounted"* ]]
	[[ "$output" == *"/proc form:"*"ok"* ]]
	[ -z "$(ls -A "$tmp")" ]
}

@test "--check on a directory that does not exist: status 2 and why" {
	run "$FLINKSHIM_BIN" --check "$tmp/nope"
	[ "$status" -eq 2 ]
	[[ "$(tail -n 1 <<<"$output")" == "verdict: cannot probe: $tmp/nope: No such file or directory" ]]
}
