/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* errno values by name, for test diagnostics: "ENOENT" says more than "2" in a TAP log. */
#ifndef FLINKSHIM_TESTS_ERRNO_NAME_H
#define FLINKSHIM_TESTS_ERRNO_NAME_H

#include <errno.h>
#include <stdio.h>

/* Returns a static string, or writes "errno N" into buf (at least 24 bytes). */
static inline const char *errno_name(int err, char *buf)
{
	switch (err) {
	case 0: return "success";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	case EMLINK: return "EMLINK";
	case EROFS: return "EROFS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS: return "ENOSYS";
	default:
		snprintf(buf, 24, "errno %d", err);
		return buf;
	}
}

#endif
