/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libcountlink: another preload that wraps linkat(), the way fakeroot or an auditing tool
 * does. It writes one line per call to stderr and calls through:
 *
 *     countlink: olddirfd=-100 oldpath="/proc/self/fd/3" flags=0x400
 *
 * Loaded after flinkshim (LD_PRELOAD="shim:count") it must see the rewritten direct form,
 * because the shim hands its work to the next linkat in the chain, not to libc behind
 * everyone's back. Loaded before it ("count:shim") it sees the program's own call and the
 * shim must still rewrite it.
 */
#define _GNU_SOURCE 1
#include "config.h"

/* Not <unistd.h>: glibc declares linkat() __nonnull there, and the compiler would then
 * drop the NULL check below (the shim's interpose.c does the same). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/uio.h>

typedef int (*linkat_fn)(int, const char *, int, const char *, int);

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags);

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	static linkat_fn next;
	char line[4200];
	int saved = errno;
	int len;

	if (next == NULL)
		next = (linkat_fn)dlsym(RTLD_NEXT, "linkat");
	len = snprintf(line, sizeof(line), "countlink: olddirfd=%d oldpath=\"%s\" flags=0x%x\n",
		       olddirfd, oldpath != NULL ? oldpath : "(null)", (unsigned)flags);
	if (len > (int)sizeof(line) - 1)
		len = (int)sizeof(line) - 1;
	/* One write to stderr: lines of concurrent callers do not interleave. A lost line is
	 * not reported: it must not change what the program sees. */
	if (len > 0) {
		struct iovec iov = { line, (size_t)len };

		(void)!writev(2, &iov, 1);
	}
	if (next == NULL) {
		errno = ENOSYS;
		return -1;
	}
	/* The caller's errno, as it was: a wrapper must not leak its own. */
	errno = saved;
	return next(olddirfd, oldpath, newdirfd, newpath, flags);
}
