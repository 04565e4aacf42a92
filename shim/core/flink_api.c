/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The public API: flink() and flinkat(). */
#define _GNU_SOURCE 1
#include "config.h"

#include "flink.h"

#include "export.h"
#include "flink_engine.h"
#include "flink_replace.h"

#include <errno.h>
#include <fcntl.h>

#define FLINK_KNOWN_FLAGS (FLINK_REPLACE | FLINK_SYNC)

static int do_flinkat(int fd, int newdirfd, const char *newpath, int flags)
{
	int saved = errno;
	int r;

	if ((flags & ~FLINK_KNOWN_FLAGS) != 0) {
		errno = EINVAL;
		return -1;
	}
	/* A negative fd would make the direct form name newdirfd's or the cwd's directory. */
	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	/* Data first, name second: a crash must never leave the name on an incomplete file. */
	if ((flags & FLINK_SYNC) != 0 && flink_sync_file(fd, newdirfd, newpath) != 0)
		return -1;
	if ((flags & FLINK_REPLACE) != 0)
		r = flink_replace(fd, newdirfd, newpath);
	else
		r = flink_engine_fd(fd, newdirfd, newpath, "flinkat");
	if (r == 0 && (flags & FLINK_SYNC) != 0)
		r = flink_sync_parent(newdirfd, newpath);
	if (r == 0)
		errno = saved; /* a temporary name that was taken, say, must not show */
	return r;
}

FLINKSHIM_EXPORT int flinkat(int fd, int newdirfd, const char *newpath, int flags)
{
	return do_flinkat(fd, newdirfd, newpath, flags);
}

FLINKSHIM_EXPORT int flink(int fd, const char *newpath)
{
	return do_flinkat(fd, AT_FDCWD, newpath, 0);
}
