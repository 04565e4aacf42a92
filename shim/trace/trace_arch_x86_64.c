/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86_64 registers for --trace. The 64-bit tracer sees every tracee through the 64-bit
 * register layout, whichever ABI it entered the kernel by:
 *   x86_64: number in rax (kept in orig_rax once the call is entered; rax then holds the
 *           return value), arguments in rdi, rsi, rdx, r10, r8, r9;
 *   i386 (int 0x80, or the 32-bit vDSO's sysenter/syscall): number in eax, arguments in
 *           ebx, ecx, edx, esi, edi, ebp (the low halves of rbx...);
 *   x32:    the x86_64 registers, the number with bit 30 (__X32_SYSCALL_BIT) set.
 * The kernel reads the arguments back from these saved registers after a seccomp stop, so
 * PTRACE_SETREGS there changes the call that runs. Every entry instruction (syscall,
 * int 0x80, sysenter) is two bytes long, which is what the kernel's own restart of an
 * interrupted call relies on too.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_arch.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#include <errno.h>
#include <stddef.h>
#include <sys/ptrace.h>

enum { ABI_X86_64, ABI_I386, ABI_X32 };

/* AUDIT_ARCH_X86_64 (EM_X86_64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE) and AUDIT_ARCH_I386
 * (EM_386 | __AUDIT_ARCH_LE) of <linux/audit.h>, spelled out to keep kernel headers
 * optional; x32 reports AUDIT_ARCH_X86_64 with bit 30 in the number. */
const struct trace_abi trace_arch_abis[] = {
	[ABI_X86_64] = { 0xc000003eU, 265, "x86_64" },
	[ABI_I386] = { 0x40000003U, 303, "i386" },
	[ABI_X32] = { 0xc000003eU, 0x40000000 | 265, "x32" },
};
const int trace_arch_nabis = (int)(sizeof(trace_arch_abis) / sizeof(trace_arch_abis[0]));

int trace_arch_get(pid_t tid, struct trace_regs *regs)
{
	return ptrace(PTRACE_GETREGS, tid, NULL, &regs->r) == -1 ? -1 : 0;
}

int trace_arch_set(pid_t tid, const struct trace_regs *regs)
{
	return ptrace(PTRACE_SETREGS, tid, NULL, &regs->r) == -1 ? -1 : 0;
}

int trace_arch_syscall_nr(const struct trace_regs *regs)
{
	return (int)regs->r.orig_rax;
}

/* Argument i of an ABI, read or written. (The fields are unsigned long long in glibc,
 * unsigned long in musl: both 64 bits, so values, not pointers, cross this file.) */
static unsigned long get_native(const struct user_regs_struct *r, int i)
{
	switch (i) {
	case 0: return (unsigned long)r->rdi;
	case 1: return (unsigned long)r->rsi;
	case 2: return (unsigned long)r->rdx;
	case 3: return (unsigned long)r->r10;
	case 4: return (unsigned long)r->r8;
	default: return (unsigned long)r->r9;
	}
}

static unsigned long get_compat(const struct user_regs_struct *r, int i)
{
	switch (i) {
	case 0: return (unsigned long)r->rbx;
	case 1: return (unsigned long)r->rcx;
	case 2: return (unsigned long)r->rdx;
	case 3: return (unsigned long)r->rsi;
	case 4: return (unsigned long)r->rdi;
	default: return (unsigned long)r->rbp;
	}
}

static void set_native(struct user_regs_struct *r, int i, unsigned long v)
{
	switch (i) {
	case 0: r->rdi = v; break;
	case 1: r->rsi = v; break;
	case 2: r->rdx = v; break;
	case 3: r->r10 = v; break;
	case 4: r->r8 = v; break;
	default: r->r9 = v; break;
	}
}

static void set_compat(struct user_regs_struct *r, int i, unsigned long v)
{
	switch (i) {
	case 0: r->rbx = v; break;
	case 1: r->rcx = v; break;
	case 2: r->rdx = v; break;
	case 3: r->rsi = v; break;
	case 4: r->rdi = v; break;
	default: r->rbp = v; break;
	}
}

unsigned long trace_arch_arg(const struct trace_regs *regs, int abi, int i)
{
	/* An i386 call sees the low halves only; x32 pointers are zero-extended by the
	 * program itself, and its 64-bit arguments are whole registers. */
	if (abi == ABI_I386)
		return (unsigned long)(unsigned int)get_compat(&regs->r, i);
	return get_native(&regs->r, i);
}

void trace_arch_set_arg(struct trace_regs *regs, int abi, int i, unsigned long value)
{
	if (abi == ABI_I386)
		set_compat(&regs->r, i, value);
	else
		set_native(&regs->r, i, value);
}

void trace_arch_skip(struct trace_regs *regs, long ret)
{
	/* -1 in orig_rax: the kernel skips the call and returns what rax holds. */
	regs->r.orig_rax = (unsigned long)-1L;
	regs->r.rax = (unsigned long)ret;
}

long trace_arch_return(const struct trace_regs *regs, int abi)
{
	/* An i386 call returns in eax: its sign is bit 31. */
	return abi == ABI_I386 ? (long)(int)regs->r.rax : (long)regs->r.rax;
}

void trace_arch_restore_args(struct trace_regs *regs, const struct trace_regs *entry, int abi)
{
	int i;

	/* Whole registers: the upper halves are the program's too. */
	for (i = 0; i < 6; i++) {
		if (abi == ABI_I386)
			set_compat(&regs->r, i, get_compat(&entry->r, i));
		else
			set_native(&regs->r, i, get_native(&entry->r, i));
	}
}

void trace_arch_restart(struct trace_regs *regs, const struct trace_regs *entry)
{
	*regs = *entry;
	regs->r.rax = regs->r.orig_rax;
	regs->r.rip -= 2;
}

int trace_arch_looks_like_entry(const struct trace_regs *regs)
{
	/* The kernel sets rax to -ENOSYS before the entry stop; linkat never returns it. */
	return (long)regs->r.rax == -ENOSYS;
}
#endif
