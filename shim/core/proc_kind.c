/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Measuring costs up to four syscalls (statfs, and for a directory that is not procfs an
 * open, one getdents and a close); the rewrite's fast path makes one, the link. So the kind
 * is measured once and remembered, and the calls of this process that can change it
 * (shim/interpose/watched_calls.c) make it be measured again. What the process cannot be
 * seen to do is the residual, documented in README: another process mounting over /proc in
 * our mount namespace, files created later in an empty /proc directory, and chroot or mount
 * through syscall(2) or a raw system call.
 *
 * One word holds the kind and a generation: a measurement made while a forget happened is
 * used for that one call but not remembered, since it may describe the old root.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "proc_kind.h"

#include "export.h"
#include "real_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

/* From <linux/magic.h>, spelled out to keep kernel headers optional. */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0

#define KIND_BITS 2UL
#define KIND_MASK ((1UL << KIND_BITS) - 1) /* 0: not measured since the last forget */

/* Not static: proc_kind_get() reads it inline (hidden: never exported). */
FLINKSHIM_HIDDEN unsigned long flinkshim_proc_kind_word;
#define kind_word flinkshim_proc_kind_word

/* Does the directory hold anything but "." and ".."? One getdents64 of 512 bytes always
 * shows a third entry if there is one (an entry takes at most 280 bytes). */
static enum proc_kind directory_kind(const char *path)
{
	unsigned long buf[64]; /* aligned for struct linux_dirent64 */
	const char *p = (const char *)buf;
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n, off;
	enum proc_kind kind = PROC_KIND_NONE;

	if (fd < 0)
		return errno == ENOTDIR || errno == ENOENT ? PROC_KIND_NONE : PROC_KIND_OTHER;
	n = real_syscall6(SYS_getdents64, fd, (long)buf, (long)sizeof(buf), 0, 0, 0);
	if (n < 0)
		kind = PROC_KIND_OTHER;
	/* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[]. */
	for (off = 0; off < n && kind == PROC_KIND_NONE;) {
		const char *name = p + off + 19;
		unsigned short reclen;

		__builtin_memcpy(&reclen, p + off + 16, sizeof(reclen));
		if (reclen == 0)
			break;
		if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))))
			kind = PROC_KIND_OTHER;
		off += reclen;
	}
	close(fd);
	return kind;
}

static enum proc_kind measure(void)
{
	struct statfs sfs;
	int saved = errno;
	enum proc_kind kind;

	if (statfs("/proc", &sfs) != 0)
		kind = errno == ENOENT || errno == ENOTDIR ? PROC_KIND_NONE : PROC_KIND_OTHER;
	else if (sfs.f_type == PROC_SUPER_MAGIC_VALUE)
		kind = PROC_KIND_PROCFS;
	else
		kind = directory_kind("/proc");
	errno = saved;
	return kind;
}

enum proc_kind proc_kind_measure(unsigned long w)
{
	enum proc_kind kind = measure();

	/* Remembered only if no forget came in between. */
	__atomic_compare_exchange_n(&kind_word, &w, (w & ~KIND_MASK) | (unsigned long)kind, 0,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return kind;
}

void proc_kind_forget(void)
{
	unsigned long w = __atomic_load_n(&kind_word, __ATOMIC_ACQUIRE);

	/* A new generation with no kind: a measurement under way cannot store its result. */
	while (!__atomic_compare_exchange_n(&kind_word, &w, ((w >> KIND_BITS) + 1) << KIND_BITS, 0,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
}
