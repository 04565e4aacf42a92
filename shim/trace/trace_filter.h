/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seccomp filter of `flinkshim --trace`: linkat() with AT_SYMLINK_FOLLOW in its flags
 * stops for the tracer (SECCOMP_RET_TRACE); every other system call runs untouched.
 */
#ifndef FLINKSHIM_TRACE_FILTER_H
#define FLINKSHIM_TRACE_FILTER_H

/* Which step of trace_filter_install failed. */
enum trace_filter_step {
	TRACE_FILTER_NO_NEW_PRIVS = 1, /* prctl(PR_SET_NO_NEW_PRIVS) */
	TRACE_FILTER_SECCOMP           /* seccomp(SECCOMP_SET_MODE_FILTER) */
};

/* NULL if this build can install the filter; otherwise why not (--trace is then not
 * available at all). */
const char *trace_filter_unavailable(void);

/* Sets PR_SET_NO_NEW_PRIVS (an unprivileged process may install a filter only then) and
 * installs the filter on the calling thread, for good: it is inherited across fork, clone
 * and execve. 0, or -1 with errno and *step saying which step failed. */
int trace_filter_install(enum trace_filter_step *step);

#endif
