/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LD_PRELOAD value the wrapper sets: our library first, then every entry that was there.
 * Pure string code, unit-tested.
 */
#ifndef FLINKSHIM_PRELOAD_ENV_H
#define FLINKSHIM_PRELOAD_ENV_H

#include <stddef.h>

/*
 * Write into out (size outsz) the list "lib:entry:entry...", where the entries are those of
 * existing (NULL or "" for none; separated as this C library's loader separates them:
 * preload_is_separator()) minus any copy of the shim (an entry whose file name starts with "libflinkshim.so"):
 * ours goes first so that a path-rewriting preload such as fakechroot cannot rewrite the /proc
 * path before we see it, and nesting the wrapper adds nothing. Returns the length written, or
 * (size_t)-1 if out is too small.
 */
size_t preload_compose(const char *lib, const char *existing, char *out, size_t outsz);

/* Does the dynamic loader of this build's C library end an LD_PRELOAD entry at c? glibc's
 * splits at spaces and colons only (a tab is part of a path there), musl's at colons and
 * any whitespace. */
int preload_is_separator(char c);

#endif
