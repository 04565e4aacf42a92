/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The next linkat() and syscall() in the symbol chain: libc's, or another preload's (such as
 * fakeroot) so that it still sees our calls.
 */
#ifndef FLINKSHIM_REAL_SYMS_H
#define FLINKSHIM_REAL_SYMS_H

/* Resolve them all now. Called from the library constructor; safe to call more than once. */
void real_syms_init(void);

/* Call the next linkat(). libc conventions: -1 and errno on failure. */
int real_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags);

/* The next syscall(), NULL until resolved. Read by syscall()'s assembly fast path on x86-64
 * (interpose.c); everyone else calls real_syscall6(). */
extern long (*flinkshim_next_syscall)(long, ...);

/* Call the next syscall() with all six argument registers. */
long real_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/* The calls the shim watches without changing them (shim/interpose/watched_calls.c). */
enum real_watched {
	REAL_UNSHARE,
	REAL_CLOSE_RANGE,
	REAL_CHROOT,
	REAL_MOUNT,
	REAL_UMOUNT,
	REAL_UMOUNT2,
	REAL_SETNS,
	REAL_WATCHED_COUNT
};

/* The next definition of one of them (libc's, or another preload's), resolved by
 * real_syms_init(); NULL where there is none, or while it cannot be asked (a call before the
 * constructor, during another resolution): the caller then makes the system call itself. */
void *real_watched(enum real_watched which);

#endif
