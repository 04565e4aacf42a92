/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The errno values printed by name: the shim's diagnostics and every test program use this
 * one list, so a name reads the same in a diagnostic line, a bats assertion and the parity
 * matrix. FLINKSHIM_ERRNO_LIST(X) expands X(name) once per value; a caller builds its own
 * switch from it (no table, no string in memory that the list does not use).
 * Only distinct values may appear: EWOULDBLOCK (EAGAIN) and ENOTSUP (EOPNOTSUPP) would
 * repeat a case label on Linux.
 */
#ifndef FLINKSHIM_ERRNO_LIST_H
#define FLINKSHIM_ERRNO_LIST_H

#include <errno.h>

#define FLINKSHIM_ERRNO_LIST(X) \
	X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(EBADF) X(EAGAIN) X(ENOMEM) X(EACCES) \
	X(EFAULT) X(EBUSY) X(EEXIST) X(EXDEV) X(ENODEV) X(ENOTDIR) X(EISDIR) X(EINVAL) \
	X(ENFILE) X(EMFILE) X(ENOSPC) X(EROFS) X(EMLINK) X(ENAMETOOLONG) X(ENOSYS) X(ELOOP) \
	X(EOPNOTSUPP) X(EOVERFLOW) X(EDQUOT) X(ESTALE)

/* One case of a switch on an errno value, returning its name. */
#define FLINKSHIM_ERRNO_CASE(name) \
	case name:                 \
		return #name;

#endif
