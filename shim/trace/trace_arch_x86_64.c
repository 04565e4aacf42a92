/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86_64 registers for --trace. The syscall ABI: number in rax (kept in orig_rax once the
 * call is entered; rax then holds the return value), arguments in rdi, rsi, rdx, r10, r8, r9.
 * The kernel reads the arguments back from these saved registers after a seccomp stop, so
 * PTRACE_SETREGS there changes the call that runs.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_arch.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#include <stddef.h>
#include <sys/ptrace.h>

int trace_arch_get(pid_t tid, struct trace_regs *regs)
{
	return ptrace(PTRACE_GETREGS, tid, NULL, &regs->r) == -1 ? -1 : 0;
}

int trace_arch_set(pid_t tid, const struct trace_regs *regs)
{
	return ptrace(PTRACE_SETREGS, tid, NULL, &regs->r) == -1 ? -1 : 0;
}

long trace_arch_syscall_nr(const struct trace_regs *regs)
{
	return (long)regs->r.orig_rax;
}

/* Where the kernel takes argument i from. (The fields are unsigned long long in glibc,
 * unsigned long in musl: both 64 bits, so values, not pointers, cross this file.) */
unsigned long trace_arch_arg(const struct trace_regs *regs, int i)
{
	const struct user_regs_struct *r = &regs->r;

	switch (i) {
	case 0: return (unsigned long)r->rdi;
	case 1: return (unsigned long)r->rsi;
	case 2: return (unsigned long)r->rdx;
	case 3: return (unsigned long)r->r10;
	case 4: return (unsigned long)r->r8;
	default: return (unsigned long)r->r9;
	}
}

void trace_arch_set_arg(struct trace_regs *regs, int i, unsigned long value)
{
	struct user_regs_struct *r = &regs->r;

	switch (i) {
	case 0: r->rdi = value; break;
	case 1: r->rsi = value; break;
	case 2: r->rdx = value; break;
	case 3: r->r10 = value; break;
	case 4: r->r8 = value; break;
	default: r->r9 = value; break;
	}
}

void trace_arch_skip(struct trace_regs *regs, long ret)
{
	/* -1 in orig_rax: the kernel skips the call and returns what rax holds. */
	regs->r.orig_rax = (unsigned long)-1L;
	regs->r.rax = (unsigned long)ret;
}

long trace_arch_return(const struct trace_regs *regs)
{
	return (long)regs->r.rax;
}
#endif
