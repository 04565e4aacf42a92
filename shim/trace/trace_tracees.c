/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An open-addressing hash table with linear probing, grown by doubling. Removal shifts the
 * following entries back (no tombstones), so a build that starts hundreds of thousands of
 * short processes keeps the table as small as the number alive at once, plus the GONE marks:
 * one per tracee that died before its parent's event, until the event comes (it never does
 * when the parent was killed inside the call), and one per child flinkshim never traced.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "trace_tracees.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct tracee *slots;
static size_t nslots; /* a power of two, or 0 */
static size_t used;
static size_t alive;

static int is_alive(enum tracee_state s)
{
	return s != TRACEE_GONE;
}

static size_t home(pid_t tid)
{
	/* Thread ids are allocated in sequence: a multiplicative hash spreads them. */
	return (size_t)(((unsigned long)tid * 2654435761UL) & (nslots - 1));
}

struct tracee *tracees_find(pid_t tid)
{
	size_t i;

	if (nslots == 0)
		return NULL;
	for (i = home(tid); slots[i].tid != 0; i = (i + 1) & (nslots - 1))
		if (slots[i].tid == tid)
			return &slots[i];
	return NULL;
}

static struct tracee *insert(const struct tracee *t)
{
	size_t i = home(t->tid);

	while (slots[i].tid != 0)
		i = (i + 1) & (nslots - 1);
	slots[i] = *t;
	used++;
	return &slots[i];
}

static int grow(void)
{
	struct tracee *old = slots;
	size_t oldn = nslots;
	size_t i;

	nslots = oldn == 0 ? 64 : oldn * 2;
	slots = calloc(nslots, sizeof(*slots));
	if (slots == NULL) {
		slots = old;
		nslots = oldn;
		return -1;
	}
	used = 0;
	for (i = 0; i < oldn; i++)
		if (old[i].tid != 0)
			insert(&old[i]);
	free(old);
	return 0;
}

struct tracee *tracees_add(pid_t tid, pid_t tgid, enum tracee_state state)
{
	struct tracee t;

	/* At most half full, so that probes stay short. */
	if ((used + 1) * 2 > nslots && grow() != 0)
		return NULL;
	memset(&t, 0, sizeof(t));
	t.tid = tid;
	t.tgid = tgid;
	t.state = state;
	alive += is_alive(state);
	return insert(&t);
}

void tracees_set_state(struct tracee *t, enum tracee_state state)
{
	alive += (size_t)is_alive(state) - (size_t)is_alive(t->state);
	t->state = state;
}

size_t tracees_alive(void)
{
	return alive;
}

void tracees_each_leader(void (*fn)(struct tracee *t, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < nslots; i++)
		if (slots[i].tid != 0 && slots[i].tid == slots[i].tgid && is_alive(slots[i].state))
			fn(&slots[i], arg);
}

void tracees_forget_vanished(void)
{
	size_t i = 0;

	while (i < nslots) {
		struct tracee *t = &slots[i];

		/* tgkill() finds a thread until it is reaped, exited or not. */
		if (t->tid != 0 && is_alive(t->state) &&
		    syscall(SYS_tgkill, (long)(t->tgid > 0 ? t->tgid : t->tid), (long)t->tid, 0L) != 0 &&
		    errno == ESRCH) {
			tracees_remove(t->tid); /* shifts a later entry into slot i: look again */
			continue;
		}
		i++;
	}
}

pid_t tracees_group_of(pid_t tid)
{
	size_t i;

	for (i = 0; i < nslots; i++) {
		pid_t g = slots[i].tid;

		if (g != 0 && g == slots[i].tgid && is_alive(slots[i].state) &&
		    (syscall(SYS_tgkill, (long)g, (long)tid, 0L) == 0 || errno == EPERM))
			return g;
	}
	return -1;
}

void tracees_remove(pid_t tid)
{
	struct tracee *t = tracees_find(tid);
	size_t hole, i;

	if (t == NULL)
		return;
	alive -= is_alive(t->state);
	free(t->call);
	hole = (size_t)(t - slots);
	slots[hole].tid = 0;
	used--;
	/* Move back every following entry of the run that may not stay behind the hole. */
	for (i = (hole + 1) & (nslots - 1); slots[i].tid != 0; i = (i + 1) & (nslots - 1)) {
		size_t h = home(slots[i].tid);

		/* The entry may fill the hole if its home is not within (hole, i]. */
		if (hole < i ? (h <= hole || h > i) : (h <= hole && h > i)) {
			slots[hole] = slots[i];
			slots[i].tid = 0;
			hole = i;
		}
	}
}
