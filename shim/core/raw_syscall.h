/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A syscall that goes through nobody: not libc's syscall() (which we interpose) and not any
 * other preload. Used only when dlsym() cannot give us the next linkat()/syscall(), or while
 * it is being asked (a call that arrives from inside dlsym must not wait for it).
 * Returns the kernel's raw result: >= 0, or -errno.
 */
#ifndef FLINKSHIM_RAW_SYSCALL_H
#define FLINKSHIM_RAW_SYSCALL_H

#include <errno.h>

static inline long raw_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a1;
	register long x1 __asm__("x1") = a2;
	register long x2 __asm__("x2") = a3;
	register long x3 __asm__("x3") = a4;
	register long x4 __asm__("x4") = a5;
	register long x5 __asm__("x5") = a6;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
#else
	(void)nr, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6;
	return -ENOSYS;
#endif
}

/* The libc convention: -1 and errno. */
static inline long raw_syscall_errno(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

#endif
