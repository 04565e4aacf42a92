/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What /proc is here. The rewrite is right only where the kernel would resolve the program's
 * /proc path to the caller's own fd, or to nothing at all: a /proc that is a plain directory
 * (a chroot's, say) may hold a real file at self/fd/N, which the native call links.
 */
#ifndef FLINKSHIM_PROC_KIND_H
#define FLINKSHIM_PROC_KIND_H

#include "export.h"

/* Bit 0 set: measured, and no path under /proc needs a look (the rewrite's fast test). */
enum proc_kind {
	PROC_KIND_PROCFS = 1, /* procfs: its links resolve as the classifier models them */
	PROC_KIND_OTHER = 2,  /* a directory of another filesystem, with entries: a path under
				 it may name a real file, so each one must be looked up */
	PROC_KIND_NONE = 3    /* missing, not a directory, or an empty directory: no path under
				 it resolves (the case the shim exists for) */
};

/* The kind and a generation (proc_kind.c); read inline, as the rewrite's fast path asks. */
extern FLINKSHIM_HIDDEN unsigned long flinkshim_proc_kind_word;
enum proc_kind proc_kind_measure(unsigned long seen);

/* The kind, measured on first use and remembered until proc_kind_forget(). */
static inline enum proc_kind proc_kind_get(void)
{
	unsigned long w = __atomic_load_n(&flinkshim_proc_kind_word, __ATOMIC_ACQUIRE);

	if (__builtin_expect((w & 3UL) != 0, 1))
		return (enum proc_kind)(w & 3UL);
	return proc_kind_measure(w);
}

/* Is /proc PROC_KIND_OTHER? One load and one bit test when it is known not to be. */
static inline int proc_kind_is_other(void)
{
	if (__builtin_expect((__atomic_load_n(&flinkshim_proc_kind_word, __ATOMIC_ACQUIRE) & 1UL) != 0,
			     1))
		return 0;
	return proc_kind_get() == PROC_KIND_OTHER;
}

/* What /proc is may have changed (chroot, mount, umount, setns, unshare of the mount
 * namespace): measure again before the next use. Async-signal-safe; errno untouched. */
void proc_kind_forget(void);

#endif
