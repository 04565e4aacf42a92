/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interposers: linkat() and syscall(SYS_linkat, ...). Thin on purpose: recognise the
 * legacy idiom, hand it to the engine, pass everything else to the next symbol untouched
 * (errno included), so another preload such as fakeroot still sees it.
 *
 * <unistd.h> is not included here: glibc declares linkat() with __nonnull, and the compiler
 * would then be free to delete our NULL check on oldpath.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "export.h"
#include "flink_engine.h"
#include "procfd_owner.h"
#include "real_syms.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/syscall.h>

FLINKSHIM_EXPORT int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
			    int flags);
FLINKSHIM_EXPORT long syscall(long number, ...);

/* The idiom is exactly linkat(<ignored>, "/proc/.../fd/N", newdirfd, newpath,
 * AT_SYMLINK_FOLLOW). Any other flag bit makes it some other call: AT_EMPTY_PATH is already
 * the direct form, and unknown bits earn the kernel's EINVAL. */
static int rewrite_legacy(const char *caller, const char *oldpath, int newdirfd,
			  const char *newpath, int flags, int *result)
{
	struct flink_request req;
	int fd;

	if (flags != AT_SYMLINK_FOLLOW || oldpath == NULL || !procfd_own_fd(oldpath, &fd, caller))
		return 0;
	req.fd = fd;
	req.newdirfd = newdirfd;
	req.newpath = newpath;
	req.proc_path = oldpath;
	req.legacy = 1;
	req.caller = caller;
	*result = flink_engine_run(&req);
	return 1;
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	int result;

	if (rewrite_legacy("linkat", oldpath, newdirfd, newpath, flags, &result))
		return result;
	return real_linkat(olddirfd, oldpath, newdirfd, newpath, flags);
}

/* The number is checked before anything else: every other syscall costs one compare. All six
 * argument registers are forwarded, as the caller's syscall() would have passed them. */
long syscall(long number, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_linkat) {
		int result;

		/* The kernel reads the dirfds and flags as int: so do we. The paths arrive as
		 * integers, as syscall() passes every argument. */
		const char *oldpath = (const char *)a[1]; /* NOLINT(performance-no-int-to-ptr) */
		const char *newpath = (const char *)a[3]; /* NOLINT(performance-no-int-to-ptr) */

		if (rewrite_legacy("syscall(SYS_linkat)", oldpath, (int)a[2], newpath, (int)a[4],
				   &result))
			return result;
	}
	return real_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
