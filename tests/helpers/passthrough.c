/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * passthrough DIR: ordinary linkat(), link() and syscall() calls that are not the legacy
 * idiom, each printed with its result and errno. With /proc mounted, the output must be the
 * same with and without the shim, and so must the system calls strace sees: when the shim has
 * nothing to do, it is invisible (cwrap's pass-through test).
 *
 * errno is set to a sentinel before each call; a success prints "errno=unchanged" only if the
 * sentinel survived, a failure prints errno's name. Relative names are used throughout (the
 * program works in DIR) so the output does not depend on where DIR is.
 * Exit status: 0, or 2 if the stage could not be set up.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ERRNO_SENTINEL 31337

static void report(const char *label, long ret, int err)
{
	if (ret >= 0)
		printf("%-24s ret=%ld errno=%s\n", label, ret,
		       err == ERRNO_SENTINEL ? "unchanged" : errno_name(err));
	else
		printf("%-24s ret=%ld errno=%s\n", label, ret, errno_name(err));
}

/* Each call is written out where it is made, so that strace shows it exactly as written. */
#define CALL(label, expr)                    \
	do {                                 \
		long ret_;                   \
		errno = ERRNO_SENTINEL;      \
		ret_ = (long)(expr);         \
		report(label, ret_, errno);  \
	} while (0)

static void die(const char *what)
{
	fprintf(stderr, "passthrough: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void same_file(const char *label, const char *x, const char *y)
{
	struct stat sx, sy;

	if (lstat(x, &sx) != 0 || lstat(y, &sy) != 0)
		die(label);
	printf("%-24s %s\n", label,
	       sx.st_ino == sy.st_ino && sx.st_dev == sy.st_dev ? "same-inode" : "other-inode");
}

int main(int argc, char **argv)
{
	char proc_path[64];
	struct stat st;
	int fd, procfd, dirfd;
	long pid;

	if (argc != 2 || chdir(argv[1]) != 0)
		die(argc == 2 ? argv[1] : "usage: passthrough DIR");
	fd = open("a", O_CREAT | O_EXCL | O_RDWR, 0644);
	if (fd < 0 || write(fd, "a\n", 2) != 2 || symlink("a", "sl") != 0)
		die("setup");
	dirfd = open(".", O_PATH | O_DIRECTORY);
	if (dirfd < 0)
		die(".");

	/* Plain links by name. */
	CALL("name-flags0", linkat(AT_FDCWD, "a", AT_FDCWD, "b", 0));
	CALL("name-exists", linkat(AT_FDCWD, "a", AT_FDCWD, "b", 0));
	CALL("name-missing-source", linkat(AT_FDCWD, "missing", AT_FDCWD, "c", 0));
	CALL("name-missing-dir", linkat(AT_FDCWD, "a", AT_FDCWD, "nodir/c", 0));
	CALL("name-dirfds", linkat(dirfd, "a", dirfd, "c", 0));
	/* A symlink: followed with AT_SYMLINK_FOLLOW, linked itself without. */
	CALL("symlink-follow", linkat(AT_FDCWD, "sl", AT_FDCWD, "d", AT_SYMLINK_FOLLOW));
	same_file("symlink-follow-target", "a", "d");
	CALL("symlink-nofollow", linkat(AT_FDCWD, "sl", AT_FDCWD, "sl2", 0));
	same_file("symlink-nofollow-target", "sl", "sl2");
	/* The direct form, already: nothing to rewrite. */
	CALL("empty-path-direct", linkat(fd, "", AT_FDCWD, "e", AT_EMPTY_PATH));
	CALL("empty-path-exists", linkat(fd, "", AT_FDCWD, "e", AT_EMPTY_PATH));
	/* Errors the kernel finds in the arguments. */
	CALL("bad-flags", linkat(AT_FDCWD, "a", AT_FDCWD, "f", 0x8000));
	CALL("bad-olddirfd", linkat(9999, "a", AT_FDCWD, "f", 0));
	CALL("bad-newdirfd", linkat(AT_FDCWD, "a", 9999, "f", 0));

	/* /proc paths that are not the idiom: the kernel's answer, whatever it is, stands. */
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	CALL("proc-flags0", linkat(AT_FDCWD, proc_path, AT_FDCWD, "g", 0));
	CALL("proc-bad-flag-bit", linkat(AT_FDCWD, proc_path, AT_FDCWD, "g",
					 AT_SYMLINK_FOLLOW | 0x8000));
	CALL("proc-follow-emptypath", linkat(AT_FDCWD, proc_path, AT_FDCWD, "g",
					     AT_SYMLINK_FOLLOW | AT_EMPTY_PATH));
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/0%d", fd);
	CALL("proc-leading-zero", linkat(AT_FDCWD, proc_path, AT_FDCWD, "h", AT_SYMLINK_FOLLOW));
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d/", fd);
	CALL("proc-trailing-slash", linkat(AT_FDCWD, proc_path, AT_FDCWD, "h", AT_SYMLINK_FOLLOW));
	/* Relative to a procfs directory fd: only the kernel knows what olddirfd is. */
	procfd = open("/proc/self", O_PATH | O_DIRECTORY);
	if (procfd < 0)
		die("/proc/self (passthrough needs /proc mounted)");
	snprintf(proc_path, sizeof(proc_path), "fd/%d", fd);
	CALL("proc-relative", linkat(procfd, proc_path, AT_FDCWD, "i", AT_SYMLINK_FOLLOW));
	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	CALL("link()-proc", link(proc_path, "j"));
	CALL("link()-name", link("a", "j"));

	/* syscall(): other numbers, and linkat that is not the idiom. */
	pid = syscall(SYS_getpid);
	printf("%-24s %s\n", "syscall-getpid", pid == (long)getpid() ? "matches" : "differs");
	CALL("syscall-bad-number", syscall(-1L));
	CALL("syscall-linkat-name", syscall(SYS_linkat, AT_FDCWD, "a", AT_FDCWD, "k", 0));
	CALL("syscall-linkat-exists", syscall(SYS_linkat, AT_FDCWD, "a", AT_FDCWD, "k", 0));
	CALL("syscall-linkat-direct", syscall(SYS_linkat, fd, "", AT_FDCWD, "l", AT_EMPTY_PATH));
	CALL("syscall-linkat-badflags", syscall(SYS_linkat, AT_FDCWD, "a", AT_FDCWD, "m", 0x8000));

	if (stat("a", &st) != 0)
		die("stat a");
	printf("%-24s %lu\n", "nlink(a)", (unsigned long)st.st_nlink);
	return 0;
}
