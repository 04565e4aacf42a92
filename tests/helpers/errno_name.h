/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The helpers print errno by name ("ENOENT"), so that the bats suites compare names rather
 * than numbers that differ between architectures. glibc's strerrorname_np() would do, but
 * only on glibc >= 2.32; the helpers must build wherever the library does.
 */
#ifndef FLINKSHIM_TESTS_ERRNO_NAME_H
#define FLINKSHIM_TESTS_ERRNO_NAME_H

/* "ENOENT", or the number in decimal for an errno this table does not know. The result
 * lives in static storage for unknown values: not for use from two threads at once. */
const char *errno_name(int err);

#endif
