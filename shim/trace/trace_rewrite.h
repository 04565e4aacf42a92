/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What `flinkshim --trace` does at a seccomp stop: a linkat() of the /proc idiom naming the
 * tracee's own fd N becomes linkat(N, "", newdirfd, newpath, AT_EMPTY_PATH), run by the
 * kernel in the tracee's own context, with the tracee's registers given back afterwards and
 * the original call replayed where the direct form says ENOENT; anything else runs
 * untouched.
 */
#ifndef FLINKSHIM_TRACE_REWRITE_H
#define FLINKSHIM_TRACE_REWRITE_H

#include "trace_tracees.h"

struct trace_rewriter {
	/* /proc is the procfs of the supervisor's own pid namespace: then /proc/TID/root shows
	 * what each tracee sees (its own mount namespace and root), and a tracee that has /proc
	 * keeps the original call, the reference. Without it, every idiom is rewritten, and the
	 * original call replayed where the direct form says ENOENT. */
	int supervisor_has_proc;
	/* Linux 3.8 to 4.7: the seccomp stop comes before the syscall-entry stop. */
	int seccomp_before_entry;
	int debug; /* FLINKSHIM_DEBUG: one line per decision on stderr */
};

/* How to resume the tracee after the stop. */
enum trace_resume {
	TRACE_RESUME_CONT = 0, /* PTRACE_CONT */
	TRACE_RESUME_SYSCALL   /* PTRACE_SYSCALL: the call's exit is wanted */
};

/* Handles a PTRACE_EVENT_SECCOMP stop of t, whose event message is data. */
enum trace_resume trace_rewrite_seccomp(const struct trace_rewriter *w, struct tracee *t,
					unsigned long data);

/* Handles a syscall stop (SIGTRAP | 0x80) of t, which TRACE_RESUME_SYSCALL asked for: puts
 * the registers back, replays the call or logs its result. */
enum trace_resume trace_rewrite_syscall_stop(const struct trace_rewriter *w, struct tracee *t);

#endif
