/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The part of "is this /proc path one of our own fds?" that needs syscalls: the caller's ids,
 * whether the leader's fd table is ours, whether /dev/fd really points into /proc, whether
 * /proc is procfs (proc_kind.h).
 */
#ifndef FLINKSHIM_PROCFD_OWNER_H
#define FLINKSHIM_PROCFD_OWNER_H

/* Load-time setup: remember the leader thread (see procfd_owner.c). */
void procfd_owner_init(void);

/* 1 and *fd if oldpath names fd *fd in the calling thread's own fd table; 0 otherwise (the
 * call is then passed through untouched). caller names the entry point for the diagnostic. */
int procfd_own_fd(const char *oldpath, int *fd, const char *caller);

/* A thread of this process may now have an fd table of its own (unshare(CLONE_FILES),
 * close_range(CLOSE_RANGE_UNSHARE)). Async-signal-safe; errno untouched. */
void procfd_owner_note_private_table(void);

/* Is the thread-group leader's fd table (the one /proc/self/fd shows) the caller's? */
int procfd_owner_leader_table_is_callers(void);

#endif
