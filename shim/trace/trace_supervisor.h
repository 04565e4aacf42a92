/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `flinkshim --trace`: run a command under a ptrace supervisor that rewrites its
 * linkat(AT_FDCWD, "/proc/self/fd/N", ..., AT_SYMLINK_FOLLOW) system calls, whoever makes
 * them: static programs, Go programs and raw syscall instructions, which no preload reaches.
 */
#ifndef FLINKSHIM_TRACE_SUPERVISOR_H
#define FLINKSHIM_TRACE_SUPERVISOR_H

/* Runs argv[0] (looked up in PATH) with argv, and returns the exit status flinkshim must exit
 * with: the command's own, or 125 if the supervisor could not work (no ptrace, no seccomp:
 * the message on stderr names the missing permission), 126 if the command cannot be run,
 * 127 if it was not found. If the command dies of a signal, it does not return: flinkshim
 * dies of the same signal, without a core dump. FLINKSHIM_DEBUG turns on one diagnostic
 * line per rewritten (or deliberately untouched) call. */
int trace_supervisor_run(char *const argv[]);

#endif
