#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1-or-later
# One flinkshim for the programs of two architectures (Debian multiarch): installed in
# PREFIX/lib/TRIPLET, the command preloads PREFIX/$LIB/libflinkshim.so.0, which ld.so expands
# for each program to its own architecture's directory. An i386 legacy program is then served
# where the i386 build of the library is installed (libflinkshim0:i386), and the command says
# plainly what it cannot serve: an i386 program without that library, and sends it, and a
# static i386 program, to --trace, which rewrites i386 calls on x86-64 (as --auto does).
#
# tests/multiarch.mk builds the i386 library and programs and a flinkshim that believes it is
# installed under tests/multiarch/usr/lib/TRIPLET; configure enables them where the compiler
# builds i386 programs (gcc-multilib).

bats_require_minimum_version 1.5.0

setup_file() {
	root=$top_builddir/tests/multiarch
	export MA_BIN=$top_builddir/tests/helpers/flinkshim_multiarch MA_ROOT=$root
	export MA_I386=$root/i386
}

setup() {
	[ -x "$MA_BIN" ] && [ -x "$MA_I386/legacy_tmpfile" ] ||
		skip "no i386 build beside this one (configure makes it for x86_64 glibc builds whose \$CC -m32 builds i386 programs: Debian's gcc-multilib)"
	native=$(gcc -print-multiarch 2>/dev/null)
	i386=i386-linux-gnu
	rm -rf "$MA_ROOT/usr"
	mkdir -p "$MA_ROOT/usr/lib/$native" "$MA_ROOT/usr/lib/$i386"
	cp "$FLINKSHIM_LIB" "$MA_ROOT/usr/lib/$native/"
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$MA_ROOT/usr" "${tmp:-}"
}

noproc() {
	"$FLS_PRIVATE_NS" --noproc "$@"
}

need_noproc() {
	local why
	why=$("$FLS_PRIVATE_NS" --noproc true 2>&1) || skip "no /proc-less world here: ${why#private_ns: }"
}

@test "installed in PREFIX/lib/TRIPLET: LD_PRELOAD names the library through \$LIB" {
	run --separate-stderr env -u LD_PRELOAD "$MA_BIN" "$HELPERS/env_tool" print LD_PRELOAD
	[ "$status" -eq 0 ]
	[ "$output" = "$MA_ROOT/usr/\$LIB/libflinkshim.so.0" ]
	[ -z "$stderr" ]
	# The build tree's flinkshim keeps the absolute path.
	run env -u LD_PRELOAD "$FLINKSHIM_BIN" "$HELPERS/env_tool" print LD_PRELOAD
	[ "$output" = "$FLINKSHIM_LIB" ]
}

@test "\$LIB not leading to the installed library (none there): the absolute path" {
	rm "$MA_ROOT/usr/lib/$native/libflinkshim.so.0"
	run --separate-stderr env -u LD_PRELOAD "$MA_BIN" "$HELPERS/env_tool" print LD_PRELOAD
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"cannot load the shim library $MA_ROOT/usr/lib/$native/libflinkshim.so.0"* ]]
}

@test "an i386 program, no i386 library installed: a plain warning, and it runs as without the shim" {
	need_noproc
	run --separate-stderr noproc "$MA_BIN" "$MA_I386/legacy_tmpfile" "$tmp" a
	[ "$status" -eq 1 ]
	[[ "$output" == *"No such file or directory"* ]]
	[[ "$stderr" == *"flinkshim: warning: $MA_I386/legacy_tmpfile runs as a 32-bit x86 (i386) program, and this flinkshim's library is built for 64-bit x86-64 programs: the loader will ignore it"*"run it with --trace"* ]]
	[ ! -e "$tmp/a" ]
}

@test "an i386 program with the i386 library installed: no warning, and it links without /proc" {
	need_noproc
	# Where glibc's i386 loader takes $LIB: lib/i386-linux-gnu for libc6:i386 (multiarch),
	# lib32 for libc6-i386 (gcc-multilib's). Installed in both, as a package for either would.
	mkdir -p "$MA_ROOT/usr/lib32"
	cp "$MA_I386/libflinkshim.so.0" "$MA_ROOT/usr/lib/$i386/"
	cp "$MA_I386/libflinkshim.so.0" "$MA_ROOT/usr/lib32/"
	chmod 1777 "$tmp"
	run --separate-stderr noproc "$MA_BIN" --debug "$MA_I386/legacy_tmpfile" "$tmp" a content
	[ "$status" -eq 0 ]
	[ "$(cat "$tmp/a")" = content ]
	# One line: the shim's own, from the i386 library.
	local line='^flinkshim: linkat /proc/self/fd/[0-9]+ -> .*: direct AT_EMPTY_PATH: ok$'
	[[ "$stderr" =~ $line ]]
	# And the native programs still get the native build, from the same LD_PRELOAD.
	run --separate-stderr noproc "$MA_BIN" "$HELPERS/legacy_tmpfile" "$tmp" b content
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "a static i386 program: no preload reaches it; the warning sends it to --trace, which rewrites it, as --auto does" {
	need_noproc
	chmod 1777 "$tmp"
	run --separate-stderr noproc "$MA_BIN" "$MA_I386/legacy_tmpfile_static" "$tmp" a
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"legacy_tmpfile_static is statically linked: LD_PRELOAD cannot reach it, so its /proc/self/fd links are not rewritten (run it with flinkshim --trace, or --auto"* ]]
	[ ! -e "$tmp/a" ]
	# --trace rewrites i386 calls (the tracer traps int 0x80's linkat too): no warning.
	run --separate-stderr noproc "$MA_BIN" --trace "$MA_I386/legacy_tmpfile_static" "$tmp" b content
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(cat "$tmp/b")" = content ]
	# --auto chooses it.
	run --separate-stderr noproc "$MA_BIN" --auto "$MA_I386/legacy_tmpfile_static" "$tmp" c content
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(cat "$tmp/c")" = content ]
}

@test "a dynamic i386 program with no i386 library: --auto traces it" {
	need_noproc
	chmod 1777 "$tmp"
	run --separate-stderr noproc "$MA_BIN" --auto "$MA_I386/legacy_tmpfile" "$tmp" a content
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(cat "$tmp/a")" = content ]
}
