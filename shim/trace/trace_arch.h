/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Register access for `flinkshim --trace`, one small file per architecture: reading a stopped
 * tracee's system call and changing it in place. Everything else in the trace mode is
 * architecture-neutral. x86_64 is written (trace_arch_x86_64.c); another architecture adds
 * its own file and a branch below.
 *
 * TRACE_ARCH_SUPPORTED is 1 where a file exists for the build's architecture; elsewhere
 * --trace says it is not available and nothing below is defined.
 */
#ifndef FLINKSHIM_TRACE_ARCH_H
#define FLINKSHIM_TRACE_ARCH_H

#include <sys/types.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define TRACE_ARCH_SUPPORTED 1
#include <sys/user.h>

/* seccomp_data.arch of the system calls the filter traps: native 64-bit ones. x32 calls
 * report the same value but set __X32_SYSCALL_BIT in the number, so an exact comparison of
 * the number already lets them through; i386 calls (int 0x80) report AUDIT_ARCH_I386.
 * AUDIT_ARCH_X86_64 of <linux/audit.h> (EM_X86_64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE),
 * spelled out to keep kernel headers optional. */
#define TRACE_ARCH_AUDIT 0xc000003eU
#define TRACE_ARCH_NAME "x86_64"

struct trace_regs {
	struct user_regs_struct r;
};
#else
#define TRACE_ARCH_SUPPORTED 0
#endif

#if TRACE_ARCH_SUPPORTED
/* The registers of a tracee in a ptrace-stop. 0, or -1 with errno (ESRCH: it died). */
int trace_arch_get(pid_t tid, struct trace_regs *regs);
int trace_arch_set(pid_t tid, const struct trace_regs *regs);

/* The system call number as the kernel will dispatch it (orig_rax on x86_64). */
long trace_arch_syscall_nr(const struct trace_regs *regs);

/* Argument i (0 to 5) of the system call, in the architecture's calling convention. */
unsigned long trace_arch_arg(const struct trace_regs *regs, int i);
void trace_arch_set_arg(struct trace_regs *regs, int i, unsigned long value);

/* At a seccomp stop: do not run the call, and make it return ret (-errno for a failure). */
void trace_arch_skip(struct trace_regs *regs, long ret);

/* At a syscall-exit stop: what the call returned (-errno for a failure). */
long trace_arch_return(const struct trace_regs *regs);
#endif

#endif
