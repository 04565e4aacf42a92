/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hostile arguments, each passed to linkat() (and a few to syscall(SYS_linkat)): the shim must
 * hand them to the kernel and return the kernel's answer, never crash. One line per case,
 * "name ret errno", so that runs with and without the shim, with and without /proc, can be
 * compared line by line.
 * usage: hostile DIR
 */
#define _GNU_SOURCE 1
#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int dirfd_;
static char target[64];
static int counter;

static const char *fresh_name(void)
{
	snprintf(target, sizeof(target), "t%d", counter++);
	return target;
}

static void report(const char *name, long ret, int err)
{
	printf("%s ret=%ld errno=%s\n", name, ret, ret == 0 ? "-" : errno_name(err));
}

static void try_linkat(const char *name, int olddirfd, const char *oldpath, int newdirfd,
		       const char *newpath, int flags)
{
	long r;

	errno = 0;
	r = linkat(olddirfd, oldpath, newdirfd, newpath, flags);
	report(name, r, errno);
}

static void try_syscall(const char *name, long olddirfd, const char *oldpath, long newdirfd,
			const char *newpath, long flags)
{
	long r;

	errno = 0;
	r = syscall(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
	report(name, r, errno);
}

int main(int argc, char **argv)
{
	static char longpath[PATH_MAX + 64];
	char idiom[64];
	char *unmapped;
	int fd;

	if (argc != 2 || (dirfd_ = open(argv[1], O_RDONLY | O_DIRECTORY)) < 0)
		return 2;
	fd = openat(dirfd_, ".", O_TMPFILE | O_RDWR, 0600);
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || unmapped == MAP_FAILED || munmap(unmapped, 4096) != 0)
		return 2;
	snprintf(idiom, sizeof(idiom), "/proc/self/fd/%d", fd);

	try_linkat("oldpath-null", AT_FDCWD, NULL, dirfd_, fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("oldpath-one", AT_FDCWD, (const char *)1, dirfd_, fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("oldpath-zero-page", AT_FDCWD, (const char *)4095, dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	try_linkat("oldpath-kernel", AT_FDCWD, (const char *)(uintptr_t)0xffff800000000000ULL,
		   dirfd_, fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("oldpath-all-ones", AT_FDCWD, (const char *)UINTPTR_MAX, dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	try_linkat("oldpath-unmapped-flags0", AT_FDCWD, unmapped, dirfd_, fresh_name(), 0);
	try_linkat("newpath-null", AT_FDCWD, idiom, dirfd_, NULL, AT_SYMLINK_FOLLOW);
	try_linkat("newpath-unmapped", AT_FDCWD, idiom, dirfd_, unmapped, AT_SYMLINK_FOLLOW);
	try_linkat("newpath-kernel", AT_FDCWD, idiom, dirfd_,
		   (const char *)(uintptr_t)0xffff800000000000ULL, AT_SYMLINK_FOLLOW);
	memset(longpath, '/', sizeof(longpath) - 1);
	memcpy(longpath, "/proc/self/fd/", 14);
	longpath[sizeof(longpath) - 1] = '\0';
	try_linkat("oldpath-longer-than-path-max", AT_FDCWD, longpath, dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	memset(longpath, '/', sizeof(longpath) - 1);
	snprintf(longpath + sizeof(longpath) - 32, 32, "proc/self/fd/%d", fd);
	try_linkat("idiom-longer-than-path-max", AT_FDCWD, longpath, dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	memset(longpath, 'n', 300);
	longpath[300] = '\0';
	try_linkat("newpath-component-too-long", AT_FDCWD, idiom, dirfd_, longpath,
		   AT_SYMLINK_FOLLOW);
	try_linkat("fd-20-digits", AT_FDCWD, "/proc/self/fd/99999999999999999999", dirfd_,
		   fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("fd-int-max", AT_FDCWD, "/proc/self/fd/2147483647", dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	try_linkat("fd-int-max-plus-one", AT_FDCWD, "/proc/self/fd/2147483648", dirfd_,
		   fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("fd-uint-max-wraps-to-minus-one", AT_FDCWD, "/proc/self/fd/4294967295", dirfd_,
		   fresh_name(), AT_SYMLINK_FOLLOW);
	try_linkat("negative-olddirfd-relative", -5, "relative", dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	try_linkat("negative-newdirfd-relative", AT_FDCWD, idiom, -5, fresh_name(),
		   AT_SYMLINK_FOLLOW);
	try_linkat("unknown-flag-bit", AT_FDCWD, idiom, dirfd_, fresh_name(),
		   AT_SYMLINK_FOLLOW | 0x40000000);
	try_linkat("all-flag-bits", AT_FDCWD, idiom, dirfd_, fresh_name(), -1);
	try_syscall("syscall-oldpath-null", AT_FDCWD, NULL, dirfd_, fresh_name(), AT_SYMLINK_FOLLOW);
	try_syscall("syscall-oldpath-kernel", AT_FDCWD,
		    (const char *)(uintptr_t)0xffff800000000000ULL, dirfd_, fresh_name(),
		    AT_SYMLINK_FOLLOW);
	try_syscall("syscall-unknown-flag-bit", AT_FDCWD, idiom, dirfd_, fresh_name(),
		    AT_SYMLINK_FOLLOW | 0x40000000);
#if ULONG_MAX > 0xffffffffUL
	/* The kernel reads the flags as int: upper bits of the long are ignored. The shim must
	 * read them the same way, so this is the idiom and links. (A 32-bit long has none.) */
	try_syscall("syscall-flags-upper-bits", AT_FDCWD, idiom, dirfd_, fresh_name(),
		    (long)((1UL << 32) | AT_SYMLINK_FOLLOW));
#endif
	return 0;
}
