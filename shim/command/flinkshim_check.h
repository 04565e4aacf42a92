/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef FLINKSHIM_CHECK_H
#define FLINKSHIM_CHECK_H

/*
 * `flinkshim --check [DIR]`: a plain-language report on whether legacy programs that link
 * O_TMPFILE files through /proc/self/fd will work here under the shim, with a real probe in
 * dir. lib is the library the wrapper would preload. Returns the exit status: 0 they will,
 * 1 they will not (or only in part), 2 the probe itself could not run.
 */
int flinkshim_check(const char *dir, const char *lib);

#endif
