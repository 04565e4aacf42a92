/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The traced threads of `flinkshim --trace`, by thread id: which process each belongs to (the
 * /proc classifier needs the caller's pid as well as its tid, and without /proc the tracer
 * learns it only from the fork, vfork and clone events), and where it stands.
 */
#ifndef FLINKSHIM_TRACE_TRACEES_H
#define FLINKSHIM_TRACE_TRACEES_H

#include "debug_log.h"

#include <sys/types.h>

enum tracee_state {
	TRACEE_RUNNING = 0,  /* known, its process known */
	TRACEE_EXPECTED,     /* announced by its parent's event; its first stop is to come */
	TRACEE_HELD,         /* stopped before its parent's event arrived: process unknown,
	                        kept stopped until then (held_status is that stop) */
	TRACEE_GONE          /* died while held: a mark, so that the late event finds it */
};

struct tracee {
	pid_t tid;
	pid_t tgid;          /* its process (thread-group) id; -1 while TRACEE_HELD */
	enum tracee_state state;
	int held_status;     /* TRACEE_HELD: the wait status of the stop it is held in */
	struct debug_line *pending_log; /* --debug: a line waiting for the call's result */
};

/* The entry of tid, or NULL. */
struct tracee *tracees_find(pid_t tid);

/* A new entry for tid (tid must not be there): NULL if out of memory. Pointers returned
 * earlier are invalid after an add or a remove. */
struct tracee *tracees_add(pid_t tid, pid_t tgid, enum tracee_state state);

/* Forgets tid, if it was there. */
void tracees_remove(pid_t tid);

#endif
