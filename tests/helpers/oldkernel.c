/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oldkernel CMD [ARG...]: run CMD as if on a kernel before 6.10 (or without
 * CAP_DAC_READ_SEARCH on any kernel): linkat() with AT_EMPTY_PATH in its flags fails with
 * ENOENT, which is exactly how such a kernel refuses the direct form. The filter
 * (oldkernel_filter.c) binds CMD and everything CMD starts.
 *
 * Exit status: CMD's, or 125 if the filter could not be installed (the suites skip then),
 * 127 if CMD could not be run.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "oldkernel_filter.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: oldkernel CMD [ARG...]\n", stderr);
		return 125;
	}
	if (!oldkernel_filter_supported) {
		fputs("oldkernel: no seccomp support for this architecture or these headers\n", stderr);
		return 125;
	}
	if (oldkernel_filter_install() != 0) {
		fprintf(stderr, "oldkernel: cannot install the seccomp filter: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "oldkernel: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
