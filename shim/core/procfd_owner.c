/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE 1
#include "config.h"
#include "procfd_owner.h"

#include "debug_log.h"
#include "procfd_classify.h"
#include "real_syms.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
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
 * /proc/self is the thread-group leader, whose fd table is the caller's unless the caller
 * unshared CLONE_FILES, or the leader has exited (its table is gone: /proc/self/fd is empty).
 * kcmp() tells. Where kcmp is unavailable (CONFIG_KCMP off, or a seccomp profile such as
 * Docker's default denies it), assume the shared table every ordinary thread has.
 */
static int leader_table_is_ours(long pid, long tid)
{
	int saved = errno;
	long r = real_syscall6(SYS_kcmp, pid, tid, KCMP_FILES, 0, 0, 0);

	errno = saved;
	return r <= 0;
}

/*
 * A pid in a path is read in the pid namespace of the procfs mounted at /proc. When /proc is
 * hidden, the program meant a /proc of its own namespace, where getpid() is its number. But a
 * process in a new pid namespace that kept its parent's /proc sees other numbers there:
 * /proc/<getpid()> is then some other process. /proc/self tells which namespace it is.
 */
#define PROC_SUPER_MAGIC_VALUE 0x9fa0

static int proc_numbers_are_ours(long pid)
{
	char buf[24];
	int saved = errno;
	ssize_t n = readlink("/proc/self", buf, sizeof(buf));
	struct statfs sfs;
	long v = 0;
	ssize_t i;

	if (n <= 0) {
		/* No /proc/self: no procfs at all (the question is then about a /proc of our own
		 * namespace), or a procfs of a namespace we are not in (nothing there is ours). */
		int procfs = statfs("/proc", &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC_VALUE;

		errno = saved;
		return !procfs;
	}
	errno = saved;
	for (i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return 0;
		v = v * 10 + (buf[i] - '0');
	}
	return n < (ssize_t)sizeof(buf) && v == pid;
}

/* /dev/fd and /dev/std* are made by whoever populated /dev. Only a link to /proc/self/fd
 * means what the program thinks; if it is missing, the kernel's ENOENT is the right answer.
 * A link found right is remembered: /dev is not rebuilt under a running program. */
static int read_dev_link_is_standard(enum procfd_via via)
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

static int dev_link_seen_standard[PROCFD_VIA_DEV_STDERR + 1];

static int dev_link_is_standard(enum procfd_via via)
{
	if (__atomic_load_n(&dev_link_seen_standard[via], __ATOMIC_RELAXED))
		return 1;
	if (!read_dev_link_is_standard(via))
		return 0;
	__atomic_store_n(&dev_link_seen_standard[via], 1, __ATOMIC_RELAXED);
	return 1;
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

/* Does thread n use the caller's fd table? Only kcmp() can say; where it cannot (no
 * CONFIG_KCMP, a seccomp profile), the answer is no: the path then goes to the kernel as it
 * is, which is what the program got before this rewrite existed. */
static int thread_shares_table(long tid, long n)
{
	int saved = errno;
	long r = real_syscall6(SYS_kcmp, tid, n, KCMP_FILES, 0, 0, 0);

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

	if (procfd_parse(oldpath, &ref) != 0)
		return 0;
	if (ref.via != PROCFD_VIA_PROC && !dev_link_is_standard(ref.via)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath, "the /dev link does not point to /proc/self/fd");
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
	if (owner != PROCFD_NOT_OURS && procfd_has_numbers(&ref) && !proc_numbers_are_ours(pid)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     "/proc belongs to another pid namespace: its numbers are not ours");
		return 0;
	}
	if (owner == PROCFD_LEADER && pid != tid && !leader_table_is_ours(pid, tid)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     "the leader's fd table is not this thread's (CLONE_FILES "
				     "unshared, or the main thread has exited)");
		return 0;
	}
	if (owner == PROCFD_THREAD && !thread_shares_table(tid, thread)) {
		if (debug_log_enabled())
			log_not_ours(caller, oldpath,
				     "names another thread's fd table, not this thread's (CLONE_FILES "
				     "unshared, or kcmp unavailable)");
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
