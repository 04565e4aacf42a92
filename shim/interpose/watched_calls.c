/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls the shim watches and never changes, because they change what its checks rely on:
 *   - unshare(CLONE_FILES) and close_range(CLOSE_RANGE_UNSHARE) give the calling thread an fd
 *     table of its own. Where kcmp(2) cannot tell tables apart, the shim counts on "one table
 *     for every thread" only while no such call was made (shim/core/procfd_owner.c).
 *   - chroot(), mount(), umount(), umount2(), setns() and unshare(CLONE_NEWNS) can change what
 *     /proc is, which the shim measures once and remembers (shim/core/proc_kind.c).
 * Each goes on to the next definition (libc's, or another preload's: fakechroot's chroot()
 * fakes the call, and must still see it), arguments and errno untouched.
 *
 * Not seen, and documented (README, Limitations): the same calls through syscall(2), whose
 * assembly fast path checks SYS_linkat alone (every other number would pay two more
 * instructions), or as raw system calls; pivot_root(2) and the new mount API (glibc has no
 * pivot_root(), and move_mount() only since 2.36); and threads made by clone(2) without
 * CLONE_FILES. pthread_create() always shares the table, and a thread made through libc's
 * clone() cannot use libc (it shares its creator's errno and thread pointer); runtimes that
 * make their own threads (Go's) issue raw system calls, which no preload sees.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "export.h"
#include "proc_kind.h"
#include "procfd_owner.h"
#include "raw_syscall.h"
#include "real_syms.h"

#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1) /* <linux/close_range.h> */
#endif

FLINKSHIM_EXPORT int unshare(int flags);
FLINKSHIM_EXPORT int chroot(const char *path);
FLINKSHIM_EXPORT int mount(const char *source, const char *target, const char *fstype,
			   unsigned long flags, const void *data);
FLINKSHIM_EXPORT int umount(const char *target);
FLINKSHIM_EXPORT int umount2(const char *target, int flags);
FLINKSHIM_EXPORT int setns(int fd, int nstype);

/* The system call itself, libc's way (-1 and errno), where there is no next definition. */
static int raw(long nr, long a1, long a2, long a3, long a4, long a5)
{
	return (int)raw_syscall_errno(raw_syscall6(nr, a1, a2, a3, a4, a5, 0));
}

int unshare(int flags)
{
	int (*next)(int) = (int (*)(int))real_watched(REAL_UNSHARE);
	int r;

	/* Before the call: a thread that checks meanwhile must already doubt. */
	if ((flags & CLONE_FILES) != 0)
		procfd_owner_note_private_table();
	r = next != NULL ? next(flags) : raw(SYS_unshare, flags, 0, 0, 0, 0);
	if ((flags & CLONE_NEWNS) != 0)
		proc_kind_forget();
	return r;
}

#if defined(HAVE_CLOSE_RANGE)
FLINKSHIM_EXPORT int close_range(unsigned int first, unsigned int last, int flags);

int close_range(unsigned int first, unsigned int last, int flags)
{
	int (*next)(unsigned int, unsigned int, int) =
		(int (*)(unsigned int, unsigned int, int))real_watched(REAL_CLOSE_RANGE);

	if (((unsigned int)flags & CLOSE_RANGE_UNSHARE) != 0)
		procfd_owner_note_private_table();
	if (next != NULL)
		return next(first, last, flags);
	return raw(SYS_close_range, (long)first, (long)last, flags, 0, 0);
}
#endif

/* After the call, not before: a measurement made meanwhile in the old root must not stay. */
int chroot(const char *path)
{
	int (*next)(const char *) = (int (*)(const char *))real_watched(REAL_CHROOT);
	int r = next != NULL ? next(path) : raw(SYS_chroot, (long)path, 0, 0, 0, 0);

	proc_kind_forget();
	return r;
}

int mount(const char *source, const char *target, const char *fstype, unsigned long flags,
	  const void *data)
{
	int (*next)(const char *, const char *, const char *, unsigned long, const void *) =
		(int (*)(const char *, const char *, const char *, unsigned long,
			 const void *))real_watched(REAL_MOUNT);
	int r = next != NULL ? next(source, target, fstype, flags, data)
			     : raw(SYS_mount, (long)source, (long)target, (long)fstype, (long)flags,
				   (long)data);

	proc_kind_forget();
	return r;
}

int umount(const char *target)
{
	int (*next)(const char *) = (int (*)(const char *))real_watched(REAL_UMOUNT);
	int r = next != NULL ? next(target) : raw(SYS_umount2, (long)target, 0, 0, 0, 0);

	proc_kind_forget();
	return r;
}

int umount2(const char *target, int flags)
{
	int (*next)(const char *, int) = (int (*)(const char *, int))real_watched(REAL_UMOUNT2);
	int r = next != NULL ? next(target, flags) : raw(SYS_umount2, (long)target, flags, 0, 0, 0);

	proc_kind_forget();
	return r;
}

int setns(int fd, int nstype)
{
	int (*next)(int, int) = (int (*)(int, int))real_watched(REAL_SETNS);
	int r = next != NULL ? next(fd, nstype) : raw(SYS_setns, fd, nstype, 0, 0, 0);

	proc_kind_forget();
	return r;
}
