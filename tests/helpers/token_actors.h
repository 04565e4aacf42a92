/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The other actors that the spelling table's tokens name (tests/unit/procfd_cases.h), for the
 * programs that set them up for real: the spelling probe and the parity driver.
 *   {S}  a thread of ours that shares our fd table and only needs to exist;
 *   {X}  a thread of ours with a table of its own (unshare(CLONE_FILES)), where the fd slot
 *        under test is another file;
 *   {O}  another process, whose fd slot under test is another file.
 * The caller says how to put "another file" at a slot (fill): each program has its own
 * scratch directory and content.
 */
#ifndef FLINKSHIM_TESTS_TOKEN_ACTORS_H
#define FLINKSHIM_TESTS_TOKEN_ACTORS_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

/* Put a different file at fd slot of the calling task's table: 0, or -1 with errno. Called in
 * a forked child of a threaded process too: async-signal-safe calls only. */
typedef int (*token_fill_fn)(int slot);

/* The calling thread's tid, from the kernel (musl's gettid() is cached: wrong after vfork). */
long token_tid(void);

/* read() of exactly len bytes, through EINTR: 0, or -1 (error or end of file). */
int token_read_full(int fd, void *buf, size_t len);

struct token_thread {
	pthread_t th;
	int ready[2];
	int release[2];
	int slot;
	token_fill_fn own_table; /* NULL: {S}; else {X}, filling slot in its own table */
	long tid;
	int err; /* {X}: errno of unsharing or filling its table, 0 if it worked */
};

/* Start the thread and wait until it is ready (its tid known): 0, or -1 with errno if it
 * could not start. A thread whose own table could not be set up still starts, with err. */
int token_thread_start(struct token_thread *t, int slot, token_fill_fn own_table);
/* Release and join it, and close its pipes: 0, or -1 if it could not be told to end. */
int token_thread_stop(struct token_thread *t);

/* {O}: fork a child that fills slot and then waits to be killed (and dies with us). Its pid,
 * or -1 with errno (EIO: the child could not fill its slot). */
pid_t token_other_start(int slot, token_fill_fn fill);

#endif
