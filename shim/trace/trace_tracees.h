/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The traced threads of `flinkshim --trace`, by thread id: which process each belongs to (the
 * /proc classifier needs the caller's pid as well as its tid), where it stands, and how many
 * are alive (the supervisor leaves when none is).
 *
 * A new tracee may stop before its parent's fork, vfork or clone event is seen, and the
 * event may never come at all (the parent was killed inside the call): it is taken in at
 * once, as strace does, and the event, if it comes, only confirms it.
 */
#ifndef FLINKSHIM_TRACE_TRACEES_H
#define FLINKSHIM_TRACE_TRACEES_H

#include <stdint.h>
#include <sys/types.h>

enum tracee_state {
	TRACEE_RUNNING = 0,  /* alive, announced by its parent's event (or the command) */
	TRACEE_EXPECTED,     /* announced by its parent's event; its first stop is to come */
	TRACEE_UNANNOUNCED,  /* alive, its first stop came before its parent's event */
	TRACEE_GONE          /* died unannounced: a mark, so that a late event finds it (not
	                        alive; a new tracee that gets the tid takes the entry over) */
};

struct trace_call; /* trace_rewrite.c: a call the supervisor changed, until it returns */

struct tracee {
	pid_t tid;
	pid_t tgid;          /* its process (thread-group) id; -1 while unknown */
	enum tracee_state state;
	struct trace_call *call;
	/* Signal bookkeeping of the process, on its leader's entry (trace_signals.c): bit
	 * sig - 1 of each set. */
	uint64_t sig_forwarded; /* a forwarded copy is on its way */
	uint64_t sig_direct;    /* ... and the sender's own copy came too */
	uint64_t sig_twin_done; /* the sender's copy came before ours: forward none */
};

/* The entry of tid, or NULL. */
struct tracee *tracees_find(pid_t tid);

/* A new entry for tid (tid must not be there): NULL if out of memory. Pointers returned
 * earlier are invalid after an add or a remove. */
struct tracee *tracees_add(pid_t tid, pid_t tgid, enum tracee_state state);

/* Changes the state of t (the live count follows). */
void tracees_set_state(struct tracee *t, enum tracee_state state);

/* Forgets tid, if it was there. */
void tracees_remove(pid_t tid);

/* Drops the live entries whose thread no longer exists at all (not even as a zombie to
 * reap): the tid a thread other than the leader had before its execve(). One tgkill() per
 * entry. */
void tracees_forget_vanished(void);

/* How many entries are alive (not TRACEE_GONE). */
size_t tracees_alive(void);

/* Calls fn for every live entry whose tid is its tgid (a process's leader); async-signal-
 * safe as long as no add or remove runs at the same time. */
void tracees_each_leader(void (*fn)(struct tracee *t, void *arg), void *arg);

/* The process of tid, among those in the table, asked of the kernel (tgkill finds a thread
 * only in its own group): -1 if none of them. */
pid_t tracees_group_of(pid_t tid);

#endif
