/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What `flinkshim --trace` does at a seccomp stop: a linkat() of the /proc idiom naming the
 * tracee's own fd N becomes linkat(N, "", newdirfd, newpath, AT_EMPTY_PATH), run by the
 * kernel in the tracee's own context; anything else runs untouched.
 */
#ifndef FLINKSHIM_TRACE_REWRITE_H
#define FLINKSHIM_TRACE_REWRITE_H

#include "trace_tracees.h"

struct trace_rewriter {
	/* /proc is a procfs for the supervisor: then /proc/TID/root shows what each tracee
	 * sees (its own mount namespace and root), and a tracee that has /proc keeps the
	 * original call, the reference. Without it, no tracee is assumed to have one. */
	int supervisor_has_proc;
	int debug; /* FLINKSHIM_DEBUG: one line per decision on stderr */
};

/* How to resume the tracee after the stop. */
enum trace_resume {
	TRACE_RESUME_CONT = 0, /* PTRACE_CONT */
	TRACE_RESUME_SYSCALL   /* PTRACE_SYSCALL: --debug waits for the result at the exit */
};

/* Handles the seccomp stop of t. */
enum trace_resume trace_rewrite_linkat(const struct trace_rewriter *w, struct tracee *t);

/* At the syscall-exit stop that TRACE_RESUME_SYSCALL asked for: logs the result. */
void trace_rewrite_report(struct tracee *t);

#endif
