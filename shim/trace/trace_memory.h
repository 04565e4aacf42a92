/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a string argument out of a stopped tracee's memory, with the kernel's own limits:
 * at most PATH_MAX bytes, and only what is mapped and readable.
 */
#ifndef FLINKSHIM_TRACE_MEMORY_H
#define FLINKSHIM_TRACE_MEMORY_H

#include <stddef.h>
#include <sys/types.h>

/* Copies the NUL-terminated string at addr in tid's memory into buf (size bytes, the NUL
 * included). Returns its length, so that addr + length is the address of its terminating
 * NUL in the tracee; or -1 with errno: EFAULT if the string is unreadable before its NUL
 * (the kernel would say EFAULT too), ENAMETOOLONG if no NUL is within size bytes, ESRCH if
 * the tracee is gone, EPERM if the tracer may not read it (a tracee that is not dumpable,
 * PR_SET_DUMPABLE 0, needs CAP_SYS_PTRACE over it even from its tracer). */
ssize_t trace_memory_read_string(pid_t tid, unsigned long addr, char *buf, size_t size);

#endif
