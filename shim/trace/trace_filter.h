/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seccomp filter of `flinkshim --trace`: linkat() with AT_SYMLINK_FOLLOW in its flags,
 * in any of the architecture's system call ABIs (64-bit, and 32-bit programs on a 64-bit
 * kernel), stops for the tracer (SECCOMP_RET_TRACE); every other system call runs
 * untouched.
 */
#ifndef FLINKSHIM_TRACE_FILTER_H
#define FLINKSHIM_TRACE_FILTER_H

/* Which step of trace_filter_install failed. */
enum trace_filter_step {
	TRACE_FILTER_NO_NEW_PRIVS = 1, /* prctl(PR_SET_NO_NEW_PRIVS) */
	TRACE_FILTER_SECCOMP           /* seccomp(SECCOMP_SET_MODE_FILTER) */
};

/* What the filter's SECCOMP_RET_TRACE carries in SECCOMP_RET_DATA: this base plus the index
 * of the ABI (trace_arch.h) the call was made in. The command may install SECCOMP_RET_TRACE
 * filters of its own: their stops carry their own data. */
#define TRACE_FILTER_DATA 0xf1a0UL

/* The ABI index of a seccomp stop whose event message (PTRACE_GETEVENTMSG) is data, or -1
 * if the stop is not our filter's. */
int trace_filter_abi(unsigned long data);

/* NULL if this build can install the filter; otherwise why not (--trace is then not
 * available at all). */
const char *trace_filter_unavailable(void);

/* Sets PR_SET_NO_NEW_PRIVS (an unprivileged process may install a filter only then) and
 * installs the filter on the calling thread, for good: it is inherited across fork, clone
 * and execve. 0, or -1 with errno and *step saying which step failed. */
int trace_filter_install(enum trace_filter_step *step);

#endif
