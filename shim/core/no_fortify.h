/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Forced in front of every source file of the library (-include, shim/local.mk), after the
 * command line's -D and -U: the library is built without _FORTIFY_SOURCE whatever the build
 * flags say (Debian's dpkg-buildflags, Fedora's -Wp,-D_FORTIFY_SOURCE=3, a compiler that
 * defines it by default). Fortified calls import __memcpy_chk and its kin, which musl's loader
 * does not have (a glibc build of the library must load into musl programs too), and whose
 * failure path, glibc's __fortify_fail, is not async-signal-safe: tests/undefined_symbols.sh
 * refuses them. The command and the test programs keep the fortification the build asks for.
 */
#undef _FORTIFY_SOURCE
