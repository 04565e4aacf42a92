/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Register access for `flinkshim --trace`, one small file per architecture: which system call
 * ABIs can run linkat() on it, and how to read and change a stopped tracee's system call in
 * each. Everything else in the trace mode is architecture-neutral. x86_64 is written
 * (trace_arch_x86_64.c); another architecture adds its own file and a branch below.
 *
 * TRACE_ARCH_SUPPORTED is 1 where a file exists for the build's architecture; elsewhere
 * --trace says it is not available and nothing below is defined.
 *
 * An ABI is a way into the kernel with its own system call numbers and argument registers:
 * x86_64 has three (native, i386 through int 0x80 or the 32-bit vDSO, x32). The seccomp
 * filter traps linkat in each, and tells the supervisor which one stopped by its index in
 * trace_arch_abis (the filter's SECCOMP_RET_DATA carries it).
 */
#ifndef FLINKSHIM_TRACE_ARCH_H
#define FLINKSHIM_TRACE_ARCH_H

#include <sys/types.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define TRACE_ARCH_SUPPORTED 1
#include <sys/user.h>

#define TRACE_ARCH_NAME "x86_64"

struct trace_regs {
	struct user_regs_struct r;
};
#else
#define TRACE_ARCH_SUPPORTED 0
#endif

#if TRACE_ARCH_SUPPORTED
struct trace_abi {
	unsigned int audit_arch; /* seccomp_data.arch (AUDIT_ARCH_* of <linux/audit.h>) */
	int linkat_nr;           /* seccomp_data.nr of linkat, as the kernel dispatches it */
	const char *name;        /* for the diagnostics */
};

/* The ABIs whose linkat the filter traps; the index is what the filter reports. */
extern const struct trace_abi trace_arch_abis[];
extern const int trace_arch_nabis;

/* The registers of a tracee in a ptrace-stop. 0, or -1 with errno (ESRCH: it died). */
int trace_arch_get(pid_t tid, struct trace_regs *regs);
int trace_arch_set(pid_t tid, const struct trace_regs *regs);

/* The system call number as the kernel dispatches it (an int: the kernel ignores the upper
 * half of the register on x86_64). */
int trace_arch_syscall_nr(const struct trace_regs *regs);

/* Argument i (0 to 5) of the system call, in ABI abi's calling convention (a 32-bit ABI's
 * values are zero-extended). */
unsigned long trace_arch_arg(const struct trace_regs *regs, int abi, int i);
void trace_arch_set_arg(struct trace_regs *regs, int abi, int i, unsigned long value);

/* At a seccomp stop: do not run the call, and make it return ret (-errno for a failure). */
void trace_arch_skip(struct trace_regs *regs, long ret);

/* At a syscall-exit stop: what the call returned (-errno for a failure). */
long trace_arch_return(const struct trace_regs *regs, int abi);

/* At a syscall-exit stop (regs) of a call whose arguments were changed at its seccomp stop
 * (entry: the registers as the tracee made the call): the argument registers as the tracee
 * set them, the result kept. The ABI promises the caller its argument registers back. */
void trace_arch_restore_args(struct trace_regs *regs, const struct trace_regs *entry, int abi);

/* At a syscall-exit stop: registers that make the tracee, once resumed, make the call of
 * entry again, exactly as it made it (the kernel's own restart of an interrupted call). */
void trace_arch_restart(struct trace_regs *regs, const struct trace_regs *entry);

/* At a syscall stop on a kernel that cannot say whether it is the entry or the exit
 * (before PTRACE_GET_SYSCALL_INFO, Linux 5.3): 1 if it looks like the entry. */
int trace_arch_looks_like_entry(const struct trace_regs *regs);
#endif

#endif
