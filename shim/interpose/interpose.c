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
#include <stdint.h>
#include <sys/syscall.h>

FLINKSHIM_EXPORT int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
			    int flags);
FLINKSHIM_EXPORT long syscall(long number, ...);

/* The idiom is exactly linkat(<ignored>, "/proc/.../fd/N", newdirfd, newpath,
 * AT_SYMLINK_FOLLOW). Any other flag bit makes it some other call: AT_EMPTY_PATH is already
 * the direct form, and unknown bits earn the kernel's EINVAL. Callers test the flags. */
/*
 * Recognising the idiom means reading oldpath, which the kernel would only copy, answering
 * EFAULT for a bad pointer. The pointers that can never be a string are left to the kernel
 * unread: NULL and the rest of the zero page (never mapped: vm.mmap_min_addr), and addresses
 * above user space. Checking any other pointer would cost a syscall on every call (a quarter
 * of the rewrite's time here); it is read as libc's string functions read theirs.
 */
static int never_readable(const char *p)
{
	uintptr_t a = (uintptr_t)p;

	if (a < 4096)
		return 1;
#if defined(__x86_64__)
	return a >> 47 != 0; /* above 128 TiB: kernel or non-canonical (5-level paging maps user
				memory there only when asked to) */
#elif defined(__aarch64__)
	return a >> 52 != 0;
#elif UINTPTR_MAX > 0xffffffffu
	return a >> 56 != 0;
#else
	/* 32-bit: the last page is never user memory (compat tasks on x86-64 end at
	 * 0xffffe000, on arm64 at 0xfffff000; 32-bit kernels keep the top gigabyte or more). */
	return a > UINTPTR_MAX - 4096;
#endif
}

static int rewrite_legacy(const char *caller, const char *oldpath, int newdirfd,
			  const char *newpath, int *result)
{
	struct flink_request req;
	int fd;

	if (never_readable(oldpath) || !procfd_own_fd(oldpath, &fd, caller))
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

/*
 * Only AT_SYMLINK_FOLLOW calls can be the idiom, and they are handled out of line: the
 * interposers' own bodies are then a compare and a tail jump, with no stack frame, so every
 * other call pays a few instructions (bench/: `make bench`, instructions per call).
 */
__attribute__((noinline)) static int linkat_follow(int olddirfd, const char *oldpath,
						   int newdirfd, const char *newpath)
{
	int result;

	if (rewrite_legacy("linkat", oldpath, newdirfd, newpath, &result))
		return result;
	return real_linkat(olddirfd, oldpath, newdirfd, newpath, AT_SYMLINK_FOLLOW);
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	if (__builtin_expect(flags == AT_SYMLINK_FOLLOW, 0))
		return linkat_follow(olddirfd, oldpath, newdirfd, newpath);
	return real_linkat(olddirfd, oldpath, newdirfd, newpath, flags);
}

/* The kernel reads the dirfds and flags as int: so do we. The paths arrive as integers, as
 * syscall() passes every argument. */
__attribute__((noinline)) static long syscall_linkat_follow(long a0, long a1, long a2, long a3,
							    long a4, long a5)
{
	const char *oldpath = (const char *)a1; /* NOLINT(performance-no-int-to-ptr) */
	const char *newpath = (const char *)a3; /* NOLINT(performance-no-int-to-ptr) */
	int result;

	if (rewrite_legacy("syscall(SYS_linkat)", oldpath, (int)a2, newpath, &result))
		return result;
	return real_syscall6(SYS_linkat, a0, a1, a2, a3, a4, a5);
}

/* All six argument registers are forwarded, as the caller's syscall() would have passed
 * them. */
#if defined(__x86_64__)
FLINKSHIM_HIDDEN long flinkshim_syscall_args(long number, ...);
long flinkshim_syscall_args(long number, ...)
#else
long syscall(long number, ...)
#endif
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_linkat && (int)a[4] == AT_SYMLINK_FOLLOW)
		return syscall_linkat_follow(a[0], a[1], a[2], a[3], a[4], a[5]);
	return real_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#if defined(__x86_64__)
/*
 * syscall() itself, on x86-64: the number is checked before anything else, as cwrap does, and
 * every other call jumps straight on to the next syscall() with the caller's registers and
 * stack untouched, five instructions in all. In C, va_start alone costs more than that (it
 * spills all six argument registers), and forwarding a seventh argument on the stack needs a
 * frame. SYS_linkat, and any call before the next syscall() is resolved, takes the C function
 * above, which sees the very same arguments. %r11 is scratch in the ABI and carries no
 * argument; %al (the vector register count of a variadic call) is left as the caller set it.
 */
#define FLINKSHIM_STR2(x) #x
#define FLINKSHIM_STR(x) FLINKSHIM_STR2(x)
__asm__("	.text\n"
	"	.globl	syscall\n"
	"	.type	syscall, @function\n"
	"	.p2align 4\n"
	"syscall:\n"
	"	.cfi_startproc\n"
#if defined(__CET__)
	"	endbr64\n"
#endif
	"	cmpq	$" FLINKSHIM_STR(SYS_linkat) ", %rdi\n"
	"	je	flinkshim_syscall_args\n"
	"	movq	flinkshim_next_syscall(%rip), %r11\n"
	"	testq	%r11, %r11\n"
	"	je	flinkshim_syscall_args\n"
	"	jmp	*%r11\n"
	"	.cfi_endproc\n"
	"	.size	syscall, .-syscall\n");
#endif
