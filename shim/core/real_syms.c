/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One pointer per symbol, published once with an atomic store; no lock anywhere, so a call
 * from a signal handler, a fork child or a vfork child never waits.
 *
 * The constructor resolves every pointer. A call that arrives before it (from another
 * library's constructor) resolves lazily. dlsym() may itself call malloc(), and a malloc
 * preload may call syscall(): such a call re-enters while we are inside dlsym(). It must not
 * wait and must not recurse, so while any resolution is in progress, calls use the raw
 * syscall. If dlsym() finds nothing, the raw syscall is used for good, rather than exiting.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "real_syms.h"

#include "export.h"
#include "raw_syscall.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/syscall.h>

typedef int (*linkat_fn)(int, const char *, int, const char *, int);
typedef long (*syscall_fn)(long, ...);

static linkat_fn next_linkat;
/* Not static: interpose.c's syscall() reads it from assembly (hidden: never exported). */
FLINKSHIM_HIDDEN syscall_fn flinkshim_next_syscall;
#define next_syscall flinkshim_next_syscall
static int resolving;

static int raw_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
		      int flags)
{
	return (int)raw_syscall_errno(raw_syscall6(SYS_linkat, olddirfd, (long)oldpath, newdirfd,
						   (long)newpath, flags, 0));
}

static long raw_syscall_variadic(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return raw_syscall_errno(raw_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
}

/* Returns 1 if this thread now owns the resolution, 0 if another one is in progress. */
static int begin_resolving(void)
{
	return __atomic_exchange_n(&resolving, 1, __ATOMIC_ACQ_REL) == 0;
}

static void end_resolving(void)
{
	__atomic_store_n(&resolving, 0, __ATOMIC_RELEASE);
}

/* dlsym() may set the dlerror state and errno: neither is the caller's business. */
static void *lookup(const char *name)
{
	int saved = errno;
	void *sym = dlsym(RTLD_NEXT, name);

	errno = saved;
	return sym;
}

/*
 * The slow paths are functions of their own, kept out of line: then the fast path that every
 * call takes (one load, one test, one jump) needs no stack frame, and real_linkat() compiles
 * to a tail jump instead of saving and restoring its five arguments around a call.
 */
__attribute__((noinline, cold)) static linkat_fn resolve_linkat(void)
{
	linkat_fn f;

	if (!begin_resolving())
		return raw_linkat;
	f = (linkat_fn)lookup("linkat");
	if (f == NULL)
		f = raw_linkat;
	__atomic_store_n(&next_linkat, f, __ATOMIC_RELEASE);
	end_resolving();
	return f;
}

__attribute__((noinline, cold)) static syscall_fn resolve_syscall(void)
{
	syscall_fn f;

	if (!begin_resolving())
		return raw_syscall_variadic;
	f = (syscall_fn)lookup("syscall");
	if (f == NULL)
		f = raw_syscall_variadic;
	__atomic_store_n(&next_syscall, f, __ATOMIC_RELEASE);
	end_resolving();
	return f;
}

static inline linkat_fn get_linkat(void)
{
	linkat_fn f = __atomic_load_n(&next_linkat, __ATOMIC_ACQUIRE);

	if (__builtin_expect(f != NULL, 1))
		return f;
	return resolve_linkat();
}

static inline syscall_fn get_syscall(void)
{
	syscall_fn f = __atomic_load_n(&next_syscall, __ATOMIC_ACQUIRE);

	if (__builtin_expect(f != NULL, 1))
		return f;
	return resolve_syscall();
}

static const char *const watched_names[REAL_WATCHED_COUNT] = {
	[REAL_UNSHARE] = "unshare", [REAL_CLOSE_RANGE] = "close_range", [REAL_CHROOT] = "chroot",
	[REAL_MOUNT] = "mount",	    [REAL_UMOUNT] = "umount",		[REAL_UMOUNT2] = "umount2",
	[REAL_SETNS] = "setns",
};
/* NULL: not resolved yet; &no_definition: resolved, none found. */
static void *watched[REAL_WATCHED_COUNT];
static char no_definition;

__attribute__((noinline, cold)) static void *resolve_watched(enum real_watched which)
{
	void *f;

	if (!begin_resolving())
		return NULL;
	f = lookup(watched_names[which]);
	__atomic_store_n(&watched[which], f != NULL ? f : (void *)&no_definition, __ATOMIC_RELEASE);
	end_resolving();
	return f;
}

void *real_watched(enum real_watched which)
{
	void *f = __atomic_load_n(&watched[which], __ATOMIC_ACQUIRE);

	if (__builtin_expect(f == NULL, 0))
		return resolve_watched(which);
	return f == (void *)&no_definition ? NULL : f;
}

void real_syms_init(void)
{
	int i;

	(void)get_linkat();
	(void)get_syscall();
	for (i = 0; i < REAL_WATCHED_COUNT; i++)
		(void)real_watched((enum real_watched)i);
}

int real_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	return get_linkat()(olddirfd, oldpath, newdirfd, newpath, flags);
}

long real_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	return get_syscall()(nr, a1, a2, a3, a4, a5, a6);
}
