/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "config.h"
#include "procfd_owner.h"

#include "debug_log.h"
#include "proc_kind.h"
#include "procfd_classify.h"
#include "real_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KCMP_FILES
#define KCMP_FILES 2 /* <linux/kcmp.h> */
#endif

/* The kernel's answer, always: musl's gettid() returns the tid cached in the thread
 * descriptor, which a vfork child shares with its parent (glibc's asks the kernel). */
static long caller_tid(void)
{
#if defined(HAVE_GETTID) && defined(__GLIBC__)
	return gettid();
#else
	return real_syscall6(SYS_gettid, 0, 0, 0, 0, 0, 0);
#endif
}

/*
 * Syscalls are the cost of the rewrite path: here one costs as much as a fifth of the link
 * itself. The common spelling, /proc/self/fd/N, names the thread-group leader's table, and
 * in the leader that is the caller's own: no need to ask the kernel for ids. The leader is
 * recognised by its thread pointer, recorded at load time (when getpid() == gettid() says we
 * run on it). A fork or vfork child of the leader runs on a copy of that thread pointer and
 * is its own leader, so the shortcut holds there too. Any other thread takes the slow path.
 */
static pthread_t leader_thread;
static int leader_known;

void procfd_owner_init(void)
{
	if ((long)getpid() == caller_tid()) {
		leader_thread = pthread_self();
		__atomic_store_n(&leader_known, 1, __ATOMIC_RELEASE);
	}
}

static int running_on_leader(void)
{
	return __atomic_load_n(&leader_known, __ATOMIC_ACQUIRE) &&
	       pthread_equal(pthread_self(), leader_thread);
}

/*
 * Does every thread of the process share one fd table? pthread_create() always shares it, so
 * the tables part only through unshare(CLONE_FILES) or close_range(CLOSE_RANGE_UNSHARE), which
 * the shim watches (shim/interpose/watched_calls.c), or a clone() without CLONE_FILES. Once
 * such a call was seen, for good: a thread that took a table of its own keeps it.
 */
static int private_table_seen;

void procfd_owner_note_private_table(void)
{
	__atomic_store_n(&private_table_seen, 1, __ATOMIC_RELEASE);
}

enum table_answer { TABLE_OTHER, TABLE_SAME, TABLE_UNKNOWN };

/* kcmp(KCMP_FILES): 0 for one table, 1 to 3 for two (a zombie leader has none, so its
 * pointer differs too), -1 where kcmp cannot run: no CONFIG_KCMP, or a seccomp profile such
 * as Docker's default, which denies it without CAP_SYS_PTRACE. */
static enum table_answer kcmp_tables(long a, long b)
{
	int saved = errno;
	long r = real_syscall6(SYS_kcmp, a, b, KCMP_FILES, 0, 0, 0);

	errno = saved;
	if (r == 0)
		return TABLE_SAME;
	return r > 0 ? TABLE_OTHER : TABLE_UNKNOWN;
}

/*
 * Is the table of thread b (the leader, or a sibling the path names) the caller's, a? Where
 * kcmp cannot say, guessing "yes" is what links the wrong file: a thread that unshared its
 * table holds another file at the same number (review C4). So:
 *   - with procfs at /proc the kernel can answer the original call itself: pass it through;
 *   - without, the tables are one as long as no thread has taken a table of its own by the
 *     calls the shim sees; after such a call, not rewritten (the answer without the shim).
 * *why says why not, for the diagnostic.
 */
static int tables_shared(long a, long b, const char **why)
{
	switch (kcmp_tables(a, b)) {
	case TABLE_SAME:
		return 1;
	case TABLE_OTHER:
		*why = NULL; /* the caller's own words */
		return 0;
	case TABLE_UNKNOWN:
		break;
	}
	if (proc_kind_get() == PROC_KIND_PROCFS) {
		*why = "kcmp is not available to compare fd tables, and /proc is mounted: the "
		       "kernel answers the call itself";
		return 0;
	}
	if (__atomic_load_n(&private_table_seen, __ATOMIC_ACQUIRE)) {
		*why = "kcmp is not available to compare fd tables, and a thread of this process "
		       "has taken an fd table of its own (unshare or close_range)";
		return 0;
	}
	return 1;
}

int procfd_owner_leader_table_is_callers(void)
{
	long pid, tid;
	int saved = errno;
	int r;

	if (running_on_leader())
		return 1;
	pid = getpid();
	tid = caller_tid();
	errno = saved;
	if (pid == tid)
		return 1;
	/* The caller is about to use /proc/self itself: only kcmp's "other" or a table of
	 * one's own taken somewhere say no. */
	r = kcmp_tables(pid, tid);
	return r == TABLE_SAME ||
	       (r == TABLE_UNKNOWN && !__atomic_load_n(&private_table_seen, __ATOMIC_ACQUIRE));
}

/* procfs's names: decimal digits, no leading zero, at most INT_MAX. Returns the number, or -1
 * (never overflowing, whatever the bytes: a /proc that is not procfs may hold any link). */
static long proc_number(const char *s, size_t len)
{
	unsigned long long v = 0; /* 10 digits fit, even where long has 32 bits */
	size_t i;

	if (len == 0 || len > 10 || (len > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long long)(s[i] - '0');
	}
	return v <= INT_MAX ? (long)v : -1;
}

/* The target of /proc/thread-self, "<pid>/task/<tid>". 0 and both numbers, or -1. */
static int parse_thread_self(const char *s, size_t n, long *pid, long *tid)
{
	static const char mid[] = "/task/";
	size_t i, j;

	for (i = 0; i < n && s[i] != '/'; i++)
		;
	if (n - i < sizeof(mid) || __builtin_memcmp(s + i, mid, sizeof(mid) - 1) != 0)
		return -1;
	j = i + sizeof(mid) - 1;
	*pid = proc_number(s, i);
	*tid = proc_number(s + j, n - j);
	return *pid < 0 || *tid < 0 ? -1 : 0;
}

/*
 * A pid or tid in a path is read in the pid namespace of the procfs mounted at /proc. Without
 * procfs, the program meant a /proc of its own namespace, where getpid() and gettid() are its
 * numbers. But a process in a new pid namespace that kept its parent's /proc sees other
 * numbers there: /proc/<getpid()> is then some other process. /proc/thread-self tells which
 * namespace it is, both numbers at once ("<pid>/task/<tid>"): the pid alone can match by
 * coincidence while the tids differ (review S5). Linux 3.11 to 3.16 have no
 * /proc/thread-self: there the pid alone. No /proc/self at all in a procfs means one of a
 * namespace we are not in: nothing there is ours.
 */
static int proc_numbers_are_ours(long pid, long tid)
{
	char buf[32];
	int saved = errno;
	ssize_t n;
	long p, t;

	if (proc_kind_get() != PROC_KIND_PROCFS)
		return 1;
	n = readlink("/proc/thread-self", buf, sizeof(buf));
	if (n > 0 && n < (ssize_t)sizeof(buf)) {
		errno = saved;
		return parse_thread_self(buf, (size_t)n, &p, &t) == 0 && p == pid && t == tid;
	}
	n = readlink("/proc/self", buf, sizeof(buf));
	errno = saved;
	return n > 0 && n < (ssize_t)sizeof(buf) && proc_number(buf, (size_t)n) == pid;
}

/* /dev/fd and /dev/std* are made by whoever populated /dev. Only a link to /proc/self/fd
 * means what the program thinks; if it is missing, the kernel's ENOENT is the right answer.
 * Read at every call, never remembered: chroot(), setns() or a mount can put another /dev
 * under a running program (review C5), and these spellings are rare enough to pay the one
 * readlink. */
static int dev_link_is_standard(enum procfd_via via)
{
	static const char *const links[][2] = {
		[PROCFD_VIA_DEV_FD] = { "/dev/fd", "/proc/self/fd" },
		[PROCFD_VIA_DEV_STDIN] = { "/dev/stdin", "/proc/self/fd/0" },
		[PROCFD_VIA_DEV_STDOUT] = { "/dev/stdout", "/proc/self/fd/1" },
		[PROCFD_VIA_DEV_STDERR] = { "/dev/stderr", "/proc/self/fd/2" },
	};
	char target[32];
	const char *want = links[via][1];
	int saved = errno;
	ssize_t n = readlink(links[via][0], target, sizeof(target));
	ssize_t i;

	errno = saved;
	for (i = 0; i < n; i++)
		if (want[i] != target[i])
			return 0;
	return n > 0 && want[n] == '\0';
}

/*
 * Where /proc is a directory of another filesystem with entries (a chroot's, say), the path
 * may name a real file, which the kernel links (review C13). Anything it names, or any error
 * but "not there", is the kernel's to answer; only a path that leads nowhere, as with /proc
 * hidden, is ours. One fstatat, and only for such a /proc.
 */
static int path_names_something(const char *oldpath)
{
	struct stat st;
	int saved = errno;
	int r = fstatat(AT_FDCWD, oldpath, &st, 0) == 0 || (errno != ENOENT && errno != ENOTDIR);

	errno = saved;
	return r;
}

/* The classifier's question (procfd_in_group_fn): is n a thread of our group? tgkill() with
 * signal 0 checks exactly that, and sends nothing: ESRCH for any other number. */
static int in_our_group(long n, void *pid)
{
	int saved = errno;
	long r = real_syscall6(SYS_tgkill, *(long *)pid, n, 0, 0, 0, 0);

	errno = saved;
	return r == 0;
}

static void log_not_ours(const char *caller, const char *oldpath, const char *why)
{
	struct debug_line l;

	debug_line_start(&l);
	debug_line_str(&l, caller);
	debug_line_str(&l, " ");
	debug_line_str(&l, oldpath);
	debug_line_str(&l, ": not rewritten: ");
	debug_line_str(&l, why);
	debug_line_emit(&l);
}

int procfd_own_fd(const char *oldpath, int *fd, const char *caller)
{
	struct procfd_ref ref;
	long pid = 0;
	long tid = 0;
	long thread = 0;
	enum procfd_owner owner;
	const char *why; /* set by tables_shared() whenever it says no */

	if (procfd_parse(oldpath, &ref) != 0)
		return 0;
	if (ref.via != PROCFD_VIA_PROC && !dev_link_is_standard(ref.via)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath, "the /dev link does not point to /proc/self/fd");
		return 0;
	}
	if (proc_kind_is_other() && path_names_something(oldpath)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     "/proc is not procfs here, and the path names something in it: "
				     "the kernel links that");
		return 0;
	}
	if (procfd_is_plain_self(&ref) && running_on_leader()) {
		*fd = ref.fd; /* /proc/self/fd/N in the leader: the fast path */
		return 1;
	}
	if (procfd_needs_ids(&ref)) {
		pid = getpid();
		tid = caller_tid();
	}
	owner = procfd_resolve_group(&ref, pid, tid, in_our_group, &pid, &thread);
	if (owner != PROCFD_NOT_OURS && procfd_has_numbers(&ref) &&
	    !proc_numbers_are_ours(pid, tid)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     "/proc belongs to another pid namespace: its numbers are not ours");
		return 0;
	}
	if (owner == PROCFD_LEADER && pid != tid && !tables_shared(tid, pid, &why)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     why != NULL ? why
						 : "the leader's fd table is not this thread's (CLONE_FILES "
						   "unshared, or the main thread has exited)");
		return 0;
	}
	if (owner == PROCFD_THREAD && !tables_shared(tid, thread, &why)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     why != NULL ? why
						 : "names another thread's fd table, not this thread's "
						   "(CLONE_FILES unshared)");
		return 0;
	}
	if (owner == PROCFD_NOT_OURS) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath, "names another process's or thread's fds");
		return 0;
	}
	*fd = ref.fd;
	return 1;
}
