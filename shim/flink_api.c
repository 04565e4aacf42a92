/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The public API: flink() and flinkat(). */
#define _GNU_SOURCE 1
#include "config.h"

#include "flink.h"

#include "export.h"
#include "flink_engine.h"

#include <errno.h>
#include <fcntl.h>

#define FLINK_KNOWN_FLAGS FLINK_FLAGS_NONE

/* /proc/thread-self rather than /proc/self: the calling thread's own fd table, even in a
 * thread that unshared CLONE_FILES. */
#define PROC_FD_PREFIX "/proc/thread-self/fd/"

static void format_proc_path(char *buf, int fd)
{
	char digits[12];
	int n = 0;
	unsigned u = (unsigned)fd;
	const char *p;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	for (p = PROC_FD_PREFIX; *p != '\0'; p++)
		*buf++ = *p;
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

static int do_flinkat(int fd, int newdirfd, const char *newpath, int flags)
{
	char proc_path[sizeof(PROC_FD_PREFIX) + 11];
	struct flink_request req;

	if ((flags & ~FLINK_KNOWN_FLAGS) != 0) {
		errno = EINVAL;
		return -1;
	}
	/* A negative fd would make the direct form name newdirfd's or the cwd's directory. */
	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	format_proc_path(proc_path, fd);
	req.fd = fd;
	req.newdirfd = newdirfd;
	req.newpath = newpath;
	req.proc_path = proc_path;
	req.legacy = 0;
	req.caller = "flinkat";
	return flink_engine_run(&req);
}

FLINKSHIM_EXPORT int flinkat(int fd, int newdirfd, const char *newpath, int flags)
{
	return do_flinkat(fd, newdirfd, newpath, flags);
}

FLINKSHIM_EXPORT int flink(int fd, const char *newpath)
{
	return do_flinkat(fd, AT_FDCWD, newpath, 0);
}
