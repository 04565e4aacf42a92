/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * raw_legacy: the legacy /proc idiom made with the syscall instruction itself, as programs
 * with their own system call stubs (Go's runtime, some language runtimes, hand-written
 * assembly) do. Dynamically linked, so a preload is loaded into it, but it never calls
 * libc's linkat() or syscall(): only `flinkshim --trace` sees the call.
 *
 * usage: raw_legacy DIR NAME [TEMPLATE]
 *   creates an O_TMPFILE in DIR holding "NAME\n" and links it as DIR/NAME through TEMPLATE
 *   (default /proc/self/fd/%d, %d being the fd).
 * Output: "linkat=0" or "linkat=-1 errno=ENOENT". Exit status 0, 1 if the call failed, 2 on a
 * setup error, 77 where this architecture has no inline system call here.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include "errno_name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define HAVE_RAW_SYSCALL 1
static long raw_linkat(long olddirfd, const char *oldpath, long newdirfd, const char *newpath,
		       long flags)
{
	register long r10 __asm__("r10") = (long)newpath;
	register long r8 __asm__("r8") = flags;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_linkat), "D"(olddirfd), "S"(oldpath), "d"(newdirfd),
			   "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
#define HAVE_RAW_SYSCALL 1
static long raw_linkat(long olddirfd, const char *oldpath, long newdirfd, const char *newpath,
		       long flags)
{
	register long x8 __asm__("x8") = SYS_linkat;
	register long x0 __asm__("x0") = olddirfd;
	register long x1 __asm__("x1") = (long)oldpath;
	register long x2 __asm__("x2") = newdirfd;
	register long x3 __asm__("x3") = (long)newpath;
	register long x4 __asm__("x4") = flags;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4)
			 : "memory");
	return x0;
}
#else
#define HAVE_RAW_SYSCALL 0
#endif

int main(int argc, char **argv)
{
#if HAVE_RAW_SYSCALL
	const char *template = argc > 3 ? argv[3] : "/proc/self/fd/%d";
	char path[256], content[256];
	int dirfd, fd;
	long r;

	if (argc < 3) {
		fputs("usage: raw_legacy DIR NAME [TEMPLATE]\n", stderr);
		return 2;
	}
	dirfd = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = open(argv[1], O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	snprintf(content, sizeof(content), "%s\n", argv[2]);
	if (dirfd < 0 || fd < 0 || write(fd, content, strlen(content)) != (ssize_t)strlen(content)) {
		fprintf(stderr, "raw_legacy: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	/* The template is the test's: that is the point of it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(path, sizeof(path), template, fd);
#pragma GCC diagnostic pop
	r = raw_linkat(AT_FDCWD, path, dirfd, argv[2], AT_SYMLINK_FOLLOW);
	if (r == 0) {
		printf("linkat=0\n");
		return 0;
	}
	printf("linkat=-1 errno=%s\n", errno_name((int)-r));
	return 1;
#else
	(void)argc;
	(void)argv;
	fputs("raw_legacy: no inline system call for this architecture\n", stderr);
	return 77;
#endif
}
